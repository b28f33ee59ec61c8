"""The check page's Python bundle holds every module the browser's entry point needs.

The page imports ``rulebook_build.browser`` inside Pyodide from the zip that
:func:`python_bundle` makes; a module it imports (at any depth, inside functions too) that the
zip lacks is an ``ImportError`` a composer meets only in the browser.  This test follows the
imports statically, so it needs no browser.
"""

from __future__ import annotations

import ast
import io
import zipfile
from pathlib import Path

import rulebook_build
from rulebook_build.site.checker_page import python_bundle

PACKAGE = Path(rulebook_build.__file__).resolve().parent


def _module_file(name: str) -> Path | None:
    relative = Path(*name.split(".")[1:])
    for candidate in (PACKAGE / relative / "__init__.py", PACKAGE / relative.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {name for name in found if name.startswith("rulebook_build.")}


def needed_by(entry: str) -> set[str]:
    """The package's modules ``entry`` imports, directly or through others (files only)."""
    seen: set[str] = set()
    waiting = [entry]
    while waiting:
        name = waiting.pop()
        path = _module_file(name)
        if name in seen or path is None:
            continue
        seen.add(name)
        waiting += sorted(_imports(path))
    return seen


def test_the_bundle_holds_what_the_browser_imports() -> None:
    with zipfile.ZipFile(io.BytesIO(python_bundle())) as bundle:
        names = set(bundle.namelist())
    needed = needed_by("rulebook_build.browser")
    assert "rulebook_build.engine.search" in needed  # the walk of the search's trees
    files = {name: _module_file(name) for name in needed}
    missing = sorted(
        name
        for name, path in files.items()
        if path is not None
        and f"rulebook_build/{path.relative_to(PACKAGE).as_posix()}" not in names
    )
    assert missing == []
    # the C sources travel with it: the tables' rules fingerprint reads them
    assert "rulebook_build/engine/native/draughts.h" in names
