"""The checker has one front door: outside ``rulebook_build/checker/`` nobody builds a
``Judge`` or calls the command line from inside; they judge through ``checker.front.Checker``.

Read with :mod:`ast`, so a comment or a docstring that names them does not count, and an alias
(``from ... import Judge as J``) does.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKED = sorted(
    path
    for folder in ("rulebook_build", "scripts", "benchmarks")
    for path in (ROOT / folder).rglob("*.py")
    if not path.is_relative_to(ROOT / "rulebook_build" / "checker")
)


def judges_built(tree: ast.AST) -> list[int]:
    """The lines that call ``Judge`` (or a name imported as it) or subclass it."""
    names = {"Judge"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "rulebook_build.checker.judge":
            names |= {
                alias.asname for alias in node.names if alias.name == "Judge" and alias.asname
            }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in names:
                found.append(node.lineno)
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                if isinstance(base, ast.Name) and base.id in names:
                    found.append(node.lineno)
    return found


def command_called(tree: ast.AST) -> list[int]:
    """The lines that import the command line's ``main`` to run it from inside."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module == "rulebook_build.cli"
        and any(alias.name == "main" for alias in node.names)
    ]


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_checker_builds_a_judge(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert judges_built(tree) == [], f"{path.relative_to(ROOT)}: judge through Checker instead"


@pytest.mark.parametrize(
    "path", [p for p in CHECKED if "rulebook_build" in p.parts], ids=lambda p: p.name
)
def test_nothing_runs_the_command_line_from_inside(path: Path) -> None:
    if path.name == "__main__.py":
        return  # 'python -m rulebook_build.cli' is the command line itself
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert command_called(tree) == [], f"{path.relative_to(ROOT)} calls the command line"


def test_the_lint_sees_a_judge_built_and_a_command_run() -> None:
    built = ast.parse(
        "from rulebook_build.checker.judge import Judge as J\nclass Mine(Judge): ...\nJ(variant)\n"
    )
    assert judges_built(built) == [2, 3]
    run = ast.parse("def f():\n    from rulebook_build.cli import main\n    main(['tables'])\n")
    assert command_called(run) == [2]
