"""``rulebook check``: judge draughts problems by the Problemistenwedstrijd criteria.

    rulebook check FILE... [--json] [--time-limit SECONDS] [--variant V] [--win-only]
                           [--duals] [--no-tables] [--python-only]

FILE may be a PDN file or a folder (every ``*.pdn`` in it, sorted).  Every game with a ``FEN``
tag is a problem.  Prints a report per problem (verdict, proof line, each criterion) or, with
``--json``, one object per line per problem.  Exit code 0 when every problem is sound (correct,
with or without remarks), 1 when any is unsound or undecided, 2 on input errors (unreadable
file, bad PDN or FEN); the problems that could be read are still judged.  Criterion C shows the
first three faults or remarks; ``--duals`` adds every dual, with its kind and level, to the
report (the JSON always has them all, in ``duals``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook_build.cachedir import add_cache_argument, use_cache_argument
from rulebook_build.checker.judge import CRITERIA, Judge, Judgement
from rulebook_build.errors import RulebookError
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.notation.replay import game_variant, start_position
from rulebook_build.rules import VARIANTS, Variant, find_variant

if TYPE_CHECKING:
    from rulebook_build.checker.endgame import CheckerTables


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="PDN files or folders")
    parser.add_argument("--json", action="store_true", help="one JSON object per line per problem")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="time per problem (default 60); what is not settled by then is 'undecided'",
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
        "--python-only",
        action="store_true",
        help="do not use the compiled proof search (International; its proofs are re-checked in "
        "Python either way)",
    )
    parser.add_argument(
        "--duals",
        action="store_true",
        help="list every dual in the report, not only the three criterion C shows",
    )
    add_cache_argument(parser)
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
            found = sorted(path.glob("*.pdn"))
            if not found:
                errors.append(f"{argument}: no .pdn files in this folder")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            errors.append(f"{argument}: no such file or folder")
    return files, errors


def _tables(
    variant: Variant, cache: dict[str, CheckerTables], enabled: bool
) -> CheckerTables | None:
    if not enabled:
        return None
    if variant.name not in cache:
        from rulebook_build.checker.endgame import checker_tables

        # the small classes are built here; the larger ones if 'rulebook tables' built them
        tables = checker_tables(variant)
        if tables.missing():
            # before any problem's clock starts: a build inside a proof would eat its time
            print(
                f"building the endgame tables of up to {tables.max_pieces} pieces for "
                f"{variant.name} (once, after a change to the rules; about a minute)",
                file=sys.stderr,
                flush=True,
            )
            seconds = tables.prepare_missing()
            print(f"  done in {seconds:.0f} s", file=sys.stderr, flush=True)
        tables.prover()  # compiled here on first use, not inside a problem's time
        cache[variant.name] = tables
    return cache[variant.name]


def run(args: argparse.Namespace) -> int:
    use_cache_argument(args)
    files, input_errors = _files(args.files)
    for message in input_errors:
        print(message, file=sys.stderr)
    status = 2 if input_errors else 0
    any_unsound = False
    tables_cache: dict[str, CheckerTables] = {}
    progress = None if args.json or not sys.stderr.isatty() else _progress
    for path in files:
        try:
            games, errors = read_pdn_file(path)
        except RulebookError as error:
            print(str(error), file=sys.stderr)
            status = 2
            continue
        for problem in errors:
            print(str(problem), file=sys.stderr)
            status = 2
        for game in games:
            if not game.is_problem:
                continue
            variant = find_variant(args.variant) if args.variant else game_variant(game)
            if variant is None:
                print(
                    f"{game.source}:{game.line}: not judged: GameType {game.gametype!r} is "
                    "not International (20) or Frisian (40)",
                    file=sys.stderr,
                )
                status = 2
                continue
            try:
                position = start_position(game, variant)
            except RulebookError as error:
                print(str(error), file=sys.stderr)
                status = 2
                continue
            tables = _tables(variant, tables_cache, not args.no_tables)
            judge = Judge(
                variant,
                tables=tables,
                progress=progress,
                prover=None if tables is None or args.python_only else tables.prover(),
            )
            started = time.perf_counter()
            judgement = judge.judge(game, position, seconds=args.time_limit, full=not args.win_only)
            if progress is not None:
                print("\r\033[K", end="", file=sys.stderr)
            judgement.seconds = time.perf_counter() - started
            any_unsound |= judgement.verdict != "sound"
            if args.json:
                print(json.dumps(judgement.as_json()), flush=True)
            else:
                print(report(judgement, duals=args.duals), flush=True)
    if status == 0 and any_unsound:
        status = 1
    return status


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
    if duals and judgement.duals:
        lines.append(f"  every dual ({len(judgement.duals)}):")
        lines.extend(
            f"    [{dual.level} {dual.kind}] after {' '.join(dual.after)}: {' / '.join(dual.moves)}"
            for dual in judgement.duals
        )
    return "\n".join(lines)
