"""What a judgement spends: seconds of wall time, or work, which every machine counts alike.

By default a judgement has its time limit in seconds of wall time (``WALL``): what is settled
within it depends on the machine's speed and load, and on what else runs beside it, so two runs
may differ in what they leave ``undecided`` (never in what they prove: every proof is checked).

``Work`` counts the same limit in work instead: the positions the searches made, at nominal
rates (``COMPILED_RATE`` a second for the compiled search, ``PYTHON_RATE`` for the Python one),
and the positions of the compiled search's trees that Python checks (``CHECK_RATE``).
Every budget, share and deadline of the judgement is then read on this meter, and a compiled
search is stopped by its count of positions, not by the clock, so the same problem with the same
tables gets the same JSON (apart from ``seconds``) on every machine, under any load and with
any number of ``--jobs``: a jury can run it again and get the same report.  The rates are what
the 2-core development machine makes, so that a limit buys there about what it buys in wall
time; the wall time such a judgement takes varies with the machine, and the work outside the
searches (walking the solution, replaying lines) is not counted, so it may run past its limit.
"""

from __future__ import annotations

import time
from typing import Final

COMPILED_RATE: Final = 800_000
"""Positions a second of work of the compiled search: what it makes on the 2-core development
machine in judgements of 20 s, two side by side as the stored verdicts are made, from request to
parsed answer (``benchmarks/work_rates.py``; the figures and their history are in
``benchmarks/README.md``, "Work rates").  Changing a rate changes what a limit buys, so every
stored verdict must be judged again."""
PYTHON_RATE: Final = 12_500
"""Positions a second of work of the Python search, measured in the same judgements."""
CHECK_RATE: Final = 26_000
"""Positions a second of checking a compiled search's tree in Python (``search.py _adopt``),
measured in the same judgements and by ``benchmarks/tree_check.py``."""
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

    def spend_check(self, nodes: int) -> None:
        """Count positions of a compiled search's tree checked in Python."""


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

    def spend_check(self, nodes: int) -> None:
        self.spent += nodes / CHECK_RATE


WALL: Final = Timer()
