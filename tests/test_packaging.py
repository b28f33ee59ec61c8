"""The package as others install it: a wheel built from the project works from any folder.

The wheel is built with pip (the project's own PEP 517 backend), installed into a new virtual
environment with its dependencies from the package index, and each command runs from an
unrelated folder. A file the commands need but the wheel leaves out (a grammar, a C source, a
template) shows up here as a failing command, not on a user's machine.
"""

from __future__ import annotations

import email
import os
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

import rulebook_build

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rulebook_build"

SMALL_PROBLEM = """\
[Event "two winning keys"]
[SetUp "1"]
[FEN "W:W12,18:B9,25"]
[GameType "20"]

1. 12-7 9-13 2. 18x9 *
"""


def _setuptools() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        table: dict[str, object] = tomllib.load(handle)["tool"]["setuptools"]
    return table


def test_every_folder_of_the_package_is_listed() -> None:
    """pyproject lists its packages (one is mapped from ``grammar/``): a new folder that is
    not listed would be missing from the wheel while the source tree still works."""
    listed = set(_setuptools()["packages"])  # type: ignore[call-overload]
    folders = {
        ".".join(path.relative_to(ROOT).parts)
        for path in [PACKAGE, *PACKAGE.rglob("*")]
        if path.is_dir() and path.name != "__pycache__"
    }
    assert folders | {"rulebook_build.grammar"} == listed
    assert _setuptools()["package-dir"] == {"rulebook_build.grammar": "grammar"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = folder.glob("rulebook_build-*.whl")
    return built


def test_the_wheel_carries_what_the_commands_read(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for lark in (ROOT / "grammar").glob("*.lark"):
        assert f"rulebook_build/grammar/{lark.name}" in names
    for data in [
        *PACKAGE.glob("engine/native/*.[ch]"),
        *PACKAGE.glob("site/assets/*"),
        *PACKAGE.glob("site/templates/*"),
        *PACKAGE.glob("checkpage/assets/*"),
        *PACKAGE.glob("checkpage/templates/*"),
    ]:
        assert data.relative_to(ROOT).as_posix() in names


def test_a_plain_install_does_not_require_dask(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = (n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        message = email.message_from_bytes(archive.read(metadata))
    requirements = message.get_all("Requires-Dist") or []
    dask = [r for r in requirements if r.startswith(("distributed", "dask"))]
    assert dask and all('extra == "cluster"' in r for r in dask), dask
    assert message["Version"] == rulebook_build.__version__


def test_the_installed_commands_work_from_another_folder(wheel: Path, tmp_path: Path) -> None:
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheel)],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "small.pdn").write_text(SMALL_PROBLEM, encoding="utf-8")
    rulebook = str(environment / "bin" / "rulebook")
    # the source tree must not be what answers: no PYTHONPATH, and a folder without it
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def run(*arguments: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [rulebook, *arguments], cwd=elsewhere, env=clean, capture_output=True, text=True
        )
        assert "Traceback" not in done.stderr, done.stderr
        return done

    where = subprocess.run(
        [str(python), "-c", "import rulebook_build; print(rulebook_build.__file__)"],
        cwd=elsewhere,
        env=clean,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(environment)

    version = run("--version")
    assert (version.returncode, version.stdout) == (0, f"rulebook {rulebook_build.__version__}\n")

    moves = run("moves", "start")
    assert moves.returncode == 0 and "31-26" in moves.stdout

    conformance = ROOT / "tests/data/pdn-conformance/games/succeed/bridges.pdn"
    pdn = run("pdn", str(conformance))
    assert pdn.returncode == 0, pdn.stderr

    check = run("check", "--table-pieces", "4", "small.pdn")
    assert check.returncode == 1, check.stderr  # exit 1: a problem is unsound
    assert "grade: INCORRECT" in check.stdout and "C: cook" in check.stdout

    cluster = run("check", "--cluster", "tcp://127.0.0.1:9", "small.pdn")
    assert cluster.returncode == 2
    assert "pip install 'rulebook_build[cluster]'" in cluster.stderr
