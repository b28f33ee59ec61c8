"""``rulebook check --cluster``: the same JSON as ``--jobs 1``, even when a worker is lost
during the run (Dask's scheduler reruns its tasks elsewhere; each result is read once, in the
input's order)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulebook_build.notation.pdn import write_game
from rulebook_build.site.collections import read_collections

REPOSITORY = Path(__file__).resolve().parents[2]

distributed = pytest.importorskip("distributed")


def problems(folder: Path) -> list[str]:
    """An example (a moment), PWCP-2 A2 and A3 (about a second each) and five examples more, as
    files: when the first result is in, the two problems are under way on the workers."""
    collections = {c.slug: c for c in read_collections(REPOSITORY / "problems")}
    examples = [e for e in collections["examples"].entries if e.variant == "international"][:6]
    chosen = examples[:1]
    chosen += [e for e in collections["pwcp-2"].entries if e.name in ("A2", "A3")]
    chosen += examples[1:]
    paths = []
    for index, entry in enumerate(chosen):
        path = folder / f"{index:02d}.pdn"
        path.write_text(write_game(entry.game), encoding="utf-8")
        paths.append(str(path))
    return paths


def records(output: str) -> list[dict[str, object]]:
    found = [json.loads(line) for line in output.splitlines() if line.strip()]
    for record in found:
        del record["seconds"], record["nodes"]  # the only fields that may differ
    return found


def check(*arguments: str, errors: Path | None = None) -> subprocess.Popen[str]:
    """The command, its JSON on a pipe; its standard error on a pipe too, or into ``errors``
    (when the test reads standard output line by line: the rest is then read through the same
    buffered file, and ``communicate`` would miss what that buffer already holds)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rulebook_build.cli",
            "check",
            "--table-pieces",
            "4",
            "--json",
            "--time-limit",
            "20",
            "--deterministic",  # counted in work: the same JSON however busy the machine is
            *arguments,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if errors is None else errors.open("w", encoding="utf-8"),
        text=True,
        cwd=REPOSITORY,
    )


def test_a_cluster_gives_the_same_json_when_a_worker_is_lost(tmp_path: Path) -> None:
    files = problems(tmp_path)
    alone = check("--jobs", "1", *files)
    expected, errors = alone.communicate(timeout=600)
    assert alone.returncode == 0, errors
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        log = tmp_path / "stderr.txt"
        run = check("--cluster", cluster.scheduler_address, *files, errors=log)
        assert run.stdout is not None
        first = run.stdout.readline()  # the first result is in: A2 and A3 are under way
        assert first, log.read_text(encoding="utf-8")
        victim = next(iter(client.scheduler_info()["workers"]))
        pid = client.run(os.getpid, workers=[victim])[victim]
        os.kill(pid, signal.SIGKILL)  # the worker process dies, its tasks with it
        rest = run.stdout.read()  # through the same buffer as the first line
        assert run.wait(timeout=600) == 0, log.read_text(encoding="utf-8")
        assert victim not in client.scheduler_info()["workers"]  # it was lost during the run
        deadline = time.monotonic() + 60
        while len(client.scheduler_info()["workers"]) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)  # the nanny starts a new worker
    assert records(first + rest) == records(expected)
    assert [r["source"] for r in records(first + rest)] == [f"{f}:1" for f in files]


def test_no_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    files = problems(tmp_path)[:1]
    # the command as a user runs it, on an empty cache, but for the time it waits for an
    # answer (10 s: the same message after 1 s, and the suite does not sit idle); it says so
    # before it builds any table (the 5-piece ones take minutes)
    run = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from rulebook_build.cli import cluster, main\n"
            "cluster.CONNECT_TIMEOUT = '1s'\n"
            "raise SystemExit(main())",
            "check",
            "--json",
            "--cluster",
            "tcp://127.0.0.1:9",
            "--cache-dir",
            str(tmp_path / "cache"),
            *files,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPOSITORY,
    )
    _out, errors = run.communicate(timeout=120)
    assert run.returncode == 2
    assert "--cluster tcp://127.0.0.1:9: no scheduler answers there" in errors
    assert "Traceback" not in errors
    assert "building" not in errors
