"""Opinions: what an evaluating engine thinks of the questions a judgement left open.

The proof search (``search.py``) settles a question or leaves it undecided, and undecided is
honest.  What a jury or a composer then wants to know is which way an open question probably
goes: is that other key a likely cook or a likely draw?  Composers answer it by hand with an
engine; the checker asks its own.  Each question a criterion left open is recorded while the
judgement runs (``Question``); when the judgement is done, the compiled evaluating search
(``native/opinion.h``: alpha-beta with quiescence, an evaluation of the kind draughts engines
use, the endgame tables where they cover the position) is asked about each, within a budget of
positions, so that the same problem gets the same opinions on every machine, in the browser too.

An opinion is kept apart from the proof: it never changes a status, a verdict or a grade, and
it is written in words that cannot be taken for a proof ("not proved; the engine sees ...").
The engine's best line is replayed with the Python rules engine before it is shown (a line that
is not legal is cut where it stops being legal); its score is the engine's estimate and nothing
more.  ``benchmarks/opinion.py`` measures how often the opinion agrees with the proof on the
questions the proof search did settle, and that rate is stated beside every opinion
(``CALIBRATION``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Final, Literal, Protocol

from rulebook_build.checker.messages import CRITERIA
from rulebook_build.engine import WIN_SCORE, EngineAnswer, Node, Pieces, ProofSearch
from rulebook_build.notation import notation_in as move_notation
from rulebook_build.rules import DrawClocks, Position, State, Variant, to_move

Kind = Literal["key", "alternative", "stopped", "swap", "idle", "end", "start"]
"""What is asked, always "does White win here?":

- ``key``: a first move other than a proved one (criterion A while no key is proved, C after);
- ``alternative``: a White move of the published tree whose win stayed open (C, G);
- ``stopped``: the position where the walk of the published tree ran out of time (C, G);
- ``swap``: two White moves of the main line played in the other order (E);
- ``idle``: the problem without one man, after the composer's key (D);
- ``end``: the final position of the composer's line (F);
- ``start``: the start position, for an undecided criterion that has no open position of its
  own (it waits on something else, such as the composer's solution)."""

Says = Literal["win", "no win"]

WIN_THRESHOLD: Final = 150
"""The score (hundredths of a man, White's view) from which the opinion is "win": a man and a
half ahead or more after the engine's search.  Chosen on the agreement rate with the proofs
(``benchmarks/opinion.py``), not on taste."""
OPINION_NODES: Final = 1_000_000
"""The default budget of one opinion, in positions of the engine (a count, not a time: the same
answer on every machine)."""
LINE_PLIES: Final = 16
"""How much of the engine's best line an opinion keeps."""


@dataclass(frozen=True, slots=True)
class Question:
    """One question a criterion left open: does White win at ``node``?"""

    kind: Kind
    criteria: tuple[str, ...]
    """The criteria whose undecided status this question is part of."""
    line: tuple[str, ...]
    """The moves from the start position to ``node`` (for ``idle``, from the smaller start)."""
    position: Position
    """The position at ``node``."""
    node: Node
    square: int | None = None
    """``idle``: the square of the man taken off."""


@dataclass(frozen=True, slots=True)
class Opinion:
    """The engine's answer to one question: never a proof."""

    kind: Kind
    criteria: tuple[str, ...]
    line: tuple[str, ...]
    says: Says
    score: int
    """Hundredths of a man from White's view; ±(``WIN_SCORE`` - plies) where the engine saw
    the game end (a side without a move, or an endgame table's value)."""
    depth: int
    nodes: int
    best: tuple[str, ...]
    """The engine's best line from the position, replayed legal in Python."""
    budget: int
    square: int | None = None

    def as_json(self) -> dict[str, object]:
        found: dict[str, object] = {
            "kind": self.kind,
            "criteria": list(self.criteria),
            "after": " ".join(self.line),
            "says": self.says,
            "score": self.score,
            "depth": self.depth,
            "nodes": self.nodes,
            "line": " ".join(self.best),
            "budget": self.budget,
        }
        if self.square is not None:
            found["square"] = self.square
        return found

    @property
    def game_end(self) -> int | None:
        """The plies to the end of the game the engine saw, or None (a score by evaluation)."""
        if abs(self.score) > WIN_SCORE - 1000:
            return WIN_SCORE - abs(self.score)
        return None


KIND_NAMES: Final[tuple[Kind, ...]] = (
    "key",
    "alternative",
    "stopped",
    "swap",
    "idle",
    "end",
    "start",
)


class EngineLike(Protocol):
    """What answers opinions: a session of the compiled search (``native.ProverSession``), or
    the WebAssembly build's on the check page."""

    def opinion(self, state: State, clocks: DrawClocks, *, node_limit: int) -> EngineAnswer: ...


def says_of(score: int) -> Says:
    return "win" if score >= WIN_THRESHOLD else "no win"


def replayed(variant: Variant, node: Node, position: Position, line: Sequence[Pieces]) -> list[str]:
    """The engine's line in notation, as far as it is legal by the Python rules engine."""
    search = ProofSearch(variant)
    moves: list[str] = []
    for raw in search.moves_to(node, line[:LINE_PLIES]):
        move = to_move(raw)
        moves.append(move_notation(position, move))
        position = position.play(move)
    return moves


def ask(
    engine: EngineLike,
    variant: Variant,
    questions: Sequence[Question],
    *,
    node_limit: int = OPINION_NODES,
) -> list[Opinion]:
    """The engine's opinion of each question, in the order asked; a question the engine could
    not answer (its program failed) gets none."""
    found: list[Opinion] = []
    for question in questions:
        state, clocks = question.node
        answer = engine.opinion(state, clocks, node_limit=node_limit)
        if answer.problem is not None:
            continue
        best = replayed(variant, question.node, question.position, answer.line)
        found.append(
            Opinion(
                question.kind,
                question.criteria,
                question.line,
                says_of(answer.score),
                answer.score,
                answer.depth,
                answer.nodes,
                tuple(best),
                node_limit,
                question.square,
            )
        )
    return found


def unique(questions: Sequence[Question]) -> list[Question]:
    """One question per line: the same open move seen by two criteria (a first move open for
    A or C is open in the walk of the tree too) is asked once, with both criteria, as the kind
    it was first asked as."""
    merged: dict[tuple[tuple[str, ...], int | None], Question] = {}
    for question in questions:
        index = (question.line, question.square)
        known = merged.get(index)
        if known is None:
            merged[index] = question
        else:
            both = {*known.criteria, *question.criteria}
            criteria = tuple(name for name in CRITERIA if name in both)
            merged[index] = Question(
                known.kind, criteria, known.line, known.position, known.node, known.square
            )
    return list(merged.values())


@dataclass(frozen=True, slots=True)
class Calibration:
    """How often the engine's opinion agreed with the proof on the questions the proof search
    settled, at the default budget, in one variant (``benchmarks/opinion.py`` writes it): the
    International questions come from the stored verdicts, the Fries Spel ones from
    ``benchmarks/data/frisian-questions.json``, and each variant's opinions quote their own."""

    agreed: int
    asked: int
    budget: int
    open_agreed: int = 0
    open_asked: int = 0
    """Of the questions a 20 s check left open and a 120 s check settled: the harder kind."""
    variant: str = "international"

    @property
    def percent(self) -> float:
        return 100.0 * self.agreed / self.asked if self.asked else 0.0


@functools.cache
def _measured() -> dict[str, object]:
    try:
        text = resources.files(__package__).joinpath("calibration.json").read_text("utf-8")
    except FileNotFoundError:
        return {}
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def calibration(variant: str = "international") -> Calibration | None:
    """The rate measured last for ``variant`` (``calibration.json`` beside this module, keyed
    by variant), or None before its first measurement."""
    data = _measured().get(variant)
    if not isinstance(data, dict):
        return None
    return Calibration(
        int(data["agreed"]),
        int(data["asked"]),
        int(data["budget"]),
        int(data.get("open_agreed", 0)),
        int(data.get("open_asked", 0)),
        variant,
    )
