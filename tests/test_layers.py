"""The layers of guides/design.md: every import of the package points down, never up or across,
and goes through the room's face (its ``__init__``'s ``__all__``), never into its inner modules.

Each module is read with :mod:`ast` (imports inside functions and ``TYPE_CHECKING`` blocks
count too, since they tie the rooms together as much as the others), and each import of
another room must go to a room of a lower rank.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "rulebook_build"

RANK = {
    # shared by every layer: the package's version, its errors, its cache folder and the
    # lifetime of its child processes, the words' catalogs (the rules and the notation raise
    # errors that carry message ids)
    "__init__": 0,
    "errors": 0,
    "cachedir": 0,
    "lifetime": 0,
    "words": 0,
    "rules": 1,
    "notation": 2,
    "engine": 3,
    "render": 4,
    "checker": 4,
    "similar": 4,
    "checkpage": 5,
    "site": 6,
    "cli": 7,
}

ONLY_IN = {
    "lark": "notation",
    "mkdocs": "site",
    "markdown": "site",
    "diff_match_patch": "site",
    "weasyprint": "site",
    "distributed": "cli",
}
"""Outside packages that only one room may import."""


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(text: str) -> list[tuple[int, str]]:
    """Line and name of every absolute import in a module's text."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "rulebook_build":  # from rulebook_build import errors
                found += [(node.lineno, f"rulebook_build.{a.name}") for a in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def violations(relative: Path, text: str) -> list[str]:
    """What is wrong with the imports of the module at ``relative`` (to the project)."""
    source = room_of(".".join(relative.with_suffix("").parts))
    wrong: list[str] = []
    for line, name in imports(text):
        top = name.split(".")[0]
        if top == "rulebook_build":
            target = room_of(name)
            if target not in RANK:  # `from rulebook_build import __version__` and the like
                target = "__init__"
            if target != source and RANK[target] >= RANK[source]:
                wrong.append(f"{relative}:{line}: {source} imports {target} ({name})")
        elif top in ONLY_IN and ONLY_IN[top] != source:
            wrong.append(f"{relative}:{line}: only {ONLY_IN[top]} may import {top}")
    return wrong


def test_every_room_has_a_rank() -> None:
    rooms = {p.stem for p in PACKAGE.glob("*.py")} | {
        p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()
    }
    assert rooms == set(RANK)


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.relative_to(PACKAGE).as_posix()
)
def test_imports_point_down(path: Path) -> None:
    assert violations(path.relative_to(PACKAGE.parent), path.read_text(encoding="utf-8")) == []


def test_an_upward_import_is_caught() -> None:
    """The check itself: a rules module that imports the checker inside a function, a render
    module that imports the checker beside it, and a site module that imports Lark."""
    upward = "def f():\n    from rulebook_build.checker import judge\n"
    assert violations(Path("rulebook_build/rules/x.py"), upward) == [
        "rulebook_build/rules/x.py:2: rules imports checker (rulebook_build.checker)"
    ]
    across = "from rulebook_build.checker.grade import Grade\n"
    assert violations(Path("rulebook_build/render/x.py"), across) == [
        "rulebook_build/render/x.py:1: render imports checker (rulebook_build.checker.grade)"
    ]
    assert violations(Path("rulebook_build/site/x.py"), "import lark.lexer\n") == [
        "rulebook_build/site/x.py:1: only notation may import lark"
    ]
    assert violations(Path("rulebook_build/cli/x.py"), upward) == []


def rooms_with_faces() -> list[str]:
    """The rooms that are packages: each has a face other rooms import."""
    return sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())


def face_of(room: str) -> set[str]:
    """The names a room offers: its ``__init__``'s ``__all__``, read without importing it."""
    tree = ast.parse((PACKAGE / room / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            assert isinstance(node.value, ast.List)
            return {str(ast.literal_eval(element)) for element in node.value.elts}
    return set()


def past_faces(relative: Path, text: str, faces: dict[str, set[str]]) -> list[str]:
    """The imports of the module at ``relative`` that reach into another room past its face."""
    source = room_of(".".join(relative.with_suffix("").parts))
    wrong: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            named = [(node.lineno, alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named = [(node.lineno, node.module, alias.name) for alias in node.names]
        else:
            continue
        for line, module, name in named:
            target = room_of(module)
            if not module.startswith("rulebook_build.") or target in (source, "__init__"):
                continue
            if target not in faces:  # a module room: errors, cachedir, lifetime
                continue
            if module.count(".") > 1:
                wrong.append(f"{relative}:{line}: {source} imports {module}, inside {target}")
            elif name is not None and name not in faces[target]:
                wrong.append(f"{relative}:{line}: {target}'s face does not offer {name}")
    return wrong


FACES = {room: face_of(room) for room in rooms_with_faces()}


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.relative_to(PACKAGE).as_posix()
)
def test_imports_go_through_faces(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert past_faces(path.relative_to(PACKAGE.parent), text, FACES) == []


@pytest.mark.parametrize("room", rooms_with_faces())
def test_every_name_of_a_face_is_there(room: str) -> None:
    """Each name a face lists can be imported from it (a face's lazy table has no typo)."""
    module = importlib.import_module(f"rulebook_build.{room}")
    missing = [name for name in sorted(FACES[room]) if getattr(module, name, None) is None]
    assert missing == []


def test_an_import_past_a_face_is_caught() -> None:
    faces = {"checker": {"Checker"}, "rules": {"Variant"}}
    inner = "from rulebook_build.checker.front import Checker\n"
    assert past_faces(Path("rulebook_build/site/x.py"), inner, faces) == [
        "rulebook_build/site/x.py:1: site imports rulebook_build.checker.front, inside checker"
    ]
    hidden = "def f():\n    from rulebook_build.checker import Judge\n"
    assert past_faces(Path("rulebook_build/cli/x.py"), hidden, faces) == [
        "rulebook_build/cli/x.py:2: checker's face does not offer Judge"
    ]
    plain = "import rulebook_build.rules.board\n"
    assert past_faces(Path("rulebook_build/notation/x.py"), plain, faces) == [
        "rulebook_build/notation/x.py:1: notation imports rulebook_build.rules.board, inside rules"
    ]
    inside = "from rulebook_build.checker.front import Checker\nfrom rulebook_build import errors\n"
    assert past_faces(Path("rulebook_build/checker/x.py"), inside, faces) == []


ROOM_SHARE = 0.25
"""No room holds more than this part of the package's lines: one that grows past it is doing
two jobs and splits by job (guides/design.md)."""


def room_lines() -> dict[str, int]:
    """The lines of Python in each room (a folder of the package), counted from its files."""
    lines: dict[str, int] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).parts
        if len(parts) > 1:
            lines[parts[0]] = lines.get(parts[0], 0) + len(path.read_text().splitlines())
    return lines


def test_no_room_holds_over_a_quarter_of_the_package() -> None:
    lines = room_lines()
    total = sum(len(path.read_text().splitlines()) for path in PACKAGE.rglob("*.py"))
    assert {"site", "engine", "checker"} <= lines.keys()
    over = {room: n for room, n in lines.items() if n > total * ROOM_SHARE}
    assert over == {}, f"rooms over {ROOM_SHARE:.0%} of the package's {total} lines: {over}"
