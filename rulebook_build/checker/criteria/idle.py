"""D: every man has a purpose (Fries Spel, supplementary regulations H, art. 2D).

A man has a purpose when the problem without it is no longer the same problem: the composer's
solution is illegal or its key no longer wins, *or* a second solution appears (a second winning
key, or a cook or dual on the published tree that the problem with the man does not have), *or*
the start position breaks B (it could no longer arise in a game, or White would have more
material).  A man that only stops a second solution or keeps the position legal is doing its
job.  A man is idle when none of these holds, each one settled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from rulebook_build.checker.analysis import Clock, SolutionWalker, published_states
from rulebook_build.checker.criteria import Problem
from rulebook_build.checker.criteria.start import white_ahead
from rulebook_build.checker.grade import Criterion
from rulebook_build.checker.legality import check_reachable
from rulebook_build.checker.opinion import Question
from rulebook_build.engine import ProofSearch, root_node
from rulebook_build.errors import RulebookError
from rulebook_build.notation import ReplayedGame
from rulebook_build.notation import notation_in as move_notation
from rulebook_build.rules import Position, to_move

Use = Literal["needed", "idle", "undecided"]
D_SHARE = 0.5
"""The part of the time left that criterion D may use."""


def without(position: Position, square: int) -> Position | None:
    """The start position without the piece on ``square`` (None when that is no position)."""

    def rest(colour: str, kind: str) -> list[int]:
        return [s for s in position.squares_of(colour, kind) if s != square]

    try:
        return Position.from_squares(
            white_men=rest("white", "man"),
            white_kings=rest("white", "king"),
            black_men=rest("black", "man"),
            black_kings=rest("black", "king"),
            white_to_move=True,
            variant=position.variant,
        )
    except RulebookError:
        return None


@dataclass(slots=True)
class IdleMen:
    """Criterion D over the rounds of one judgement: each man's settled use is kept, and each
    smaller problem keeps its proof search from round to round."""

    new_search: Callable[[], ProofSearch]
    uses: dict[int, Use] = field(default_factory=dict)
    searches: dict[int, ProofSearch] = field(default_factory=dict)

    def criterion_d(self, problem: Problem) -> Criterion:
        replayed = problem.replayed
        if replayed is None or problem.judgement.solution.key_wins is not True:
            return Criterion.say("undecided", "d_needs_key")
        pieces = problem.position.pieces()
        men = [(square, piece) for square, piece in pieces.items() if not piece.is_king]
        idle: list[list[str | int]] = []
        open_: list[list[str | int]] = []
        for index, (square, piece) in enumerate(men):
            budget = problem.clock.budget(D_SHARE / max(1, len(men) - index))
            smaller = without(problem.position, square)
            if smaller is None:
                continue
            use = self.uses.get(square, "undecided")
            if use == "undecided":  # not settled in an earlier round
                use = self._use(problem, replayed, square, smaller, budget)
                self.uses[square] = use
            colour = "white" if piece.is_white else "black"
            if use == "idle":
                idle.append([colour, square])
            elif use == "undecided":
                open_.append([colour, square])
                problem.questions.append(self._question(problem, replayed, square, smaller))
        if idle:
            return Criterion.say("fail", "d_fail", men=idle)
        if open_:
            return Criterion.say("undecided", "d_undecided", men=open_)
        return Criterion.say("pass", "d_pass", count=len(men))

    def _search(self, square: int) -> ProofSearch:
        """The proof search of the problem without the man on ``square``: made when first
        needed, then kept for the rounds to come."""
        search = self.searches.get(square)
        if search is None:
            search = self.searches[square] = self.new_search()
        return search

    def _question(
        self, problem: Problem, replayed: ReplayedGame, square: int, smaller: Position
    ) -> Question:
        """The open question of one man, for the engine's opinion: does the composer's key
        still win without it?"""
        search = self._search(square)
        root = root_node(problem.variant, smaller.state())
        key = replayed.main.moves[0]
        child = next(c for raw, c in search.expand(root) if to_move(raw) == key.move)
        return Question("idle", ("D",), (key.notation,), smaller.play(key.move), child, square)

    def _use(
        self,
        problem: Problem,
        replayed: ReplayedGame,
        square: int,
        smaller: Position,
        seconds: float,
    ) -> Use:
        current = smaller
        for step in replayed.main.moves:  # the composer's solution must still be legal
            if step.move not in current.legal_moves():
                return "needed"
            current = current.play(step.move)
        # B: without it the start could not arise in a game, or White would be ahead
        if check_reachable(smaller).status == "fail" or (
            white_ahead(smaller) and not white_ahead(problem.position)
        ):
            return "needed"
        search = self._search(square)
        clock = problem.clock
        deadline = min(clock.end, clock.now() + seconds)
        root = root_node(problem.variant, smaller.state())
        children = {to_move(raw): child for raw, child in search.expand(root)}
        key = replayed.main.moves[0].move
        verdict = search.prove(children[key], seconds=_left(clock, deadline) / 2).verdict
        if verdict != "proved":
            return "needed" if verdict == "refuted" else "undecided"
        keys_before = set(problem.judgement.winning_keys)
        open_ = False
        for move, child in children.items():
            if move == key:
                continue
            verdict = search.prove(child, seconds=_left(clock, deadline) / 3).verdict
            if verdict == "proved" and move_notation(smaller, move) not in keys_before:
                return "needed"  # it stops a second key
            open_ |= verdict == "undecided"
        if open_:
            return "undecided"
        # a cook or dual on the published tree that the whole problem does not have
        walker = SolutionWalker(
            problem.variant,
            search,
            published_states(smaller, replayed.main),
            problem.clock,
            deadline=deadline,
        )
        walk = walker.walk(root, smaller, replayed.main)
        walker.settle(deadline)
        before = {
            (dual.after, dual.level)
            for dual in (problem.walk.duals if problem.walk is not None else [])
        }
        if any(d.level != "info" and (d.after, d.level) not in before for d in walk.duals):
            return "needed"
        if walk.unsettled or not walk.complete:
            return "undecided"
        return "idle"


def _left(clock: Clock, deadline: float) -> float:
    return max(0.0, deadline - clock.now())
