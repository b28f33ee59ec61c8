"""The questions a judgement left open, gathered for the engine's opinion (``opinion.py``).

Each undecided criterion rests on positions whose win the proof search did not settle: the
first moves not settled (A while no key is proved, C after: a second key would be a cook), the
White moves of the published tree whose win stayed open or the place where the walk ran out of
time (C, G), two moves of the main line in the other order (E), the problem without one man
(D), the final position (F).  D, E and F record theirs as they judge (``Problem.questions``);
the keys and the walk are read here from what the judgement kept.  Every question is tagged
with the undecided criteria it belongs to, so that each undecided criterion has one.
"""

from __future__ import annotations

from typing import Final

from rulebook_build.checker.criteria import Problem
from rulebook_build.checker.grade import CRITERIA
from rulebook_build.checker.opinion import Question, unique
from rulebook_build.notation import notation_in as move_notation
from rulebook_build.rules import to_move

MAX_QUESTIONS: Final = 12
"""The most questions of one judgement that are put to the engine besides the open keys (every
open key gets an opinion): at least one for each undecided criterion, then the rest in order."""


def open_questions(problem: Problem) -> list[Question]:
    """The questions to ask, the open keys first, each criterion's first question next."""
    judgement = problem.judgement
    undecided = tuple(name for name in CRITERIA if judgement.criteria[name].status == "undecided")
    keys = _keys(problem, undecided)
    others: list[Question] = []
    walk = problem.walk
    if walk is not None:
        for open_move in walk.open_list:
            assert open_move.move is not None
            after = open_move.position.play(open_move.move)
            others.append(
                Question("alternative", ("C", "G"), open_move.line, after, open_move.node)
            )
        if walk.stopped is not None:
            stopped = walk.stopped
            others.append(
                Question("stopped", ("C", "G"), stopped.line, stopped.position, stopped.node)
            )
    others += problem.questions
    others = [q for q in _within(others, undecided) if q.criteria]
    chosen = unique(keys + others)  # a move open as a key and in the walk is one key question
    picked = [q for q in chosen if q.kind == "key"]
    rest = [q for q in chosen if q.kind != "key"]
    for name in undecided:  # one question for each undecided criterion first
        if any(name in q.criteria for q in picked):
            continue
        first = next((q for q in rest if name in q.criteria), None)
        if first is not None:
            picked.append(first)
    for question in rest:
        if len(picked) - len(keys) >= MAX_QUESTIONS:
            break
        if question not in picked:
            picked.append(question)
    # an undecided criterion with no open position of its own (it waits on something the
    # engine cannot be asked, such as the composer's key of a problem with Black to move) gets
    # the engine's opinion of the start position, so that none is left without one
    bare = tuple(name for name in undecided if not any(name in q.criteria for q in picked))
    if bare:
        picked.append(Question("start", bare, (), problem.position, problem.root))
    return picked


def _keys(problem: Problem, undecided: tuple[str, ...]) -> list[Question]:
    """Every first move left open.  While no key is proved, or while the composer's own key is
    open, every undecided criterion waits on it; once another key is proved, an open first move
    is a possible cook (C)."""
    judgement = problem.judgement
    position = problem.position
    children = {to_move(raw): child for raw, child in problem.search.expand(problem.root)}
    found = []
    for move, child in children.items():
        key = move_notation(position, move)
        if problem.keys.get(key) != "undecided":
            continue
        waits = judgement.white_wins != "proved" or key == judgement.solution.key
        criteria = undecided if waits else tuple(c for c in ("C",) if c in undecided)
        found.append(Question("key", criteria, (key,), position.play(move), child))
    return found


def _within(questions: list[Question], undecided: tuple[str, ...]) -> list[Question]:
    """Each question with only the criteria that stayed undecided."""
    return [
        Question(
            q.kind,
            tuple(c for c in q.criteria if c in undecided),
            q.line,
            q.position,
            q.node,
            q.square,
        )
        for q in questions
    ]
