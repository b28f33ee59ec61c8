"""Move the diagrams that a page's languages share into one file, ``diagrams/<page>.toml``.

For each page of ``docs/nl/`` that has a translation (``docs/en/``, ``docs/fy/``), the
```` ```draughts ```` blocks are compared in order: where the blocks at the same place hold
the same keys in every language, apart from their captions, the keys go to the page's shared
file under an id (the nearest preceding heading's anchor, ``art-3-3``, then ``art-3-3b``,
``art-3-3c`` for more diagrams under it; ``d`` where no heading has an anchor), and each
language's block becomes ``diagram: <id>`` with its own caption.  Blocks that differ in more
than their captions are left as they are and listed: a translation may have copied one wrong.

Run it again when a page gets a new translation: blocks already shared count with their shared
keys, so the new language's blocks join the ids that are there.  The shared file is written
anew (its diagrams in the page's order, those no block names kept at the end), so comments
added by hand are lost.  A changed page needs a history entry (``shown = false``:
guides/webmasters.md, "The change history of the rule pages").

    .venv/bin/python scripts/share_diagrams.py              # every rulebook (docs/nl/regels/)
    .venv/bin/python scripts/share_diagrams.py regels/kndb-2018.md --dry-run
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.site.fences import dedent, fences  # noqa: E402
from rulebook_build.site.shared_diagrams import (  # noqa: E402
    SharedDiagram,
    read_shared,
    shared_file,
)

LANGUAGES = ("nl", "en", "fy")
ANCHOR = re.compile(r"^#{1,6}\s.*\{#(?P<anchor>[A-Za-z0-9_-]+)[^}]*\}\s*$")
DIAGRAM = re.compile(r"^diagram\s*:\s*(?P<id>\S*)\s*$", re.IGNORECASE)


@dataclass
class Block:
    first: int
    """The index of its first line (after the fence) in the page's lines."""
    end: int
    """The index of its closing fence."""
    indent: str
    keys: dict[str, str]
    """Every key but the caption, as written (``diagram`` resolved to the shared keys)."""
    caption: str | None
    """The caption line, as written (without the indent)."""
    shared: str | None
    """The id it names, if it names one."""
    anchor: str | None
    line: int
    """The line of its opening fence in the page as it was read (1-based)."""


def blocks_of(lines: list[str], shared: dict[str, SharedDiagram]) -> list[Block]:
    """The ```` ```draughts ```` blocks of a page, in order."""
    found: list[Block] = []
    anchor: str | None = None
    read = 0  # the lines before this index were looked at for headings
    for fence in fences(lines):
        for line in lines[read : fence.start]:
            heading = ANCHOR.match(line)
            if heading:
                anchor = heading["anchor"]
        read = fence.end + 1
        if fence.kind != "draughts":
            continue
        keys: dict[str, str] = {}
        caption = name = None
        for row in lines[fence.start + 1 : fence.end]:
            text = dedent(row, fence.indent)
            if not text.strip():
                continue
            key, _colon, value = text.partition(":")
            key = key.strip().lower()
            if key == "caption":
                caption = text.strip()
            elif key == "diagram":
                name = value.strip()
            else:
                keys[key] = value.strip()
        if name is not None:
            if name not in shared or keys:
                raise SystemExit(f"a block names '{name}', unknown or with other keys")
            keys = dict(shared[name].keys)
        start = fence.start
        found.append(
            Block(start + 1, fence.end, fence.indent, keys, caption, name, anchor, start + 1)
        )
    return found


def _new_id(anchor: str | None, taken: set[str]) -> str:
    base = anchor or "d"
    if base not in taken:
        return base
    for letter in "bcdefghijklmnopqrstuvwxyz":
        if base + letter not in taken:
            return base + letter
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


def toml_text(uri: str, diagrams: dict[str, dict[str, str]]) -> str:
    lines = [
        f"# The diagrams of {uri}, the same in every language: each page's block names one",
        "# ('diagram: <id>') and gives its own caption. Written by scripts/share_diagrams.py;",
        '# guides/webmasters.md, "Diagrams", says more.',
    ]
    for name, keys in diagrams.items():
        lines += ["", f"[{name}]"]
        lines += [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in keys.items()]
    return "\n".join(lines) + "\n"


def share(uri: str, *, root: Path = ROOT, write: bool = True) -> tuple[int, list[str], bool]:
    """Share the diagrams of page ``uri`` (``regels/kndb-2018.md``): the number of places
    shared, the places left because they differ, and whether anything changed."""
    pages = {lang: root / "docs" / lang / uri for lang in LANGUAGES}
    pages = {lang: path for lang, path in pages.items() if path.is_file()}
    if "nl" not in pages or len(pages) < 2:
        return 0, [], False
    path = shared_file(root, uri)
    shown = path.relative_to(root).as_posix()
    existing = read_shared(path, shown=shown) if path.is_file() else {}
    texts = {lang: page.read_text(encoding="utf-8").split("\n") for lang, page in pages.items()}
    found = {lang: blocks_of(lines, existing) for lang, lines in texts.items()}
    counts = {lang: len(blocks) for lang, blocks in found.items()}
    if len(set(counts.values())) > 1:
        return 0, [f"{uri}: the languages have different numbers of diagrams {counts}"], False
    diagrams: dict[str, dict[str, str]] = {}
    taken = set(existing)
    left: list[str] = []
    shared = 0
    changed = False
    for place, row in enumerate(zip(*found.values(), strict=True), start=1):
        by_lang = dict(zip(found, row, strict=True))
        if any(block.keys != row[0].keys for block in row):
            where = ", ".join(f"docs/{lang}/{uri}:{b.line}" for lang, b in by_lang.items())
            differing = sorted(
                {
                    key
                    for b in row
                    for key in {*b.keys, *row[0].keys}
                    if b.keys.get(key) != row[0].keys.get(key)
                }
            )
            left.append(f"{uri} diagram {place} ({where}): differs in {', '.join(differing)}")
            continue
        names = {block.shared for block in row if block.shared}
        name = names.pop() if len(names) == 1 else _new_id(by_lang["nl"].anchor, taken)
        taken.add(name)
        diagrams[name] = row[0].keys
        shared += 1
        for lang, block in by_lang.items():
            if block.shared == name:
                continue
            changed = True
            lines = texts[lang]
            body = [f"diagram: {name}", *([block.caption] if block.caption else [])]
            lines[block.first : block.end] = [block.indent + text for text in body]
            # the blocks below moved up: their indices in this language's lines
            moved = (block.end - block.first) - len(body)
            for later in found[lang]:
                if later.first > block.first:
                    later.first -= moved
                    later.end -= moved
    for name, diagram in existing.items():
        diagrams.setdefault(name, dict(diagram.keys))
    if not diagrams:
        return shared, left, changed
    text = toml_text(uri, diagrams)
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    changed = changed or text != old
    if write and changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        for lang, page in pages.items():
            page.write_text("\n".join(texts[lang]), encoding="utf-8")
    return shared, left, changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="pages as in every language: regels/x.md")
    parser.add_argument("--dry-run", action="store_true", help="report, change nothing")
    args = parser.parse_args(argv)
    dutch = ROOT / "docs" / "nl"
    uris = args.pages or sorted(
        p.relative_to(dutch).as_posix() for p in (dutch / "regels").glob("*.md")
    )
    total = 0
    for uri in uris:
        shared, left, changed = share(uri, write=not args.dry_run)
        total += shared
        if shared or left:
            state = "changed" if changed else "unchanged"
            print(f"{uri}: {shared} diagrams shared, {len(left)} left ({state})")
        for line in left:
            print(f"  left: {line}")
    print(f"{total} diagrams shared in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
