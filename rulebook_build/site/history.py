"""The change history of the rule pages: when a rulebook's text on this site last changed.

``editions/history.toml`` lists, for every rule page of ``docs/*/regels/`` (a federation's
document or its translation), each change to it: its date, what changed in the reader's
languages, and the SHA-256 of the file as it was after that change::

    [[change]]
    file = "docs/nl/regels/kndb-2018.md"
    date = 2025-03-01
    sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    nl = "voor het eerst op deze site gepubliceerd"
    en = "first published on this site"

The plugin shows the latest change under the page's title ("Laatste wijziging: ..."), so a
reader can tell which text a printed copy holds.  A change that no reader can see (the same
text and diagrams, only written differently in the sources) says ``shown = false``: it records
the new hash and keeps the line the page shows, the latest shown change.  The hash covers the
page's shared diagrams too (``diagrams/<page>.toml``, :mod:`.shared_diagrams`): a diagram
corrected there changes every language's page.  A page whose file no longer has the hash of
its latest change was changed without an entry: :func:`stale` says so, the strict build and
``tests/site/test_history.py`` fail, and ``python scripts/history_entry.py FILE`` prints the
entry to add.  The pages named under ``derived`` (made from others, like a comparison) need
no history.
"""

from __future__ import annotations

import datetime
import hashlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from rulebook_build.errors import SiteError
from rulebook_build.site.shared_diagrams import FOLDER, shared_file_of_page
from rulebook_build.site.templating import TRIMMED
from rulebook_build.words import LANGUAGES, Message, define
from rulebook_build.words import text as said

# the faults of the history, said to whoever builds the site (site.not_toml: shared_diagrams.py)
define("history.unreadable", "cannot read the history: {reason}")
define("history.derived_list", "'derived' must be a list of file names")
define("history.change_list", "'change' must be a list of [[change]] tables")
define(
    "history.out_of_order",
    "{file}: a change dated {date} after one dated {before} "
    "(list each file's changes oldest first)",
)
define("history.change_not_table", "a [[change]] must be a table")
define("history.needs_file", "a change needs 'file', the page's path")
define("history.date", "{file}: 'date' must be a date without quotes (date = 2025-03-01)")
define("history.sha256", "{file}: 'sha256' must be 64 hexadecimal digits")
define("history.needs_text", "{file}: the change needs a text in {languages}")
define("history.unknown_key", "{file}: unknown key {keys}")
define("history.shown", "{file}: 'shown' must be true or false")

RULE_PAGES: Final = "docs/*/regels/*.md"
"""Where the rule pages are; each needs a history unless it is ``derived``."""
HELPER: Final = "python scripts/history_entry.py"

_WORDS_IDS: Final[dict[str, str]] = {
    "last": define("history.last", "Last changed"),
    "earlier": define("history.earlier", "Earlier changes"),
}
WORDS: Final[dict[str, dict[str, str]]] = {
    lang: {key: said(message, lang) for key, message in _WORDS_IDS.items()} for lang in LANGUAGES
}
"""The history notice's labels, per language, from the catalogs."""
_MONTH_IDS: Final = (
    define("history.month_1", "January"),
    define("history.month_2", "February"),
    define("history.month_3", "March"),
    define("history.month_4", "April"),
    define("history.month_5", "May"),
    define("history.month_6", "June"),
    define("history.month_7", "July"),
    define("history.month_8", "August"),
    define("history.month_9", "September"),
    define("history.month_10", "October"),
    define("history.month_11", "November"),
    define("history.month_12", "December"),
)
MONTHS: Final[dict[str, str]] = {
    lang: " ".join(said(month, lang) for month in _MONTH_IDS) for lang in LANGUAGES
}
"""The months, in order, separated by spaces."""


@dataclass(frozen=True, slots=True)
class Change:
    file: str
    """The page's file, relative to the project: ``docs/nl/regels/kndb-2018.md``."""
    date: datetime.date
    sha256: str
    text: Mapping[str, str]
    """What changed, per language."""
    line: int
    """The line of its ``[[change]]`` in the history file."""
    shown: bool = True
    """Whether the page shows it; ``shown = false`` for a change that changes nothing a reader
    sees (the sources rearranged), which only records the new hash."""


@dataclass(frozen=True, slots=True)
class History:
    path: str
    """The history file as messages name it (``editions/history.toml``)."""
    changes: tuple[Change, ...] = ()
    derived: frozenset[str] = field(default_factory=frozenset)
    """File names of rule pages that need no history (``vergelijking.md``)."""

    @staticmethod
    def empty() -> History:
        return History(path="")

    def of(self, file: str) -> list[Change]:
        """The changes of ``file`` (relative to the project), the oldest first."""
        return [change for change in self.changes if change.file == file]


def digest(path: Path) -> str:
    """The SHA-256 of a rule page's text, as the history records it: the file's bytes after
    its front matter and the blank lines after it (the ``---`` block that names the edition
    and source for the PDF, which describes the text and is not part of it), followed, where
    the page has shared diagrams (``diagrams/regels/<page>.toml``), by that file's bytes."""
    data = path.read_bytes()
    if data.startswith(b"---\n"):
        end = data.find(b"\n---\n", 4)
        if end != -1:
            data = data[end + len(b"\n---\n") :].lstrip(b"\n")
    shared = shared_file_of_page(path)
    if shared is not None and shared.is_file():
        data += b"\0" + FOLDER.encode() + b"\0" + shared.read_bytes()
    return hashlib.sha256(data).hexdigest()


def parse_toml(raw: str, *, shown: str) -> dict[str, Any]:
    """A TOML file's data; ``SiteError`` naming ``shown`` and the line where it is not TOML."""
    try:
        return tomllib.loads(raw)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        raise SiteError(
            Message.of("site.not_toml", fault=str(error)),
            source=shown,
            line=int(found[1]) if found else None,
        ) from None


def read_history(path: Path, *, project: Path) -> History:
    """The history at ``path``; none (an empty history) if there is no such file."""
    try:
        shown = path.resolve().relative_to(project.resolve()).as_posix()
    except ValueError:
        shown = path.as_posix()
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return History.empty()
    except OSError as error:
        raise SiteError(
            Message.of("history.unreadable", reason=error.strerror), source=shown
        ) from None
    data = parse_toml(raw, shown=shown)
    starts = [n for n, line in enumerate(raw.splitlines(), start=1) if line.strip() == "[[change]]"]
    entries = data.get("change", [])
    derived = data.get("derived", [])
    if not isinstance(derived, list) or not all(isinstance(name, str) for name in derived):
        raise SiteError(Message.of("history.derived_list"), source=shown)
    if not isinstance(entries, list):
        raise SiteError(Message.of("history.change_list"), source=shown)
    if len(starts) != len(entries):
        starts = [1] * len(entries)
    changes = [_change(entry, shown, line) for entry, line in zip(entries, starts, strict=True)]
    latest: dict[str, Change] = {}
    for change in changes:
        before = latest.get(change.file)
        if before is not None and change.date < before.date:
            raise SiteError(
                Message.of(
                    "history.out_of_order", file=change.file, date=change.date, before=before.date
                ),
                source=shown,
                line=change.line,
            )
        latest[change.file] = change
    return History(path=shown, changes=tuple(changes), derived=frozenset(derived))


def _change(entry: Any, where: str, line: int) -> Change:
    if not isinstance(entry, dict):
        raise SiteError(Message.of("history.change_not_table"), source=where, line=line)
    file, date, sha = entry.get("file"), entry.get("date"), entry.get("sha256")
    if not isinstance(file, str) or not file:
        raise SiteError(Message.of("history.needs_file"), source=where, line=line)
    if not isinstance(date, datetime.date) or isinstance(date, datetime.datetime):
        raise SiteError(Message.of("history.date", file=file), source=where, line=line)
    if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha):
        raise SiteError(Message.of("history.sha256", file=file), source=where, line=line)
    text = {lang: entry[lang] for lang in LANGUAGES if isinstance(entry.get(lang), str)}
    needed = {"nl", "en"} | ({language_of_file(file)} & set(LANGUAGES))
    missing = sorted(needed - {lang for lang, words in text.items() if words.strip()})
    if missing:
        raise SiteError(
            Message.of("history.needs_text", file=file, languages=", ".join(missing)),
            source=where,
            line=line,
        )
    unknown = sorted(set(entry) - {"file", "date", "sha256", "shown", *LANGUAGES})
    if unknown:
        raise SiteError(
            Message.of("history.unknown_key", file=file, keys=", ".join(unknown)),
            source=where,
            line=line,
        )
    shown = entry.get("shown", True)
    if not isinstance(shown, bool):
        raise SiteError(Message.of("history.shown", file=file), source=where, line=line)
    return Change(file=file, date=date, sha256=sha, text=text, line=line, shown=shown)


def language_of_file(file: str) -> str:
    """``docs/fy/regels/x.md`` -> ``fy``."""
    parts = file.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "docs" else "nl"


def rule_pages(history: History, project: Path) -> list[str]:
    """Every rule page that needs a history (relative to the project)."""
    return sorted(
        path.relative_to(project).as_posix()
        for path in project.glob(RULE_PAGES)
        if path.name not in history.derived
    )


def stale(history: History, project: Path) -> list[str]:
    """What is wrong between the history and the files: a rule page changed since its latest
    entry, one without any, an entry of a missing file.  Each message says what to do."""
    if not history.path:
        return []
    problems = []
    latest: dict[str, Change] = {}
    for change in history.changes:
        latest[change.file] = change
    for file, change in sorted(latest.items()):
        path = project / file
        if not path.is_file():
            problems.append(
                f"{history.path}:{change.line}: {file} does not exist (a page renamed or "
                "removed keeps its history under its new name, or loses it)"
            )
        elif digest(path) != change.sha256:
            problems.append(
                f"{file} changed after its latest entry in {history.path} (line {change.line}, "
                f"{change.date}): add a [[change]] with the date, what changed and the new "
                f"sha256; '{HELPER} {file}' prints one to fill in"
            )
    for file in rule_pages(history, project):
        if file not in latest:
            problems.append(
                f"{file} has no entry in {history.path}: add a [[change]] for it "
                f"('{HELPER} {file}' prints one), or list its name under 'derived' if it is "
                "made from other pages"
            )
    return problems


_TEMPLATES: Final = TRIMMED


def long_date(date: datetime.date, lang: str) -> str:
    """``1 mei 2025``, ``1 May 2025``, ``1 maaie 2025``."""
    months = MONTHS.get(lang, MONTHS["nl"]).split()
    return f"{date.day} {months[date.month - 1]} {date.year}"


def history_notice(changes: list[Change], *, lang: str) -> str:
    """The line under a page's title: its latest change, and the earlier ones folded (those
    with ``shown = false`` left out); nothing if none is shown."""
    changes = [change for change in changes if change.shown]
    if not changes:
        return ""
    words = WORDS.get(lang, WORDS["nl"])
    shown = [
        {
            "iso": change.date.isoformat(),
            "date": long_date(change.date, lang),
            "text": change.text.get(lang) or change.text["nl"],
        }
        for change in reversed(changes)
    ]
    return _TEMPLATES.get_template("history.html").render(
        words=words, latest=shown[0], earlier=shown[1:]
    )
