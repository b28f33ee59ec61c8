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

COMPILED_RATE: Final = 600_000
"""Positions a second of work of the compiled search: what it made on the 2-core development
machine in judgements of 20 s, two side by side as the stored verdicts are made, from request to
parsed answer (``benchmarks/work_rates.py`` over 29 problems of the collections,
``benchmarks/results/work-rates.txt``): 555,587 a second at first, 604,431 with the table sized
by 16 MB a second, on huge pages from the start, and a cache of 128 MB of unpacked blocks."""
PYTHON_RATE: Final = 10_000
"""Positions a second of work of the Python search (in the same judgements 7,672, and 12,560 in
the last run, where it had only 28,574 positions; 5,578 to 5,737 alone from the start of eight
problems).  Then 7,500; 10,000 since the faster move generation of 4eb8cdd, which made the
search alone 1.37 times as fast (6,276 against 8,588 and 8,499 a second, measured the same day
one after the other: that day the machine made 711,000 compiled positions a second, not 604,000,
so the gain, not that day's figure, scales the rate)."""
CHECK_RATE: Final = 19_500
"""Positions a second of checking a compiled search's tree in Python (``search.py _adopt``;
15,222 and 14,475 measured there in the same judgements).  Then 14,500; 19,500 since 4eb8cdd
and 443c117 (move generation, and only the candidate moves made at a choice), measured the same
day before and after: 16,801 against 22,427 and 22,719 a second, 1.34 times
(``benchmarks/tree_check.py``, one process: 19,320 against 27,118).

Until 26 November the rates were 1.2 million, 25,000 and 50,000, measured on other searches
(short ones, and proofs rather than the refutations of second keys): in the judgements above they
were 2.2, 3.3 and 3.3 times what the machine makes, and a limit of 20 s took 2.5 times as long
in wall time."""
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
