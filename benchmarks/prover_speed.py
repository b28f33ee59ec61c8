"""The compiled proof search's speed, one version of its source against another, on the same tree.

    python benchmarks/prover_speed.py [--before REF] [--nodes 1000000] [--keys-every 2]
        [--every 4] [--repeat 3] [--table-mb 320] [--cache-dir DIR]

Compiles ``prover.c`` (with ``draughts.h`` and ``opinion.h``) as the checker does
(``binaries.FLAGS``, the machine's flags, zlib) twice: from the git revision ``--before``
(default ``20b263d``, the source before the work on its speed) and from the working tree.  Both
run the same searches, one after the other for each search, so a busy machine slows both alike:
every 2nd (``--keys-every``) of the 48 first moves of ``benchmarks/data/open-keys.json`` (second
keys a 20 s check left open) and the start of every 4th problem of ``problems/`` (as
``work_rates.py`` samples them), each up to ``--nodes`` nodes with no time limit and the table a
20 s judgement gets.  The answers must be the same byte for byte apart from the ``seconds``
line: the verdict, the nodes, the proof tree or the open line (a search counted in nodes then
gives the same verdicts); the script stops with a message where one is not.  Each search runs
``--repeat`` times with each version, and the least processor time counts (user and system time
of the process: another program on the machine lengthens a run, never shortens it).  It prints
each search's nodes and seconds with each version, then the nodes a second of each in all.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from refutations import key_nodes

from rulebook_build.cachedir import add_cache_argument, use_cache_argument
from rulebook_build.engine import binaries
from rulebook_build.engine.search import root_node
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.notation.replay import game_variant, start_position
from rulebook_build.rules import DrawClocks, State, Variant

ROOT = Path(__file__).resolve().parents[1]
KEYS = ROOT / "benchmarks/data/open-keys.json"
NATIVE = binaries.FOLDER.relative_to(ROOT)
BEFORE = "20b263d"


@dataclass(frozen=True)
class Search:
    """One search of the sample: its name and the prover's command-line arguments after
    VARIANT PURE_DIR RULES_DIR SECONDS NODE_LIMIT TABLE_MB."""

    name: str
    variant: Variant
    node: list[str]


def node_arguments(variant: Variant, state: State, clocks: DrawClocks) -> list[str]:
    """WM WK BM BK CLOCKS, as ``NativeProver`` passes them."""
    fields = binaries.node_fields(variant, state, clocks)
    return [*(f"{bits:x}" for bits in binaries.pieces_of(state)), "/".join(map(str, fields))]


def open_keys() -> list[Search]:
    """The first moves of ``open-keys.json``, as ``refutations.py`` finds them."""
    positions = json.loads(KEYS.read_text())["positions"]
    return [
        Search(name, variant, node_arguments(variant, state, clocks))
        for name, variant, (state, clocks) in key_nodes(positions)
    ]


def problem_starts(every: int) -> list[Search]:
    """The start of every Nth problem of ``problems/`` (examples left out)."""
    found: list[Search] = []
    for path in sorted((ROOT / "problems").rglob("*.pdn")):
        if "examples" in path.parts:
            continue
        for game in read_pdn_file(path)[0]:
            variant = game_variant(game)
            if not game.is_problem or variant is None or variant.name not in binaries.VARIANTS:
                continue
            state, clocks = root_node(variant, start_position(game, variant).state())
            name = f"{path.name}:{game.line}"
            found.append(Search(name, variant, node_arguments(variant, state, clocks)))
    return found[::every]


def compile_source(folder: Path, name: str, flags: tuple[str, ...]) -> Path:
    """``folder/prover.c`` compiled to ``folder/name`` as the checker compiles it."""
    cc = binaries.compiler() or "cc"
    target = folder / name
    command = [cc, *flags, *binaries.ZLIB_FLAGS, "-o", str(target), str(folder / "prover.c")]
    subprocess.run([*command, *binaries.ZLIB_LIBRARY], check=True)
    return target


def source_at(revision: str, folder: Path) -> None:
    """The prover's source files as they were at ``revision``, into ``folder``."""
    folder.mkdir()
    for name in ("prover.c", "draughts.h", "opinion.h"):
        text = subprocess.run(
            ["git", "show", f"{revision}:{NATIVE / name}"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        (folder / name).write_bytes(text)


def source_now(folder: Path) -> None:
    """The prover's source files of the working tree, into ``folder``."""
    folder.mkdir()
    for name in ("prover.c", "draughts.h", "opinion.h"):
        (folder / name).write_bytes((binaries.FOLDER / name).read_bytes())


def run(program: Path, search: Search, nodes: int, table_mb: int) -> tuple[str, float]:
    """The answer (its ``seconds`` line left out) and the processor seconds it took."""
    tables = checker_tables(search.variant)
    tables.prover()  # checks the table files first
    folders = [str(tables.pure.folder()), str(tables.rules.folder())]
    command = [str(program), search.variant.name, *folders, "100000", str(nodes), str(table_mb)]
    with subprocess.Popen([*command, *search.node], stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        out = process.stdout.read()
        _pid, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{program.name} failed on {search.name}: exit {process.returncode}")
    kept = "".join(line for line in out.splitlines(True) if not line.startswith("seconds "))
    return kept, usage.ru_utime + usage.ru_stime


def nodes_of(answer: str) -> int:
    return int(next(line for line in answer.splitlines() if line.startswith("nodes "))[6:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help=f"git revision to compare ({BEFORE})")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="a search's nodes (1e6)")
    parser.add_argument("--keys-every", type=int, default=2, help="every Nth open key (2)")
    parser.add_argument("--every", type=int, default=4, help="every Nth problem's start (4)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of a search, the least counts")
    parser.add_argument("--table-mb", type=int, default=320, help="the table (a 20 s search's)")
    add_cache_argument(parser)
    args = parser.parse_args()
    use_cache_argument(args)
    searches = open_keys()[:: max(1, args.keys_every)] + problem_starts(max(1, args.every))
    flags = binaries.FLAGS + binaries.machine_flags()
    print(
        f"# {len(searches)} searches (1 in {args.keys_every} of {KEYS.name}, the start of 1 "
        f"problem in {args.every}), {args.nodes:,} nodes each, {args.table_mb} MB, the least "
        f"of {args.repeat} runs; {' '.join(flags)}"
    )
    totals = {"before": [0, 0.0], "after": [0, 0.0]}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        source_at(args.before, folder / "before")
        source_now(folder / "after")
        programs = {
            "before": compile_source(folder / "before", "prover", flags),
            "after": compile_source(folder / "after", "prover", flags),
        }
        for search in searches:
            answers: dict[str, str] = {}
            seconds = dict.fromkeys(programs, float("inf"))
            for _ in range(max(1, args.repeat)):
                for version, program in programs.items():
                    answer, took = run(program, search, args.nodes, args.table_mb)
                    if answers.setdefault(version, answer) != answer:
                        raise SystemExit(f"{search.name}: {version} answered differently twice")
                    seconds[version] = min(seconds[version], took)
            for version in programs:
                totals[version][0] += nodes_of(answers[version])
                totals[version][1] += seconds[version]
            if answers["before"] != answers["after"]:
                raise SystemExit(f"{search.name}: the answers differ")
            first = answers["after"].splitlines()[0]
            print(
                f"{search.name}: {first}, {nodes_of(answers['after']):,} nodes, "
                f"{len(answers['after'].splitlines())} lines; "
                f"before {seconds['before']:.2f} s, after {seconds['after']:.2f} s",
                flush=True,
            )
    rates = {v: n / s if s else 0.0 for v, (n, s) in totals.items()}
    for version, (n, s) in totals.items():
        print(
            f"{version} ({args.before if version == 'before' else 'working tree'}): "
            f"{n:,} nodes in {s:.1f} processor s: {rates[version]:,.0f} a second"
        )
    print(
        f"the same answers for all {len(searches)} searches; after / before "
        f"{rates['after'] / rates['before']:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
