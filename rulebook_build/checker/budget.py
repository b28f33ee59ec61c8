"""What a judgement spends: seconds of wall time, or work, which every machine counts alike.

By default a judgement has its time limit in seconds of wall time (``WALL``): what is settled
within it depends on the machine's speed and load, and on what else runs beside it, so two runs
may differ in what they leave ``undecided`` (never in what they prove: every proof is checked).

``Work`` counts the same limit in work instead: the positions the searches made, at nominal
rates (``COMPILED_RATE`` a second for the compiled search, ``PYTHON_RATE`` for the Python one).
Every budget, share and deadline of the judgement is then read on this meter, and a compiled
search is stopped by its count of positions, not by the clock, so the same problem with the same
tables gets the same JSON (apart from ``seconds``) on every machine, under any load and with
any number of ``--jobs``: a jury can run it again and get the same report.  The wall time such a
judgement takes varies with the machine, and checking the compiled search's trees in Python is
not counted (it is bounded by the size of the tree), so it may run past its limit.
"""

from __future__ import annotations

import time
from typing import Final

COMPILED_RATE: Final = 400_000
"""Positions a second of work of the compiled search (about what it makes on the 2-core
development machine: 417,000 a second over 11 PWCP-2 problems, issue 20)."""
PYTHON_RATE: Final = 10_000
"""Positions a second of work of the Python search."""
SAFETY: Final = 20.0
"""A compiled search counted in work still has a wall limit, this many times its share of work
(and at least ``SAFETY_SECONDS``), so that a stuck program cannot hang a judgement; only a
machine that much slower than the nominal rate would see a different answer."""
SAFETY_SECONDS: Final = 10.0


class Timer:
    """Seconds of wall time: the default."""

    deterministic = False

    def now(self) -> float:
        return time.perf_counter()

    def spend_compiled(self, nodes: int) -> None:
        """Count positions of the compiled search (wall time counts itself)."""

    def spend_python(self, nodes: int) -> None:
        """Count positions of the Python search."""


class Work(Timer):
    """Seconds of work: positions searched at the nominal rates (one meter per judgement)."""

    deterministic = True

    def __init__(self) -> None:
        self.spent = 0.0

    def now(self) -> float:
        return self.spent

    def spend_compiled(self, nodes: int) -> None:
        self.spent += nodes / COMPILED_RATE

    def spend_python(self, nodes: int) -> None:
        self.spent += nodes / PYTHON_RATE


WALL: Final = Timer()
