"""The ```` ```edition-comparison ```` block: two editions of a rulebook, article by article.

The block names a table of the project (``editions/kndb-2009-2018.toml``)::

    ```edition-comparison
    table: editions/kndb-2009-2018.toml
    ```

The table, which a federation can review without reading code, names the two rule pages
(``old`` and ``new``, relative to a language's folder of ``docs/``) and pairs their articles
**by subject, not by number**: each ``[[pair]]`` has the anchors of the old articles and of the
new ones (either list may be empty), a ``reason`` (:data:`REASONS`), a ``subject`` and a
``summary`` per language.  An anchor is an article (``art-4``) or a part of one (``art-6-3``);
every article of both pages must be in a pair, whole or by all its parts, and in one pair only.

Each article's text is read from the Markdown of the page in the block's language (or in Dutch
where a page has no translation), between its heading and the next heading of the same or a
higher level, and made plain text (:func:`plain_text`): links, emphasis and attribute lists
dropped, a diagram named by its caption, raw HTML left as the characters it is.  The two texts
of a pair are compared word by word with diff-match-patch (:func:`word_diff`), and the parts
are written by a Jinja2 template with autoescaping (``templates/editions.html``) as ``<ins>``,
``<del>`` and plain text: nothing of a source reaches the page as markup.

A fault of the table (a missing anchor, an article in no pair or in two) is a
:class:`~rulebook_build.errors.SiteError` located in the table: the strict build stops.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from diff_match_patch import diff_match_patch

from rulebook_build.errors import SiteError
from rulebook_build.site.history import parse_toml
from rulebook_build.site.templating import TRIMMED
from rulebook_build.words import Message, define
from rulebook_build.words import text as said

REASONS: Final = ("same", "moved", "merged", "split", "dropped", "new")
"""Why two articles are paired: the same subject (perhaps renumbered), moved elsewhere in the
rulebook, several old articles merged into one, one old article split over several, an old
article without a counterpart (dropped), a new one without a predecessor (new)."""

IDS: Final[dict[str, str]] = {
    "legend": define("editions.legend", "How to read the differences"),
    "legend_ins": define("editions.legend_ins", "underlined: text that is new in {new}"),
    "legend_del": define(
        "editions.legend_del", "struck through: text of {old} that is no longer in {new}"
    ),
    "legend_same": define("editions.legend_same", "plain text is in both editions"),
    "legend_sample_ins": define("editions.legend_sample_ins", "new"),
    "legend_sample_del": define("editions.legend_sample_del", "dropped"),
    "ins_start": define("editions.ins_start", "[new in {new}:"),
    "ins_end": define("editions.ins_end", "]"),
    "del_start": define("editions.del_start", "[dropped from {old}:"),
    "del_end": define("editions.del_end", "]"),
    "overview": define("editions.overview", "Overview"),
    "caption": define(
        "editions.caption", "The articles of {old} and {new}, side by side by subject"
    ),
    "subject": define("editions.subject", "Subject"),
    "reason": define("editions.reason", "Kind"),
    "art": define("editions.art", "art."),
    "none": define("editions.none", "none"),
    "text_old": define("editions.text_old", "Text of {old} (dropped)"),
    "text_new": define("editions.text_new", "Text of {new} (new)"),
    "diagram": define("editions.diagram", "diagram"),
    "same": define("editions.same", "same subject"),
    "moved": define("editions.moved", "moved"),
    "merged": define("editions.merged", "merged"),
    "split": define("editions.split", "split"),
    "dropped": define("editions.dropped", "dropped"),
    "new": define("editions.new", "new"),
}
"""The block's words by their short name in the template, each a message of the catalogs
(``{old}`` and ``{new}`` are the editions' labels)."""
# the faults of a table or a block, said to whoever builds the site
define("editions.too_many_words", "too many different words to compare")
define("editions.texts_per_language", "'{key}' must be a text per language ({key}.nl, {key}.en)")
define("editions.no_text_in", "'{key}' has no text in {languages}")
define("editions.list_of_anchors", "'{key}' must be a list of anchors")
define("editions.cannot_read_table", "cannot read the table: {reason}")
define("editions.page_and_label", "'{key}' must give the page and its label")
define("editions.no_pair", "the table has no [[pair]]")
define("editions.pair_not_table", "a [[pair]] must be a table")
define("editions.unknown_key", "unknown key {keys}")
define("editions.unknown_reason", "reason {reason} is not one of {reasons}")
define("editions.reason_problem", "reason '{reason}': {problem}")
define("editions.needs_old_only", "needs old articles and no new ones")
define("editions.needs_new_only", "needs new articles and no old ones")
define("editions.needs_both", "needs old and new articles")
define("editions.needs_two_old", "needs two or more old articles")
define("editions.needs_two_new", "needs two or more new articles")
define("editions.not_an_article", "{side} anchor '{anchor}' is not an article of {page}")
define(
    "editions.already_paired",
    "{side} anchor '{anchor}' of {page} is already in the pair of line {line} (as '{overlap}')",
)
define(
    "editions.in_no_pair",
    "{side} article '{anchor}' of {page} is in no pair; "
    "add it, with reason 'dropped' or 'new' if it has no counterpart",
)
define(
    "editions.parts_in_no_pair",
    "{side} article '{anchor}' of {page} is in no pair (its parts {parts} are in no pair); "
    "add it, with reason 'dropped' or 'new' if it has no counterpart",
)
define(
    "editions.text_in_no_pair",
    "{side} article '{anchor}' of {page} is in no pair (its text before its first part is in "
    "no pair: list it whole); add it, with reason 'dropped' or 'new' if it has no counterpart",
)
define("editions.cannot_read_page", "cannot read {page}: {reason}")
define("editions.table_line", "line {number} of the block: expected 'table: <file>' once")
define("editions.no_table", "the block names no table ('table: editions/<file>.toml')")
OPENING: Final = frozenset({"ins_start", "del_start"})
"""The hidden labels before an inserted or deleted text, which a space parts from the text: a
space the code adds, since a translator's tool trims one at a message's end."""

DEFAULT_LANGUAGE: Final = "nl"

HEADING: Final = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)[ \t]*#*[ \t]*$")
ATTRIBUTES: Final = re.compile(r"[ \t]*\{(?P<inside>[^{}]*)\}[ \t]*$")
ID: Final = re.compile(r"#(?P<id>[^\s}]+)")
ARTICLE: Final = re.compile(r"art-\d+[a-z]*")
"""A whole article's anchor (``art-4``, ``art-22a``, ``art-44t``); its parts add ``-N``."""
TITLE: Final = re.compile(
    r"^(?:Artikel|Article|Art\.|Kêst)\s+(?P<number>[0-9][0-9A-Za-z.()]*)"
    r"(?:\s*[:–—-]\s*|\s+|$)(?P<title>.*)$"
)
NUMBER: Final = re.compile(r"^(?P<number>[0-9][0-9A-Za-z.()]*)(?:\s+(?P<title>.*))?$")
FENCE: Final = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")
LIST_ITEM: Final = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?P<text>.*)$")
BULLET: Final = re.compile(r"^[ \t]*[-*+][ \t]+")
TABLE_RULE: Final = re.compile(
    r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$"
)

_INLINE: Final = (
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),  # an image: its text
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),  # a link: its text
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # a reference link: its text
    (re.compile(r"`([^`]*)`"), r"\1"),
    (re.compile(r"\*\*(.+?)\*\*"), r"\1"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<!\w)__(.+?)__(?!\w)"), r"\1"),
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])"), r"\1"),
)


# ---------------------------------------------------------------------------- the rulebooks


@dataclass(frozen=True, slots=True)
class Article:
    """An article of a rule page, or a part of one (a heading with an ``art-`` anchor)."""

    anchor: str
    number: str
    """As its heading writes it: ``4``, ``6.3``, ``44(T)``."""
    title: str
    level: int
    line: int
    """The 1-based line of its heading in the page."""
    parent: str
    """The whole article it belongs to (its own anchor for a whole article)."""
    text: str
    """Its plain text, its heading's words first (:func:`plain_text`)."""
    own_text: bool
    """Whether it has text of its own before its first part (a whole article only)."""


@dataclass(frozen=True, slots=True)
class Rulebook:
    path: str
    """The page as the messages name it (``docs/nl/regels/kndb-2009.md``)."""
    articles: Mapping[str, Article]
    """Every article and part, by anchor, in the page's order."""

    def whole_articles(self) -> list[Article]:
        return [a for a in self.articles.values() if a.anchor == a.parent]

    def parts(self, anchor: str) -> list[Article]:
        """The parts of the whole article ``anchor``, in order."""
        return [a for a in self.articles.values() if a.parent == anchor and a.anchor != anchor]


def _heading(line: str) -> tuple[int, str, str | None] | None:
    """``(level, words, id)`` of a Markdown heading line, or None."""
    match = HEADING.match(line)
    if match is None:
        return None
    text = match["text"]
    anchor = None
    attributes = ATTRIBUTES.search(text)
    if attributes is not None:
        found = ID.search(attributes["inside"])
        anchor = found["id"] if found else None
        text = text[: attributes.start()]
    return len(match["hashes"]), text.strip(), anchor


def read_rulebook(text: str, *, path: str, diagram: str = "diagram") -> Rulebook:
    """The articles of a rule page's Markdown ``text``: every heading whose anchor starts
    with ``art-``, with the text up to the next heading of the same or a higher level."""
    lines = text.replace("\r\n", "\n").split("\n")
    headings: list[tuple[int, int, str, str | None]] = []  # index, level, words, id
    fence: str | None = None
    for index, line in enumerate(lines):
        opened = FENCE.match(line)
        if fence is not None:
            if line.strip() and set(line.strip()) == {fence[0]} and len(line.strip()) >= len(fence):
                fence = None
            continue
        if opened is not None:
            fence = opened["fence"]
            continue
        found = _heading(line)
        if found is not None:
            headings.append((index, *found))
    articles: dict[str, Article] = {}
    whole: tuple[str, int] | None = None  # the whole article being read, and its level
    for position, (index, level, words, anchor) in enumerate(headings):
        if whole is not None and level <= whole[1]:
            whole = None
        if anchor is None or not anchor.startswith("art-"):
            continue
        end = len(lines)
        first_part = end
        for later, later_level, _, _ in headings[position + 1 :]:
            if later_level <= level:
                end = later
                break
            first_part = min(first_part, later)
        if ARTICLE.fullmatch(anchor) and whole is None:
            whole = (anchor, level)
            parent = anchor
        elif whole is not None:
            parent = whole[0]
        else:
            parent = anchor
        number, title = _number_and_title(words)
        body = lines[index + 1 : end]
        own = lines[index + 1 : min(first_part, end)]
        articles[anchor] = Article(
            anchor=anchor,
            number=number,
            title=title,
            level=level,
            line=index + 1,
            parent=parent,
            text=plain_text([words, "", *body], diagram=diagram),
            own_text=any(line.strip() for line in own),
        )
    return Rulebook(path=path, articles=articles)


def _number_and_title(words: str) -> tuple[str, str]:
    """``Artikel 4 Het spelen`` -> ``("4", "Het spelen")``; ``6.3`` -> ``("6.3", "")``."""
    plain = plain_text([words])
    for pattern in (TITLE, NUMBER):
        match = pattern.match(plain)
        if match is not None:
            return match["number"], (match["title"] or "").strip()
    return plain, ""


# ---------------------------------------------------------------------------- plain text


def plain_text(lines: Iterable[str], *, diagram: str = "diagram") -> str:
    """Markdown as plain text: one line per paragraph, list item, heading, table row and
    diagram (``[diagram: its caption]``); links, emphasis, code marks, attribute lists and
    backslash escapes dropped, character references read.  Raw HTML stays the characters it
    is: the result is text, for a template to escape."""
    blocks: list[str] = []
    current: list[str] = []
    fence: str | None = None
    fenced: list[str] = []
    info = ""

    def flush() -> None:
        if current:
            blocks.append(" ".join(current))
            current.clear()

    for line in lines:
        stripped = line.strip()
        if fence is not None:
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                blocks.append(_fenced(info, fenced, diagram))
                fence, fenced = None, []
            else:
                fenced.append(line)
            continue
        opened = FENCE.match(line)
        if opened is not None:
            flush()
            fence, info = opened["fence"], opened["info"].strip()
            continue
        if not stripped:
            flush()
            continue
        heading = _heading(line)
        if heading is not None:
            flush()
            blocks.append(heading[1])
            continue
        if TABLE_RULE.match(line) and "-" in stripped:
            continue
        if stripped.startswith("|"):
            flush()
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            blocks.append(" | ".join(cells))
            continue
        if LIST_ITEM.match(line):
            flush()
            current.append(BULLET.sub("• ", line).strip())
            continue
        current.append(stripped)
    flush()
    if fence is not None:
        blocks.append(_fenced(info, fenced, diagram))
    return "\n".join(text for text in (_inline(block) for block in blocks) if text)


def _fenced(info: str, lines: Sequence[str], diagram: str) -> str:
    """A diagram block as ``[diagram: caption]``; any other fence as its lines."""
    if not re.match(r"^\{?\s*\.?draughts\b", info, re.IGNORECASE):
        return " ".join(line.strip() for line in lines if line.strip())
    for line in lines:
        key, _, value = line.partition(":")
        if key.strip().lower() == "caption" and value.strip():
            return f"[{diagram}: {value.strip()}]"
    return f"[{diagram}]"


def _inline(text: str) -> str:
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    text = html.unescape(text)
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------------------- the diff

Kind = Literal["same", "ins", "del"]

TOKEN: Final = re.compile(r"\w+|\n|[^\S\n]+|[^\w\s]")
_WORD_CHARACTERS: Final = ((0x4E00, 0xA000), (0x20000, 0x2A6E0))
"""Code points that stand for the words while diff-match-patch compares the texts: letters
(``str.isalnum``), so that its clean-up still finds the word and sentence boundaries, as the
spaces and punctuation stand for themselves."""
_OPERATIONS: Final[dict[int, Kind]] = {0: "same", 1: "ins", -1: "del"}


def _word_character(number: int) -> str:
    for start, stop in _WORD_CHARACTERS:
        if number < stop - start:
            return chr(start + number)
        number -= stop - start
    raise SiteError(Message.of("editions.too_many_words"))


def diff_engine() -> Any:
    """diff-match-patch without its time limit (a second by default): a busy machine would
    stop it early and get a coarser diff, and the built page would differ from build to
    build."""
    engine = diff_match_patch()
    engine.Diff_Timeout = 0
    return engine


def word_diff(old: str, new: str) -> list[tuple[Kind, str]]:
    """The differences of two plain texts, word by word: ``("same" | "ins" | "del", text)``.

    Every word, space run, line break and punctuation mark is a token; diff-match-patch
    compares the texts as strings of one character per token (``diff_linesToChars`` done
    for words), without a time limit so that the answer is the same on any machine, and its
    semantic clean-up joins the scattered small edits of a rewritten sentence into whole
    phrases.  Spaces alone are never marked as inserted or deleted."""
    old = re.sub(r"[^\S\n]+", " ", old)
    new = re.sub(r"[^\S\n]+", " ", new)
    characters: dict[str, str] = {}
    tokens: dict[str, str] = {}

    def encode(text: str) -> str:
        out = []
        for token in TOKEN.findall(text):
            char = characters.get(token)
            if char is None:
                char = (
                    token
                    if len(token) == 1 and not token.isalnum() and token != "_"
                    else (_word_character(len(tokens)))
                )
                characters[token] = char
                tokens[char] = token
            out.append(char)
        return "".join(out)

    engine = diff_engine()
    encoded_old, encoded_new = encode(old), encode(new)
    diffs = engine.diff_main(encoded_old, encoded_new, False)
    engine.diff_cleanupSemantic(diffs)
    parts: list[tuple[Kind, str]] = []
    for operation, chars in diffs:
        kind = _OPERATIONS[operation]
        text = "".join(tokens[char] for char in chars)
        if kind != "same" and not text.strip():
            if kind == "del":
                continue
            kind = "same"  # the new text's spaces, unmarked
        if parts and parts[-1][0] == kind:
            parts[-1] = (kind, parts[-1][1] + text)
        else:
            parts.append((kind, text))
    return parts


# ---------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class Pair:
    old: tuple[str, ...]
    new: tuple[str, ...]
    reason: str
    subject: Mapping[str, str]
    summary: Mapping[str, str]
    line: int
    """The line of its ``[[pair]]`` in the table."""


@dataclass(frozen=True, slots=True)
class Side:
    page: str
    """The rule page, relative to a language's folder: ``regels/kndb-2009.md``."""
    label: str


@dataclass(frozen=True, slots=True)
class Table:
    path: str
    """As the messages name it (``editions/kndb-2009-2018.toml``)."""
    old: Side
    new: Side
    pairs: tuple[Pair, ...]
    lines: tuple[str, ...]

    def line_of(self, pair: Pair, anchor: str) -> int:
        """The line of ``anchor`` in the pair (the pair's first line if it is not found)."""
        index = self.pairs.index(pair)
        stop = self.pairs[index + 1].line if index + 1 < len(self.pairs) else len(self.lines)
        for number in range(pair.line, stop + 1):
            if f'"{anchor}"' in self.lines[number - 1]:
                return number
        return pair.line


def _texts(value: Any, key: str, where: str, line: int) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in value.items()
    ):
        raise SiteError(Message.of("editions.texts_per_language", key=key), source=where, line=line)
    missing = [lang for lang in ("nl", "en") if lang not in value]
    if missing:
        raise SiteError(
            Message.of("editions.no_text_in", key=key, languages=", ".join(missing)),
            source=where,
            line=line,
        )
    return {k: v.strip() for k, v in value.items()}


def _anchors(value: Any, key: str, where: str, line: int) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SiteError(Message.of("editions.list_of_anchors", key=key), source=where, line=line)
    return tuple(value)


def read_table(path: Path, *, shown: str) -> Table:
    """The alignment table at ``path`` (``shown`` names it in messages), checked for its
    form; the anchors are checked against the pages by :func:`check_table`."""
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SiteError(
            Message.of("editions.cannot_read_table", reason=error.strerror), source=shown
        ) from None
    data = parse_toml(raw, shown=shown)
    lines = tuple(raw.replace("\r\n", "\n").split("\n"))
    starts = [n for n, line in enumerate(lines, start=1) if line.strip() == "[[pair]]"]
    sides: list[Side] = []
    for key in ("old", "new"):
        side = data.get(key)
        if not (
            isinstance(side, dict)
            and isinstance(side.get("page"), str)
            and isinstance(side.get("label"), str)
        ):
            raise SiteError(Message.of("editions.page_and_label", key=key), source=shown, line=1)
        sides.append(Side(page=side["page"], label=side["label"]))
    entries = data.get("pair")
    if not isinstance(entries, list) or not entries:
        raise SiteError(Message.of("editions.no_pair"), source=shown)
    if len(starts) != len(entries):
        starts = [1] * len(entries)  # pairs written another way: no lines to show
    pairs: list[Pair] = []
    for entry, line in zip(entries, starts, strict=True):
        if not isinstance(entry, dict):
            raise SiteError(Message.of("editions.pair_not_table"), source=shown, line=line)
        unknown = sorted(set(entry) - {"old", "new", "reason", "subject", "summary"})
        if unknown:
            raise SiteError(
                Message.of("editions.unknown_key", keys=", ".join(unknown)), source=shown, line=line
            )
        old = _anchors(entry.get("old"), "old", shown, line)
        new = _anchors(entry.get("new"), "new", shown, line)
        reason = entry.get("reason")
        if reason not in REASONS:
            raise SiteError(
                Message.of(
                    "editions.unknown_reason", reason=repr(reason), reasons=", ".join(REASONS)
                ),
                source=shown,
                line=line,
            )
        problem = _reason_problem(reason, old, new)
        if problem is not None:
            raise SiteError(
                Message.of("editions.reason_problem", reason=reason, problem=problem),
                source=shown,
                line=line,
            )
        pairs.append(
            Pair(
                old=old,
                new=new,
                reason=reason,
                subject=_texts(entry.get("subject"), "subject", shown, line),
                summary=_texts(entry.get("summary"), "summary", shown, line),
                line=line,
            )
        )
    return Table(path=shown, old=sides[0], new=sides[1], pairs=tuple(pairs), lines=lines)


def _reason_problem(reason: str, old: tuple[str, ...], new: tuple[str, ...]) -> Message | None:
    """What a pair lacks for its reason, or None."""
    if reason == "dropped":
        return None if old and not new else Message.of("editions.needs_old_only")
    if reason == "new":
        return None if new and not old else Message.of("editions.needs_new_only")
    if not old or not new:
        return Message.of("editions.needs_both")
    if reason == "merged" and len(old) < 2:
        return Message.of("editions.needs_two_old")
    if reason == "split" and len(new) < 2:
        return Message.of("editions.needs_two_new")
    return None


def check_table(table: Table, old: Rulebook, new: Rulebook) -> None:
    """Every anchor of the table is an article of its page, and every article of both pages
    is in exactly one pair: whole, or by all its parts (and then it has no text of its own
    outside them).  The first fault is raised, located in the table."""
    for side, book in (("old", old), ("new", new)):
        seen: dict[str, Pair] = {}
        for pair in table.pairs:
            for anchor in getattr(pair, side):
                line = table.line_of(pair, anchor)
                if anchor not in book.articles:
                    raise SiteError(
                        Message.of(
                            "editions.not_an_article", side=side, anchor=anchor, page=book.path
                        ),
                        source=table.path,
                        line=line,
                    )
                article = book.articles[anchor]
                overlap = anchor if anchor in seen else None
                if overlap is None and article.parent != anchor and article.parent in seen:
                    overlap = article.parent
                if overlap is None and article.anchor == article.parent:
                    overlap = next((a.anchor for a in book.parts(anchor) if a.anchor in seen), None)
                if overlap is not None:
                    raise SiteError(
                        Message.of(
                            "editions.already_paired",
                            side=side,
                            anchor=anchor,
                            page=book.path,
                            line=seen[overlap].line,
                            overlap=overlap,
                        ),
                        source=table.path,
                        line=line,
                    )
                seen[anchor] = pair
        for article in book.whole_articles():
            if article.anchor in seen:
                continue
            parts = book.parts(article.anchor)
            missing = [part.anchor for part in parts if part.anchor not in seen]
            if parts and not missing and not article.own_text:
                continue  # listed by all its parts
            if len(missing) < len(parts):
                unpaired = "editions.parts_in_no_pair" if missing else "editions.text_in_no_pair"
            else:
                unpaired = "editions.in_no_pair"
            raise SiteError(
                Message.of(
                    unpaired,
                    side=side,
                    anchor=article.anchor,
                    page=book.path,
                    parts=", ".join(missing),
                ),
                source=table.path,
            )


# ---------------------------------------------------------------------------- the page

_TEMPLATES: Final = TRIMMED
"""Autoescaped: the articles' texts and the table's words are always text in the page."""


@dataclass(frozen=True, slots=True)
class _Link:
    href: str
    number: str
    title: str


def relative_url(page: str, target: str, *, directory_urls: bool = True) -> str:
    """The address of the page ``target`` from the page ``page`` (both ``regels/x.md``,
    relative to the same folder), as MkDocs builds them."""

    def url(uri: str) -> str:
        stem = uri.removesuffix(".md")
        if stem == "index" or stem.endswith("/index"):
            return stem.removesuffix("index")
        return f"{stem}/" if directory_urls else f"{stem}.html"

    here, there = url(page), url(target)
    folder = here if here.endswith("/") or not here else posixpath.dirname(here) + "/"
    relative = posixpath.relpath(there or ".", folder.rstrip("/") or ".")
    if there.endswith("/") or not there:
        relative = relative.rstrip("/") + "/"
    return relative


def render_editions(
    text: str,
    *,
    lang: str,
    where: str,
    project: Path,
    source: Callable[[str], Path],
    link: Callable[[str], str],
) -> str:
    """The block: ``text`` is its body (``table: <file>``, relative to the project);
    ``source`` gives the Markdown file of a rule page in the page's language, ``link`` the
    address of a rule page from the page that shows the block."""
    table_name = _table_name(text, where)
    table_path = (project / table_name).resolve()
    table = read_table(table_path, shown=table_name)
    labels = {"old": table.old.label, "new": table.new.label}
    words = {key: said(message, lang, **labels) for key, message in IDS.items()}
    for key in OPENING:
        words[key] += " "
    books = []
    for side in (table.old, table.new):
        path = source(side.page)
        try:
            markdown = path.read_text(encoding="utf-8-sig")
        except OSError as error:
            raise SiteError(
                Message.of("editions.cannot_read_page", page=side.page, reason=error.strerror),
                source=table.path,
                line=1,
            ) from None
        try:
            shown = path.resolve().relative_to(project.resolve()).as_posix()
        except ValueError:
            shown = path.as_posix()
        books.append(read_rulebook(markdown, path=shown, diagram=words["diagram"]))
    old, new = books
    check_table(table, old, new)
    return _render(table, old, new, lang=lang, words=words, link=link)


def _table_name(text: str, where: str) -> str:
    name = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        if not colon or key.strip() != "table" or name is not None:
            raise SiteError(Message.of("editions.table_line", number=number), source=where)
        name = value.strip()
    if not name:
        raise SiteError(Message.of("editions.no_table"), source=where)
    return name


def _render(
    table: Table,
    old: Rulebook,
    new: Rulebook,
    *,
    lang: str,
    words: Mapping[str, str],
    link: Callable[[str], str],
) -> str:
    """The page's HTML; ``words`` are the block's in the page's language, the editions'
    labels filled in."""
    pairs = []
    for pair in table.pairs:
        olds = [old.articles[a] for a in pair.old]
        news = [new.articles[a] for a in pair.new]
        old_text = "\n".join(a.text for a in olds)
        new_text = "\n".join(a.text for a in news)
        first = (table.old.label, pair.old[0]) if pair.old else (table.new.label, pair.new[0])
        pairs.append(
            {
                "id": f"{first[0]}-{first[1]}",
                "reason": pair.reason,
                "reason_label": words[pair.reason],
                "subject": pair.subject.get(lang, pair.subject[DEFAULT_LANGUAGE]),
                "summary": pair.summary.get(lang, pair.summary[DEFAULT_LANGUAGE]),
                "old": [_link(a, link(table.old.page)) for a in olds],
                "new": [_link(a, link(table.new.page)) for a in news],
                "folded": not (pair.old and pair.new),
                "fold_label": words["text_old"] if pair.old else words["text_new"],
                # one side only: its text as it is (all of it struck through or underlined
                # would only be harder to read; the fold's label says what it is)
                "parts": word_diff(old_text, new_text)
                if olds and news
                else [("same", old_text or new_text)],
            }
        )
    return _TEMPLATES.get_template("editions.html").render(
        words=words, old=table.old, new=table.new, pairs=pairs, lang=lang
    )


def _link(article: Article, page: str) -> _Link:
    return _Link(href=f"{page}#{article.anchor}", number=article.number, title=article.title)
