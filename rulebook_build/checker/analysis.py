"""One analysis of a problem, which the criteria read: the solution tree and where it ends.

Fries Spel, supplementary regulations H, art. 2C asks for "geen bijoplossing" (no second
solution); problem practice (draughts and chess alike) separates a **cook**, a second way for
White to solve the problem, which makes it incorrect, from a **dual**, a second winning White
move later on, whose weight depends on where it occurs.  This module decides where.

The *published tree* is the composer's main line with the composer's own variations.  The walk
follows it from the key: at White's turns the composer's move (every White move that also wins
is a dual, classified below), at Black's turns every reply.  A Black reply is

* on the tree: the main line's move or the first move of a published variation;
* a *forced alternative*: Black must capture and has a choice of captures, and the composer
  did not publish this one;
* a *deviation*: any other reply the composer did not publish.  Black leaves the solution by
  choice; what follows is information only (walked last, with the time left).

The *end of the problem* on a line is the first of: the composer's last move, the game being
over, or a position decided beyond doubt by its material alone (``ended``).  It depends on the
position only, never on the endgame tables installed: tables make the walk faster, never
change where it stops.  Nothing after the end is walked.

A second winning White move at a turn of the walk is a dual of one of these kinds, most severe
first (``DUAL_KINDS``):

=================  ======  ==============================================================
kind               level   where
=================  ======  ==============================================================
``cook``           fail    on the main line before its end: a real alternative inside the
                           composed combination
``variation``      remark  in a published variation, or after a forced Black alternative
``transposition``  info    the move leads back into the published tree within
                           ``TRANSPOSE_PLIES`` plies, whatever Black replies
``landing``        info    the same capture (same origin, same captured pieces) with
                           another landing square
``deviation``      info    after a Black deviation
=================  ======  ==============================================================

A second winning *key* is a cook too; criterion C reports it from the winning keys.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final, Literal

from rulebook_build.engine import WALL, Node, ProofSearch, Timer
from rulebook_build.notation import ReplayedLine
from rulebook_build.notation import notation_in as move_notation
from rulebook_build.rules import Move, Position, State, Variant, generate, make, to_move

Level = Literal["fail", "remark", "info"]
DualKind = Literal["cook", "variation", "transposition", "landing", "deviation"]
DUAL_KINDS: Final[tuple[DualKind, ...]] = (
    "cook",
    "variation",
    "transposition",
    "landing",
    "deviation",
)
"""Most severe first: a turn with several extra winning moves gets the kind of the worst."""
LEVEL: Final[dict[DualKind, Level]] = {
    "cook": "fail",
    "variation": "remark",
    "transposition": "info",
    "landing": "info",
    "deviation": "info",
}
Context = Literal["main", "variation", "forced", "deviation"]

SMALL_ENDING: Final = 4
"""A won position of at most this many pieces, in a problem that began with more, is an ending,
not a problem (the classes whose tables every International check builds; the rule is the same
for Frisian and for a check without tables)."""
TRANSPOSE_PLIES: Final = 4
"""How far a second move may go before it is back in the published tree."""
TRANSPOSE_NODES: Final = 20_000
"""Positions one transposition test may make: a count, not a time, so that every machine gives
the same answer (past it, the move does not count as a transposition)."""
WALK_MOVE_SECONDS: Final = 0.5
"""The longest search the walk gives one White move at first; what stays open then shares the
time ``settle`` is given."""
SETTLE_PASSES: Final = 3


def _pieces(position: Position) -> int:
    return sum(position.count(True)) + sum(position.count(False))


def ended(position: Position, start_pieces: int) -> str | None:
    """Why the problem is over in ``position`` by the position alone, or None.

    The rule is ours, since no rulebook defines it: Fries Spel H art. 2F asks that the solution
    is carried through to the win, and a jury stops reading where the win is beyond doubt.  On a
    line the walk follows, White is already proved to win; the line is over when

    * the side to move has no move (the game is over);
    * at most ``SMALL_ENDING`` pieces are left of the ``start_pieces`` the problem began with
      (a won elementary ending);
    * White has a king, Black none, and White is not behind in pieces;
    * Black has no king and White is at least two pieces ahead.
    """
    if not position.legal_moves():
        return "game over"
    white_men, white_kings = position.count(True)
    black_men, black_kings = position.count(False)
    white, black = white_men + white_kings, black_men + black_kings
    if white + black <= SMALL_ENDING < start_pieces:
        return "small ending"
    if black_kings == 0 and white_kings > 0 and white >= black:
        return "king against no king"
    if black_kings == 0 and white >= black + 2:
        return "two pieces ahead"
    return None


@dataclass(frozen=True, slots=True)
class Dual:
    """A White turn of the walk where more than one move wins."""

    after: tuple[str, ...]
    """The moves that lead there, from the start position."""
    moves: tuple[str, ...]
    """Every winning move, the one the walk followed first."""
    kind: DualKind
    on_main: bool
    """At a turn of the published main line."""

    @property
    def level(self) -> Level:
        return LEVEL[self.kind]

    def as_json(self) -> dict[str, object]:
        return {
            "after": " ".join(self.after),
            "moves": list(self.moves),
            "kind": self.kind,
            "level": self.level,
            "on_main": self.on_main,
        }


@dataclass(frozen=True, slots=True)
class _Cursor:
    """A place in the published tree: the next move of ``line`` is ``line.moves[index]``."""

    line: ReplayedLine
    index: int

    @property
    def at_end(self) -> bool:
        return self.index >= len(self.line.moves)

    def expected(self) -> Move | None:
        return None if self.at_end else self.line.moves[self.index].move

    def after(self, move: Move) -> _Cursor | None:
        """The cursor after ``move``: the line's next move, a variation's, or None (off the
        published tree)."""
        if self.at_end:
            return None
        step = self.line.moves[self.index]
        if move == step.move:
            return _Cursor(self.line, self.index + 1)
        for variation in step.variations:
            if variation.moves and variation.moves[0].move == move:
                return _Cursor(variation, 1)
        return None


def published_states(start: Position, main: ReplayedLine) -> frozenset[State]:
    """Every position of the published tree (main line and variations), replayed from
    ``start``; a move not legal there (the start of criterion D's smaller problems) ends its
    line."""
    found: set[State] = set()

    def visit(line: ReplayedLine, position: Position) -> None:
        found.add(position.state())
        for step in line.moves:
            for variation in step.variations:
                visit(variation, position)
            if step.move not in position.legal_moves():
                return
            position = position.play(step.move)
            found.add(position.state())

    visit(main, start)
    return frozenset(found)


def transposes(variant: Variant, state: State, targets: frozenset[State]) -> bool:
    """True when White can bring ``state`` (after White's move) into ``targets`` within
    ``TRANSPOSE_PLIES`` plies against every Black reply."""
    budget = [TRANSPOSE_NODES]

    def back(state: State, plies: int) -> bool:
        if state in targets:
            return True
        if plies == 0 or budget[0] <= 0:
            return False
        moves = generate(variant, state)
        budget[0] -= len(moves)
        if not moves:
            return False
        if state[4]:  # White to move: one way back suffices
            return any(back(make(variant, state, raw), plies - 1) for raw in moves)
        return all(back(make(variant, state, raw), plies - 1) for raw in moves)

    return back(state, TRANSPOSE_PLIES - 1)


class Clock:
    """The time of one judgement, on its timer: wall time, or work (``budget.py``)."""

    def __init__(self, seconds: float, timer: Timer = WALL) -> None:
        self.timer = timer
        self.end = timer.now() + seconds

    def now(self) -> float:
        return self.timer.now()

    def left(self) -> float:
        return max(0.0, self.end - self.timer.now())

    def share(self, fraction: float) -> float:
        return self.left() * fraction

    def budget(self, fraction: float, least: float = 0.05) -> float:
        """A search's seconds: ``fraction`` of what is left, at least ``least`` so a short
        search can settle something, but never past the end of the time limit."""
        left = self.left()
        return min(left, max(least, left * fraction))


@dataclass(frozen=True, slots=True)
class OpenMove:
    """A White move of the walk whose win stayed open, or (``move`` None) a position the walk
    did not get past: where it is (``line``: the moves from the start, the open move
    included), the position before the move and the node after it."""

    line: tuple[str, ...]
    position: Position
    move: Move | None
    node: Node


@dataclass(slots=True)
class TreeWalk:
    """What the walk of the published tree found."""

    duals: list[Dual] = field(default_factory=list)
    undecided: int = 0
    """White turns where no move was proved to win (time ran out first)."""
    open_moves: int = 0
    """White moves whose win was not settled, where a win would be a fault or a remark."""
    complete: bool = True
    """False when time ran out before the tree (up to the end of the problem) was walked."""
    positions: int = 0
    deviations: list[tuple[Node, Position, tuple[str, ...]]] = field(default_factory=list)
    """Where Black left the published tree by choice: walked last, for information."""
    open_list: list[OpenMove] = field(default_factory=list)
    """The White moves behind ``unsettled``, each with the line to it: the questions an
    opinion (``opinion.py``) can be asked about."""
    stopped: OpenMove | None = None
    """Where the walk ran out of time first (``complete`` False): the position it did not
    go past, with ``move`` None."""

    @property
    def unsettled(self) -> int:
        """What the walk left open: a fault or remark may hide there."""
        return self.undecided + self.open_moves

    def findings(self, level: Level) -> list[Dual]:
        return [dual for dual in self.duals if dual.level == level]


@dataclass(slots=True)
class _Turn:
    """A White turn of the walk: the moves proved to win there, and those still open whose win
    would be a fault or a remark."""

    position: Position
    line: tuple[str, ...]
    context: Context
    chosen: Move
    winners: list[Move]
    open: list[tuple[Move, Node]] = field(default_factory=list)
    kinds: dict[Move, DualKind] = field(default_factory=dict)
    """The kind of each winning move but the chosen one, worked out once."""
    dual: Dual | None = None
    """The dual this turn shows (more than one winning move), kept up to date by ``_win``."""


@dataclass(slots=True)
class SolutionWalker:
    """Walks the published tree of one problem with one proof search (``walk``), then, with
    the time left, the lines where Black deviated (``walk_deviations``)."""

    variant: Variant
    search: ProofSearch
    targets: frozenset[State]
    clock: Clock
    deadline: float | None = None
    """Stop here (on the clock's timer) if before the end of the clock."""
    result: TreeWalk = field(default_factory=TreeWalk)
    counted: bool = True
    """False while walking for information only: nothing open there leaves C undecided."""
    start_pieces: int = 0
    _turns: list[_Turn] = field(default_factory=list)
    _stuck: list[OpenMove] = field(default_factory=list)
    """Turns of the walk with no move proved to win: each open move there."""

    def walk(self, node: Node, position: Position, main: ReplayedLine) -> TreeWalk:
        self.start_pieces = _pieces(position)
        self._visit(node, position, _Cursor(main, 0), "main", ())
        return self.result

    def walk_deviations(self, until: float) -> None:
        """Walk the deviations for information only, until ``until`` (``Clock.now``)."""
        pending, self.result.deviations = self.result.deviations, []
        self.deadline, self.counted = until, False
        for node, position, line in pending:
            if self._out_of_time():
                return
            self._visit(node, position, None, "deviation", line)

    def settle(self, until: float) -> None:
        """Give the moves the walk left open, until ``until`` (``Clock.now``), a longer search
        each: the time left shared among them, in up to SETTLE_PASSES passes."""
        for _pass in range(SETTLE_PASSES):
            pending = [(turn, move, child) for turn in self._turns for move, child in turn.open]
            if not pending:
                break
            for index, (turn, move, child) in enumerate(pending):
                left = min(self.clock.left(), until - self.clock.now())
                if left <= 0.05:
                    return
                seconds = max(WALK_MOVE_SECONDS, left / (len(pending) - index))
                verdict = self.search.prove(child, seconds=min(left, seconds)).verdict
                if verdict != "undecided":
                    turn.open.remove((move, child))
                    if verdict == "proved":
                        self._win(turn, move)
                    self._collect()

    def _win(self, turn: _Turn, move: Move) -> None:
        """Record a winning move of a turn, with its kind."""
        turn.winners.append(move)
        if move == turn.chosen:
            return
        turn.kinds[move] = self._kind(turn.position, move, turn.chosen, turn.context)
        others = [m for m in turn.winners if m != turn.chosen]
        turn.dual = Dual(
            after=turn.line,
            moves=tuple(move_notation(turn.position, m) for m in (turn.chosen, *others)),
            kind=min(turn.kinds.values(), key=DUAL_KINDS.index),
            on_main=turn.context == "main",
        )

    def _collect(self) -> None:
        """The duals and the open count, from the turns walked so far."""
        self.result.duals = [turn.dual for turn in self._turns if turn.dual is not None]
        self.result.open_moves = sum(len(turn.open) for turn in self._turns)
        self.result.open_list = [
            OpenMove((*turn.line, move_notation(turn.position, move)), turn.position, move, child)
            for turn in self._turns
            for move, child in turn.open
        ] + self._stuck

    def _out_of_time(self) -> bool:
        return self.clock.left() <= 0.05 or (
            self.deadline is not None and self.clock.now() >= self.deadline
        )

    def _seconds(self) -> float:
        seconds = min(self.clock.left(), WALK_MOVE_SECONDS)
        if self.deadline is not None:
            seconds = min(seconds, max(0.0, self.deadline - self.clock.now()))
        return seconds

    def _visit(
        self,
        node: Node,
        position: Position,
        cursor: _Cursor | None,
        context: Context,
        line: tuple[str, ...],
    ) -> None:
        if self._out_of_time():
            if self.counted:
                self.result.complete = False
                if self.result.stopped is None:
                    self.result.stopped = OpenMove(line, position, None, node)
            return
        if (cursor is not None and cursor.at_end) or ended(position, self.start_pieces):
            return
        self.result.positions += 1
        if position.white_to_move:
            self._white_turn(node, position, cursor, context, line)
            return
        children = self.search.expand(node)
        expected = cursor.expected() if cursor is not None else None
        captures_only = all(raw[2] for raw, _child in children)
        for raw, child in children:
            move = to_move(raw)
            after = cursor.after(move) if cursor is not None else None
            next_context: Context
            if context == "deviation":
                next_context = "deviation"
            elif after is not None:  # on the published tree
                next_context = context if move == expected else "variation"
            elif len(children) == 1:
                next_context = context
            elif captures_only:
                next_context = "forced"
            else:
                next_context = "deviation"
            notation = (*line, move_notation(position, move))
            if next_context == "deviation" and context != "deviation":
                self.result.deviations.append((child, position.play(move), notation))
                continue
            self._visit(child, position.play(move), after, next_context, notation)

    def _white_turn(
        self,
        node: Node,
        position: Position,
        cursor: _Cursor | None,
        context: Context,
        line: tuple[str, ...],
    ) -> None:
        expected = cursor.expected() if cursor is not None else None
        winners: list[tuple[Move, Node]] = []
        open_moves: list[tuple[Move, Node]] = []
        for raw, child in self.search.expand(node):
            verdict = self.search.prove(child, seconds=self._seconds()).verdict
            if verdict == "proved":
                winners.append((to_move(raw), child))
            elif verdict == "undecided":
                open_moves.append((to_move(raw), child))
        if not winners:
            if self.counted:
                self.result.undecided += len(open_moves)
                self._stuck += [
                    OpenMove((*line, move_notation(position, move)), position, move, child)
                    for move, child in open_moves
                ]
                self._collect()
            return
        chosen_move, chosen_child = next(((m, c) for m, c in winners if m == expected), winners[0])
        turn = _Turn(position, line, context, chosen_move, [])
        for move, _child in winners:
            self._win(turn, move)
        for move, child in open_moves:
            # an open move matters only where its win would be a fault or a remark
            if self.counted and self._kind(position, move, chosen_move, context) in (
                "cook",
                "variation",
            ):
                turn.open.append((move, child))
        self._turns.append(turn)
        self._collect()
        after = cursor.after(chosen_move) if cursor is not None else None
        next_context: Context = context
        if context != "deviation" and cursor is not None:
            if after is None:  # the composer's move does not win: a false solution
                next_context = "forced"
            elif after.line is not cursor.line:  # a White move of a published variation
                next_context = "variation"
        self._visit(
            chosen_child,
            position.play(chosen_move),
            after,
            next_context,
            (*line, move_notation(position, chosen_move)),
        )

    def _kind(self, position: Position, move: Move, chosen: Move, context: Context) -> DualKind:
        if context == "deviation":
            return "deviation"
        if (
            move.is_capture
            and move.origin == chosen.origin
            and move.captured_set == chosen.captured_set
        ):
            return "landing"
        if transposes(self.variant, position.play(move).state(), self.targets):
            return "transposition"
        return "cook" if context == "main" else "variation"


def is_combination(position: Position, moves: list[Move]) -> bool:
    """Whether a line is itself a combination (Fries Spel H art. 2C allows a second solution
    that is itself problem-like): Black captures, and a later White capture takes more pieces
    than Black has taken so far.  Our reading; the rulebook gives no test."""
    black_took = 0
    for move in moves:
        if position.white_to_move:
            if black_took and len(move.captured_set) > black_took:
                return True
        else:
            black_took += len(move.captured_set)
        position = position.play(move)
    return False


def principal_line(
    search: ProofSearch,
    root: Node,
    position: Position,
    main: tuple[Move, ...] = (),
    *,
    first: Move | None = None,
    plies: int = 200,
) -> Iterator[tuple[Position, Move]]:
    """A line of the proof from ``root``: White plays a proved move (``first`` to begin with,
    else the main line's where it is proved), Black the main line's move or its first legal
    one.  Yields each position with the move played in it."""
    node, current = root, position
    for ply in range(plies):
        children = search.expand(node)
        if not children:
            return
        wanted = main[ply] if ply < len(main) else None
        if current.white_to_move:
            options = [(r, c) for r, c in children if search.is_proved(c)]
        else:
            options = list(children)
        if ply == 0 and first is not None:
            options = [(r, c) for r, c in options if to_move(r) == first]
        if not options:
            return
        raw, child = next(((r, c) for r, c in options if to_move(r) == wanted), options[0])
        move = to_move(raw)
        yield current, move
        node, current = child, current.play(move)
