"""Judge a problem by the criteria of the Problemistenwedstrijd (Fries Spel, section H, art. 2).

This module runs a judgement: criterion A (White begins and wins, proved by exhaustive search,
``search.py``), the composer's solution (legal, and each White move of it winning), then the
walk of the solution tree (``analysis.py``) and the criteria, each family in its own module of
``criteria/``: B1-B4 ``start``, C and E ``second``, D ``idle``, F and G ``final``.  The grade
that their statuses give is ``grade.py``'s.

A judgement still undecided after one pass over the criteria is made again with the time that
pass left unused: the search keeps what it settled, so a new pass spends the time on what is
still open.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from rulebook_build.checker.analysis import (
    Clock,
    SolutionWalker,
    principal_line,
    published_states,
)
from rulebook_build.checker.criteria import Problem
from rulebook_build.checker.criteria.final import criterion_f, criterion_g
from rulebook_build.checker.criteria.idle import IdleMen
from rulebook_build.checker.criteria.questions import open_questions
from rulebook_build.checker.criteria.second import criterion_c, criterion_e, find_cooks
from rulebook_build.checker.criteria.start import start_criteria
from rulebook_build.checker.grade import (
    CRITERIA,
    Criterion,
    Judgement,
    SolutionCheck,
    Try,
    verdict_of,
)
from rulebook_build.checker.opinion import OPINION_NODES, ask
from rulebook_build.engine import (
    NATIVE_FROM_SECONDS,
    WALL,
    NativeProver,
    Node,
    ProofSearch,
    ProverLike,
    ProverSession,
    TableLike,
    Timer,
    Work,
    root_node,
)
from rulebook_build.errors import RulebookError
from rulebook_build.notation import (
    PdnGame,
    ReplayedGame,
    ReplayedMove,
    Unplayable,
    format_fen,
    write_game,
)
from rulebook_build.notation import notation_in as move_notation
from rulebook_build.notation import replay_game as replay
from rulebook_build.rules import Move, Position, RawMove, Variant, to_move

__all__ = ["CRITERIA", "Criterion", "Judge", "Judgement", "SolutionCheck", "problem_digest"]

ALTERNATIVE_SECONDS = 0.05
# The part of the time a full judgement gives the composer's key first.  Every other criterion
# waits on it, and a compiled search cut short starts again from nothing in the next round.
KEY_SHARE = 0.6
# A judgement that is still undecided is made again with the time it left unused (the search
# keeps what it settled): at most MAX_ROUNDS rounds, a new one only with at least
# MIN_ROUND_SECONDS and MIN_ROUND_SHARE of the time limit left.
MAX_ROUNDS = 6
MIN_ROUND_SECONDS = 0.5
MIN_ROUND_SHARE = 0.05
# What the searches leave of the limit for the end of a judgement: WRAP_UP_SHARE of it, at
# most WRAP_UP_SECONDS.
WRAP_UP_SECONDS = 0.25
WRAP_UP_SHARE = 0.02
# The walk of the lines where Black deviated (information only) gets at most this part of
# the time left once every criterion is settled.
DEVIATION_SHARE = 0.1
# The part of the time left that the moves the walk left open share (criteria C and G).
SETTLE_SHARE = 0.5
# False solutions (tries) shown to the reader: at most TRIES, each line at most TRY_PLIES,
# all of them within TRY_SHARE of the time left once the grade is settled.
TRIES = 3
TRY_PLIES = 12
TRY_SHARE = 0.1


def problem_digest(game: PdnGame, variant: Variant) -> str:
    """A fingerprint of what was judged: the variant and the game in strict PDN.

    The website shows a stored verdict only while the problem still has this fingerprint.
    """
    text = f"{variant.name}\n{write_game(game)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Judge:
    """Judges problems of one variant; the proof search's table is shared between criteria."""

    def __init__(
        self,
        variant: Variant,
        *,
        tables: TableLike | None = None,
        progress: Callable[[str], None] | None = None,
        prover: ProverLike | None = None,
        nodes: Callable[[int], None] | None = None,
        opinion_nodes: int = OPINION_NODES,
    ) -> None:
        """``progress`` hears what is being examined (a line of text); ``nodes`` the positions
        searched so far by the judge's searches, the Python and the compiled one together, as
        they report them.  ``opinion_nodes``: the engine's budget for the opinion on each
        question left open (``opinion.py``; 0: none), asked of the compiled search when the
        judgement is done."""
        self.variant = variant
        self.tables = tables
        self.progress = progress
        self.prover = prover
        self.on_nodes = nodes
        self.opinion_nodes = opinion_nodes
        self._problem: Problem | None = None  # the last round's analysis of the one under way
        self._searches: list[ProofSearch] = []
        self.alternative_seconds: float | None = None
        self._judgement: Judgement | None = None  # the one under way
        # the solution of the one under way, replayed once for all its rounds (None: none
        # given), or the error that stopped its replay
        self._solution: ReplayedGame | RulebookError | None = None
        self._timer: Timer = WALL  # what the one under way counts its seconds on
        # the compiled search's process of the one under way, shared by all its searches
        self._session: ProverSession | None = None
        # criterion D's smaller problems, kept from round to round of one judgement
        self._idle = IdleMen(self._new_search)

    def _new_search(self) -> ProofSearch:
        prover: ProverLike | None = self._session or self.prover
        if self.on_nodes is None:
            return ProofSearch(self.variant, tables=self.tables, prover=prover, timer=self._timer)
        search = ProofSearch(
            self.variant,
            tables=self.tables,
            prover=None if prover is None else _Reporting(prover, self._report_after),
            timer=self._timer,
            progress=self._report,
        )
        self._searches.append(search)
        return search

    def nodes(self) -> int:
        """The positions searched so far (counted only with a ``nodes`` hook)."""
        return sum(search.nodes + search.native_nodes for search in self._searches)

    def _report(self, _nodes: int) -> None:
        if self.on_nodes is not None:
            self.on_nodes(self.nodes())

    def _report_after(self, nodes: int) -> None:
        """After a compiled search: its nodes, before the search adds them to its count."""
        if self.on_nodes is not None:
            self.on_nodes(self.nodes() + nodes)

    def _say(self, message: str) -> None:
        if self.progress is not None:
            self.progress(message)

    def judge(
        self,
        game: PdnGame,
        position: Position,
        *,
        seconds: float,
        full: bool = True,
        by_work: bool = False,
        solution: ReplayedGame | Unplayable | None = None,
        digest: str | None = None,
    ) -> Judgement:
        """Judge one problem within ``seconds``; ``full=False`` settles only A and the keys.

        ``by_work`` counts the seconds in work instead of wall time (``budget.py``): the same
        judgement on every machine, whatever its speed and load.

        ``solution`` is the game's solution as the caller replayed it from ``position``
        (``notation.replay_problem``), or why it cannot be played; None: it is replayed here.
        ``digest`` is the problem's :func:`problem_digest` where the caller has it; None: it
        is computed here.  Either way the FEN is read and the digest computed once a problem.

        With ``full=False`` each first move other than the composer's key gets at most
        ``ALTERNATIVE_SECONDS`` once a key is proved: a try not proved by then is simply not
        listed as winning.  While no key is proved the win rests on the other first moves, and
        they share all the time that is left.
        """
        self.alternative_seconds = None if full else ALTERNATIVE_SECONDS
        started = time.perf_counter()
        # the searches stop a little before the limit: starting and ending a compiled search,
        # the last batch of Python nodes and the report itself take the rest
        self._timer = Work() if by_work else WALL
        clock = Clock(seconds - min(WRAP_UP_SECONDS, seconds * WRAP_UP_SHARE), self._timer)
        judgement = Judgement(
            source=f"{game.source}:{game.line}",
            event=game.tag("Event"),
            variant=self.variant.name,
            fen=format_fen(position),
            digest=problem_digest(game, self.variant) if digest is None else digest,
        )
        self._judgement = judgement
        self._solution = self._replayed(game, solution)
        # the compiled searches of the judgement share one process, and with it what they
        # settled (binaries.py ProverSession): the main search's, and those of criterion D's
        # smaller problems (each a search of its own in Python)
        if isinstance(self.prover, NativeProver):
            self._session = self.prover.session(seconds)
        search = self._new_search()
        try:
            self._rounds(game, position, search, judgement, clock, full, seconds, started)
            self._ask_opinions(judgement)
        finally:
            if self._session is not None:
                self._session.close()
                self._session = None
        return judgement

    def _ask_opinions(self, judgement: Judgement) -> None:
        """The engine's opinion on each question the judgement left open, after the proof
        searches and outside their time: it changes nothing they found."""
        problem, session = self._problem, self._session
        if problem is None or session is None or not self.opinion_nodes:
            return
        questions = open_questions(problem)
        if questions:
            self._say(f"asking the engine's opinion on {len(questions)} open questions")
        judgement.opinions = ask(session, self.variant, questions, node_limit=self.opinion_nodes)

    def _rounds(
        self,
        game: PdnGame,
        position: Position,
        search: ProofSearch,
        judgement: Judgement,
        clock: Clock,
        full: bool,
        seconds: float,
        started: float,
    ) -> None:
        """Judge in rounds, each with the time the earlier ones left unused."""
        root = root_node(self.variant, position.state())
        self._idle = IdleMen(self._new_search)
        judgement.criteria.update(start_criteria(position))
        static = dict(judgement.criteria)
        for round_number in range(1, MAX_ROUNDS + 1):
            if round_number > 1:
                self._say(f"time left ({clock.left():.1f} s): judging again with it")
                judgement.criteria = dict(static)
                judgement.winning_keys = []
                judgement.proof_line = []
                judgement.duals = []
                judgement.cooks = []
            self._judge_round(game, position, search, root, judgement, clock, full)
            judgement.criteria = {n: judgement.criteria[n] for n in CRITERIA}
            judgement.nodes = search.nodes + search.native_nodes
            judgement.seconds = time.perf_counter() - started
            # what a round left open may be settled with the time the round left unused: the
            # search keeps what it settled, so a new round redoes only what was open
            still_open = (
                judgement.verdict == "undecided" if full else (judgement.white_wins == "undecided")
            )
            if not still_open or clock.left() < max(MIN_ROUND_SECONDS, seconds * MIN_ROUND_SHARE):
                break

    def _judge_round(
        self,
        game: PdnGame,
        position: Position,
        search: ProofSearch,
        root: Node,
        judgement: Judgement,
        clock: Clock,
        full: bool,
    ) -> None:
        replayed = self._check_solution_legality(game, self._solution, judgement)

        # --- A and the winning keys
        keys = self._winning_keys(search, position, root, replayed, judgement, clock)

        # --- the composer's solution
        self._check_solution_wins(search, replayed, judgement, clock)

        if not full:
            for name in CRITERIA:
                judgement.criteria.setdefault(name, Criterion.say("undecided", "not_examined"))
            judgement.verdict = verdict_of(judgement)
            return

        problem = Problem(self.variant, position, replayed, search, root, clock, judgement, keys)
        self._problem = problem
        walker = None
        if judgement.white_wins == "proved" and replayed is not None:
            self._say("C: walking the solution tree")
            main = replayed.main
            walker = SolutionWalker(self.variant, search, published_states(position, main), clock)
            problem.walk = walker.walk(root, position, main)
            walker.settle(clock.now() + clock.share(SETTLE_SHARE))
            # the walk looks at White's other first moves too and may settle one that the
            # search of the keys left open: a second key is a cook, never a dual of the walk
            self._keys_settled_since(search, position, root, keys, judgement)
        judgement.cooks = find_cooks(problem)
        judgement.criteria["C"] = criterion_c(problem)
        self._say("D: removing each man")
        judgement.criteria["D"] = self._idle.criterion_d(problem)
        judgement.criteria["E"] = criterion_e(problem)
        judgement.criteria["F"] = criterion_f(problem)
        judgement.criteria["G"] = criterion_g(problem)
        judgement.proof_line = self._proof_line(search, root, position, replayed)
        judgement.verdict = verdict_of(judgement)
        if walker is not None and judgement.verdict != "undecided":
            # the lines where Black left the solution by choice: information only
            walker.walk_deviations(clock.now() + clock.share(DEVIATION_SHARE))
        if judgement.verdict != "undecided":
            judgement.tries = self._tries(search, root, position, keys, clock)
        if problem.walk is not None:
            judgement.duals = [dual for dual in problem.walk.duals if dual.after]

    # ------------------------------------------------------------------ A
    def _winning_keys(
        self,
        search: ProofSearch,
        position: Position,
        root: Node,
        replayed: ReplayedGame | None,
        judgement: Judgement,
        clock: Clock,
    ) -> dict[str, str]:
        """Search every first move; returns notation -> "proved"/"refuted"/"undecided"."""
        legal = position.legal_moves()
        raw_by_move = {to_move(raw): (raw, child) for raw, child in search.expand(root)}
        composer_key = replayed.main.moves[0].move if replayed and replayed.main.moves else None
        order = sorted(legal, key=lambda m: m != composer_key)
        results: dict[str, str] = {}
        for index, move in enumerate(order):
            _raw, child = raw_by_move[move]
            # the moves still open share the time: settled ones (a transposition, an earlier
            # round) cost nothing
            remaining = max(
                1, sum(not self._settled(search, raw_by_move[m][1]) for m in order[index:])
            )
            if index == 0 and composer_key is not None:
                if self.alternative_seconds is not None:
                    # only the win is asked: the key may use all but what the others are owed
                    owed = self.alternative_seconds * (len(order) - 1)
                    budget = max(self.alternative_seconds, clock.left() - owed)
                else:
                    budget = clock.share(KEY_SHARE)
            elif self.alternative_seconds is not None and "proved" in results.values():
                budget = min(self.alternative_seconds, clock.share(1 / remaining))
            elif self.alternative_seconds is not None:
                # no key proved yet: the win rests on the other moves, which share what is left
                budget = clock.share(1 / remaining)
            else:
                budget = clock.share(0.6 / remaining)
            self._say(f"A: searching key {move_notation(position, move)}")
            results[move_notation(position, move)] = search.prove(child, seconds=budget).verdict
        proved = [key for key, verdict in results.items() if verdict == "proved"]
        judgement.winning_keys = proved
        if not legal:
            judgement.white_wins = "refuted"
        elif proved:
            judgement.white_wins = "proved"
        elif all(verdict == "refuted" for verdict in results.values()):
            judgement.white_wins = "refuted"
        else:
            judgement.white_wins = "undecided"
        if judgement.white_wins == "proved":
            judgement.criteria["A"] = Criterion.say("pass", "a_pass", keys=" / ".join(proved))
        elif judgement.white_wins == "refuted":
            judgement.criteria["A"] = Criterion.say("fail", "a_fail")
        else:
            open_keys = [k for k, v in results.items() if v == "undecided"]
            # where the search of the first open key stopped: the line to look at
            first_open = next(
                m for m in order if results[move_notation(position, m)] == "undecided"
            )
            line = self._open_line(search, raw_by_move[first_open][1], position.play(first_open))
            if line:
                judgement.criteria["A"] = Criterion.say(
                    "undecided",
                    "a_undecided_line",
                    keys=", ".join(open_keys),
                    line=" ".join([move_notation(position, first_open), *line]),
                )
            else:
                judgement.criteria["A"] = Criterion.say(
                    "undecided", "a_undecided", keys=", ".join(open_keys)
                )
        return results

    @staticmethod
    def _keys_settled_since(
        search: ProofSearch,
        position: Position,
        root: Node,
        keys: dict[str, str],
        judgement: Judgement,
    ) -> None:
        """Mark the first moves left open by ``_winning_keys`` that the search has settled since
        (``keys`` in place), and list a newly proved one among the winning keys and in A."""
        child_of = {
            move_notation(position, to_move(raw)): child for raw, child in search.expand(root)
        }
        for key, verdict in keys.items():
            if verdict != "undecided":
                continue
            if search.is_proved(child_of[key]):
                keys[key] = "proved"
            elif search.is_refuted(child_of[key]):
                keys[key] = "refuted"
        proved = [key for key, verdict in keys.items() if verdict == "proved"]
        if proved != judgement.winning_keys:
            judgement.winning_keys = proved
            judgement.criteria["A"] = Criterion.say("pass", "a_pass", keys=" / ".join(proved))

    @staticmethod
    def _open_line(search: ProofSearch, node: Node, position: Position) -> list[str]:
        """The moves, in notation, of the line where the search of ``node`` stopped."""
        line: list[str] = []
        for raw in search.open_line(node):
            move = to_move(raw)
            line.append(move_notation(position, move))
            position = position.play(move)
        return line

    @staticmethod
    def _settled(search: ProofSearch, node: Node) -> bool:
        return search.is_proved(node) or search.is_refuted(node)

    # ------------------------------------------------------------------ the solution
    def _replayed(
        self, game: PdnGame, solution: ReplayedGame | Unplayable | None
    ) -> ReplayedGame | RulebookError | None:
        """The solution the rounds of a judgement look at: the one given, or replayed here
        (once: every round reads it); the error that stopped the replay; None when the game
        has no solution."""
        if not game.main_line():
            return None
        if isinstance(solution, Unplayable):
            return solution.error
        if solution is not None:
            return solution
        try:
            return replay(game, variant=self.variant)
        except RulebookError as error:
            return error

    @staticmethod
    def _check_solution_legality(
        game: PdnGame, replayed: ReplayedGame | RulebookError | None, judgement: Judgement
    ) -> ReplayedGame | None:
        if replayed is None:
            judgement.solution = SolutionCheck(False, None, None, "no solution given")
            return None
        if isinstance(replayed, RulebookError):
            written_key = game.main_line()[0].notation
            judgement.solution = SolutionCheck(
                False, written_key, None, replayed.one_line(), said=replayed.said
            )
            return None
        key = replayed.main.moves[0].notation if replayed.main.moves else None
        judgement.solution = SolutionCheck(True, key, None, None)
        return replayed

    def _check_solution_wins(
        self,
        search: ProofSearch,
        replayed: ReplayedGame | None,
        judgement: Judgement,
        clock: Clock,
    ) -> None:
        if replayed is None or not replayed.main.moves:
            return
        key_step = replayed.main.moves[0]
        judgement.solution.key = key_step.notation
        # every White move of the main line must win
        steps = replayed.main.moves
        node = root_node(self.variant, replayed.start.state())
        for index, step in enumerate(steps):
            _raw, child = self._child(search, node, step.move)
            if step.white:
                verdict = search.prove(child, seconds=clock.budget(0.1)).verdict
                if step is key_step:
                    judgement.solution.key_wins = {"proved": True, "refuted": False}.get(verdict)
                if verdict == "refuted":
                    judgement.solution.error = self._false_solution(
                        search, steps, index, child, clock
                    )
                    return
                if verdict == "undecided" and judgement.solution.error is None:
                    judgement.solution.error = (
                        f"undecided (time limit): could not prove that {step.notation} wins"
                    )
            node = child

    def _false_solution(
        self,
        search: ProofSearch,
        steps: Sequence[ReplayedMove],
        index: int,
        after_white: Node,
        clock: Clock,
    ) -> str:
        """What to say of a White move of the solution (``steps[index]``, leading to
        ``after_white``) that does not win.

        Black's refutation is looked for where the solution goes wrong: as long as the reply
        the solution gives is itself proved to keep White from winning, the solution is
        followed (every White move after such a reply loses the win too), so the composer sees
        the first Black move of the line that should have been another one, or that the line
        ends in a position White does not win."""
        said = f"false solution: {steps[index].notation} does not win"
        white_at, node = index, after_white
        while white_at + 1 < len(steps):
            reply = steps[white_at + 1]
            _raw, after_reply = self._child(search, node, reply.move)
            verdict = search.prove(after_reply, seconds=clock.budget(0.1)).verdict
            if verdict == "undecided":
                break
            if verdict == "proved":  # the solution's reply loses: Black had a better one
                refutation = self._refutation(search, node, steps[white_at].after, clock)
                if refutation is None:
                    break
                self._refuted_line(steps, white_at, refutation)
                return (
                    f"{said}; Black refutes with {refutation}{self._after(steps, index, white_at)}"
                    f" (the solution plays {reply.notation})"
                )
            if white_at + 2 >= len(steps):  # the reply holds and the solution ends there
                line = " ".join(step.notation for step in steps[: white_at + 2])
                return f"{said}; the solution ends after {line}, a position White does not win"
            white_at += 2
            _raw, node = self._child(search, after_reply, steps[white_at].move)
        refutation = self._refutation(search, node, steps[white_at].after, clock)
        if refutation is None:
            return said
        self._refuted_line(steps, white_at, refutation)
        return f"{said}; Black refutes with {refutation}{self._after(steps, index, white_at)}"

    def _refuted_line(self, steps: Sequence[ReplayedMove], white_at: int, refutation: str) -> None:
        """Keep the false solution as a line to play: the solution up to the White move at
        ``white_at``, then Black's refutation."""
        if self._judgement is not None:
            line = (*(step.notation for step in steps[: white_at + 1]), refutation)
            self._judgement.solution.refutation = line

    def _tries(
        self,
        search: ProofSearch,
        root: Node,
        position: Position,
        keys: dict[str, str],
        clock: Clock,
    ) -> list[Try]:
        """The false solutions a solver is tempted by: first moves proved not to win after
        which Black must capture (a sacrifice) and White captures back, each with its line up
        to Black's refuting choice (information for the reader, never a fault)."""
        deadline = clock.now() + clock.share(TRY_SHARE)
        found: list[Try] = []
        for raw, child in search.expand(root):
            if len(found) >= TRIES or clock.now() > deadline:
                break
            key = move_notation(position, to_move(raw))
            if keys.get(key) != "refuted":
                continue
            after = position.play(to_move(raw))
            replies = after.legal_moves()
            if not replies or not all(reply.is_capture for reply in replies):
                continue  # not a sacrifice: Black is free at once, no temptation
            line, refutation, combination = [key], None, False
            node, current = child, after
            while len(line) < TRY_PLIES and clock.now() < deadline:
                moves = current.legal_moves()
                if not moves:
                    break
                if len(moves) > 1:
                    if not current.white_to_move:
                        refutation = self._refutation(search, node, current, clock)
                    break  # at White's choice every move fails: none to single out
                node = self._child(search, node, moves[0])[1]
                line.append(move_notation(current, moves[0]))
                combination |= current.white_to_move and moves[0].is_capture
                current = current.play(moves[0])
            # a try tempts when the sacrifice starts a combination (White captures back) and
            # fails to a choice of Black's; a piece given away for nothing is no try
            if combination and refutation is not None:
                found.append(Try(key, (*line, refutation), refutation))
        return found

    @staticmethod
    def _after(steps: Sequence[ReplayedMove], index: int, white_at: int) -> str:
        """ " after <the solution up to steps[white_at]>", or "" when that is the move itself."""
        if white_at == index:
            return ""
        return " after " + " ".join(step.notation for step in steps[: white_at + 1])

    def _refutation(
        self, search: ProofSearch, node: Node, position: Position, clock: Clock
    ) -> str | None:
        """Black's reply that keeps White from winning in ``node`` (itself refuted): one the
        search has already shown, else the first that a short search shows."""
        children = search.expand(node)
        for raw, child in children:
            if search.is_refuted(child):
                return move_notation(position, to_move(raw))
        for raw, child in children:
            if search.is_proved(child):
                continue
            if search.prove(child, seconds=clock.budget(0.1)).verdict == "refuted":
                return move_notation(position, to_move(raw))
        return None

    def _child(self, search: ProofSearch, node: Node, move: Move) -> tuple[RawMove, Node]:
        for raw, child in search.expand(node):
            if to_move(raw) == move:
                return raw, child
        raise AssertionError(f"{move} is not a move of the node")  # replay checked legality

    # ------------------------------------------------------------------ report
    @staticmethod
    def _proof_line(
        search: ProofSearch, root: Node, position: Position, replayed: ReplayedGame | None
    ) -> list[str]:
        if not search.is_proved(root) and not any(
            search.is_proved(child) for _raw, child in search.expand(root)
        ):
            return []
        main = replayed.main.engine_moves() if replayed else ()
        return [move_notation(p, m) for p, m in principal_line(search, root, position, main)]


class _Reporting:
    """A judgement's compiled search, telling ``after`` its nodes once each search is done (a
    counter would otherwise wait for the Python search's next report)."""

    def __init__(self, prover: ProverLike, after: Callable[[int], None]) -> None:
        self.prover = prover
        self.after = after
        self.from_seconds = getattr(prover, "from_seconds", NATIVE_FROM_SECONDS)

    def solve(self, state: Any, clocks: Any, **options: Any) -> Any:
        answer = self.prover.solve(state, clocks, **options)
        self.after(answer.nodes)
        return answer
