"""The check page's Python bundle holds every module the browser's entry point needs.

The page imports ``rulebook_build.checkpage.entry`` inside Pyodide from the zip that
:func:`python_bundle` makes; a module it imports (at any depth, inside functions too) that the
zip lacks is an ``ImportError`` a composer meets only in the browser.  This test follows the
imports statically, so it needs no browser: a name imported from a room's face is followed to
the module the face takes it from, and imports only a type checker reads (``TYPE_CHECKING``)
are not followed.
"""

from __future__ import annotations

import ast
import io
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

import rulebook_build
from rulebook_build.checkpage import compiled_bundle, pyodide_folder, python_bundle
from rulebook_build.errors import OutputError

PACKAGE = Path(rulebook_build.__file__).resolve().parent
WORKER = PACKAGE / "checkpage" / "assets" / "checker-worker.js"


def worker_module() -> str:
    """The module the page's worker imports under Pyodide, as its script names it."""
    found = set(re.findall(r'pyimport\("([\w.]+)"\)', WORKER.read_text(encoding="utf-8")))
    assert len(found) == 1, found
    return found.pop()


def _module_file(name: str) -> Path | None:
    relative = Path(*name.split(".")[1:])
    if not relative.parts:
        return PACKAGE / "__init__.py"
    for candidate in (PACKAGE / relative / "__init__.py", PACKAGE / relative.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in (
        "TYPE_CHECKING",
        "typing.TYPE_CHECKING",
    )


def _import_nodes(tree: ast.AST, *, type_checking: bool) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module: those that run, or those under ``TYPE_CHECKING``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST, checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = checking or _is_type_checking(child)
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside == type_checking:
                found.append(child)
            visit(child, inside)

    visit(tree, False)
    return found


def face_sources(package: str) -> dict[str, str]:
    """Where a room's face takes each name from: its ``TYPE_CHECKING`` imports, which the
    tests of the layers keep equal to the names it offers."""
    path = _module_file(package)
    assert path is not None
    sources: dict[str, str] = {}
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8")), type_checking=True):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                sources[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return sources


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in _import_nodes(tree, type_checking=False):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif node.module and node.level == 0 and node.module.startswith("rulebook_build"):
            found.add(node.module)
            sources = face_sources(node.module) if _module_file(node.module) else {}
            for alias in node.names:
                name = sources.get(alias.name, f"{node.module}.{alias.name}")
                # a name defined in a module: the module; a module: itself
                found.add(name if _module_file(name) else name.rpartition(".")[0])
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
    needed = needed_by("rulebook_build.checkpage.entry")
    # followed through the faces: the walk of the search's trees, the player's HTML
    assert {"rulebook_build.engine.search", "rulebook_build.render.html"} <= needed
    assert "rulebook_build.render.raster" not in needed  # the command line's, not the page's
    files = {name: _module_file(name) for name in needed}
    missing = sorted(
        name
        for name, path in files.items()
        if path is not None
        and f"rulebook_build/{path.relative_to(PACKAGE).as_posix()}" not in names
    )
    assert missing == []
    # no C source travels with it: the tables' names are written down, not hashed from them
    assert not [name for name in names if name.startswith("rulebook_build/engine/native/")]


def test_the_bundle_holds_the_module_the_worker_imports_and_its_packages() -> None:
    """The worker names its Python module in JavaScript: that module, each package above it (an
    import runs their ``__init__`` first) and what they import are in the zip."""
    with zipfile.ZipFile(io.BytesIO(python_bundle())) as bundle:
        names = set(bundle.namelist())
    module = worker_module()
    parts = module.split(".")
    chain = [".".join(parts[:end]) for end in range(1, len(parts) + 1)]
    needed = set().union(*(needed_by(name) for name in chain))
    assert set(chain) <= needed  # every one of them is a file of the package
    files = {name: _module_file(name) for name in needed}
    missing = sorted(
        name
        for name, path in files.items()
        if path is None or f"rulebook_build/{path.relative_to(PACKAGE).as_posix()}" not in names
    )
    assert missing == []


# The bundle the site ships: compiled to bytecode by the page's own Pyodide (under Node.js).

REPOSITORY = PACKAGE.parent


@pytest.fixture(scope="module")
def pyodide() -> Path:
    folder = pyodide_folder(REPOSITORY)
    if folder is None or shutil.which("node") is None:
        pytest.fail(
            "node_modules/pyodide or Node.js is missing: run 'npm ci' (scripts/test.sh does)"
        )
    return folder


@pytest.fixture(scope="module")
def compiled(pyodide: Path) -> tuple[bytes, bytes]:
    """The sources' bundle and the same compiled (once for the module: some seconds)."""
    source = python_bundle()
    return source, compiled_bundle(source, pyodide)


def _entries(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as bundle:
        return {name: bundle.read(name) for name in bundle.namelist()}


def test_the_compiled_bundle_has_bytecode_for_each_module_and_the_same_other_files(
    compiled: tuple[bytes, bytes],
) -> None:
    source, built = (_entries(data) for data in compiled)
    modules = {name for name in source if name.endswith(".py")}
    assert "rulebook_build/checkpage/entry.py" in modules
    # each module's bytecode beside where its source was, and no source
    assert {name for name in built if name.endswith(".pyc")} == {f"{name}c" for name in modules}
    assert not [name for name in built if name.endswith(".py")]
    # the grammars, catalogs and calibration as they are
    others = {name: data for name, data in source.items() if not name.endswith(".py")}
    assert others and {name: built[name] for name in others} == others
    # hash-based and unchecked (flags 0b01): the header holds no time, the browser reads no
    # source to compare
    assert {data[4:8] for name, data in built.items() if name.endswith(".pyc")} == {
        b"\x01\x00\x00\x00"
    }


def test_the_same_sources_compile_to_the_same_bytes(
    compiled: tuple[bytes, bytes], pyodide: Path
) -> None:
    assert compiled_bundle(compiled[0], pyodide) == compiled[1]


IMPORT_IN_PYODIDE = """
import { loadPyodide } from "%(pyodide)s";
import { readFileSync } from "node:fs";
const py = await loadPyodide({ stdout: () => {}, stderr: () => {} });
py.unpackArchive(new Uint8Array(readFileSync(%(bundle)s)), "zip", {
  extractDir: "/home/pyodide/rulebook",
});
console.log(py.runPython(`
import sys
sys.path.insert(0, "/home/pyodide/rulebook")
import %(module)s as entry
import json
json.dumps({
    "from": entry.__file__,
    "loaded": sorted(n for n in ("argparse", "ctypes", "platform") if n in sys.modules),
})
`));
"""


def test_the_compiled_bundle_imports_the_entry_without_the_command_lines_modules(
    compiled: tuple[bytes, bytes], pyodide: Path, tmp_path: Path
) -> None:
    """The worker's module imports from bytecode alone; and the modules only the command line
    needs (argument parsing, the C library, the processor's name: some 0.2 s of a page's start)
    are not loaded on the way."""
    bundle = tmp_path / "bundle.zip"
    bundle.write_bytes(compiled[1])
    script = IMPORT_IN_PYODIDE % {
        "pyodide": (pyodide / "pyodide.mjs").as_uri(),
        "bundle": json.dumps(str(bundle)),
        "module": worker_module(),
    }
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {
        "from": "/home/pyodide/rulebook/rulebook_build/checkpage/entry.pyc",
        "loaded": [],
    }


def test_a_module_that_does_not_compile_stops_the_compilation_with_its_name(
    pyodide: Path,
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        bundle.writestr("rulebook_build/__init__.py", "")
        bundle.writestr("rulebook_build/broken.py", "def f(:\n")
    with pytest.raises(OutputError, match=r"rulebook_build/broken\.py"):
        compiled_bundle(buffer.getvalue(), pyodide)


def test_without_node_the_compilation_says_so(
    pyodide: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(OutputError, match=r"Node\.js \('node'\) is not installed"):
        compiled_bundle(python_bundle(), pyodide)
