"""``rulebook tables --jobs N`` and ``--cluster``: pairs of classes built side by side give the
very files one process builds, and a Dask worker lost during the run costs its pair a rerun.

The workers of a cluster share the cache folder with the command (here: one machine's disk)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import INTERNATIONAL
from tests.tablecopy import copy_checker_tables

REPOSITORY = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")


def tables(*arguments: str, output: Path | None = None) -> subprocess.Popen[str]:
    """The command, its standard error on a pipe; its standard output on a pipe too, or into
    ``output`` (when the test reads standard error line by line: the rest is then read through
    the same buffered file, and ``communicate`` would miss what that buffer already holds)."""
    environment = {k: v for k, v in os.environ.items() if k != "RULEBOOK_CACHE_DIR"}
    return subprocess.Popen(
        [sys.executable, "-m", "rulebook_build.cli", "tables", *arguments],
        stdout=subprocess.PIPE if output is None else output.open("w", encoding="utf-8"),
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPOSITORY,
        env=environment,
    )


def built(cache: Path) -> dict[str, bytes]:
    """Every table file under ``cache``, by its folder and name."""
    return {
        str(path.relative_to(cache)): path.read_bytes() for path in sorted(cache.rglob("*.bin"))
    }


def finished(run: subprocess.Popen[str]) -> str:
    _out, errors = run.communicate(timeout=900)
    assert run.returncode == 0, errors
    assert "Traceback" not in errors
    return errors


def test_pairs_built_side_by_side_are_the_files_one_process_builds(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for variant in ("frisian", "international"):
        common = ("--variant", variant, "--pieces", "3")
        finished(tables(*common, "--jobs", "1", "--cache-dir", str(one)))
        errors = finished(tables(*common, "--jobs", "2", "--cache-dir", str(two)))
        assert "built 1 man 1 king v 1 man with its partner, rules" in errors
    alone, side_by_side = built(one), built(two)
    assert len(alone) == 2 * 2 * 16  # two variants, two kinds, 16 classes of up to 3 pieces
    assert side_by_side == alone


distributed = pytest.importorskip("distributed")


def test_a_cluster_builds_the_same_files_when_a_worker_is_lost(tmp_path: Path) -> None:
    # what one process builds: the checker's own tables (every class of up to 4 pieces)
    own = checker_tables(INTERNATIONAL)
    own.prepare_missing()
    shared = tmp_path / "shared"
    # the cluster starts from the other classes, copied: it builds the 9 pairs with two men or
    # more and at most one king (1 man v 1 man to 2 men v 2 men, in five levels, both kinds),
    # and one worker is lost on the way; the kings' classes, copied, are most of the work of
    # the 4-piece tables (the user's cache may hold larger classes too: not these)
    copy_checker_tables(
        INTERNATIONAL, shared / "endgame", lambda m: m[0] + m[2] < 2 or m[1] + m[3] > 1
    )
    common = ("--variant", "international", "--pieces", "4")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        run = tables(
            *common,
            "--cluster",
            cluster.scheduler_address,
            "--cache-dir",
            str(shared),
            output=tmp_path / "stdout.txt",
        )
        assert run.stderr is not None
        # 3 men v 1 king is in (a second, in the level of the two pairs of 4.5 million slots,
        # some 2 s each): the larger builds are under way
        first = ""
        while "3 men v 1 king" not in first:
            line = run.stderr.readline()
            assert line, first + run.stderr.read()
            first += line
        victim = next(iter(client.scheduler_info()["workers"]))
        pid = client.run(os.getpid, workers=[victim])[victim]
        os.kill(pid, signal.SIGKILL)  # the worker dies, with the build it was running
        errors = first + run.stderr.read()  # through the same buffer as the first lines
        assert run.wait(timeout=900) == 0, errors
        assert "Traceback" not in errors
        assert victim not in client.scheduler_info()["workers"]
        deadline = time.monotonic() + 60
        while len(client.scheduler_info()["workers"]) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)  # the nanny starts a new worker
    assert "every class of up to 4 pieces" in errors
    assert "built 2 men v 2 men with its partner" in errors  # the last level, on the cluster
    on_cluster = built(shared)
    assert len(on_cluster) == 2 * 41  # two kinds, 41 classes of up to 4 pieces
    for kind in (own.pure, own.rules):
        for path in kind.folder().glob("*.bin"):
            assert on_cluster[f"endgame/{kind.folder().name}/{path.name}"] == path.read_bytes()
    leftovers = [p for p in shared.rglob("*") if p.suffix in (".tmp", ".body", ".part")]
    assert leftovers == []
