"""The checker's front door: judge a problem, with the tables and compiled search it needs.

    checker = Checker()
    judgement = checker.judge(game, seconds=20, by_work=True)

A :class:`Checker` owns what a judgement needs besides the problem:

* **the endgame tables** of each variant (``tables/kinds.py``), made ready before any
  problem's clock starts, since a build inside a proof would eat its time: the classes of up to
  4 pieces are built here where missing; from 5 pieces on (``table_pieces``) the classes are
  built by ``build`` (the command line gives its own builder, ``rulebook tables``' one, with
  its processes and progress; a caller without one judges with what the cache holds);
* **the compiled search** (``binaries.py``), compiled once, before the first problem;
* **progress**, through public hooks: ``announce`` hears what is being built, ``progress``
  what a judgement examines, ``nodes`` the positions it has searched.

The command line (``rulebook check``), the scripts and the benchmarks judge through it; the
browser's page judges with the site's tables (``checkpage/entry.py``), which it opens itself,
through the same :class:`~rulebook_build.checker.judge.Judge`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product
from typing import Final, Protocol

from rulebook_build.checker.judge import Judge, Judgement
from rulebook_build.checker.opinion import OPINION_NODES
from rulebook_build.engine import (
    DEFAULT_TABLE_PIECES,
    CheckerTables,
    ProverLike,
    TableLike,
    checker_tables,
)
from rulebook_build.errors import RulebookError
from rulebook_build.notation import PdnGame, ReplayedProblem, game_variant, replay_problem
from rulebook_build.rules import Variant
from rulebook_build.words import Message, define

define(
    "checker.gametype_not_judged",
    "not judged: GameType {gametype} is not International (20) or Frisian (40)",
)

FIVE_PIECE_CLASSES: Final = frozenset(
    (a, b, c, 5 - a - b - c)
    for a, b, c in product(range(6), repeat=3)
    if a + b + c <= 5 and 0 < a + b < 5
)
"""Every class of 5 pieces (side to move first: men, kings, then the other side's), 44."""

FIVE_PIECE_COST: Final = {
    "international": "about 9 minutes on 2 cores, 0.2 GB kept",
    "frisian": "about 26 minutes on 2 cores and 9 GB of disk while it builds, 0.35 GB kept",
}
"""What building the 5-piece classes costs (figures in benchmarks/README.md)."""

FIRST_BUILD: Final = {
    ("international", 4): "about 20 s",
    ("frisian", 4): "about 2 minutes and 1 GB of disk",
}
"""What the first build of the checker's own tables costs on a 2-core machine (the two kinds
built at once), as it is announced; the figures are in benchmarks/README.md."""


class OpenTables(TableLike, Protocol):
    """Tables a judgement reads, with the compiled search that goes with them: the cache's
    (``CheckerTables``) or a site's, fetched block by block (``tables/remote.py``)."""

    def prover(self) -> ProverLike | None:
        """The compiled search over these tables, or None where there is none."""


Builder = Callable[[Variant, int], None]
"""Builds a variant's classes of up to so many pieces into the cache (``rulebook tables``)."""


def has_five(tables: CheckerTables) -> bool:
    """Whether the cache holds every 5-piece class of both kinds, built or packed (a build
    stopped halfway is taken up again)."""
    return set(tables.classes()) >= FIVE_PIECE_CLASSES


@dataclass
class Checker:
    """Judges problems of either variant with the tables and compiled search they need."""

    tables: bool = True
    """Use the endgame tables (``rulebook check --no-tables``: not)."""
    compiled: bool = True
    """Use the compiled proof search where it can be compiled (``--python-only``: not)."""
    table_pieces: int | None = 4
    """Make ready the classes of up to this many pieces; None: the variant's default
    (``DEFAULT_TABLE_PIECES``).  From 5 on they need ``build``."""
    build: Builder | None = None
    """Builds the larger classes; None: only those of up to 4 pieces are built here."""
    announce: Callable[[str], None] | None = None
    """Hears what is built before judging, and how long it took."""
    opened: dict[str, OpenTables] = field(default_factory=dict)
    """Tables the caller opened itself, by variant name (the check page's, a benchmark's):
    used as they are, nothing built."""
    last_judge: Judge | None = field(default=None, repr=False)
    """The judge of the last judgement, for tools that look inside one (the benchmarks)."""
    _ready: dict[str, OpenTables] = field(default_factory=dict, repr=False)

    def _say(self, text: str) -> None:
        if self.announce is not None:
            self.announce(text)

    def ready(self) -> dict[str, OpenTables]:
        """The tables made ready so far and those opened by the caller, by variant name."""
        return {**self._ready, **self.opened}

    def tables_of(self, variant: Variant) -> OpenTables | None:
        """The variant's tables, made ready on first use (and its compiled search compiled);
        None when tables are not used."""
        if not self.tables:
            return None
        if variant.name in self.opened:
            return self.opened[variant.name]
        if variant.name not in self._ready:
            pieces = self.table_pieces
            if pieces is None:
                pieces = DEFAULT_TABLE_PIECES[variant.name]
            tables = checker_tables(variant)
            if pieces >= 5 and self.build is not None:
                self._build_five(variant, tables)
            if tables.missing():
                self._say(
                    f"building the endgame tables of up to {tables.max_pieces} pieces for "
                    f"{variant.name} (once, after a change to the rules; "
                    f"{FIRST_BUILD.get((variant.name, tables.max_pieces), 'about a minute')})"
                )
                seconds = tables.prepare_missing()
                self._say(f"  done in {seconds:.0f} s")
            if self.compiled:
                tables.prover()  # compiled here, not inside a problem's time
            self._ready[variant.name] = tables
        return self._ready[variant.name]

    def _build_five(self, variant: Variant, tables: CheckerTables) -> None:
        """The 5-piece classes, where the compiled builder can make them and the cache lacks
        them: a problem's cook may only be provable through them (PWCP-2's A4: 17-12 wins
        through endings of two kings and men against men and a king, which no search settles
        without the tables)."""
        assert self.build is not None
        if tables.pure.native_program() is None or has_five(tables):
            return  # no C compiler: the builder would refuse, the 4-piece tables serve
        self._say(
            f"building the 5-piece endgame tables for {variant.name} with 'rulebook tables "
            f"--variant {variant.name} --pieces 5 --pack' (once, after a change to the rules; "
            f"{FIVE_PIECE_COST[variant.name]}; Ctrl-C stops it and the next run goes on where "
            "it stopped; '--table-pieces 4' starts at once and decides fewer problems)"
        )
        try:
            self.build(variant, 5)
        except RulebookError as error:
            self._say(f"the 5-piece tables were not built ({error}): judging with those of up to 4")

    def judge(
        self,
        problem: PdnGame | ReplayedProblem,
        *,
        seconds: float,
        variant: Variant | None = None,
        full: bool = True,
        by_work: bool = False,
        progress: Callable[[str], None] | None = None,
        nodes: Callable[[int], None] | None = None,
        opinion_nodes: int = OPINION_NODES,
        digest: str | None = None,
    ) -> Judgement:
        """Judge a problem (a game with a ``FEN`` tag) by the rules of ``variant``, else of
        its ``GameType``, within ``seconds`` (counted in work with ``by_work``: the same
        judgement on every machine).  ``progress`` hears what is being examined, ``nodes``
        the positions searched as the count grows, and the final count at the end.
        ``opinion_nodes``: the engine's budget for its opinion on each open question (0: no
        opinions; ``opinion.py``).  Raises
        ``RulebookError`` for a game that is no problem of a variant played here.

        A caller that has read the problem already (``notation.replay_problem``: the command
        line and the check page, which refuse a bad FEN or an unplayable solution before
        judging) hands that on, with its variant, and the :func:`problem_digest` it computed
        as ``digest``: nothing is read or computed twice."""
        if isinstance(problem, ReplayedProblem):
            if variant is not None and variant != problem.variant:
                raise ValueError(
                    f"the problem was read as {problem.variant.name}, not {variant.name}"
                )
            read = problem
        else:
            rules = variant or game_variant(problem)
            if rules is None:
                raise RulebookError(
                    Message.of("checker.gametype_not_judged", gametype=repr(problem.gametype)),
                    source=problem.source,
                    line=problem.line,
                )
            read = replay_problem(problem, rules)
        rules = read.variant
        tables = self.tables_of(rules)
        judge = Judge(
            rules,
            tables=tables,
            progress=progress,
            prover=tables.prover() if tables is not None and self.compiled else None,
            nodes=nodes,
            opinion_nodes=opinion_nodes,
        )
        self.last_judge = judge
        judgement = judge.judge(
            read.game,
            read.start,
            seconds=seconds,
            full=full,
            by_work=by_work,
            solution=read.solution,
            digest=digest,
        )
        if nodes is not None:
            nodes(judge.nodes())  # the final count, with what the last search did not report
        return judgement
