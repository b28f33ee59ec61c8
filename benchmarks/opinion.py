"""How often the engine's opinion agrees with the proof, on the questions the stored verdicts
settled: the rate the site states beside every opinion.

    python benchmarks/opinion.py [--variant international|frisian] [--budgets 100000,1000000]
        [--thresholds 50,100,150,200,300] [--king-values 300,350,500,600] [--every N] [--write]
        [--cache-dir DIR]

The questions come from ``problems/verdicts.jsonl`` (the stored judgements), each one settled by
a proof there:

- ``key win``: a winning key (proved);
- ``key no win``: every other first move of a problem whose criterion C looked at all of them
  (C passed, has a remark, or is open only later in the tree), or of a problem White cannot
  win (A failed): each was refuted;
- ``line win``: each position of a proof line where White is to move, after Black's reply
  (the line of the proof, so White wins there).

Those are on the whole easier than the questions a check leaves open, so a second set is asked
too: the questions the stored verdicts left open (their ``opinions``) that a check six times as
long settled (``benchmarks/data/settled-at-120s.json``, from ``results/time-limit-120s.txt``):
``open no win`` (a first move or a move of the tree where C later passed, two moves swapped
where E later passed) and ``open win`` (the cooks the longer check proved).

For each budget (positions of the engine, never time: the same figures on every machine) the
engine (``native/opinion.h``, through ``prover serve``) is asked about every question, and its
score is read as "win" from each threshold on (hundredths of a man).  Prints, per budget and
threshold, how many answers agree with the proof, by kind and in all, and the seconds; with
``--write``, the agreement at the default budget and threshold (``checker/opinion.py``
``OPINION_NODES``, ``WIN_THRESHOLD``) goes to ``rulebook_build/checker/calibration.json``, which
the report, the pages and the check page quote, under the variant's key.  The tables are those
of the cache.

``--variant frisian`` asks the settled Fries Spel questions instead
(``benchmarks/data/frisian-questions.json``, made by ``frisian_questions.py``: kinds named by
their source and answer, no open-then-settled set), and ``--king-values`` asks them again of
the search compiled with each other Frisian king value (``-DOP_KING_FRISIAN=...``, in a
temporary folder).  The rule for the king value, fixed before it was first measured: the most
agreement at the default budget and threshold, a tie to the value ``opinion.h`` already has.
The threshold is shared with International and is not tuned per variant here.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.cachedir import add_cache_argument, use_cache_argument
from rulebook_build.checker.opinion import OPINION_NODES, WIN_THRESHOLD
from rulebook_build.engine.binaries import PROVER_SOURCE, NativeProver, executable
from rulebook_build.engine.search import Node, ProofSearch, root_node
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.replay import move_notation
from rulebook_build.rules import Position, find_variant
from rulebook_build.rules.position import to_move

ROOT = Path(__file__).resolve().parents[1]
VERDICTS = ROOT / "problems/verdicts.jsonl"
SETTLED_LATER = ROOT / "benchmarks/data/settled-at-120s.json"
CALIBRATION = ROOT / "rulebook_build/checker/calibration.json"
FRISIAN_QUESTIONS = ROOT / "benchmarks/data/frisian-questions.json"
OPINION_SOURCE = ROOT / "rulebook_build/engine/native/opinion.h"
C_LOOKED_AT_EVERY_KEY = ("c_pass", "c_remark", "c_remark_more", "c_undecided", "c_undecided_cut")
"""C's messages given only after every first move was settled (``criteria/second.py``)."""


@dataclass(frozen=True, slots=True)
class Question:
    kind: str
    wins: bool
    variant: str
    node: Node
    where: str


def _children(search: ProofSearch, node: Node, position: Position) -> dict[str, Node]:
    return {move_notation(position, to_move(raw)): child for raw, child in search.expand(node)}


def questions(records: list[dict[str, object]]) -> list[Question]:
    found: list[Question] = []
    for record in records:
        variant = find_variant(str(record["variant"]))
        position = parse_fen(str(record["fen"]), variant=variant)
        search = ProofSearch(variant)
        root = root_node(variant, position.state())
        children = _children(search, root, position)
        source = str(record["source"])
        keys = [str(k) for k in record.get("winning_keys", [])]  # type: ignore[union-attr]
        criteria = record["criteria"]
        assert isinstance(criteria, dict)
        c_message = criteria["C"].get("message")
        every_key = record["white_wins"] == "refuted" or (
            record["white_wins"] == "proved" and c_message in C_LOOKED_AT_EVERY_KEY
        )
        for key, child in children.items():
            if key in keys:
                found.append(Question("key win", True, variant.name, child, f"{source} {key}"))
            elif every_key:
                found.append(Question("key no win", False, variant.name, child, f"{source} {key}"))
        line = [str(m) for m in record.get("proof_line", [])]  # type: ignore[union-attr]
        if record["white_wins"] != "proved" or not line or line[0] not in keys:
            continue
        node, current = root, position
        for ply, notation in enumerate(line):
            moves = {move_notation(current, m): m for m in current.legal_moves()}
            if notation not in moves:
                break
            node = _children(search, node, current)[notation]
            current = current.play(moves[notation])
            if ply % 2 == 1 and current.legal_moves():  # White to move, after Black's reply
                where = f"{source} {' '.join(line[: ply + 1])}"
                found.append(Question("line win", True, variant.name, node, where))
    return found


def _replayed(record: dict[str, object], line: list[str]) -> Node | None:
    """The node after ``line`` from the record's start position, or None if it is no line."""
    variant = find_variant(str(record["variant"]))
    position = parse_fen(str(record["fen"]), variant=variant)
    search = ProofSearch(variant)
    node = root_node(variant, position.state())
    for notation in line:
        moves = {move_notation(position, m): m for m in position.legal_moves()}
        if notation not in moves:
            return None
        node = _children(search, node, position)[notation]
        position = position.play(moves[notation])
    return node


def settled_later(records: list[dict[str, object]]) -> list[Question]:
    """The questions left open at 20 s that the check at 120 s settled."""
    data = json.loads(SETTLED_LATER.read_text(encoding="utf-8"))
    wins = {(source, line) for source, line in data["wins"]}
    found: list[Question] = []
    for record in records:
        source = str(record["source"])
        for opinion in record.get("opinions", []):  # type: ignore[attr-defined]
            after, kind = str(opinion["after"]), str(opinion["kind"])
            if (source, after) in wins:
                wins_there = True
            elif (
                source in data["c_pass"]
                and record["white_wins"] == "proved"  # a key proved at 20 s: the rest lose
                and kind in ("key", "alternative")
                and "C" in opinion["criteria"]
            ) or (source in data["e_pass"] and kind == "swap"):
                wins_there = False
            else:
                continue
            node = _replayed(record, after.split())
            if node is not None:
                name = "open win" if wins_there else "open no win"
                found.append(
                    Question(name, wins_there, str(record["variant"]), node, f"{source} {after}")
                )
    return found


def frisian_questions() -> list[Question]:
    """The settled Fries Spel questions (``data/frisian-questions.json``, made by
    ``frisian_questions.py``), each kind named by its source and answer."""
    data = json.loads(FRISIAN_QUESTIONS.read_text(encoding="utf-8"))
    variant = find_variant("frisian")
    found: list[Question] = []
    for question in data["questions"]:
        position = parse_fen(str(question["fen"]), variant=variant)
        wins = bool(question["wins"])
        kind = f"{question['source']} {'win' if wins else 'no win'}"
        node = root_node(variant, position.state())
        found.append(Question(kind, wins, variant.name, node, str(question["where"])))
    return found


def king_value_in_source() -> int:
    """The Frisian king value ``opinion.h`` compiles with when no define overrides it."""
    found = re.search(r"#define OP_KING_FRISIAN (\d+)", OPINION_SOURCE.read_text("utf-8"))
    assert found is not None, f"no OP_KING_FRISIAN in {OPINION_SOURCE}"
    return int(found.group(1))


def scores_of(
    asked: list[Question], provers: dict[str, NativeProver], budget: int
) -> tuple[list[int], list[int], float]:
    """The engine's score and depth of each question at ``budget`` positions, and the seconds."""
    sessions = {name: prover.session(1.0) for name, prover in provers.items()}
    started = time.perf_counter()
    scores: list[int] = []
    depths: list[int] = []
    for question in asked:
        state, clocks = question.node
        answer = sessions[question.variant].opinion(state, clocks, node_limit=budget)
        if answer.problem is not None:
            print(f"  {question.where}: {answer.problem}", file=sys.stderr)
        scores.append(answer.score)
        depths.append(answer.depth)
    seconds = time.perf_counter() - started
    for session in sessions.values():
        session.close()
    return scores, depths, seconds


def agreement(
    asked: list[Question], scores: list[int], threshold: int
) -> tuple[dict[str, int], Counter[str], Counter[str], str]:
    """The figures of one threshold: the settled and open-then-settled counts, per kind, and
    the printed line's tail."""
    agree: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for question, score in zip(asked, scores, strict=True):
        total[question.kind] += 1
        agree[question.kind] += (score >= threshold) == question.wins
    easy = [k for k in total if not k.startswith("open")]
    hard = [k for k in total if k.startswith("open")]
    figures = {
        "agreed": sum(agree[k] for k in easy),
        "asked": sum(total[k] for k in easy),
        "open_agreed": sum(agree[k] for k in hard),
        "open_asked": sum(total[k] for k in hard),
    }
    kinds = "  ".join(f"{k} {agree[k]}/{total[k]}" for k in sorted(total))
    return figures, agree, total, kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("international", "frisian"), default="international")
    parser.add_argument("--budgets", default=f"100000,{OPINION_NODES}")
    parser.add_argument("--thresholds", default="50,100,150,200,300,500")
    parser.add_argument(
        "--king-values",
        default="",
        help="frisian: also try these king values (compiled with -DOP_KING_FRISIAN=...)",
    )
    parser.add_argument("--every", type=int, default=1, help="every Nth question only")
    parser.add_argument("--write", action="store_true", help="write calibration.json")
    parser.add_argument("--show-wrong", action="store_true", help="list each disagreement")
    add_cache_argument(parser)
    args = parser.parse_args()
    use_cache_argument(args)
    if args.variant == "frisian":
        settled = frisian_questions()[:: max(1, args.every)]
        later: list[Question] = []
    else:
        records = [json.loads(line) for line in VERDICTS.read_text(encoding="utf-8").splitlines()]
        settled = questions(records)[:: max(1, args.every)]
        later = settled_later(records)
    asked = settled + later
    budgets = [int(b) for b in args.budgets.split(",")]
    thresholds = sorted({*(int(t) for t in args.thresholds.split(",")), WIN_THRESHOLD})
    print(f"{len(settled)} settled questions: {dict(Counter(q.kind for q in settled))}")
    print(f"{len(later)} open at 20 s, settled at 120 s: {dict(Counter(q.kind for q in later))}")
    provers: dict[str, NativeProver] = {}
    for name in sorted({q.variant for q in asked}):
        prover = checker_tables(find_variant(name)).prover()
        if not isinstance(prover, NativeProver):
            print(f"no compiled search for {name}: nothing measured", file=sys.stderr)
            return 1
        provers[name] = prover
    # the engines asked: the one compiled from the sources, and for Fries Spel one per king value
    # tried (the same source with -DOP_KING_FRISIAN=...), in a folder of this run's own
    engines: list[tuple[str, dict[str, NativeProver]]] = [("as compiled", provers)]
    trials = tempfile.TemporaryDirectory(prefix="rulebook-opinion-")
    if args.variant == "frisian":
        engines[0] = (f"king {king_value_in_source()} (opinion.h)", provers)
        for value in (int(v) for v in args.king_values.split(",") if v):
            define = f"-DOP_KING_FRISIAN={value}"
            program = executable(Path(trials.name), PROVER_SOURCE, (define,))
            if program is None:
                print(f"the search did not compile with {define}", file=sys.stderr)
                return 1
            base = provers["frisian"]
            tried = NativeProver(program, base.pure_dir, base.rules_dir, variant=base.variant)
            engines.append((f"king {value}", {"frisian": tried}))
    written = None
    results: list[tuple[str, int, int, int]] = []  # engine, budget, threshold, agreed
    for label, engine in engines:
        for budget in budgets:
            scores, depths, seconds = scores_of(asked, engine, budget)
            mean_depth = sum(depths) / max(1, len(depths))
            print(
                f"\n{label}, budget {budget:,} positions: {seconds:.1f} s, "
                f"mean depth {mean_depth:.1f}"
            )
            for threshold in thresholds:
                figures, _agree, _total, kinds = agreement(asked, scores, threshold)
                all_agree, all_total = figures["agreed"], figures["asked"]
                mark = " (default)" if threshold == WIN_THRESHOLD else ""
                print(
                    f"  win from {threshold:>4}{mark}: settled {all_agree}/{all_total} "
                    f"({100 * all_agree / max(1, all_total):.1f} %), open then settled "
                    f"{figures['open_agreed']}/{figures['open_asked']}  {kinds}"
                )
                results.append((label, budget, threshold, all_agree))
                if engine is provers and budget == OPINION_NODES and threshold == WIN_THRESHOLD:
                    written = {"budget": budget, **figures}
            if args.show_wrong:
                for question, score in zip(asked, scores, strict=True):
                    if (score >= WIN_THRESHOLD) != question.wins:
                        print(f"    wrong: {question.kind} {question.where}: score {score}")
    trials.cleanup()
    if len(engines) > 1:
        # the rule, fixed before measuring: the most agreement at the default budget and
        # threshold; a tie goes to the value the sources already have
        at_default = [
            (agreed, label == engines[0][0], label)
            for label, budget, threshold, agreed in results
            if budget == OPINION_NODES and threshold == WIN_THRESHOLD
        ]
        if at_default:
            agreed, _, label = max(at_default)
            print(f"\nbest at the default budget and threshold: {label} ({agreed} agree)")
    if args.write:
        if written is None or args.every != 1:
            print("--write needs the default budget among --budgets and every question")
            return 1
        stored = (
            json.loads(CALIBRATION.read_text(encoding="utf-8")) if CALIBRATION.is_file() else {}
        )
        stored[args.variant] = written
        CALIBRATION.write_text(
            json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        print(f"\nwrote {CALIBRATION.relative_to(ROOT)} ({args.variant}): {written}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
