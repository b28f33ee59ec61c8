"""The anticipation search: the problems and game positions of a corpus most like a problem.

Two kinds of likeness are measured, each from 0 to 1, and a match's score is the higher:

- **position**: the pieces the problem's start and the other position have in common, over
  the pieces in either (the Jaccard index), under the best legal shift with colours reversed or
  not (``geometry``). 1 is the same position; a piece added or missing to a problem of ten
  pieces gives 10/11 or 9/10. Problems are compared by their start, games by every position.
- **final combination**: the share of the problem's final phase (``combination``) that the
  other line plays, from a position holding the phase's pattern, under the same moves of the
  board; 1 when it plays all of it. A pattern of fewer than ``COMBINATION_PIECES`` pieces is a
  motif many games have, not an anticipation: its score is scaled by the square of its pieces
  over that (a shot of four pieces, one man given for two, 0.64; an exchange of three, 0.36,
  is not reported).

``POSSIBLE_ANTICIPATION`` is the score from which a match means "the same position, but for a
piece or two" or "the same final combination": a jury's claim of anticipation may start there,
and the site may call an earlier-dated match a possible anticipation. Below ``REPORTED`` a
position shares less than it differs in, and nothing is reported.

Only problems and games of the problem's variant are compared (a Frisian problem's predecessor
is a Frisian problem: the same pieces make another combination under other capture rules), and
a problem is never its own match: neither the game it is (its file and line) nor a copy of it in
its own collection (a companion file that repeats a contest's entries).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rulebook_build.similar.combination import SOLVER_PLIES, FinalCombination, final_combination
from rulebook_build.similar.geometry import (
    KINDS,
    SQUARE_MAP,
    Masks,
    Shift,
    Transform,
    absolute_map,
    legal_shifts,
    squares,
)
from rulebook_build.similar.index import (
    Collection,
    Index,
    IndexedFile,
    common,
    count,
    exactly,
    members,
    posting,
)
from rulebook_build.similar.records import FileRecord, Item, Step
from rulebook_build.similar.words import Change, Reason, describe

POSSIBLE_ANTICIPATION: Final = 0.8
"""From this score on a match is the same position but for a piece or two (8 of 10 pieces in
common, or 10 with two more), or the same final combination: a possible anticipation, which the
jury weighs."""
REPORTED: Final = 0.4
"""Matches scoring less are not reported."""
COMBINATION_PIECES: Final = 5
"""A final combination's pattern counts in full from this many pieces on; a smaller one is
scaled down: an exchange (three pieces) or a shot of one man for two (four) is played in many
games, a phase of five pieces or more is a problem's own (the count over the conformance set's
games is in benchmarks/README.md)."""
DEFAULT_LIMIT: Final = 10
"""The matches reported per problem unless told otherwise."""


@dataclass(frozen=True, slots=True)
class Query:
    """A problem to look for: its place and name, its start in the mover's frame, its final
    combination, and the corpus entries that are the problem itself (never its own match)."""

    source: str
    event: str | None
    variant: str
    masks: Masks
    turned: bool
    combination: FinalCombination | None
    itself: int


@dataclass(frozen=True, slots=True)
class Match:
    """One problem or game position like the query, as ``rulebook similar`` reports it."""

    source: str
    collection: str | None
    event: str | None
    composer: str | None
    published: str | None
    move: int | None
    score: float
    transform: str
    reason: str
    kind: str
    """``position`` or ``combination``: which likeness gave the score."""
    about: Reason
    """The reason as data, for saying it in another language (``words.describe``)."""

    def as_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "collection": self.collection,
            "event": self.event,
            "composer": self.composer,
            "published": self.published,
            "move": self.move,
            "score": self.score,
            "transform": self.transform,
            "reason": self.reason,
        }

    @property
    def anticipation(self) -> bool:
        """Whether the score says the same position or the same final combination."""
        return self.score >= POSSIBLE_ANTICIPATION


def queries(index: Index, source: str, record: FileRecord, collection: Collection) -> list[Query]:
    """The problems of a file read for a search (``index.record_of``), as queries against
    ``index``; ``source`` is the file as named."""
    resolved = str(Path(source).resolve())
    found: list[Query] = []
    for item in record.items:
        if not item.problem:
            continue
        itself = 0
        same = (
            index.by_place.get((resolved, item.line)),
            index.by_content.get((collection.key, item.content)),
        )
        for number in same:
            if number is not None:
                itself |= index.item_entries(number)
        turned = bool(record.entry_turned[item.first_entry])
        found.append(
            Query(
                f"{source}:{item.line}",
                item.tag("Event"),
                item.variant,
                record.entry_masks(item.first_entry),
                turned,
                final_combination(record, item),
                itself,
            )
        )
    return found


@dataclass(frozen=True, slots=True)
class _Found:
    score: float
    kind: str
    entry: int
    shift: Shift
    common: int
    """Position: pieces in common. Combination: moves played."""
    moved: Masks
    """The query's start or pattern moved by ``shift``, in the found entry's frame."""


def search(index: Index, query: Query, limit: int = DEFAULT_LIMIT) -> list[Match]:
    """The ``limit`` best matches of ``query`` in ``index``, best first (ties: in corpus order)."""
    if limit <= 0:
        return []
    within = index.bits(f"v:{query.variant}") & ~index.hidden & ~query.itself
    best: dict[int, _Found] = {}
    for item, found in _positions(index, query, within, limit).items():
        best[item] = found
    if query.combination is not None:
        for item, found in _combinations(index, query.combination, within).items():
            if item not in best or found.score > best[item].score:
                best[item] = found
    ranked = sorted(best.items(), key=lambda pair: (-pair[1].score, pair[1].entry))[:limit]
    return [_match(index, query, number, found) for number, found in ranked]


def _item_of(index: Index, entry: int) -> tuple[int, IndexedFile, int]:
    """The corpus item number of an entry, its file, and the entry's number in the file."""
    found, local = index.locate(entry)
    return found.first_item + found.record.entry_item[local], found, local


def _positions(index: Index, query: Query, within: int, limit: int) -> dict[int, _Found]:
    """The best position match of each item: levels of pieces in common from all down, every
    legal shift at each level, until no lower level can beat the ``limit`` best found."""
    total = sum(mask.bit_count() for mask in query.masks)
    if total == 0:
        return {}
    within &= index.bits("positions")
    counted = [
        (
            shift,
            moved,
            count(
                index.bits(posting(kind, square))
                for kind, mask in enumerate(moved)
                for square in squares(mask)
            ),
        )
        for shift, moved in legal_shifts(query.masks)
    ]
    best: dict[int, _Found] = {}
    for level in range(total, 0, -1):
        ceiling = level / total  # the best score an entry with ``level`` in common can have
        scores = sorted((found.score for found in best.values()), reverse=True)
        bar = scores[limit - 1] if len(scores) >= limit else REPORTED
        if ceiling < REPORTED or (len(scores) >= limit and ceiling < bar):
            break
        # score = level / (total + size - level) >= bar  <=>  size <= level / bar + level - total
        allowed = within & index.at_most(math.floor(level / bar + level - total + 1e-9))
        for shift, moved, planes in counted:
            for entry in members(exactly(planes, level, allowed)):
                number, found, local = _item_of(index, entry)
                size = sum(mask.bit_count() for mask in found.record.entry_masks(local))
                score = level / (total + size - level)
                if score >= REPORTED and (number not in best or score > best[number].score):
                    best[number] = _Found(score, "position", entry, shift, level, moved)
    return best


def _combinations(
    index: Index, combination: FinalCombination, within: int, floor: float = REPORTED
) -> dict[int, _Found]:
    """The best final-combination match of each item scoring ``floor`` or more: every legal
    shift of the pattern, the entries holding it, and how far each plays the phase's moves."""
    phase = len(combination.moves)
    weight = min(1.0, (combination.pieces / COMBINATION_PIECES) ** 2)
    needed = min(SOLVER_PLIES, phase)
    best: dict[int, _Found] = {}
    if weight < floor:  # nothing it finds could be reported
        return best
    for shift, moved in legal_shifts(combination.pattern):
        if not _moves_fit(combination, shift):
            continue
        holding = common(
            [
                index.bits(posting(kind, square))
                for kind, mask in enumerate(moved)
                for square in squares(mask)
            ],
            within,
        )
        tables: dict[bool, tuple[int, ...]] = {}
        for entry in members(holding):
            number, found, local = _item_of(index, entry)
            record = found.record
            item = record.items[record.entry_item[local]]
            turned = bool(record.entry_turned[local])
            if turned not in tables:
                tables[turned] = absolute_map(shift, combination.turned, turned)
            played = phase_played(
                combination.moves, item.moves[local - item.first_entry :], tables[turned]
            )
            if played < needed:
                continue
            score = played / phase * weight
            if score >= floor and (number not in best or score > best[number].score):
                best[number] = _Found(score, "combination", entry, shift, played, moved)
    return best


def _moves_fit(combination: FinalCombination, shift: Shift) -> bool:
    """Whether every square the phase's moves pass stays on the board under ``shift``."""
    table = SQUARE_MAP[shift]
    for origin, target, captured in combination.moves:
        for square in (origin, target, *captured):
            if table[51 - square if combination.turned else square] == 0:
                return False
    return True


def _moved(step: Step, table: tuple[int, ...]) -> Step:
    origin, target, captured = step
    return (table[origin], table[target], tuple(sorted(table[square] for square in captured)))


def phase_played(phase: tuple[Step, ...], line: tuple[Step, ...], table: tuple[int, ...]) -> int:
    """How many of the phase's moves (moved by ``table``) the line plays, in order; -1 when it
    plays another move before its end."""
    for played, step in enumerate(phase):
        if played >= len(line):
            return played
        if _moved(step, table) != line[played]:
            return -1
    return len(phase)


# --- what a match says ----------------------------------------------------------------------


def _match(index: Index, query: Query, number: int, found: _Found) -> Match:
    indexed, item = index.item(number)
    _number, _file, local = _item_of(index, found.entry)
    record = indexed.record
    turned = bool(record.entry_turned[local])
    frame = query.turned
    if found.kind == "combination" and query.combination is not None:
        frame = query.combination.turned
    transform = Transform.between(found.shift, frame, turned)
    ply = local - item.first_entry
    if found.kind == "position":
        about = _position_reason(
            query, found, record.entry_masks(local), turned, transform, item.problem
        )
    else:
        about = _combination_reason(query, found, item, ply, transform)
    collection = indexed.collection
    start_turned = bool(record.entry_turned[item.first_entry])
    return Match(
        source=f"{indexed.source}:{item.line}",
        collection=collection.title,
        event=item.tag("Event"),
        composer=item.tag(collection.composer_tag) if item.problem else None,
        published=_published(item, collection),
        move=None if item.problem else item.move_number(ply, start_turned),
        score=round(found.score, 4),
        transform=transform.code,
        reason=describe(about, "en"),
        kind=found.kind,
        about=about,
    )


def _published(item: Item, collection: Collection) -> str | None:
    """Where or when it was published: the collection's publication tag, else a date the game
    gives, else the collection's date."""
    if item.problem:
        where = item.tag(collection.publication_tag)
        if where is not None:
            return where
    date = item.tag("Date")
    if date is not None and any(character.isdigit() for character in date):
        return date
    return collection.date


COLOURS: Final = ("white", "black")


def _position_reason(
    query: Query, found: _Found, masks: Masks, turned: bool, transform: Transform, problem: bool
) -> Reason:
    """``same position, shifted two columns left; one black man fewer``."""
    moved = found.moved
    changes: list[Change] = []
    for more in (False, True):
        for kind in range(4):
            mine = masks[kind] & ~moved[kind] if more else moved[kind] & ~masks[kind]
            number = mine.bit_count()
            if number:
                colour = COLOURS[(kind >= 2) != turned]
                changes.append(Change(number, colour, KINDS[kind], more))
    return Reason(
        "position",
        transform.reversed,
        transform.mirror,
        transform.rows,
        transform.columns,
        changes=tuple(changes),
        common=found.common,
        total=sum(mask.bit_count() for mask in query.masks),
        size=sum(mask.bit_count() for mask in masks),
        problem=problem,
    )


def _combination_reason(
    query: Query, found: _Found, item: Item, ply: int, transform: Transform
) -> Reason:
    """``same final combination, shifted one column left: 27-21 16x27 31x4``."""
    played = item.moves[ply : ply + found.common]
    pieces = query.combination.pieces if query.combination is not None else 0
    return Reason(
        "combination",
        transform.reversed,
        transform.mirror,
        transform.rows,
        transform.columns,
        common=found.common,
        total=len(query.combination.moves) if query.combination is not None else found.common,
        moves=tuple(
            f"{origin}{'x' if captured else '-'}{target}" for origin, target, captured in played
        ),
        pieces=pieces,
        small=pieces < COMBINATION_PIECES,
    )
