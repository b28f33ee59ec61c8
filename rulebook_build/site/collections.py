"""The problem collections and contests of ``problems/``: data, read once per build.

Each folder of ``problems/`` is a collection (a contest's entries, a published catalogue, or
the site's own examples) with a ``collection.toml`` describing it and the PDN files holding
its problems, as published.  The site plugin makes every page from them while the site builds
(a page per collection, a page per problem, in every language); nothing is written to
``docs/``.  The stored verdicts (``problems/verdicts.jsonl``, the output of ``rulebook check
--json``) are keyed by each problem's digest, so a changed problem never shows a stale verdict.

``collection.toml`` (every text may be given per language as a table ``{nl = .., en = ..}``)::

    title = "PWCP-2"                    # the collection's name
    kind = "contest"                    # contest | collection | examples
    files = ["PWCP_2.pdn"]              # its PDN files, in order (default: every *.pdn)
    date = "2007-2008"
    variant = "international"           # the default for games without a GameType tag
    organiser = "..."                   # optional: organiser, jury, stage (contests)
    jury = "..."
    stage = "solutions"                 # positions | solutions | preliminary | final
    anonymous = true                    # composers' names only from the preliminary award
    unsound_scores_zero = true          # an entry the checker finds incorrect scores 0
    entry = "event"                     # an entry's address: event | number | file
    title_tag = "Event"                 # which PDN tag names an entry (default: Event)
    composer_tag = "Composer"           # which PDN tag names its composer
    publication_tag = "Source"          # which PDN tag names where it was published
    source = "..."                      # where the files come from (and source_url)
    description = {nl = "...", en = "...", fy = "..."}
    [points]                            # a contest's points per entry, where published
    A1 = 12.5
    [[claims]]                          # claims against entries (a cook, an anticipation)
    entry = "A4"
    kind = "cook"
    line = "17-12 ..."
    by = "..."
    text = "..."
    [[awards]]                          # the jury's award per entry (preliminary, final)
    entry = "A7"
    rank = 1                            # its place in the ranking
    award = "prize"                     # prize | honourable-mention | commendation
    text = {nl = "...", en = "..."}     # the jury's words on it
    allowed = true                      # the jury allows it though the checker finds it
                                        # incorrect (art. 2C): it keeps its points

A contest's ``stage`` governs what its pages show (:meth:`Collection.publishes`): at
``positions`` the positions only (and no composer where ``anonymous``); at ``solutions`` also
the solutions, the checker's findings and the claims; at ``preliminary`` and ``final`` also the
jury's points, ranks, awards and words, and the composers.  A contest without a stage has
reached its end (``final``); a collection or the examples publish everything.

Text from these files and from the PDN files is outside text: the templates escape it.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from rulebook_build.checker import problem_digest
from rulebook_build.errors import SiteError
from rulebook_build.notation import (
    PdnGame,
    ReplayedGame,
    ReplayedProblem,
    Unplayable,
    game_variant,
    read_pdn_file,
    replay_problem,
)
from rulebook_build.rules import Position, find_variant

METADATA: Final = "collection.toml"
KINDS: Final = ("contest", "collection", "examples")
STAGES: Final = ("positions", "solutions", "preliminary", "final")
ENTRY_NAMES: Final = ("event", "number", "file")
CLAIM_KINDS: Final = ("cook", "anticipation", "other")
AWARDS: Final = ("prize", "honourable-mention", "commendation")
PUBLISHED: Final = {
    "positions": frozenset(),
    "solutions": frozenset({"solutions"}),
    "preliminary": frozenset({"solutions", "awards", "composers"}),
    "final": frozenset({"solutions", "awards", "composers"}),
}
"""What each stage of a contest adds to its pages (beyond the positions)."""
_KNOWN: Final = frozenset(
    {
        "title",
        "kind",
        "files",
        "date",
        "variant",
        "organiser",
        "jury",
        "stage",
        "entry",
        "title_tag",
        "composer_tag",
        "publication_tag",
        "source",
        "source_url",
        "description",
        "points",
        "claims",
        "anonymous",
        "unsound_scores_zero",
        "awards",
    }
)

Text = str | Mapping[str, str]
"""A text of the metadata: the same in every language, or one per language."""


def localized(value: Text | None, lang: str) -> str:
    """``value`` in ``lang``: its own text, else the Dutch, else the English one, else ''."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    for key in (lang, "nl", "en"):
        if key in value:
            return str(value[key])
    return next((str(v) for v in value.values()), "")


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim against an entry, as the contest published it."""

    entry: str
    kind: str
    line: str
    by: Text
    text: Text


@dataclass(frozen=True, slots=True)
class Award:
    """The jury's verdict on one entry of a contest, as it published it."""

    entry: str
    rank: int | None
    award: str
    """One of :data:`AWARDS`, or '' (ranked, no award)."""
    text: Text
    allowed: bool
    """The jury allows the entry although the checker finds it incorrect (art. 2C)."""


@dataclass(slots=True)
class Entry:
    """One problem of a collection."""

    collection: Collection
    slug: str
    """Its address inside the collection (``a1``, ``07``, ``international-01``)."""
    number: int
    name: str
    """What the collection calls it (``A1``, ``7``)."""
    problem: ReplayedProblem
    """Its game read once by the notation layer: the start position from the FEN tag and
    the solution replayed, or why it cannot be played.  Its pages are made from it."""
    digest: str

    @property
    def game(self) -> PdnGame:
        return self.problem.game

    @property
    def variant(self) -> str:
        """The name of its rules."""
        return self.problem.variant.name

    @property
    def start(self) -> Position:
        """The start position, read from the FEN tag by the notation layer."""
        return self.problem.start

    @property
    def replayed(self) -> ReplayedGame | None:
        """The solution replayed (forced replies filled in), None when it cannot be played."""
        return self.problem.replayed

    @property
    def unplayable(self) -> Unplayable | None:
        """Why its solution cannot be played as written (an illegal move): such an entry is
        not judged, and its pages say so instead of a grade."""
        return self.problem.unplayable

    @property
    def composer(self) -> str:
        return (self.game.tag(self.collection.composer_tag) or "").strip()

    @property
    def publication(self) -> str:
        return (self.game.tag(self.collection.publication_tag) or "").strip()

    @property
    def title(self) -> str:
        """The page title: the problem's own title, else the collection's name for it."""
        own = (self.game.tag("Title") or "").strip()
        return own or f"{self.collection.short} {self.name}"

    @property
    def pieces(self) -> int:
        """The pieces on the board at the start."""
        return len(self.start.pieces())

    @property
    def points(self) -> float | None:
        return self.collection.points.get(self.name)

    @property
    def claims(self) -> list[Claim]:
        return [claim for claim in self.collection.claims if claim.entry == self.name]

    @property
    def award(self) -> Award | None:
        return self.collection.awards.get(self.name)


@dataclass(slots=True)
class Collection:
    slug: str
    folder: Path
    title: Text
    kind: str
    date: str = ""
    variant: str = "international"
    organiser: Text = ""
    jury: Text = ""
    stage: str = ""
    source: Text = ""
    source_url: str = ""
    description: Text = ""
    composer_tag: str = "Composer"
    publication_tag: str = "Source"
    anonymous: bool = False
    unsound_scores_zero: bool = False
    points: dict[str, float] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    awards: dict[str, Award] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)

    @property
    def short(self) -> str:
        return localized(self.title, "en")

    def publishes(self, what: str) -> bool:
        """Whether the pages show ``what`` (``solutions``: the solutions, the checker's
        findings and the claims; ``awards``: points, ranks, awards and the jury's words;
        ``composers``: the composers' names) at the collection's stage."""
        if self.kind != "contest":
            return True
        if what == "composers" and not self.anonymous:
            return True
        return what in PUBLISHED[self.stage or "final"]

    def entry(self, slug: str) -> Entry | None:
        return next((e for e in self.entries if e.slug == slug), None)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


CLAIM_KEYS: Final = ("entry", "kind", "line", "by", "text")
AWARD_KEYS: Final = ("entry", "rank", "award", "text", "allowed")


@dataclass(frozen=True, slots=True)
class _Table:
    """A table of ``collection.toml``, to name in a message: the top level, ``[points]``, or
    the n-th ``[[claims]]`` or ``[[awards]]``; each message is located at the key's line."""

    path: Path
    text: str
    name: str = ""
    number: int = 0
    """Which ``[[name]]`` of the file (from 1); 0 for the top level and ``[points]``."""

    def __str__(self) -> str:
        if not self.name:
            return "at the top level"
        if not self.number:
            return f"in [{self.name}]"
        return f"in [[{self.name}]] {self.number}"

    def error(self, message: str, key: str | None = None) -> SiteError:
        """``message`` about ``key`` of this table (or the table itself), at its line."""
        return SiteError(message, source=str(self.path), line=self.line_of(key))

    def line_of(self, key: str | None) -> int | None:
        """The line of ``key`` in this table (of its header for None), when written as
        ``key = ...`` (an inline table is not looked into)."""
        current, number, header = "", 0, None
        counts: dict[str, int] = {}
        for at, raw in enumerate(self.text.splitlines(), start=1):
            line = raw.strip()
            table = re.match(r"^\[\[\s*([\w-]+)\s*\]\]|^\[\s*([\w-]+)\s*\]", line)
            if table:
                current = table.group(1) or table.group(2)
                counts[current] = counts.get(current, 0) + 1
                number = counts[current] if table.group(1) else 0
                if (current, number) == (self.name, self.number):
                    header = at
                continue
            if key is None or (current, number) != (self.name, self.number):
                continue
            written = re.match(r"""^(?:"([^"]*)"|'([^']*)'|([\w-]+))\s*=""", line)
            if written and key in written.groups():
                return at
        return header

    def unknown(self, data: Mapping[str, object], known: Iterable[str]) -> None:
        """Refuse a key this table does not have, naming the closest known one."""
        allowed = sorted(known)
        for key in data:
            if key not in allowed:
                raise self.error(f"unknown key {key!r} {self}{_suggest(key, allowed)}", key)

    def text_of(self, data: Mapping[str, object], key: str) -> Text:
        value = data.get(key, "")
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            return {str(k): str(v) for k, v in value.items()}
        raise self.error(f"{key!r} {self} must be a text or a table of texts per language", key)

    def choice(
        self, data: Mapping[str, object], key: str, allowed: tuple[str, ...], default: str
    ) -> str:
        value = data.get(key, default)
        if value not in allowed and not (value == "" and default == ""):
            close = _suggest(str(value), allowed, listed=False)
            raise self.error(
                f"{key!r} {self} must be one of {', '.join(allowed)}, not {value!r}{close}", key
            )
        return str(value)


def _suggest(word: str, known: Iterable[str], *, listed: bool = True) -> str:
    """`` (did you mean 'stage'?)`` for a misspelt ``word``; else the known words (or '')."""
    known = list(known)
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.4)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (known: {', '.join(known)})" if listed else ""


def _entry_tables(
    data: dict[str, Any], name: str, keys: Iterable[str], top: _Table
) -> Iterator[tuple[_Table, dict[str, Any]]]:
    """Each ``[[name]]`` table of ``collection.toml`` (``[[claims]]``, ``[[awards]]``), with
    the table to name in a message: refused unless it is a table of ``keys`` naming its
    ``entry``."""
    found = data.get(name, [])
    if not isinstance(found, list):
        raise top.error(f"'{name}' must be a list of [[{name}]] tables", name)
    for number, item in enumerate(found, start=1):
        table = _Table(top.path, top.text, name, number)
        if not isinstance(item, dict):
            raise table.error(f"each [[{name}]] must be a table ({table})")
        table.unknown(item, keys)
        if "entry" not in item:
            raise table.error(f"[[{name}]] {number} needs an 'entry'")
        yield table, item


def read_collection(folder: Path) -> Collection:
    """One collection folder: its metadata and every problem of its files.  Every fault of
    ``collection.toml`` is one :class:`SiteError` naming the file (and the line), the table
    and the key."""
    where = folder / METADATA
    try:
        text = where.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise SiteError(f"no {METADATA} in {folder.name}/", source=str(folder)) from None
    except tomllib.TOMLDecodeError as error:
        raise SiteError(f"{error}", source=str(where)) from None
    top = _Table(where, text)
    top.unknown(data, _KNOWN)
    if "title" not in data:
        raise top.error("a collection needs a 'title' (at the top level)")
    collection = Collection(
        slug=_slug(folder.name),
        folder=folder,
        title=top.text_of(data, "title"),
        kind=top.choice(data, "kind", KINDS, "collection"),
        date=str(data.get("date", "")),
        variant=top.choice(data, "variant", ("international", "frisian"), "international"),
        organiser=top.text_of(data, "organiser"),
        jury=top.text_of(data, "jury"),
        stage=top.choice(data, "stage", STAGES, ""),
        source=top.text_of(data, "source"),
        source_url=str(data.get("source_url", "")),
        description=top.text_of(data, "description"),
        composer_tag=str(data.get("composer_tag", "Composer")),
        publication_tag=str(data.get("publication_tag", "Source")),
    )
    for flag in ("anonymous", "unsound_scores_zero"):
        if not isinstance(data.get(flag, False), bool):
            raise top.error(f"{flag!r} {top} must be true or false", flag)
    collection.anonymous = bool(data.get("anonymous", False))
    collection.unsound_scores_zero = bool(data.get("unsound_scores_zero", False))
    points = data.get("points", {})
    if not isinstance(points, dict):
        raise top.error("'points' must be a table of numbers per entry: [points]", "points")
    for name, value in points.items():
        if not isinstance(value, int | float) or isinstance(value, bool):
            table = _Table(where, text, "points")
            raise table.error(f"{name!r} {table} must be a number, not {value!r}", name)
    collection.points = {str(k): float(v) for k, v in points.items()}
    for table, claim in _entry_tables(data, "claims", CLAIM_KEYS, top):
        collection.claims.append(
            Claim(
                entry=str(claim["entry"]),
                kind=table.choice(claim, "kind", CLAIM_KINDS, "other"),
                line=str(claim.get("line", "")),
                by=table.text_of(claim, "by"),
                text=table.text_of(claim, "text"),
            )
        )
    for table, found in _entry_tables(data, "awards", AWARD_KEYS, top):
        rank = found.get("rank")
        if rank is not None and (not isinstance(rank, int) or isinstance(rank, bool) or rank < 1):
            raise table.error(f"'rank' {table} must be a whole number from 1", "rank")
        award = Award(
            entry=str(found["entry"]),
            rank=rank,
            award=table.choice(found, "award", AWARDS, ""),
            text=table.text_of(found, "text"),
            allowed=found.get("allowed", False) is True,
        )
        if award.entry in collection.awards:
            raise table.error(f"a second [[awards]] for entry {award.entry!r} {table}", "entry")
        collection.awards[award.entry] = award
    files = data.get("files")
    if files is None:
        paths = sorted(folder.glob("*.pdn"))
    elif isinstance(files, list) and all(isinstance(f, str) for f in files):
        paths = [folder / name for name in files]
    else:
        raise top.error(f"'files' {top} must be a list of file names", "files")
    naming = top.choice(data, "entry", ENTRY_NAMES, "file")
    title_tag = str(data.get("title_tag", "Event"))
    default_variant = find_variant(collection.variant)
    seen: set[str] = set()
    for path in paths:
        if not path.is_file():
            raise top.error(
                f"'files' {top} names {path.name!r}, which is not in {folder.name}/", "files"
            )
        games, errors = read_pdn_file(path)
        if errors:
            raise errors[0]
        for game in games:
            if not game.is_problem:
                continue
            variant = game_variant(game) if game.tag("GameType") else default_variant
            if variant is None:
                raise SiteError(
                    f"GameType must be 20 or 40, not {game.gametype!r}",
                    source=f"{game.source}:{game.line}",
                )
            digest = problem_digest(game, variant)
            if digest in seen:  # a companion file repeating a problem: once is enough
                continue
            seen.add(digest)
            number = len(collection.entries) + 1
            name = {
                "event": (game.tag(title_tag) or "").strip() or str(number),
                "number": str(number),
                "file": path.stem,
            }[naming]
            slug = _slug(name) or f"{number:02d}"
            if naming == "number":
                slug = f"{number:02d}"
            if collection.entry(slug) is not None:
                raise SiteError(
                    f"two entries are called {name!r} (entry = {naming!r} in {METADATA})",
                    source=game.source,
                    line=game.line,
                )
            # the FEN read and the solution replayed once: the pages use what this gives
            problem = replay_problem(game, variant)
            collection.entries.append(Entry(collection, slug, number, name, problem, digest))
    names = [entry.name for entry in collection.entries]
    for name in collection.points:
        if name not in names:
            table = _Table(where, text, "points")
            raise table.error(_missing(name, table, names), name)
    named = [("claims", claim.entry) for claim in collection.claims]
    named += [("awards", award.entry) for award in collection.awards.values()]  # in file order
    counted: dict[str, int] = {}
    for what, name in named:
        counted[what] = number = counted.get(what, 0) + 1
        if name not in names:
            table = _Table(where, text, what, number)
            raise table.error(_missing(name, table, names, key="entry"), "entry")
    return collection


def _missing(name: str, table: _Table, names: list[str], *, key: str | None = None) -> str:
    """The message for an entry ``name`` that the collection does not have."""
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}? " if close else ""
    what = f"{key!r} {table} names entry {name!r}" if key else f"{name!r} {table}"
    return f"{what}: the collection has no such entry ({hint}its entries: {shown or 'none'})"


def read_collections(problems: Path) -> list[Collection]:
    """Every collection under ``problems/`` (a folder with a ``collection.toml``), by name."""
    if not problems.is_dir():
        return []
    return [
        read_collection(folder)
        for folder in sorted(problems.iterdir())
        if (folder / METADATA).is_file()
    ]
