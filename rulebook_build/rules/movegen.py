"""Move generation and execution on bitboards, the engine's hot path.

Everything here works on plain ints, relative to the side to move ("own" and "opponent"), so
that perft and the problem checker can run without building objects.  ``Position`` in
``position.py`` is the public face of the same functions.

A raw move is a tuple ``(origin_bit, destination_bit, captured_mask, path_bits, order_bits)``:

* ``path_bits``: origin, every landing square, destination (one route; KNDB art. 4 / Fries Spel
  art. 13: two routes capturing the same pieces are one move);
* ``order_bits``: the captured pieces in capture order.

Captures are searched depth first with captured pieces left on the board as obstacles (KNDB
art. 4.4/Fries Spel art. 13-14: a piece cannot be jumped twice and is removed only after the
capture).  The search is memoized on (square, captured set), which is all the future of a
capture depends on, and keeps at every step only the continuations of the highest value, so a
position with thousands of capture routes is still searched in milliseconds.  Most captures
take one piece, though: a piece none of whose jumps can go on needs no search (``_single_jumps``),
and a king finds the first piece along each ray with two bit operations (``_jumps_from``).  The
problem checker walks every node of the compiled search's trees through ``generate``, so its
speed is the checker's.  The moves, and their order, are those of the slower code before
(compared on 240,000 random positions of both variants, most of them with captures, at c158e76).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

from rulebook_build.rules.board import (
    BLACK_PROMOTION,
    BOARD,
    BOARD_BITS,
    DIAGONALS,
    RAYS,
    WHITE_PROMOTION,
    Bit,
    Bitboard,
    Direction,
)
from rulebook_build.rules.variants import Variant

RawMove = tuple[Bit, Bit, Bitboard, tuple[Bit, ...], tuple[Bit, ...]]
Streak = tuple[int, Bit]  # Fries Spel art. 17: (consecutive king moves, bit of that king) or (0, 0)
# (own men, own kings, opponent men, opponent kings, white to move, own streak, opponent streak)
State = tuple[Bitboard, Bitboard, Bitboard, Bitboard, bool, Streak, Streak]

NO_STREAK: Final[Streak] = (0, 0)
BIT: Final[tuple[int, ...]] = tuple(1 << b for b in range(BOARD_BITS + 12))


_Step = TypeVar("_Step")


def _capture_steps(
    directions: tuple[Direction, ...], entry: Callable[[Bit, tuple[Bit, ...]], _Step]
) -> tuple[tuple[_Step, ...], ...]:
    """For every bit: ``entry(bit, ray)`` for each direction whose ray has room for a capture
    (a piece and a square beyond), in the order of ``directions``."""
    return tuple(
        tuple(entry(bit, RAYS[d][bit]) for d in directions if len(RAYS[d][bit]) >= 2)
        for bit in range(BOARD_BITS)
    )


def _jumps(directions: tuple[Direction, ...]) -> tuple[tuple[tuple[Bit, Bit], ...], ...]:
    """For every bit: the (jumped square, landing square) pairs of a man's capture step."""
    return _capture_steps(directions, lambda _bit, ray: (ray[0], ray[1]))


def _king_rays(directions: tuple[Direction, ...]) -> tuple[tuple[tuple[Bit, ...], ...], ...]:
    return tuple(
        tuple(RAYS[d][bit] for d in directions if RAYS[d][bit]) for bit in range(BOARD_BITS)
    )


def _king_lines(directions: tuple[Direction, ...]) -> tuple[tuple[tuple[Bitboard, int], ...], ...]:
    """For every bit: (the squares of the ray as a bitboard, the shift of one step along it)
    in each direction whose ray has room for a capture."""
    return _capture_steps(directions, lambda bit, ray: (sum(1 << s for s in ray), ray[0] - bit))


def _deltas(directions: tuple[Direction, ...]) -> tuple[int, ...]:
    """Bit shifts of one step in each direction (the same on every square, see board.py)."""
    deltas = []
    for direction in directions:
        for bit in range(BOARD_BITS):
            ray = RAYS[direction][bit]
            if ray:
                deltas.append(ray[0] - bit)
                break
    return tuple(deltas)


class _Tables:
    """Per-variant lookup tables, built once."""

    __slots__ = ("capture_deltas", "king_capture_lines", "man_jumps")

    def __init__(self, variant: Variant) -> None:
        self.man_jumps = _jumps(variant.capture_directions)
        self.king_capture_lines = _king_lines(variant.capture_directions)
        self.capture_deltas = _deltas(variant.capture_directions)


KING_MOVE_RAYS: Final = _king_rays(DIAGONALS)
_TABLES: dict[str, _Tables] = {}


def tables(variant: Variant) -> _Tables:
    found = _TABLES.get(variant.name)
    if found is None:
        found = _TABLES[variant.name] = _Tables(variant)
    return found


Continuation = tuple[Bit, Bitboard, tuple[Bit, ...], tuple[Bit, ...]]


def _jumps_from(
    square: Bit,
    is_king: bool,
    available: Bitboard,
    empty: Bitboard,
    table: _Tables,
    first_only: bool = False,
) -> list[tuple[Bit, Bit]]:
    """Every single jump of a piece on ``square``: (jumped square, landing square); with
    ``first_only``, only the first found (whether there is one).

    ``available``: the opponent's pieces it may still jump; ``empty``: the squares it may
    cross and land on (a piece already jumped is on neither: it stays on the board as an
    obstacle until the capture is over, KNDB art. 4.4 / Fries Spel art. 14).  A king's first
    piece met along a ray is the lowest bit of the ray's pieces where the ray goes up the bits,
    the highest where it goes down; it must be one to jump, with empty squares beyond it.
    """
    jumps: list[tuple[Bit, Bit]] = []
    if is_king:
        for mask, step in table.king_capture_lines[square]:
            blockers = mask & ~empty
            if not blockers:
                continue
            if step > 0:
                first = blockers & -blockers
                if not first & available:
                    continue
                landing = first << step
            else:
                first = 1 << (blockers.bit_length() - 1)
                if not first & available:
                    continue
                landing = first >> -step
            open_squares = mask & empty
            jumped = first.bit_length() - 1
            while landing & open_squares:  # nearest landing square first
                jumps.append((jumped, landing.bit_length() - 1))
                if first_only:
                    return jumps
                landing = landing << step if step > 0 else landing >> -step
    else:
        bit_table = BIT
        for jumped, landing in table.man_jumps[square]:
            if available & bit_table[jumped] and empty & bit_table[landing]:
                jumps.append((jumped, landing))
                if first_only:
                    return jumps
    return jumps


def _single_jumps(
    is_king: bool, first: list[tuple[Bit, Bit]], opponent: Bitboard, empty: Bitboard, table: _Tables
) -> bool:
    """Whether none of the ``first`` jumps can go on: each is then a whole capture of one piece
    (the usual case, which needs no search), and no two capture the same piece to the same
    square."""
    bit_table = BIT
    for jumped, landing in first:
        if _jumps_from(landing, is_king, opponent & ~bit_table[jumped], empty, table, True):
            return False
    return True


def _capture_search(
    origin: Bit,
    is_king: bool,
    first: list[tuple[Bit, Bit]],
    opponent: Bitboard,
    empty: Bitboard,
    table: _Tables,
    value_of: Callable[[Bitboard], int],
) -> list[Continuation]:
    """All highest-value captures of the piece on ``origin``: (destination, captured, path, order).

    ``first``: its single jumps (``_jumps_from``, at least one).  ``empty`` must already
    include the origin square (the piece has left it).
    """
    bit_table = BIT
    memo: dict[tuple[Bit, Bitboard], list[Continuation]] = {}

    def search(square: Bit, captured: Bitboard, jumps: list[tuple[Bit, Bit]]) -> list[Continuation]:
        key = (square, captured)
        known = memo.get(key)
        if known is not None:
            return known
        children: list[Continuation] = []
        for jumped, landing in jumps:
            after = captured | bit_table[jumped]
            onward = _jumps_from(landing, is_king, opponent & ~after, empty, table)
            if not onward:  # the capture ends here
                children.append((landing, after, (square, landing), (jumped,)))
                continue
            for destination, total, path, order in search(landing, after, onward):
                children.append((destination, total, (square, *path), (jumped, *order)))
        # (``jumps`` is never empty, nor then ``children``) keep only the best continuations
        # (KNDB art. 5 / Fries Spel art. 11), one per move
        best = max(value_of(child[1]) for child in children)
        seen: set[tuple[Bit, Bitboard]] = set()
        result: list[Continuation] = []
        for child in children:
            identity = (child[0], child[1])
            if identity not in seen and value_of(child[1]) == best:
                seen.add(identity)
                result.append(child)
        memo[key] = result
        return result

    return search(origin, 0, first)


def _compulsory_captures(
    variant: Variant, state: State, table: _Tables, empty: Bitboard
) -> list[RawMove]:
    """The best captures (KNDB art. 5 / Fries Spel art. 10: capturing is compulsory), or []."""
    own_men, own_kings, opponent_men, opponent_kings = state[:4]
    opponent = opponent_men | opponent_kings
    candidates = 0
    for delta in table.capture_deltas:
        if delta > 0:
            candidates |= own_men & (opponent >> delta) & (empty >> (delta + delta))
        else:
            candidates |= own_men & (opponent << -delta) & (empty << -(delta + delta))
    kings = 0
    rest = own_kings
    while rest:
        low = rest & -rest
        rest ^= low
        if _jumps_from(low.bit_length() - 1, True, opponent, empty, table, True):
            kings |= low
    if candidates or kings:
        return _captures(variant, table, candidates, kings, opponent, opponent_kings, empty)
    return []


def _blocked_king(variant: Variant, state: State) -> Bit:
    """Fries Spel art. 17: the king that may not make a fourth non-capturing move, or -1."""
    limit = variant.max_consecutive_king_moves
    streak = state[5]
    if limit is not None and state[0] and streak[0] >= limit:
        return streak[1]
    return -1


def count_moves(variant: Variant, state: State) -> int:
    """``len(generate(variant, state))`` without building the non-capturing moves (perft)."""
    own_men, own_kings, opponent_men, opponent_kings, white = state[:5]
    empty = BOARD & ~(own_men | own_kings | opponent_men | opponent_kings)
    captures = _compulsory_captures(variant, state, tables(variant), empty)
    if captures:
        return len(captures)
    if white:
        count = ((own_men >> 6) & empty).bit_count() + ((own_men >> 5) & empty).bit_count()
    else:
        count = ((own_men << 5) & empty).bit_count() + ((own_men << 6) & empty).bit_count()
    if own_kings:
        blocked = _blocked_king(variant, state)
        bit_table = BIT
        kings = own_kings
        while kings:
            low = kings & -kings
            origin = low.bit_length() - 1
            kings ^= low
            if origin == blocked:
                continue
            for ray in KING_MOVE_RAYS[origin]:
                for to in ray:
                    if not empty & bit_table[to]:
                        break
                    count += 1
    return count


def generate(variant: Variant, state: State) -> list[RawMove]:
    """The legal moves of the side to move (capture obligation and majority rules applied)."""
    own_men, own_kings, opponent_men, opponent_kings, white = state[:5]
    empty = BOARD & ~(own_men | own_kings | opponent_men | opponent_kings)
    bit_table = BIT

    captures = _compulsory_captures(variant, state, tables(variant), empty)
    if captures:
        return captures

    # --- non-capturing moves: men one square diagonally forward, kings fly diagonally
    moves: list[RawMove] = []
    if own_men:
        if white:
            targets = (own_men >> 6) & empty
            while targets:
                low = targets & -targets
                to = low.bit_length() - 1
                moves.append((to + 6, to, 0, (to + 6, to), ()))
                targets ^= low
            targets = (own_men >> 5) & empty
            while targets:
                low = targets & -targets
                to = low.bit_length() - 1
                moves.append((to + 5, to, 0, (to + 5, to), ()))
                targets ^= low
        else:
            targets = (own_men << 5) & empty
            while targets:
                low = targets & -targets
                to = low.bit_length() - 1
                moves.append((to - 5, to, 0, (to - 5, to), ()))
                targets ^= low
            targets = (own_men << 6) & empty
            while targets:
                low = targets & -targets
                to = low.bit_length() - 1
                moves.append((to - 6, to, 0, (to - 6, to), ()))
                targets ^= low
    if own_kings:
        # Fries Spel art. 17: with kings and men, no fourth non-capturing move with one king
        blocked = _blocked_king(variant, state)
        kings = own_kings
        while kings:
            low = kings & -kings
            origin = low.bit_length() - 1
            kings ^= low
            if origin == blocked:
                continue
            for ray in KING_MOVE_RAYS[origin]:
                for to in ray:
                    if not empty & bit_table[to]:
                        break
                    moves.append((origin, to, 0, (origin, to), ()))
    return moves


def _captures(
    variant: Variant,
    table: _Tables,
    men: Bitboard,
    kings: Bitboard,
    opponent: Bitboard,
    opponent_kings: Bitboard,
    empty: Bitboard,
) -> list[RawMove]:
    if variant.kings_capture_value_weighted:

        def value_of(captured: Bitboard) -> int:
            captured_kings = (captured & opponent_kings).bit_count()
            return variant.capture_value(captured.bit_count() - captured_kings, captured_kings)

    else:

        def value_of(captured: Bitboard) -> int:
            return captured.bit_count()

    found: list[tuple[int, bool, RawMove]] = []
    bit_table = BIT
    for pieces, is_king in ((men, False), (kings, True)):
        while pieces:
            low = pieces & -pieces
            origin = low.bit_length() - 1
            pieces ^= low
            first = _jumps_from(origin, is_king, opponent, empty | low, table)
            if not first:
                continue
            if _single_jumps(is_king, first, opponent, empty | low, table):
                for jumped, landing in first:
                    captured = bit_table[jumped]
                    move = (origin, landing, captured, (origin, landing), (jumped,))
                    found.append((value_of(captured), is_king, move))
                continue
            for destination, captured, path, order in _capture_search(
                origin, is_king, first, opponent, empty | low, table, value_of
            ):
                found.append(
                    (value_of(captured), is_king, (origin, destination, captured, path, order))
                )
    if not found:
        return []
    best = max(value for value, _, _ in found)
    best_moves = [(is_king, move) for value, is_king, move in found if value == best]
    if variant.king_capture_precedence and any(is_king for is_king, _ in best_moves):
        # Fries Spel art. 12: at equal value the king's capture goes first
        return [move for is_king, move in best_moves if is_king]
    return [move for _, move in best_moves]


def make(variant: Variant, state: State, move: RawMove) -> State:
    """The state after ``move``, from the point of view of the other side."""
    own_men, own_kings, opponent_men, opponent_kings, white, streak, opponent_streak = state
    origin, destination, captured = move[0], move[1], move[2]
    from_bit = BIT[origin]
    to_bit = BIT[destination]
    king_moved = bool(own_kings & from_bit)
    if king_moved:
        own_kings = (own_kings & ~from_bit) | to_bit
    else:
        own_men &= ~from_bit
        # KNDB art. 3 / Fries Spel art. 8: promotion only when the move ends on the back row
        if to_bit & (WHITE_PROMOTION if white else BLACK_PROMOTION):
            own_kings |= to_bit
        else:
            own_men |= to_bit
    if captured:
        opponent_men &= ~captured
        opponent_kings &= ~captured
    if variant.max_consecutive_king_moves is not None:
        if king_moved and not captured and own_men:
            count = streak[0] + 1 if streak[0] and streak[1] == origin else 1
            streak = (count, destination)
        else:
            streak = NO_STREAK
    return (opponent_men, opponent_kings, own_men, own_kings, not white, opponent_streak, streak)


def perft(variant: Variant, state: State, depth: int) -> int:
    """Number of leaf nodes of the legal move tree, counting unique moves (bulk counted)."""
    if depth <= 1:
        return count_moves(variant, state) if depth == 1 else 1
    moves = generate(variant, state)
    total = 0
    for move in moves:
        total += perft(variant, make(variant, state, move), depth - 1)
    return total
