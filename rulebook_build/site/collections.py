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
    title_tag = "Event"                 # which PDN tag names an entry (default: Title)
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

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from rulebook_build.checker.judge import problem_digest
from rulebook_build.errors import SiteError
from rulebook_build.notation.pdn import PdnGame, read_pdn_file
from rulebook_build.notation.replay import Unplayable, game_variant, start_position, unplayable
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
    game: PdnGame
    variant: str
    digest: str
    start: Position
    """The start position, read from the FEN tag by the notation layer."""
    unplayable: Unplayable | None = None
    """Why its solution cannot be played as written (an illegal move): such an entry is not
    judged, and its pages say so instead of a grade."""

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


def _text(value: object, key: str, where: Path) -> Text:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return {str(k): str(v) for k, v in value.items()}
    raise SiteError(f"'{key}' must be a text or a table of texts per language", source=str(where))


def _choice(
    data: dict[str, object], key: str, allowed: tuple[str, ...], default: str, where: Path
) -> str:
    value = data.get(key, default)
    if value not in allowed and not (value == "" and default == ""):
        raise SiteError(
            f"'{key}' must be one of {', '.join(allowed)}, not {value!r}", source=str(where)
        )
    return str(value)


def read_collection(folder: Path) -> Collection:
    """One collection folder: its metadata and every problem of its files."""
    where = folder / METADATA
    try:
        data = tomllib.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SiteError(f"no {METADATA} in {folder.name}/", source=str(folder)) from None
    except tomllib.TOMLDecodeError as error:
        raise SiteError(f"{error}", source=str(where)) from None
    unknown = sorted(set(data) - _KNOWN)
    if unknown:
        raise SiteError(
            f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_KNOWN))})", source=str(where)
        )
    if "title" not in data:
        raise SiteError("a collection needs a 'title'", source=str(where))
    collection = Collection(
        slug=_slug(folder.name),
        folder=folder,
        title=_text(data["title"], "title", where),
        kind=_choice(data, "kind", KINDS, "collection", where),
        date=str(data.get("date", "")),
        variant=_choice(data, "variant", ("international", "frisian"), "international", where),
        organiser=_text(data.get("organiser", ""), "organiser", where),
        jury=_text(data.get("jury", ""), "jury", where),
        stage=_choice(data, "stage", STAGES, "", where),
        source=_text(data.get("source", ""), "source", where),
        source_url=str(data.get("source_url", "")),
        description=_text(data.get("description", ""), "description", where),
        composer_tag=str(data.get("composer_tag", "Composer")),
        publication_tag=str(data.get("publication_tag", "Source")),
    )
    for flag in ("anonymous", "unsound_scores_zero"):
        if not isinstance(data.get(flag, False), bool):
            raise SiteError(f"'{flag}' must be true or false", source=str(where))
    collection.anonymous = bool(data.get("anonymous", False))
    collection.unsound_scores_zero = bool(data.get("unsound_scores_zero", False))
    points = data.get("points", {})
    if not isinstance(points, dict) or not all(isinstance(v, int | float) for v in points.values()):
        raise SiteError("'points' must be a table of numbers per entry", source=str(where))
    collection.points = {str(k): float(v) for k, v in points.items()}
    claims = data.get("claims", [])
    if not isinstance(claims, list):
        raise SiteError("'claims' must be a list of [[claims]] tables", source=str(where))
    for claim in claims:
        if not isinstance(claim, dict) or "entry" not in claim:
            raise SiteError("each [[claims]] needs an 'entry'", source=str(where))
        collection.claims.append(
            Claim(
                entry=str(claim["entry"]),
                kind=_choice(claim, "kind", CLAIM_KINDS, "other", where),
                line=str(claim.get("line", "")),
                by=_text(claim.get("by", ""), "by", where),
                text=_text(claim.get("text", ""), "text", where),
            )
        )
    awards = data.get("awards", [])
    if not isinstance(awards, list):
        raise SiteError("'awards' must be a list of [[awards]] tables", source=str(where))
    for found in awards:
        if not isinstance(found, dict) or "entry" not in found:
            raise SiteError("each [[awards]] needs an 'entry'", source=str(where))
        unknown = sorted(set(found) - {"entry", "rank", "award", "text", "allowed"})
        if unknown:
            raise SiteError(f"unknown key {unknown[0]!r} in [[awards]]", source=str(where))
        rank = found.get("rank")
        if rank is not None and (not isinstance(rank, int) or isinstance(rank, bool) or rank < 1):
            raise SiteError("an award's 'rank' must be a whole number from 1", source=str(where))
        award = Award(
            entry=str(found["entry"]),
            rank=rank,
            award=_choice(found, "award", AWARDS, "", where),
            text=_text(found.get("text", ""), "text", where),
            allowed=found.get("allowed", False) is True,
        )
        if award.entry in collection.awards:
            raise SiteError(f"two [[awards]] for entry {award.entry!r}", source=str(where))
        collection.awards[award.entry] = award
    files = data.get("files")
    if files is None:
        paths = sorted(folder.glob("*.pdn"))
    elif isinstance(files, list) and all(isinstance(f, str) for f in files):
        paths = [folder / name for name in files]
    else:
        raise SiteError("'files' must be a list of file names", source=str(where))
    naming = _choice(data, "entry", ENTRY_NAMES, "file", where)
    title_tag = str(data.get("title_tag", "Event"))
    default_variant = find_variant(collection.variant)
    seen: set[str] = set()
    for path in paths:
        if not path.is_file():
            raise SiteError(f"no problem file {path.name!r} in {folder.name}/", source=str(where))
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
                    f"two problems are called {name!r}", source=f"{game.source}:{game.line}"
                )
            collection.entries.append(
                Entry(
                    collection,
                    slug,
                    number,
                    name,
                    game,
                    variant.name,
                    digest,
                    start_position(game, variant),
                    unplayable(game, variant),
                )
            )
    names = {entry.name for entry in collection.entries}
    for what, named in (
        ("[points]", list(collection.points)),
        ("[[claims]]", [claim.entry for claim in collection.claims]),
        ("[[awards]]", list(collection.awards)),
    ):
        for name in named:
            if name not in names:
                raise SiteError(
                    f"{what} names entry {name!r}, which the collection does not have "
                    f"(its entries: {', '.join(e.name for e in collection.entries[:5])}, ...)",
                    source=str(where),
                )
    return collection


def read_collections(problems: Path) -> list[Collection]:
    """Every collection under ``problems/`` (a folder with a ``collection.toml``), by name."""
    if not problems.is_dir():
        return []
    return [
        read_collection(folder)
        for folder in sorted(problems.iterdir())
        if (folder / METADATA).is_file()
    ]
