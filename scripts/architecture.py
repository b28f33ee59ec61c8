"""The picture of the package's rooms and their imports, for guides/design.md.

    python scripts/architecture.py           print the picture (a Mermaid flowchart)
    python scripts/architecture.py --write   put it into guides/design.md, between its markers

Every module of ``rulebook_build/`` is read with :mod:`ast`; a room (a subpackage, or a module
of the package's top level) points to each room it imports.  The shared rooms every layer may
use (the errors, the cache folder, the lifetime of child processes, the version, the words'
catalogs) are left out of the arrows and named under the picture.
``tests/test_architecture.py`` fails when the guide's picture is not the one this script
draws, so the picture stays true.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rulebook_build"
GUIDE = ROOT / "guides" / "design.md"
BEGIN = "<!-- architecture: drawn by scripts/architecture.py; do not edit by hand -->"
END = "<!-- end of architecture -->"
SHARED = ("__init__", "errors", "cachedir", "lifetime", "words")
"""Rooms every layer may import: left out of the arrows."""
ORDER = ("cli", "site", "checkpage", "render", "checker", "similar", "engine", "notation", "rules")
"""The rooms from top to bottom, as the layers stand."""


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def edges() -> set[tuple[str, str]]:
    """(room, room it imports) for every import between two rooms of the package."""
    found: set[tuple[str, str]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).with_suffix("")
        source = room_of(".".join(relative.parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "rulebook_build":
                    names = [f"rulebook_build.{alias.name}" for alias in node.names]
                else:
                    names = [node.module]
            for name in names:
                if name.split(".")[0] != "rulebook_build":
                    continue
                target = room_of(name)
                if target not in ORDER:
                    target = "__init__"
                if target != source and source not in SHARED and target not in SHARED:
                    found.add((source, target))
    return found


def picture() -> str:
    """The guide's block: a Mermaid flowchart, top to bottom, and the shared rooms."""
    arrows = sorted(edges(), key=lambda pair: (ORDER.index(pair[0]), ORDER.index(pair[1])))
    lines = [BEGIN, "", "```mermaid", "flowchart TD"]
    for room in ORDER:
        label = f"{room}.py" if (PACKAGE / f"{room}.py").is_file() else f"{room}/"
        lines.append(f'    {room}["{label}"]')
    lines += [f"    {source} --> {target}" for source, target in arrows]
    lines += [
        "```",
        "",
        "Every room may also use the shared ones: "
        + ", ".join(
            f"`{name}/`" if (PACKAGE / name).is_dir() else f"`{name}.py`" for name in SHARED
        )
        + ".",
        "",
        END,
    ]
    return "\n".join(lines)


def in_guide(text: str) -> str | None:
    """The picture as the guide holds it, or None without the markers."""
    if BEGIN not in text or END not in text:
        return None
    start = text.index(BEGIN)
    return text[start : text.index(END, start) + len(END)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put it into guides/design.md")
    args = parser.parse_args()
    drawn = picture()
    if not args.write:
        print(drawn)
        return 0
    text = GUIDE.read_text(encoding="utf-8")
    held = in_guide(text)
    if held is None:
        print(
            f"{GUIDE}: no markers ({BEGIN} ... {END}) to put the picture between", file=sys.stderr
        )
        return 2
    GUIDE.write_text(text.replace(held, drawn), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
