"""What the search keeps of a PDN file: its problems and games, each a line of positions.

A file is read once (``read_file``) into a :class:`FileRecord`: every problem (a game with a
``FEN`` tag) and every game of a variant this program plays, each with its main line replayed
against the rules (variations, comments and NAGs left out: the composer's solution is the main
line) and every position of that line in the mover's frame (``geometry.frame_of``), one
*entry* a position. The entries of a file are numbered from 0; the index numbers them again
across the corpus.

A record holds only numbers and the games' tags, so it can be kept in the cache
(``cache.py``) and read back without the PDN file.

What cannot be read is reported as it is by ``rulebook check``: a PDN syntax error or a bad FEN
tag is an :class:`~rulebook_build.errors.RulebookError` of the record (``errors``), located in
the file; an illegal move ends the line there, with a located warning (``warnings``): the
positions before it are still searched.
"""

from __future__ import annotations

import hashlib
from array import array
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from rulebook_build.errors import RulebookError
from rulebook_build.notation import (
    MoveText,
    PdnGame,
    PdnMove,
    Setup,
    candidate_moves,
    default_variant,
    game_variant,
    read_pdn_file,
    start_position,
)
from rulebook_build.notation import replay_game as replay
from rulebook_build.rules import Move, Position, Variant
from rulebook_build.similar.geometry import Masks, frame_of

Step = tuple[int, int, tuple[int, ...]]
"""A move on the real board: origin, destination, captured squares ascending (a move's
identity, KNDB art. 4 / Fries Spel art. 13: two routes over the same pieces are one move)."""


def step_of(move: Move) -> Step:
    return (move.origin, move.destination, tuple(sorted(move.captured)))


@dataclass(frozen=True, slots=True)
class Item:
    """One problem or game of a file: where it begins, its tags, and its main line.

    Its positions are the entries ``first_entry`` to ``first_entry + len(moves)`` of its file:
    the start, then the position after each move.
    """

    line: int
    problem: bool
    variant: str
    tags: tuple[tuple[str, str], ...]
    moves: tuple[Step, ...]
    first_number: int
    """The number of the first move of the main line (1 unless the game says otherwise)."""
    first_entry: int
    content: str
    """A digest of the variant, the start and the main line: two copies of one problem (a
    companion file that repeats a contest's entries) have the same."""

    def tag(self, name: str) -> str | None:
        """The value of tag ``name`` (case-insensitive), stripped, or None when it is empty."""
        wanted = name.lower()
        for key, value in self.tags:
            if key.lower() == wanted:
                return value.strip() or None
        return None

    def move_number(self, ply: int, start_turned: bool) -> int:
        """The number of the move played from the position ``ply`` moves into the line."""
        return self.first_number + (ply + (1 if start_turned else 0)) // 2


@dataclass(frozen=True, slots=True)
class Fault:
    """Where an error or warning is, so it can be located again under another name of the
    file: line, column, message, the source line."""

    line: int | None
    column: int | None
    message: str
    source_line: str | None

    @classmethod
    def of(cls, error: RulebookError) -> Fault:
        return cls(error.line, error.column, error.message, error.source_line)

    def error(self, source: str, warning: bool = False) -> RulebookError:
        return RulebookError(
            f"warning: {self.message}" if warning else self.message,
            source=source,
            line=self.line,
            column=self.column,
            source_line=self.source_line,
        )


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One PDN file as the search keeps it. The entries are columns: for entry ``e``,
    ``entry_item[e]`` is its item (an index into ``items``), ``entry_ply[e]`` how many moves into
    the item's line it is, ``entry_turned[e]`` whether its frame is turned (Black to move), and
    ``masks[k][e]`` the mask of kind ``k`` (``geometry.KINDS``)."""

    items: tuple[Item, ...]
    entry_item: array[int]
    entry_ply: array[int]
    entry_turned: array[int]
    masks: tuple[array[int], array[int], array[int], array[int]]
    errors: tuple[Fault, ...] = ()
    warnings: tuple[Fault, ...] = ()

    @property
    def entries(self) -> int:
        return len(self.entry_item)

    def entry_masks(self, entry: int) -> Masks:
        return (
            self.masks[0][entry],
            self.masks[1][entry],
            self.masks[2][entry],
            self.masks[3][entry],
        )


ENTRY_TYPECODES: Final = ("I", "H", "B", "Q")
"""The array type codes of the columns: items, plies, turned flags, masks (50 bits)."""


class _Builder:
    def __init__(self) -> None:
        self.items: list[Item] = []
        self.entry_item: array[int] = array("I")
        self.entry_ply: array[int] = array("H")
        self.entry_turned: array[int] = array("B")
        self.masks = (array("Q"), array("Q"), array("Q"), array("Q"))
        self.errors: list[Fault] = []
        self.warnings: list[Fault] = []

    def add(
        self, game: PdnGame, variant: Variant, positions: list[Position], moves: list[Move]
    ) -> None:
        number = len(self.items)
        first = len(self.entry_item)
        digest = hashlib.sha256(variant.name.encode())
        for ply, position in enumerate(positions):
            masks, turned = frame_of(position)
            self.entry_item.append(number)
            self.entry_ply.append(min(ply, 0xFFFF))
            self.entry_turned.append(1 if turned else 0)
            for kind, mask in enumerate(masks):
                self.masks[kind].append(mask)
            if ply == 0:
                digest.update(repr((masks, turned)).encode())
        steps = tuple(step_of(move) for move in moves)
        digest.update(repr(steps).encode())
        written = game.main_line()
        self.items.append(
            Item(
                line=game.line,
                problem=game.is_problem,
                variant=variant.name,
                tags=game.tags,
                moves=steps,
                first_number=(written[0].number or 1) if written else 1,
                first_entry=first,
                content=digest.hexdigest()[:32],
            )
        )

    def record(self) -> FileRecord:
        return FileRecord(
            tuple(self.items),
            self.entry_item,
            self.entry_ply,
            self.entry_turned,
            self.masks,
            tuple(self.errors),
            tuple(self.warnings),
        )


def main_line_only(game: PdnGame) -> PdnGame:
    """The game with its main line only: variations, comments and NAGs dropped (the search
    reads the composer's solution, which is the main line, and nothing else)."""
    kept = tuple(item for item in game.moves if isinstance(item, PdnMove | Setup))
    return replace(game, moves=MoveText(kept))


def _line(
    game: PdnGame, variant: Variant
) -> tuple[list[Position], list[Move], RulebookError | None]:
    """The positions and moves of the main line; on an illegal move, those before it and the
    error. A bad FEN raises."""
    short = main_line_only(game)
    try:
        replayed = replay(short, variant=variant)
    except RulebookError as error:
        start = start_position(game, variant)  # a bad FEN raises here, located
        positions, moves = _prefix(short, start)
        return positions, moves, error
    steps = replayed.main.moves
    positions = [step.before for step in steps]
    positions.append(replayed.main.end)
    return positions, [step.move for step in steps], None


def _prefix(game: PdnGame, start: Position) -> tuple[list[Position], list[Move]]:
    """The longest beginning of the main line whose every move names one legal move."""
    positions = [start]
    moves: list[Move] = []
    for written in game.main_line():
        found = candidate_moves(positions[-1], written)
        if len(found) != 1:
            break
        moves.append(found[0])
        positions.append(positions[-1].play(found[0]))
    return positions, moves


def read_file(path: Path, default: Variant | None = None) -> FileRecord:
    """Every problem and game of a PDN file, in file order.

    ``default`` is the variant of a game without a ``GameType`` tag (a collection's
    ``variant``); None: as ``rulebook pdn`` decides it from the file (International unless
    every square is an 8x8 one). Games of other variants are left out, without a message.
    Raises ``RulebookError`` when the file cannot be read at all.
    """
    games, errors = read_pdn_file(path)
    builder = _Builder()
    builder.errors.extend(Fault.of(error) for error in errors)
    fallback = default if default is not None else default_variant(games)
    for game in games:
        variant = game_variant(game, fallback)
        if variant is None:
            continue
        try:
            positions, moves, fault = _line(game, variant)
        except RulebookError as error:
            builder.errors.append(Fault.of(error))
            continue
        if fault is not None:
            builder.warnings.append(Fault.of(fault))
        builder.add(game, variant, positions, moves)
    return builder.record()
