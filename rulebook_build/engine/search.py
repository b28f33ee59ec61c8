"""Proof that White wins: depth-first proof-number search (df-pn) over the AND/OR tree.

White wins when Black, to move, has no legal move, before any draw rule of the variant
applies.  White's turns are OR nodes (one winning move suffices), Black's are AND nodes (every
defence must be answered).  A node is the position plus the count-rule clocks of
``rules/drawrules.py`` (so a win that the 16-move or 25-move rule would stop is no win).  In
Frisian, where kings can circle for ever, a position that repeats on the current line counts
as a draw; International play is finite once the clocks are in the node.

Answers are three-valued and honest: ``proved`` only when the whole tree below is closed by
terminal wins (or by exact endgame-table wins that fit in the draw budget), ``refuted`` when
every White try is closed off, ``undecided`` when the time limit or node budget ran out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from rulebook_build.engine.binaries import pieces_of
from rulebook_build.engine.budget import COMPILED_RATE, SAFETY, SAFETY_SECONDS, WALL, Timer
from rulebook_build.rules import (
    DrawClocks,
    RawMove,
    State,
    Variant,
    advance,
    count_moves,
    draw_by_count,
    generate,
    initial_clocks,
    make,
    play_is_finite,
    plies_left,
)

INFINITY: Final = 10**9
EPSILON_DIVISOR: Final = 4  # the 1+epsilon trick with epsilon = 1/4
# Sums of proof numbers stop growing here, far below INFINITY.  A subtree reached by several
# lines is counted once per parent, so sums can grow without bound; one that reached
# INFINITY - 1 at the root would end the search early, as if it had been settled.
SUM_CAP: Final = INFINITY // 2
# The first estimate of a node whose table (one with count rules only: the 6-piece classes)
# does not vouch for a win is this many times harder: such nodes are seldom won (A9 of PWCP-2:
# 4.85 M nodes instead of 5.83 M; 8, 128 and 1024 did less well).  Searched last, never closed.
UNLIKELY: Final = 32
# The first estimate of any other node grows with the material the side it favours is behind
# (a man 1, a king KING_MEN): a White move that gives a man away for nothing is seldom a win,
# and a Black reply that wins material is the likeliest refutation.  Measured with the compiled
# search at 5 million nodes on 24 second keys of Cat.B1 that a 20 s check left open, and on 24
# of PWCP-2 and Cat.D1 (settled of each: without it 1 and 5; weight 4: 4; 8: 4 and 8; 16: 5 and
# 7; 32: 4; 64: 3), and on the composers' keys of all 106 problems whose key wins: proved with
# it as without (306,000 nodes in all, 208,000 without).  It orders the search only: no value
# a proof or refutation rests on changes.  The compiled search can weigh the balance of its static
# evaluation instead (native/prover.c ESTIMATE 1); measured, and not taken.
MATERIAL_WEIGHT: Final = 16
KING_MEN: Final = 3
Verdict = Literal["proved", "refuted", "undecided"]
Node = tuple[State, DrawClocks]


class OutcomeLike(Protocol):
    @property
    def result(self) -> str:
        """ "win", "loss" or "draw" for the side to move."""

    @property
    def plies(self) -> int:
        """Distance to the end of the game under best play."""


class TableLike(Protocol):
    def probe(self, state: State) -> OutcomeLike | None:
        """The value without count rules (None: not covered)."""

    def probe_rules(self, state: State) -> OutcomeLike | None:
        """A value that holds with the count rules when its distance fits the clocks (None: not
        covered, or no such tables); a distance that may be longer than the true one, never
        shorter (``compact.kept_distance``)."""


class AnswerLike(Protocol):
    """A compiled search's answer (``native.ProverAnswer``): its verdict and the tree behind it."""

    @property
    def verdict(self) -> str: ...

    @property
    def nodes(self) -> int: ...

    @property
    def problem(self) -> str | None: ...

    @property
    def open_line(self) -> tuple[tuple[int, int, int, int], ...]:
        """Undecided: the pieces after each move of the line the search was working on."""
        ...

    def choice(self, state: State, clocks: DrawClocks) -> tuple[int, int, int, int] | None:
        """The pieces (white men, white kings, black men, black kings) after the move the tree
        chose at this node, if it chose one."""


class ProverLike(Protocol):
    def solve(
        self,
        state: State,
        clocks: DrawClocks,
        *,
        seconds: float,
        node_limit: int,
        table_seconds: float | None = None,
    ) -> AnswerLike:
        """Search ``(state, clocks)`` for at most ``seconds`` and ``node_limit`` positions, with
        the table a search of ``table_seconds`` (default ``seconds``) gets."""


NATIVE_FROM_SECONDS: Final = 0.5
"""Shorter searches stay in Python: starting the compiled search costs a few milliseconds."""
NATIVE_SHARE: Final = 0.7
"""The part of a search's time the compiled search gets; the rest is for checking its tree."""
PYTHON_NODE_LIMIT: Final = 50_000_000
"""Nodes a Python search may store by default (its table grows with them)."""
NATIVE_NODE_LIMIT: Final = 10**12
"""The compiled search's default: in effect none, since its memory is fixed by its table and
time alone ends it (the Python limit stopped A9's proof at 50 million of its 51.8 million nodes)."""
OPEN_LINE_PLIES: Final = 16
"""How long a line ``open_line`` gives (as OPEN_LINE_PLIES in prover.c)."""


class TimeUp(Exception):
    """The search ran out of time or nodes: the answer is undecided."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    verdict: Verdict
    nodes: int
    seconds: float


def _widened(second_value: int) -> int:
    """The threshold a child is searched to: a little past the runner-up (the 1+epsilon trick).

    Plain df-pn stops a child as soon as it is no better than the runner-up (``second + 1``),
    so two close siblings take turns and are re-expanded again and again.  Letting the child
    run to ``second * (1 + epsilon) + 1`` (Pawlewicz and Lew, 2007) removes most of that
    thrashing; which child is searched changes, what is proved does not.
    """
    if second_value >= INFINITY - 1:
        return INFINITY - 1
    return second_value + 1 + second_value // EPSILON_DIVISOR


def _summed(total: int, value: int) -> int:
    """``total + value`` for a proof-number sum: INFINITY stays INFINITY, the rest stops at
    SUM_CAP."""
    if total >= INFINITY or value >= INFINITY:
        return INFINITY
    return min(SUM_CAP, total + value)


def _white_wins(outcome: OutcomeLike, white_to_move: bool) -> bool:
    return outcome.result != "draw" and (outcome.result == "win") == white_to_move


def _first_estimate(state: State, moves: int) -> tuple[int, int]:
    """The values of a node not yet searched: the moves the side to move may choose from or
    must answer, each number made harder by the material its side is behind."""
    own = state[0].bit_count() + KING_MEN * state[1].bit_count()
    opp = state[2].bit_count() + KING_MEN * state[3].bit_count()
    balance = own - opp if state[4] else opp - own  # White's material less Black's
    harder_to_prove = 1 + MATERIAL_WEIGHT * max(0, -balance)
    harder_to_refute = 1 + MATERIAL_WEIGHT * max(0, balance)
    if state[4]:
        return (harder_to_prove, moves * harder_to_refute)
    return (moves * harder_to_prove, harder_to_refute)


def root_node(variant: Variant, state: State) -> Node:
    return (state, initial_clocks(variant, state))


def child_node(variant: Variant, node: Node, move: RawMove) -> Node:
    state, clocks = node
    after = make(variant, state, move)
    return (after, advance(variant, clocks, state, move, after))


class ProofSearch:
    """df-pn for "White wins" in one variant; the transposition table is kept between calls."""

    def __init__(
        self,
        variant: Variant,
        *,
        tables: TableLike | None = None,
        progress: Callable[[int], None] | None = None,
        prover: ProverLike | None = None,
        timer: Timer = WALL,
    ) -> None:
        """``timer`` is what the seconds of ``prove`` are counted on: wall time, or work
        (``budget.py``), shared by every search of one judgement."""
        self.variant = variant
        self.timer = timer
        self.tables = tables
        self.progress = progress
        # the compiled search's trees are walked and refused if they go round in a circle
        self.prover = prover
        self.native_nodes = 0
        self.native_problems: list[str] = []
        # the line each undecided compiled search was working on, as moves from its node
        self.native_open_lines: dict[Node, list[RawMove]] = {}
        self.table: dict[Node, tuple[int, int]] = {}
        self.children: dict[Node, list[tuple[RawMove, Node]]] = {}
        self.nodes = 0
        self.deadline = 0.0
        self.node_limit = 0
        # a refutation found while lines were cut at a repetition may rest on a transposition
        # entry made under another history (graph-history interaction): never report those.
        # Where play is finite with the clocks in the node (International) no line can come
        # back to a node, so nothing is cut: proofs and refutations are both exact there (the
        # threefold-repetition rule only ever helps the defender, so ignoring it cannot make a
        # refutation wrong, and a win with repetitions implies one without).
        self.repetition_cuts = 0
        self.cut_repetitions = not play_is_finite(variant)
        # the refutations walked from compiled searches' trees (``_adopt``), where lines are cut
        self.checked_refutations: set[Node] = set()

    # ------------------------------------------------------------------ public
    def prove(self, node: Node, *, seconds: float, node_limit: int | None = None) -> SearchResult:
        """Is ``node`` a win for White?  Within ``seconds`` on the search's timer (and
        ``node_limit`` nodes, by default PYTHON_NODE_LIMIT or NATIVE_NODE_LIMIT)."""
        began = time.perf_counter()
        started = self.timer.now()
        # a prover already running (binaries.py ProverSession) says from when it is worth asking
        from_seconds = getattr(self.prover, "from_seconds", NATIVE_FROM_SECONDS)
        if self.prover is not None and seconds >= from_seconds:
            limit = NATIVE_NODE_LIMIT if node_limit is None else node_limit
            native = self._prove_native(node, started + seconds, limit)
            if native is not None:
                return SearchResult(native, self.nodes, time.perf_counter() - began)
            seconds -= self.timer.now() - started
        self.deadline = started + seconds
        self.node_limit = self.nodes + (PYTHON_NODE_LIMIT if node_limit is None else node_limit)
        cuts_before = self.repetition_cuts
        try:
            pn, dn = self._mid(node, INFINITY - 1, INFINITY - 1, set())
        except TimeUp:
            pn, dn = self.lookup(node)
        seconds_used = time.perf_counter() - began
        if pn == 0:
            return SearchResult("proved", self.nodes, seconds_used)
        if dn == 0 and self.repetition_cuts == cuts_before == 0:
            return SearchResult("refuted", self.nodes, seconds_used)
        return SearchResult("undecided", self.nodes, seconds_used)

    def lookup(self, node: Node) -> tuple[int, int]:
        """(proof number, disproof number) known for ``node``: (0, INF) is a proved win."""
        known = self.table.get(node)
        if known is None:
            return self._evaluate(node)
        return known

    def is_proved(self, node: Node) -> bool:
        return self.lookup(node)[0] == 0

    def is_refuted(self, node: Node) -> bool:
        """Refuted without any repetition cut in this search (see ``repetition_cuts``)."""
        return self.repetition_cuts == 0 and self.lookup(node)[1] == 0

    def expand(self, node: Node) -> list[tuple[RawMove, Node]]:
        found = self.children.get(node)
        if found is None:
            variant = self.variant
            found = [(move, child_node(variant, node, move)) for move in generate(variant, node[0])]
            self.children[node] = found
        return found

    # ------------------------------------------------------------------ the compiled search
    def _prove_native(self, node: Node, deadline: float, node_limit: int) -> Verdict | None:
        """Ask the compiled search, then check the tree it gives with the Python engine: the
        verdict only when every node of the tree passed, else None (time is left to Python)."""
        known = self.lookup(node)
        if known[0] == 0 or known[1] == 0:
            return None
        assert self.prover is not None
        share = (deadline - self.timer.now()) * NATIVE_SHARE
        if self.timer.deterministic:  # stopped by its count of positions, not by the clock
            node_limit = min(node_limit, max(1, int(share * COMPILED_RATE)))
            wall = max(SAFETY_SECONDS, share * SAFETY)
            answer = self.prover.solve(
                node[0], node[1], seconds=wall, node_limit=node_limit, table_seconds=share
            )
        else:
            answer = self.prover.solve(node[0], node[1], seconds=share, node_limit=node_limit)
        self.native_nodes += answer.nodes
        self.timer.spend_compiled(answer.nodes)
        if answer.problem is not None:
            self.native_problems.append(answer.problem)
            return None
        if answer.verdict == "undecided":
            self.native_open_lines[node] = self.moves_to(node, answer.open_line)
            return "undecided"
        if not self._adopt(node, answer, deadline):
            return None
        return "proved" if answer.verdict == "proved" else "refuted"

    def _adopt(self, root: Node, answer: AnswerLike, deadline: float) -> bool:
        """Walk the compiled search's tree: at every node the leaf rules of ``_leaf_value`` close
        it, or (where one move suffices) the chosen move is legal and its child passes, or
        (where every move must be answered) every child passes, and no line of the tree comes
        back to a node on it.  The tree is then a finite graph without circles, so every line
        through it ends in one of its leaves, and passing everywhere is a proof (International
        play is finite anyway; a Fries Spel strategy that goes round for ever wins nothing).  The
        nodes that passed are stored as settled, for the proof line and the criteria that
        follow, and for a later walk, which skips them."""
        proof = answer.verdict == "proved"
        settled = (0, INFINITY) if proof else (INFINITY, 0)
        table = self.table
        # a node this search has already settled the same way needs no second walk (a proof in
        # its table is always sound; a refutation only where no line was cut at a repetition,
        # or where it was walked from a compiled search's tree): the tree of a search that went
        # on from an earlier one (binaries.py ProverSession) repeats that one's proofs
        checked = self.checked_refutations
        exact = not self.cut_repetitions
        passed: set[Node] = set()  # checked, with everything below
        on_line: set[Node] = set()  # on the line from the root being walked
        line: list[tuple[Node, Iterator[Node]]] = []

        def enter(node: Node) -> bool:
            """Check a node's own leaf or choice; a node with children to walk joins the line."""
            known_value = table.get(node)
            if known_value is not None and (
                known_value[0] == 0 if proof else known_value[1] == 0 and (exact or node in checked)
            ):
                passed.add(node)
                return True
            self.timer.spend_check(1)
            if len(passed) & 1023 == 0 and self.timer.now() > deadline:
                self.native_problems.append("no time left to check the compiled search's tree")
                return False
            state, clocks = node
            # children (and their clocks) are made only where the walk goes on: at a White node
            # of a proof only the chosen one
            known = self.children.get(node)
            moves = [m for m, _ in known] if known is not None else generate(self.variant, state)
            value = self._leaf_value(node, len(moves))
            if value == settled:
                passed.add(node)
                return True
            if value is not None and (value[0] == 0 or value[1] == 0):
                self.native_problems.append("the compiled search's tree ends in a wrong leaf")
                return False
            if state[4] == proof:  # one move suffices: the one the tree chose
                chosen = answer.choice(state, clocks)
                step = self._step_to(node, chosen, moves) if chosen is not None else None
                if step is None:
                    self.native_problems.append("the compiled search's tree has no legal choice")
                    return False
                below: list[Node] = [step[1]]
            else:
                if known is None:
                    variant = self.variant
                    known = [(move, child_node(variant, node, move)) for move in moves]
                    self.children[node] = known
                below = [child for _move, child in known]
            on_line.add(node)
            line.append((node, iter(below)))
            return True

        whole = enter(root)
        while line and whole:
            node, below = line[-1]
            child = next(below, None)
            if child is None:
                line.pop()
                on_line.discard(node)
                passed.add(node)
            elif child in on_line:
                self.native_problems.append("the compiled search's tree goes round in a circle")
                whole = False
            elif child not in passed and not enter(child):
                whole = False
        # every node passed is settled, the whole tree below it walked, even where the walk
        # stopped (no circle can pass through such a node: it would have been on the line when
        # its tree was walked): a walk cut short by time goes on from there next time
        for node in passed:
            table[node] = settled
        if not proof and not exact:
            checked.update(passed)
        return whole

    def moves_to(self, node: Node, line: Sequence[tuple[int, int, int, int]]) -> list[RawMove]:
        """The legal moves that lead from ``node`` through the positions of ``line`` (as far as
        each is reached by one)."""
        moves: list[RawMove] = []
        for pieces in line:
            step = self._step_to(node, pieces)
            if step is None:
                break
            moves.append(step[0])
            node = step[1]
        return moves

    def _step_to(
        self,
        node: Node,
        pieces: tuple[int, int, int, int],
        moves: list[RawMove] | None = None,
    ) -> tuple[RawMove, Node] | None:
        """The legal move of ``node`` that leaves these pieces (as the compiled search prints
        a position), with its child; None if there is none.  ``moves``: the node's legal
        moves, when the caller has them."""
        known = self.children.get(node)
        if known is not None:
            return next(((m, c) for m, c in known if pieces_of(c[0]) == pieces), None)
        # only the child that is asked for gets its clocks (``child_node``), as in a walk of a
        # compiled search's tree, where every other child of a White node is left unvisited
        state, clocks = node
        # only a move that captures just the pieces that are gone, and ends on the square the
        # mover arrived on (if any: a king's capture can end where it began), is made to compare
        white = state[4]
        own_after = pieces[0] | pieces[1] if white else pieces[2] | pieces[3]
        gone = (state[2] | state[3]) & ~(pieces[2] | pieces[3] if white else pieces[0] | pieces[1])
        arrived = own_after & ~(state[0] | state[1])
        for move in generate(self.variant, state) if moves is None else moves:
            if move[2] != gone or (arrived and not arrived >> move[1] & 1):
                continue
            after = make(self.variant, state, move)
            if pieces_of(after) == pieces:
                return move, (after, advance(self.variant, clocks, state, move, after))
        return None

    def open_line(self, node: Node, plies: int = OPEN_LINE_PLIES) -> list[RawMove]:
        """The line where the search of an unsettled ``node`` stopped: the moves df-pn would
        search next (least proof number where White moves, least disproof number where Black
        does) while the nodes stay open.  After a compiled search, its own line."""
        if node in self.native_open_lines:
            return self.native_open_lines[node][:plies]
        moves: list[RawMove] = []
        while len(moves) < plies:
            pn, dn = self.lookup(node)
            if pn == 0 or dn == 0:
                break
            children = self.expand(node)
            if not children:
                break
            which = 0 if node[0][4] else 1
            move, node = min(children, key=lambda step: self.lookup(step[1])[which])
            moves.append(move)
        return moves

    # ------------------------------------------------------------------ search
    def _leaf_value(self, node: Node, moves: int) -> tuple[int, int] | None:
        """The value that rules give a node with ``moves`` legal moves: terminal, draw rule or
        table; None when only search can tell."""
        state, clocks = node
        white_to_move = state[4]
        if not moves:
            # the side to move cannot move and has lost (KNDB art. 8a, Fries Spel art. 20)
            return (INFINITY, 0) if white_to_move else (0, INFINITY)
        if draw_by_count(self.variant, clocks, state) is not None:
            return (INFINITY, 0)
        if self.tables is None:
            return None
        outcome = self.tables.probe(state)
        if outcome is not None:
            return self._table_value(state, outcome, white_to_move, clocks)
        if self._counted_win(state, white_to_move, clocks):
            # a class with a table with count rules only (the 6-piece ones): it may prove a
            # win, never refute one
            return (0, INFINITY)
        return None

    def _evaluate(self, node: Node) -> tuple[int, int]:
        """Values of a node never searched: terminal, draw rule, table, or a first estimate.

        The result is stored, so a node is evaluated once; its children are generated only
        when the node itself is searched.
        """
        moves = count_moves(self.variant, node[0])  # the number is all an estimate needs
        value = self._leaf_value(node, moves)
        if value is None:
            value = _first_estimate(node[0], moves)
            if self.tables is not None and self.tables.probe_rules(node[0]) is not None:
                # a class with a table with count rules only, and no win it vouches for
                value = (value[0] * UNLIKELY, value[1])
        self.table[node] = value
        return value

    def _table_value(
        self, state: State, outcome: OutcomeLike, white_to_move: bool, clocks: DrawClocks
    ) -> tuple[int, int]:
        """Refuted when the pure value is no White win (count rules only add draws); proved
        only by the value with count rules, when its distance fits the node's clocks."""
        if not _white_wins(outcome, white_to_move):
            return (INFINITY, 0)
        if self._counted_win(state, white_to_move, clocks):
            return (0, INFINITY)
        # a pure win that a count rule might cut short: leave it to the search
        return (1, 1)

    def _counted_win(self, state: State, white_to_move: bool, clocks: DrawClocks) -> bool:
        """A win by the tables with count rules whose distance fits the node's clocks."""
        assert self.tables is not None
        counted = self.tables.probe_rules(state)
        if counted is None or not _white_wins(counted, white_to_move):
            return False
        budget = plies_left(self.variant, clocks)
        return budget is None or counted.plies <= budget

    def _mid(self, node: Node, pn_limit: int, dn_limit: int, path: set[State]) -> tuple[int, int]:
        self.nodes += 1
        if self.nodes & 127 == 0:
            self.timer.spend_python(128)
            if self.timer.now() > self.deadline or self.nodes > self.node_limit:
                raise TimeUp
            if self.progress is not None and self.nodes & 4095 == 0:
                self.progress(self.nodes)
        known = self.table.get(node)
        if known is None:
            known = self._evaluate(node)
        if known[0] == 0 or known[1] == 0:
            return known
        state = node[0]
        white_to_move = state[4]
        children = self.expand(node)
        path.add(state)
        try:
            while True:
                pn, dn, best, _best_value, second_value = self._collect(
                    children, white_to_move, path
                )
                self.table[node] = (pn, dn)
                if pn >= pn_limit or dn >= dn_limit or best is None:
                    return (pn, dn)
                child = children[best][1]
                child_pn, child_dn = self._child_values(child, path)
                if white_to_move:
                    child_pn_limit = min(pn_limit, _widened(second_value))
                    child_dn_limit = dn_limit - dn + child_dn
                else:
                    child_dn_limit = min(dn_limit, _widened(second_value))
                    child_pn_limit = pn_limit - pn + child_pn
                self._mid(child, child_pn_limit, min(child_dn_limit, INFINITY - 1), path)
        finally:
            path.discard(state)

    def _child_values(self, child: Node, path: set[State]) -> tuple[int, int]:
        if self.cut_repetitions and child[0] in path:
            self.repetition_cuts += 1
            return (INFINITY, 0)  # a repetition on this line: no progress, counts as a draw
        known = self.table.get(child)
        if known is None:
            known = self._evaluate(child)
        return known

    def _collect(
        self, children: list[tuple[RawMove, Node]], white_to_move: bool, path: set[State]
    ) -> tuple[int, int, int | None, int, int]:
        """Combine the children: (pn, dn, index of the child to search, its value, runner-up)."""
        best: int | None = None
        best_value = INFINITY
        second_value = INFINITY
        if white_to_move:  # OR node: pn = min, dn = sum
            pn, dn = INFINITY, 0
            for index, (_move, child) in enumerate(children):
                child_pn, child_dn = self._child_values(child, path)
                dn = _summed(dn, child_dn)
                if child_pn < best_value:
                    second_value = best_value
                    best_value = child_pn
                    best = index
                elif child_pn < second_value:
                    second_value = child_pn
                pn = min(pn, child_pn)
            if pn == 0 or dn == 0:
                return pn, dn, None, best_value, second_value
            return pn, dn, best, best_value, second_value
        pn, dn = 0, INFINITY  # AND node: pn = sum, dn = min
        for index, (_move, child) in enumerate(children):
            child_pn, child_dn = self._child_values(child, path)
            pn = _summed(pn, child_pn)
            if child_dn < best_value:
                second_value = best_value
                best_value = child_dn
                best = index
            elif child_dn < second_value:
                second_value = child_dn
            dn = min(dn, child_dn)
        if pn == 0 or dn == 0:
            return pn, dn, None, best_value, second_value
        return pn, dn, best, best_value, second_value
