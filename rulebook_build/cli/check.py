"""``rulebook check``: judge draughts problems by the Problemistenwedstrijd criteria.

    rulebook check FILE... [--json] [--time-limit SECONDS] [--deterministic] [--variant V]
                           [--win-only] [--duals] [--no-tables] [--table-pieces N]
                           [--python-only] [--jobs N] [--cluster tcp://HOST:PORT]
                           [--update VERDICTS]

FILE may be a PDN file or a folder (every ``*.pdn`` in it and its subfolders, sorted). A problem
that repeats one judged earlier in the run (the same variant and the same game text, as a
collection's companion file repeats its problems) is judged once; its report names its own file.
Every game with a ``FEN`` tag is a problem. Prints a report per problem (verdict, proof line,
each criterion) or, with ``--json``, one object per line per problem. Exit code 0 when every
problem is sound (correct, with or without remarks), 1 when any is unsound or undecided, 2 on
input errors (unreadable file, bad PDN or FEN, a solution with an illegal move: such a problem
is not judged, its move named by number); the problems that could be read are still judged.
``--update VERDICTS`` writes the JSON records into the stored verdicts file instead of standard
output, replacing those of the files given and keeping every other one, in the order a full run
writes them (``cli/update.py``). Criterion C shows the first three faults or remarks;
``--duals`` adds every dual, with its kind and level, to the report (the JSON always has them
all, in ``duals``).

Before the first problem the endgame tables are built where they are missing: every class of up
to 4 pieces, and the 5-piece classes with ``rulebook tables --pieces 5 --pack``: by default
for International (about 9 minutes once on 2 cores), for Frisian only with ``--table-pieces 5``
(hours: ``FIVE_PIECE_COST`` in ``checker/front.py``).  Tables in the cache are used whatever
``--table-pieces`` says, and the grades do not depend on them: larger tables only decide more.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook_build.cachedir import add_cache_argument, use_cache_argument
from rulebook_build.checker import (
    CRITERIA,
    FIVE_PIECE_COST,
    OPINION_NODES,
    Checker,
    Judgement,
    calibration,
    has_five,
    opinion_words,
    problem_digest,
)
from rulebook_build.cli.cluster import connect
from rulebook_build.cli.options import (
    MAX_JOBS,
    folder_to_write,
    jobs_default,
    number,
    scheduler_address,
    whole_number,
)
from rulebook_build.cli.update import Record, merge, read_records, record, write_atomically
from rulebook_build.engine import CheckerTables, machine_cores
from rulebook_build.errors import RulebookError
from rulebook_build.lifetime import pool_options
from rulebook_build.notation import (
    PdnGame,
    ReplayedProblem,
    game_variant,
    read_pdn_file,
    replay_problem,
)
from rulebook_build.rules import VARIANTS, Variant, find_variant

if TYPE_CHECKING:
    from distributed import Client


MAX_SECONDS = 86_400
"""The longest ``--time-limit``: a day per problem (a longer search is a benchmark's job)."""
MAX_OPINION_NODES = 1_000_000_000
"""The largest ``--opinion-nodes``: about a quarter of an hour of the engine a question."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="PDN files or folders")
    parser.add_argument("--json", action="store_true", help="one JSON object per line per problem")
    parser.add_argument(
        "--update",
        type=Path,
        metavar="VERDICTS",
        help="write the JSON records (--update implies --json) into the stored verdicts file "
        "VERDICTS instead of standard output: the records of the files given are replaced, "
        "every other record is kept, all in the order a full run writes them; the file is "
        "replaced whole when the run ends (problems/verdicts.jsonl: run from the repository's "
        "root, as the full refresh)",
    )
    parser.add_argument(
        "--time-limit",
        type=number(0, MAX_SECONDS, above=True, unit="number of seconds"),
        default=60.0,
        metavar="SECONDS",
        help=f"time per problem, more than 0 and at most {MAX_SECONDS:,} (default 60); what is "
        "not settled by then is 'undecided'",
    )
    parser.add_argument(
        "--deterministic",
        action="store_true",
        help="count the time limit in work (positions searched, at 800,000 a second for the "
        "compiled search), not in wall time: the same JSON, apart from 'seconds', on every "
        "machine, under any load and with any --jobs; a run may then take longer than its limit",
    )
    parser.add_argument(
        "--variant",
        choices=[v.name for v in VARIANTS],
        help="rule set for every problem (default: from each game's GameType, else international)",
    )
    parser.add_argument(
        "--no-tables", action="store_true", help="do not use the endgame tables (slower proofs)"
    )
    parser.add_argument(
        "--table-pieces",
        type=int,
        choices=(4, 5),
        default=None,
        metavar="N",
        help="build the endgame tables of up to N pieces on first use, 4 or 5 (default: 5 for "
        "International, whose 5-piece classes take about 9 minutes once on 2 cores, keep 0.3 "
        "GB and settle more problems; 4 for Frisian, whose 5-piece classes take about half an "
        "hour: "
        "--table-pieces 5 builds them too); tables already in the cache are always used",
    )
    parser.add_argument(
        "--python-only",
        action="store_true",
        help="do not use the compiled proof search (its proofs are re-checked in "
        "Python either way)",
    )
    parser.add_argument(
        "--duals",
        action="store_true",
        help="list every dual in the report, not only the three criterion C shows",
    )
    add_cache_argument(parser, folder_to_write)
    parser.add_argument(
        "--jobs",
        type=whole_number(1, MAX_JOBS),
        default=None,
        metavar="N",
        help=f"judge N problems at once, 1 to {MAX_JOBS}, each in its own process (default: "
        f"this machine's cores, now {machine_cores()}, at most {MAX_JOBS}); the output keeps "
        "the input's order",
    )
    parser.add_argument(
        "--cluster",
        type=scheduler_address,
        metavar="tcp://HOST:PORT",
        help="judge the problems on a Dask distributed cluster (its scheduler's address); each "
        "worker needs this project installed and the same table files; the output keeps the "
        "input's order",
    )
    parser.add_argument(
        "--opinion-nodes",
        type=whole_number(0, MAX_OPINION_NODES),
        default=OPINION_NODES,
        metavar="N",
        help=f"the evaluating engine's budget, in positions, for its opinion on each question "
        f"left undecided, 0 to {MAX_OPINION_NODES:,} (default {OPINION_NODES:,}; 0: no "
        "opinions).  An opinion is an estimate with a score and a best line, never a proof: it "
        "changes no status, verdict or grade, and a budget counted in positions gives the same "
        "opinion on every machine",
    )
    parser.add_argument(
        "--win-only",
        action="store_true",
        help="settle only criterion A and the winning keys (the others are not examined)",
    )


def _files(arguments: list[str]) -> tuple[list[Path], list[str]]:
    files: list[Path] = []
    errors: list[str] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            # its subfolders too: a collection per folder (problems/<collection>/)
            found = sorted(path.rglob("*.pdn"))
            if not found:
                errors.append(f"{argument}: no .pdn files in this folder or below")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            errors.append(f"{argument}: no such file or folder")
    return files, errors


def _announce(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _build(variant: Variant, pieces: int) -> None:
    """The larger tables, built as 'rulebook tables --pieces N --pack' builds them (what it
    says goes to standard error: standard output is the report's)."""
    from rulebook_build.cli.tables import build_tables

    with contextlib.redirect_stdout(sys.stderr):
        build_tables(variant, pieces, jobs=jobs_default(), pack=True)


_CHECKERS: dict[tuple[bool, bool], Checker] = {}
"""This process's checkers, by (tables, compiled): the command's own, made by ``run`` with
its table options, or a worker's (``--jobs``, a cluster), which uses the tables the command
made ready."""


def _checker(tables: bool, compiled: bool) -> Checker:
    key = (tables, compiled)
    if key not in _CHECKERS:
        _CHECKERS[key] = Checker(tables=tables, compiled=compiled, announce=_announce)
    return _CHECKERS[key]


@dataclass(frozen=True, slots=True)
class _Task:
    """One problem to judge, with what the judgement needs (picklable for ``--jobs``)."""

    problem: ReplayedProblem
    """The problem as ``_problems`` read it: its FEN read and its solution replayed once,
    handed on to the judgement (a worker of ``--jobs`` or a cluster gets it pickled)."""
    seconds: float
    full: bool
    tables: bool
    compiled: bool
    digest: str = ""
    """The problem's digest (``_problems`` sets it): a problem repeated in a run is judged
    once."""
    by_work: bool = False
    """The time limit counted in work (``--deterministic``, ``engine/budget.py``)."""
    opinion_nodes: int = OPINION_NODES
    """The engine's budget for each opinion (``--opinion-nodes``)."""

    @property
    def game(self) -> PdnGame:
        return self.problem.game

    @property
    def variant(self) -> str:
        """The name of the rules it is judged by."""
        return self.problem.variant.name


def _problems(args: argparse.Namespace) -> tuple[list[str | _Task], int]:
    """What the command does, in input order: a message for standard error, or a problem to
    judge; and the exit status the input errors give."""
    files, input_errors = _files(args.files)
    steps: list[str | _Task] = list(input_errors)
    status = 2 if input_errors else 0
    for path in files:
        try:
            games, errors = read_pdn_file(path)
        except RulebookError as error:
            steps.append(str(error))
            status = 2
            continue
        for problem in errors:
            steps.append(str(problem))
            status = 2
        for game in games:
            if not game.is_problem:
                continue
            variant = find_variant(args.variant) if args.variant else game_variant(game)
            if variant is None:
                steps.append(
                    f"{game.source}:{game.line}: not judged: GameType {game.gametype!r} is "
                    "not International (20) or Frisian (40)"
                )
                status = 2
                continue
            try:  # the FEN read and the solution replayed once, for the judgement too
                read = replay_problem(game, variant)
            except RulebookError as error:
                steps.append(str(error))
                status = 2
                continue
            fault = read.unplayable
            if fault is not None:  # a slip in the text is not a verdict: bad input, no grade
                steps.append(str(fault.located()))
                status = 2
                continue
            steps.append(
                _Task(
                    read,
                    args.time_limit,
                    not args.win_only,
                    not args.no_tables,
                    not args.python_only,
                    problem_digest(game, variant),
                    args.deterministic,
                    args.opinion_nodes,
                )
            )
    return steps, status


def _judge(task: _Task, progress: Callable[[str], None] | None = None) -> Judgement:
    """Judge one problem (in this process or a worker of ``--jobs`` or a cluster)."""
    checker = _checker(task.tables, task.compiled)
    checker.tables_of(task.problem.variant)  # ready before the clock starts
    started = time.perf_counter()
    judgement = checker.judge(
        task.problem,
        seconds=task.seconds,
        full=task.full,
        by_work=task.by_work,
        progress=progress,
        opinion_nodes=task.opinion_nodes,
        digest=task.digest or None,
    )
    judgement.seconds = time.perf_counter() - started
    return judgement


def run(args: argparse.Namespace) -> int:
    use_cache_argument(args)
    old = read_records(args.update) if args.update is not None else None
    args.json = args.json or old is not None
    new: list[Record] = []
    steps, status = _problems(args)
    # a repeated problem is judged once: the same variant and game text give the same digest
    unique: dict[str, _Task] = {}
    for step in steps:
        if isinstance(step, _Task):
            unique.setdefault(step.digest, step)
    tasks = list(unique.values())
    with contextlib.ExitStack() as stack:
        # a scheduler that does not answer is said at once, before any table is built
        client = connect(stack, args.cluster) if args.cluster else None
        for task in tasks:  # every table is built before any clock starts, here, once
            if (task.tables, task.compiled) not in _CHECKERS:
                _CHECKERS[task.tables, task.compiled] = Checker(
                    tables=task.tables,
                    compiled=task.compiled,
                    table_pieces=args.table_pieces,
                    build=_build,
                    announce=_announce,
                )
            _CHECKERS[task.tables, task.compiled].tables_of(task.problem.variant)
        wanted = jobs_default() if args.jobs is None else args.jobs
        jobs = min(wanted, max(1, len(tasks)))
        single = jobs == 1 and not args.cluster
        progress = None if args.json or not single or not sys.stderr.isatty() else _progress
        bar = _Bar(len(tasks)) if not args.json and not single and sys.stderr.isatty() else None
        any_unsound = False
        undecided: set[str] = set()  # the variants of the problems left undecided
        done: dict[str, Judgement] = {}
        if client is not None:
            judged: Iterator[Judgement] = _on_cluster(client, tasks)
        elif jobs > 1:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs, **pool_options()))
            judged = pool.map(_judge, tasks)
        else:
            judged = (_judge(task, progress) for task in tasks)
        for step in steps:
            if isinstance(step, str):
                print(step, file=sys.stderr)
                continue
            if step.digest in done:  # a repeat: the first one's judgement, under its own name
                judgement = replace(
                    done[step.digest], source=f"{step.game.source}:{step.game.line}", seconds=0.0
                )
            else:
                judgement = done[step.digest] = next(judged)
                if bar is not None:
                    bar.update(judgement)
            if progress is not None:
                print("\r\033[K", end="", file=sys.stderr)
            any_unsound |= judgement.verdict != "sound"
            if judgement.verdict == "undecided" and step.tables:
                undecided.add(step.variant)
            if bar is not None:
                bar.clear()
            if old is not None:
                new.append(record(json.dumps(judgement.as_json())))
            elif args.json:
                print(json.dumps(judgement.as_json()), flush=True)
            else:
                print(report(judgement, duals=args.duals), flush=True)
            if bar is not None:
                bar.show()
        if bar is not None:
            bar.close()
    if old is not None:
        _update(args.update, old, new, args.files)
    if not args.json:
        _suggest_tables(undecided)
    if status == 0 and any_unsound:
        status = 1
    return status


def _update(path: Path, old: list[Record], new: list[Record], arguments: list[str]) -> None:
    """Write the new records into the verdicts file ``path`` in place of the old records of
    the files judged (every file the arguments name, read or not)."""
    judged = {file.resolve() for file in _files(arguments)[0]}
    merged = merge(old, new, judged)
    write_atomically(path, merged.records)
    others = "other" if merged.kept == 1 else "others"
    print(
        f"{path}: {merged.added} record{'s' if merged.added != 1 else ''} of the files judged "
        f"(they had {merged.replaced}), {merged.kept} {others} kept",
        file=sys.stderr,
    )
    missing = sum(1 for kept in merged.records if not kept.file.is_file())
    if missing:
        print(
            f"note: {missing} of the records kept name a file that does not exist from this "
            "folder (a collection removed, or the file written from another folder): a full "
            "run would not write them",
            file=sys.stderr,
        )


def _suggest_tables(variants: set[str]) -> None:
    """After a run that left problems undecided: name the larger tables that settle more of
    them, where they can be built and are not in the cache."""
    for name in sorted(variants):
        tables = next((c.ready()[name] for c in _CHECKERS.values() if name in c.ready()), None)
        if not isinstance(tables, CheckerTables) or has_five(tables):
            continue
        if name == "international":
            print(
                "note: the 5-piece endgame tables settle more problems; 'rulebook tables "
                f"--pieces 5 --pack' builds them once ({FIVE_PIECE_COST[name]})",
                file=sys.stderr,
            )
        else:  # not built by default: they take some 26 minutes
            print(
                f"note: the {name} 5-piece endgame tables are not in the cache; "
                f"'--table-pieces 5' or 'rulebook tables --variant {name} --pieces 5 --pack' "
                f"builds them once ({FIVE_PIECE_COST[name]}), and check then uses them",
                file=sys.stderr,
            )


def _on_cluster(client: Client, tasks: list[_Task]) -> Iterator[Judgement]:
    """The judgements of ``tasks`` from a Dask cluster, in their order.  A worker lost during
    the run costs its tasks a rerun on another worker (the scheduler's own retry), never a
    lost or doubled result: each task's result is read from its own future."""
    futures = client.map(_judge, tasks, pure=False)
    return (future.result() for future in futures)


class _Bar:
    """A progress bar on standard error for a batch of problems: done, decided, undecided, and
    the time left at the pace so far (a terminal only; never with --json)."""

    def __init__(self, total: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, unit="problem", file=sys.stderr, dynamic_ncols=True)
        self.undecided = 0

    def update(self, judgement: Judgement) -> None:
        self.undecided += judgement.grade == "undecided"
        self.bar.set_postfix(
            decided=self.bar.n + 1 - self.undecided, undecided=self.undecided, refresh=False
        )
        self.bar.update(1)

    def clear(self) -> None:
        self.bar.clear()

    def show(self) -> None:
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


def _progress(message: str) -> None:
    print(f"\r\033[K  {message}", end="", file=sys.stderr, flush=True)


MARKS = {"pass": "ok  ", "remark": "rem ", "fail": "FAIL", "undecided": "??  "}


def report(judgement: Judgement, *, duals: bool = False) -> str:
    """The text report: a one-line summary, the faults, then the remarks, then every
    criterion; ``duals`` adds every dual with its kind (information included)."""
    title = judgement.event or "problem"
    lines = [
        f"{judgement.source}: {title} ({judgement.variant}) {judgement.fen}",
        f"  grade: {judgement.grade.upper()}   verdict: {judgement.verdict}   "
        f"white wins: {judgement.white_wins}   "
        f"winning keys: {', '.join(judgement.winning_keys) or '-'}   "
        f"({judgement.seconds:.1f} s, {judgement.nodes:,} nodes)",
        f"  summary: {judgement.summary()}",
    ]
    solution = judgement.solution
    state = "legal" if solution.legal else "not legal"
    wins = {True: "the key wins", False: "the key does NOT win", None: "key not settled"}[
        solution.key_wins
    ]
    lines.append(f"  composer's solution: {state}, key {solution.key or '-'}, {wins}")
    if solution.error:
        lines.append(f"    {solution.error}")
    for status, heading in (("fail", "faults"), ("remark", "remarks")):
        found = judgement.findings(status)  # type: ignore[arg-type]
        if found:
            lines.append(f"  {heading}:")
            lines.extend(f"    {name}: {criterion.detail}" for name, criterion in found)
    if judgement.proof_line:
        lines.append("  proof line: " + " ".join(judgement.proof_line))
    for name in CRITERIA:
        criterion = judgement.criteria[name]
        lines.append(f"  {MARKS[criterion.status]} {name:2} {criterion.detail}")
    if judgement.opinions:
        lines.append(f"  {opinion_words.heading()}:")
        lines.extend(
            f"    {','.join(opinion.criteria) or '-':5} {opinion_words.describe(opinion)}"
            for opinion in judgement.opinions
        )
        lines.append(f"    {opinion_words.calibration_text(calibration(judgement.variant))}")
    if duals and judgement.duals:
        lines.append(f"  every dual ({len(judgement.duals)}):")
        lines.extend(
            f"    [{dual.level} {dual.kind}] after {' '.join(dual.after)}: {' / '.join(dual.moves)}"
            for dual in judgement.duals
        )
    return "\n".join(lines)
