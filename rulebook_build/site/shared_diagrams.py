"""Diagrams written once and captioned per language (guides/webmasters.md, "Diagrams").

The pages of a rulebook in Dutch, English and Frisian show the same diagrams with captions in
their own language.  The language-independent keys of each diagram are kept once, in
``diagrams/<page>.toml`` beside ``editions/`` (``diagrams/regels/kndb-2018.toml`` for
``docs/*/regels/kndb-2018.md``, outside ``docs/`` so MkDocs does not publish it), one table per
diagram, its values written as after ``key:`` in a block::

    [art-3-3]
    position = "start"
    variant = "international"
    numbers = "yes"
    moves = "32-28"

and each language's page names it, with its own caption::

    ```draughts
    diagram: art-3-3
    caption: Afb. 2 — 1e zet: wit speelt 32-28
    ```

A block that names a shared diagram holds ``diagram`` and at most a ``caption``, nothing else:
a diagram's position, moves and marks are the same in every language, so they are written
only in the shared file.  :func:`resolve` turns such a block into the block written out in
full (the shared keys in the file's order, then the caption), which the notation layer reads as
any other, and :func:`relocated` moves a fault of that text to where it was written: the
shared file's line and column for a shared key, the page's for the caption.  A missing file,
a file that is not TOML, an unknown id or another key beside ``diagram`` is a located
``SiteError``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rulebook_build.errors import RulebookError, SiteError
from rulebook_build.notation import DIAGRAM_KEYS
from rulebook_build.words import Message, define

# the faults of a shared diagrams' file, said to whoever builds the site; a TOML file's fault
# is history.py's too
define("site.not_toml", "not TOML: {fault}")
define("shared.missing", "{file} does not exist")
define("shared.unreadable", "cannot read it: {reason}")
define("shared.not_a_table", "'{name}' must be a table, [{name}], of a diagram's keys")
define("shared.unknown_key", "diagram '{name}': unknown key '{key}'")
define(
    "shared.caption",
    "diagram '{name}': unknown key '{key}' (the caption is written in each page's block)",
)
define("shared.one_of_the_keys", "one of the keys {keys}")
define(
    "shared.one_line",
    "diagram '{name}': '{key}' must be a string on one line, as after '{key}:' in a block",
)

FOLDER: Final = "diagrams"
"""The shared diagrams' folder, relative to the project (beside ``editions/``)."""
SHARED_KEYS: Final = tuple(key for key in DIAGRAM_KEYS if key != "caption")
"""The keys a shared diagram holds: everything but the caption."""
SWITCHES: Final = frozenset({"numbers", "flip"})
"""Keys whose value may also be a TOML boolean (``numbers = true``)."""

_DIAGRAM_LINE: Final = re.compile(r"^(?P<lead>[ \t]*diagram[ \t]*:[ \t]*)(?P<id>.*?)[ \t]*$", re.I)
_KEY_LINE: Final = re.compile(r"^[ \t]*(?P<key>[A-Za-z_-]+)[ \t]*:")


def shared_file(project: Path, uri: str) -> Path:
    """``regels/kndb-2018.md`` -> ``<project>/diagrams/regels/kndb-2018.toml``."""
    return project / FOLDER / Path(uri).with_suffix(".toml")


def shared_file_of_page(page: Path) -> Path | None:
    """The shared diagrams of a page of ``docs/<lang>/``: ``docs/en/regels/x.md`` ->
    ``diagrams/regels/x.toml`` (whether or not it exists); ``None`` outside ``docs/``."""
    parts = page.resolve().parts
    for at in range(len(parts) - 3, -1, -1):
        if parts[at] == "docs":
            return shared_file(Path(*parts[:at]), "/".join(parts[at + 2 :]))
    return None


@dataclass(frozen=True, slots=True)
class SharedDiagram:
    """One diagram of a shared file: its keys (name, value as in a block) in the file's order,
    and where each was written."""

    id: str
    keys: tuple[tuple[str, str], ...]
    source: str
    """The file as messages name it (``diagrams/regels/kndb-2018.toml``)."""
    line: int
    """The line of its ``[id]``."""
    places: tuple[tuple[int, int | None, str], ...]
    """Per key: its line in the file, the column its value starts at (``None`` if it is not a
    one-line string), and that line's text."""


_files: dict[Path, tuple[tuple[int, int], dict[str, SharedDiagram]]] = {}


def read_shared(path: Path, *, shown: str) -> dict[str, SharedDiagram]:
    """The diagrams of a shared file, by id; read again only when the file changed."""
    try:
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        known = _files.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SiteError(Message.of("shared.missing", file=shown), source=shown) from None
    except OSError as error:
        raise SiteError(
            Message.of("shared.unreadable", reason=error.strerror), source=shown
        ) from None
    diagrams = parse_shared(raw, shown=shown)
    _files[path] = (stamp, diagrams)
    return diagrams


def parse_shared(raw: str, *, shown: str) -> dict[str, SharedDiagram]:
    """The diagrams of a shared file's text; a located ``SiteError`` where it is wrong."""
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        raise SiteError(
            Message.of("site.not_toml", fault=str(error)),
            source=shown,
            line=int(found[1]) if found else None,
        ) from None
    lines = raw.splitlines()
    diagrams: dict[str, SharedDiagram] = {}
    for name, table in data.items():
        start = _header_line(lines, name)
        if not isinstance(table, dict):
            raise SiteError(
                Message.of("shared.not_a_table", name=name),
                source=shown,
                line=start,
            )
        keys: list[tuple[str, str]] = []
        places: list[tuple[int, int | None, str]] = []
        for key, value in table.items():
            line, column = _key_place(lines, start, key)
            if key not in SHARED_KEYS:
                unknown = "shared.caption" if key == "caption" else "shared.unknown_key"
                raise SiteError(
                    Message.of(unknown, name=name, key=key),
                    source=shown,
                    line=line,
                    expected=Message.of("shared.one_of_the_keys", keys=", ".join(SHARED_KEYS)),
                )
            if isinstance(value, bool) and key in SWITCHES:
                value = "yes" if value else "no"
                column = None
            if not isinstance(value, str) or "\n" in value:
                raise SiteError(
                    Message.of("shared.one_line", name=name, key=key),
                    source=shown,
                    line=line,
                )
            keys.append((key, value))
            places.append((line, column, lines[line - 1] if 0 < line <= len(lines) else ""))
        diagrams[name] = SharedDiagram(name, tuple(keys), shown, start, tuple(places))
    return diagrams


def _header_line(lines: list[str], name: str) -> int:
    pattern = re.compile(r"^\s*\[\s*(?:" + re.escape(name) + r"|\"" + re.escape(name) + r"\")\s*\]")
    return next((n for n, line in enumerate(lines, start=1) if pattern.match(line)), 1)


def _key_place(lines: list[str], start: int, key: str) -> tuple[int, int | None]:
    """The line of ``key`` in the table starting at line ``start``, and the column its
    string value starts at."""
    pattern = re.compile(r"^(\s*" + re.escape(key) + r"\s*=\s*[\"'])")
    for number in range(start + 1, len(lines) + 1):
        text = lines[number - 1]
        if text.lstrip().startswith("["):
            break
        match = pattern.match(text)
        if match:
            return number, len(match[1]) + 1
        if re.match(r"^\s*" + re.escape(key) + r"\s*=", text):
            return number, None
    return start, None


@dataclass(frozen=True, slots=True)
class Resolved:
    """A block that names a shared diagram, written out in full."""

    text: str
    """The shared keys as ``key: value`` lines, then the block's caption line."""
    diagram: SharedDiagram
    caption_line: int | None
    """The caption's line in the page (1-based in the block's text), if it has one."""


def names_shared(text: str) -> bool:
    """Whether a block's text names a shared diagram (has a ``diagram:`` line)."""
    return any(_DIAGRAM_LINE.match(line) for line in text.splitlines())


def resolve(
    text: str, *, project: Path, uri: str, source: str, first_line: int, indent: int
) -> Resolved | None:
    """The block written out in full, if it names a shared diagram; ``None`` if it does not.

    ``source``, ``first_line`` and ``indent`` place the block in its page, for the errors."""
    rows = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    named: tuple[int, re.Match[str]] | None = None
    caption: tuple[int, str] | None = None
    for number, row in enumerate(rows, start=1):
        found = _DIAGRAM_LINE.match(row)
        if found is not None and named is None:
            named = (number, found)
    if named is None:
        return None

    def fault(message: str, line: int, column: int, expected: str | None = None) -> SiteError:
        return SiteError(
            message,
            source=source,
            line=first_line + line - 1,
            column=indent + column,
            source_line=" " * indent + rows[line - 1],
            expected=expected,
        )

    for number, row in enumerate(rows, start=1):
        if not row.strip() or number == named[0]:
            continue
        key = _KEY_LINE.match(row)
        word = key["key"].lower() if key else row.strip()
        if word == "caption" and caption is None:
            caption = (number, row)
            continue
        again = word in ("caption", "diagram")
        raise fault(
            f"'{word}' is given twice" if again else f"'{word}' beside 'diagram'",
            number,
            len(row) - len(row.lstrip()) + 1,
            expected="only 'diagram: <id>' and 'caption: ...': the other keys are the shared "
            "diagram's",
        )
    line, match = named
    name = match["id"]
    column = len(match["lead"]) + 1
    if not name:
        raise fault("'diagram' needs the id of a shared diagram", line, column)
    if not uri:
        raise fault("a shared diagram needs a page of docs/", line, 1)
    path = shared_file(project, uri)
    shown = _shown(path, project)
    if not path.is_file():
        raise fault(
            f"no shared diagrams for this page: {shown} does not exist",
            line,
            column,
            expected=f"a [{name}] table in {shown}",
        )
    diagrams = read_shared(path, shown=shown)
    diagram = diagrams.get(name)
    if diagram is None:
        known = ", ".join(list(diagrams)[:8]) + (", ..." if len(diagrams) > 8 else "")
        raise fault(
            f"no diagram '{name}' in {shown}",
            line,
            column,
            expected=f"one of {known}" if known else f"a [{name}] table in {shown}",
        )
    full = [f"{key}: {value}" for key, value in diagram.keys]
    if caption is not None:
        full.append(caption[1].strip())
    return Resolved("\n".join(full), diagram, caption[0] if caption else None)


def relocated(
    error: RulebookError,
    resolved: Resolved,
    *,
    source: str,
    first_line: int,
    indent: int,
    text: str,
) -> RulebookError:
    """A fault of ``resolved.text`` (read with ``first_line=1``) where it was written: the shared
    file for a shared key, the page's block (``text`` at ``first_line``) for the caption."""
    diagram = resolved.diagram
    line = error.line or 1
    column = error.column
    if line <= len(diagram.keys):
        key, _value = diagram.keys[line - 1]
        at, start, shown = diagram.places[line - 1]
        if start is not None and column is not None:
            column = start + column - (len(key) + 3)
        else:
            column = None
        where, line, source_line = diagram.source, at, shown
        message = f"diagram '{diagram.id}': {error.message}"
    else:
        row = resolved.caption_line or 1
        rows = text.split("\n")
        lead = len(rows[row - 1]) - len(rows[row - 1].lstrip()) if row <= len(rows) else 0
        where, line = source, first_line + row - 1
        column = None if column is None else indent + lead + column
        source_line = " " * indent + (rows[row - 1] if row <= len(rows) else "")
        message = error.message
    return type(error)(
        message,
        source=where,
        line=line,
        column=column,
        source_line=source_line,
        expected=error.expected,
    )


def _shown(path: Path, project: Path) -> str:
    try:
        return path.resolve().relative_to(project.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
