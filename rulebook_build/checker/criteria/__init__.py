"""The criteria of the Problemistenwedstrijd (Fries Spel, supplementary regulations H, art. 2),
one module per family, each reading the one analysis of the problem (``Problem``):

- ``start``: B1-B4, the start position;
- ``second``: C and E, second solutions and interchangeable moves;
- ``idle``: D, every man has a purpose;
- ``final``: F and G, the solution carried through and its final phase.

A, the win itself, is the proof search of ``judge.py``, which every criterion waits on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook_build.checker.analysis import Clock, TreeWalk
from rulebook_build.checker.grade import Judgement
from rulebook_build.checker.opinion import Question
from rulebook_build.engine import Node, ProofSearch
from rulebook_build.notation import ReplayedGame
from rulebook_build.rules import Position, Variant


@dataclass(slots=True)
class Problem:
    """One problem under judgement: what the criteria read."""

    variant: Variant
    position: Position
    replayed: ReplayedGame | None
    """The composer's solution, None when it is missing or illegal."""
    search: ProofSearch
    root: Node
    clock: Clock
    judgement: Judgement
    keys: dict[str, str]
    """Every first move in notation, with its verdict: "proved", "refuted" or "undecided"."""
    walk: TreeWalk | None = None
    """The walk of the published tree, when the win is proved."""
    questions: list[Question] = field(default_factory=list)
    """What a criterion left open, for the engine's opinion (``opinion.py``): recorded by the
    criteria that search positions of their own (D, E, F); the judge adds the keys and the
    walk's open moves."""
