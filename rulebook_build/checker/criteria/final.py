"""F and G: the solution carried through, and its final phase (Fries Spel, supplementary
regulations H, art. 2F and 2G).

F: the composer's line is carried through to the end of the game or to an ending proved won.
G: the final phase (from Black's last capture of the main line) wins in one clear way.  It
reads the duals of the walk (``analysis.py``) with C's levels, on the published line only: a
second winning move on the main line's final phase before the end of the problem is a fault,
one in a published variation branching off there a remark, the rest information.
"""

from __future__ import annotations

from rulebook_build.checker.criteria import Problem
from rulebook_build.checker.grade import Criterion
from rulebook_build.checker.opinion import Question
from rulebook_build.engine import root_node
from rulebook_build.notation import format_fen


def criterion_f(problem: Problem) -> Criterion:
    replayed = problem.replayed
    if replayed is None or not replayed.main.moves:
        return Criterion.say("undecided", "f_no_solution")
    end = replayed.end
    if not end.legal_moves():
        if not end.white_to_move:
            return Criterion.say("pass", "f_white_wins")
        return Criterion.say("fail", "f_black_wins")
    node = root_node(problem.variant, end.state())
    verdict = problem.search.prove(node, seconds=problem.clock.budget(0.3)).verdict
    if verdict == "proved":
        return Criterion.say("pass", "f_pass")
    if verdict == "refuted":
        return Criterion.say("fail", "f_fail", fen=format_fen(end))
    line = tuple(step.notation for step in replayed.main.moves)
    problem.questions.append(Question("end", ("F",), line, end, node))
    return Criterion.say("undecided", "f_undecided")


def criterion_g(problem: Problem) -> Criterion:
    replayed, walk = problem.replayed, problem.walk
    if replayed is None or walk is None or problem.judgement.white_wins != "proved":
        return Criterion.say("undecided", "no_solution")
    steps = replayed.main.moves
    last_black_capture = max(
        (i for i, step in enumerate(steps) if not step.white and step.move.is_capture),
        default=-1,
    )
    prefix = tuple(step.notation for step in steps[: last_black_capture + 1])
    in_final = [
        dual
        for dual in walk.duals
        if dual.after  # a second key is a cook (criterion C), not a dual of the final phase
        and dual.after[: len(prefix)] == prefix
        and dual.level != "info"
    ]
    faults = [dual for dual in in_final if dual.level == "fail" and dual.on_main]
    if faults:
        return Criterion.say(
            "fail", "g_fail", line=" ".join(faults[0].after), moves=" / ".join(faults[0].moves)
        )
    if walk.unsettled or not walk.complete:
        return Criterion.say("undecided", "g_undecided")
    if in_final:
        return Criterion.say(
            "remark",
            "g_remark",
            line=" ".join(in_final[0].after),
            moves=" / ".join(in_final[0].moves),
        )
    return Criterion.say("pass", "g_pass")
