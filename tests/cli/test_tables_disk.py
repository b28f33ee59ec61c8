"""``rulebook tables`` on a full disk and on a read-only cache: a clear message and exit 2, no
traceback, no working file left behind, and every table left in the cache whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.cachedir import ENVIRONMENT
from rulebook_build.checker import binaries
from rulebook_build.cli import main
from tests.tmpfs import make_read_only, tmpfs

LEFTOVERS = ("*.tmp", "*.body", "*.part", "*.body.part")
"""What a build writes on its way to a table."""


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(
    ("size", "pieces"),
    [
        ("8k", "2"),  # no room for the compiled builder either: the Python one, then no room
        ("300k", "3"),  # the compiled builder runs out of room half-way
    ],
)
def test_a_build_that_runs_out_of_disk_stops_clearly_and_leaves_only_whole_tables(
    size: str,
    pieces: str,
    jobs: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if pieces == "3" and binaries.compiler() is None:
        pytest.skip("no C compiler: the Python builder of 3 pieces takes a minute")
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))  # --cache-dir sets it: restored after
    with tmpfs(tmp_path / "small", size) as cache:
        command = ["tables", "--pieces", pieces, "--jobs", jobs, "--cache-dir", str(cache)]
        assert main(command) == 2
        error = capsys.readouterr().err
        assert "Traceback" not in error
        assert "bytes free there" in error or "cannot write" in error, error
        assert "MB free in" in error or "the disk is full" in error, error
        left = [path for pattern in LEFTOVERS for path in cache.rglob(pattern)]
        assert left == []
        # what was written is whole: every table file passes its checksum
        assert main(["tables", "--pieces", pieces, "--cache-dir", str(cache), "--verify"]) == 0
        assert "damaged" not in capsys.readouterr().err


def test_a_read_only_cache_is_said_before_any_build_and_its_tables_still_serve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))
    with tmpfs(tmp_path / "cache", "2m") as cache:
        assert main(["tables", "--pieces", "2", "--cache-dir", str(cache)]) == 0
        capsys.readouterr()
        make_read_only(cache)
        # nothing to build: the tables there are used as they are
        assert main(["tables", "--pieces", "2", "--cache-dir", str(cache)]) == 0
        capsys.readouterr()
        assert main(["tables", "--pieces", "3", "--cache-dir", str(cache)]) == 2
        error = capsys.readouterr().err
        assert "cannot write tables here: Read-only file system" in error
        assert "give --cache-dir a folder that can be written" in error
        assert "Traceback" not in error
        assert main(["tables", "--pieces", "2", "--cache-dir", str(cache), "--verify"]) == 0


def test_an_export_onto_a_full_disk_stops_clearly_and_leaves_whole_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))
    cache = tmp_path / "cache"
    assert main(["tables", "--pieces", "2", "--cache-dir", str(cache)]) == 0
    capsys.readouterr()
    with tmpfs(tmp_path / "small", "12k") as disk:
        command = ["tables", "--pieces", "2", "--cache-dir", str(cache), "--export", str(disk)]
        assert main(command) == 2
        error = capsys.readouterr().err
        assert "cannot export" in error and "No space left on device" in error, error
        assert "Traceback" not in error
        assert not [path for pattern in LEFTOVERS for path in disk.rglob(pattern)]
        # what was copied is whole: it installs into another cache, every file checked
        other = ["tables", "--pieces", "2", "--cache-dir", str(tmp_path / "other")]
        if list(disk.rglob("*.bin")):
            assert main([*other, "--install", str(disk)]) == 0
            assert "refused" not in capsys.readouterr().err


def test_a_fault_of_the_system_anywhere_is_said_with_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import rulebook_build.cli.moves

    def full(args: object) -> int:
        raise OSError(28, "No space left on device", "/some/where")

    monkeypatch.setattr(rulebook_build.cli.moves, "run", full)
    assert main(["moves", "start"]) == 2
    assert capsys.readouterr().err == "rulebook moves: No space left on device: /some/where\n"
