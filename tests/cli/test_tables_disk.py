"""``rulebook tables`` on a full disk and on a read-only cache: a clear message and exit 2, no
traceback, no working file left behind, and every table left in the cache whole."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest

from rulebook_build.cachedir import ENVIRONMENT
from rulebook_build.cli import main
from rulebook_build.engine import binaries
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
        # what was written is whole: every table file passes its checksum (--verify hashes
        # them all; its check of every entry against its successors stops at 2 pieces here)
        assert main(["tables", "--pieces", "2", "--cache-dir", str(cache), "--verify"]) == 0
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


def fill(folder: Path) -> None:
    """Take up every free byte of the file system of ``folder``."""
    with (folder / "filler").open("wb", buffering=0) as stream, contextlib.suppress(OSError):
        while stream.write(b"\0" * 4096):
            pass


def test_packing_on_a_full_disk_stops_clearly_and_keeps_the_built_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulebook_build.cli import tables as tables_command

    monkeypatch.setattr(tables_command, "PACKED_FROM", 3)  # 3-piece classes stand for 5-piece
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))
    built = tmp_path / "built"
    assert main(["tables", "--pieces", "3", "--jobs", "1", "--cache-dir", str(built)]) == 0
    binaries.executable(built / "endgame", binaries.PACK_SOURCE)  # the packer, while there is room
    with tmpfs(tmp_path / "small", "16m") as disk:
        shutil.copytree(built, disk / "cache")
        before = sorted(path.name for path in (disk / "cache").rglob("*.bin"))
        fill(disk)
        capsys.readouterr()
        command = ["tables", "--pieces", "3", "--jobs", "1", "--cache-dir", str(disk / "cache")]
        assert main([*command, "--pack"]) == 2
        error = capsys.readouterr().err
        assert "cannot write the compact file of" in error, error
        assert "No space left on device" in error and "its built files are kept" in error
        assert "Traceback" not in error
        assert sorted(path.name for path in (disk / "cache").rglob("*.bin")) == before
        assert not [path for pattern in LEFTOVERS for path in disk.rglob(pattern)]
        assert not list(disk.rglob("*.pack"))
        (disk / "filler").unlink()
        verify = ["tables", "--pieces", "2", "--cache-dir", str(disk / "cache"), "--verify"]
        assert main(verify) == 0  # every file hashed, the entries of 2 pieces checked


def test_prune_on_a_read_only_cache_stops_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))
    with tmpfs(tmp_path / "cache", "1m") as cache:
        stale = cache / "endgame" / "international-v1-0123456789abcdef"  # an older format's
        stale.mkdir(parents=True)
        (stale / "m0k1-m0k1.bin").write_bytes(b"old")
        make_read_only(cache)
        assert main(["tables", "--cache-dir", str(cache), "--prune"]) == 2
        error = capsys.readouterr().err
        assert f"{stale.parent}: cannot delete {stale.name}: Read-only file system" in error
        assert "Traceback" not in error
        assert (stale / "m0k1-m0k1.bin").read_bytes() == b"old"
