"""C and E: second solutions and interchangeable moves (Fries Spel, supplementary regulations
H, art. 2C and 2E).

C: "geen bijoplossing", no second solution.  A second winning key is a cook (``fail``), and so
is a second winning White move inside the composed combination (the main line before the end
of the problem); a second winning move in a published variation or after a forced Black
alternative is a dual (``remark``); landing squares, transpositions and anything after the end
of the problem or after a Black deviation are information (``analysis.py`` draws the lines).
E: two White moves of the main line that can be played in the other order and still win.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from rulebook_build.checker.analysis import Dual, is_combination, principal_line
from rulebook_build.checker.criteria import Problem
from rulebook_build.checker.grade import Cook, Criterion
from rulebook_build.checker.opinion import Question
from rulebook_build.engine import root_node
from rulebook_build.notation import ReplayedMove
from rulebook_build.notation import notation_in as move_notation

COOK_PLIES = 9
"""How much of a cook's winning line the detail of criterion C shows."""
COMBINATION_PLIES = 40
"""How much of a cook's line is read to tell whether it is itself a combination."""
SHOWN = 3
"""How many duals criterion C shows (the JSON has them all)."""


def find_cooks(problem: Problem) -> list[Cook]:
    """Every winning key but the composer's, when more than one key wins."""
    judgement = problem.judgement
    if len(judgement.winning_keys) < 2:
        return []
    by_notation = {move_notation(problem.position, m): m for m in problem.position.legal_moves()}
    found = []
    for key in judgement.winning_keys:
        if key == judgement.solution.key:
            continue
        pairs = list(
            principal_line(
                problem.search,
                problem.root,
                problem.position,
                first=by_notation[key],
                plies=COMBINATION_PLIES,
            )
        )
        line = tuple(move_notation(position, move) for position, move in pairs[:COOK_PLIES])
        combination = is_combination(problem.position, [move for _p, move in pairs])
        found.append(Cook(key, line, combination))
    return found


def _shown(duals: list[Dual]) -> list[list[str | int]]:
    return [[" ".join(dual.after), " / ".join(dual.moves)] for dual in duals[:SHOWN]]


def _listed(status: str, message: str, duals: list[Dual]) -> Criterion:
    if len(duals) > SHOWN:
        return Criterion.say(
            status,  # type: ignore[arg-type]
            f"{message}_more",
            duals=_shown(duals),
            count=len(duals) - SHOWN,
        )
    return Criterion.say(status, message, duals=_shown(duals))  # type: ignore[arg-type]


def criterion_c(problem: Problem) -> Criterion:
    judgement = problem.judgement
    walk = problem.walk
    if judgement.white_wins != "proved":
        return Criterion.say("undecided", "not_proved")
    if judgement.cooks:
        lines = "; ".join(f"{' '.join(cook.line)} ..." for cook in judgement.cooks[:SHOWN])
        message = "c_cook_combination" if any(c.combination for c in judgement.cooks) else "c_cook"
        return Criterion.say("fail", message, keys=", ".join(judgement.winning_keys), lines=lines)
    if walk is None:  # no legal solution: no published tree to walk
        return Criterion.say("undecided", "no_solution")
    faults = walk.findings("fail")
    if faults:
        return _listed("fail", "c_cook_line", faults)
    open_keys = [key for key, verdict in problem.keys.items() if verdict == "undecided"]
    if open_keys:
        return Criterion.say(
            "undecided", "c_undecided_keys", keys=", ".join(open_keys), later=walk.unsettled
        )
    if walk.unsettled or not walk.complete:
        message = "c_undecided" if walk.complete else "c_undecided_cut"
        return Criterion.say("undecided", message, later=walk.unsettled)
    remarks = walk.findings("remark")
    if remarks:
        return _listed("remark", "c_remark", remarks)
    return Criterion.say("pass", "c_pass", count=walk.positions)


def _before(steps: Sequence[ReplayedMove], step: ReplayedMove) -> tuple[str, ...]:
    """The moves of the main line before ``step``, in notation."""
    index = next(i for i, s in enumerate(steps) if s is step)
    return tuple(s.notation for s in steps[:index])


def criterion_e(problem: Problem) -> Criterion:
    replayed = problem.replayed
    if replayed is None or problem.judgement.white_wins != "proved":
        return Criterion.say("undecided", "no_solution")
    white_steps = [step for step in replayed.main.moves if step.white]
    swapped: list[list[str | int]] = []
    undecided = False
    for first, second in itertools.pairwise(white_steps):
        if second.move not in first.before.legal_moves():
            continue
        after = first.before.play(second.move)
        child = root_node(problem.variant, after.state())
        verdict = problem.search.prove(child, seconds=problem.clock.budget(0.2)).verdict
        if verdict == "proved":
            swapped.append([first.notation, second.notation])
        elif verdict == "undecided":
            undecided = True
            line = (*_before(replayed.main.moves, first), second.notation)
            problem.questions.append(Question("swap", ("E",), line, after, child))
    if swapped:
        return Criterion.say("fail", "e_fail", pairs=swapped)
    if undecided:
        return Criterion.say("undecided", "e_undecided")
    return Criterion.say("pass", "e_pass")
