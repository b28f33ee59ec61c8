"""Criterion B1: is the start position reachable by legal play?

Necessary conditions (each reported by name when it fails):

* at most 20 pieces a side, men and kings together (every king was a man);
* no man on its own promotion row (the FEN reader already refuses those);
* Black moved last (White is to move), and Black has a legal last move into this position from
  a position that was itself legal: Black to move there, the move among Black's legal moves
  (so no capture was compulsory instead), no man on its promotion row.  Black's last move is
  searched among quiet moves (men stepping back up, kings sliding back, a promotion undone) and
  captures of any length by a man or a king, walked backwards one taken White piece at a time
  (a king's long jumps and a man crowned by its capture included, orthogonal jumps in Fries
  Spel).  A candidate counts only when the rules engine, playing Black's legal moves forward
  from it, reaches the position; when too many candidates fail (``MAX_CANDIDATES``), B1 is
  undecided, never failed.

A full game from the initial position is not constructed: when the conditions hold the detail
says so ("necessary conditions hold; no game from the start was constructed").
"""

from __future__ import annotations

from collections.abc import Iterator, Set
from dataclasses import dataclass, field
from itertools import islice, product

from rulebook_build.checker.messages import Argument, render
from rulebook_build.errors import PositionError
from rulebook_build.notation import notation_in as move_notation
from rulebook_build.rules import DIAGONALS, Direction, Position, Variant, neighbour


@dataclass(frozen=True, slots=True)
class LegalityReport:
    status: str  # "pass", "fail" or "undecided"
    message: str  # the id of the detail in messages.py
    args: dict[str, Argument] = field(default_factory=dict)
    last_move: str | None = None

    @property
    def detail(self) -> str:
        return render(self.message, self.args) or self.message


def _counts(position: Position) -> tuple[int, int, int, int]:
    return (
        position.white_men.bit_count(),
        position.white_kings.bit_count(),
        position.black_men.bit_count(),
        position.black_kings.bit_count(),
    )


def check_reachable(position: Position) -> LegalityReport:
    wm, wk, bm, bk = _counts(position)
    if wm + wk > 20:
        return LegalityReport("fail", "b1_white_pieces", {"count": wm + wk})
    if bm + bk > 20:
        return LegalityReport("fail", "b1_black_pieces", {"count": bm + bk})
    if not position.white_to_move:
        return LegalityReport("fail", "b1_black_to_move")
    if wm + wk == 0:
        return LegalityReport("fail", "b1_no_white")
    try:
        last = find_last_black_move(position)
    except SearchTooLarge as too_large:
        return LegalityReport("undecided", "b1_undecided", {"tried": too_large.args[0]})
    if last is None:
        return LegalityReport("fail", "b1_no_last_move")
    args: dict[str, Argument] = {
        "white": wm + wk,
        "black": bm + bk,
        "captured_black": 20 - (bm + bk),
        "captured_white": 20 - (wm + wk),
        "last": last,
    }
    return LegalityReport("pass", "b1_pass", args, last)


class SearchTooLarge(Exception):
    """More capture chains into the position than B1 tries; B1 is then undecided."""


MAX_CANDIDATES = 5_000
"""Positions before Black's last move that B1 plays forward before it gives up.  Quiet moves and
single captures come first, so a position that passes is found among the first few; only a
position whose every candidate fails can reach this many (kings on an open board with many white
pieces captured), and B1 then says undecided rather than fail."""


def find_last_black_move(position: Position) -> str | None:
    """A legal last move of Black that leads to ``position``, written in notation, or None.

    Each candidate is a position before the move (Black to move); it counts only when one of that
    position's legal moves, played by the rules engine, gives ``position``.  Raises
    ``SearchTooLarge`` when more than ``MAX_CANDIDATES`` candidates were played without a match.
    """
    target = _placement(position)
    for tried, before in enumerate(_candidates(position), start=1):
        if tried > MAX_CANDIDATES:
            raise SearchTooLarge(MAX_CANDIDATES)
        for move in before.legal_moves():
            if _placement(before.play(move)) == target:
                return move_notation(before, move)
    return None


_Pieces = dict[str, list[int]]


def _candidates(position: Position) -> Iterator[Position]:
    """Positions Black may have moved from, quiet moves first, then captures by their length."""
    pieces = position.pieces()
    empty = frozenset(s for s in range(1, 51) if s not in pieces)
    black_men = position.squares_of("black", "man")
    black_kings = position.squares_of("black", "king")
    now: _Pieces = {
        "white_men": list(position.squares_of("white", "man")),
        "white_kings": list(position.squares_of("white", "king")),
        "black_men": list(black_men),
        "black_kings": list(black_kings),
    }

    def moved(kind: str, square: int, was: str, origin: int) -> _Pieces:
        before = {k: list(v) for k, v in now.items()}
        before[kind].remove(square)
        before[was].append(origin)
        return before

    seen: set[str] = set()
    found: list[_Pieces] = []
    # quiet moves: a black man stepped down from a square up-left/up-right of it
    for square in black_men:
        for direction in DIAGONALS[:2]:
            origin = neighbour(square, direction)
            if origin is not None and origin in empty:
                found.append(moved("black_men", square, "black_men", origin))
    for square in black_kings:
        for direction in DIAGONALS:  # a king slid back along a diagonal
            for origin in _open_ray(square, direction, empty):
                found.append(moved("black_kings", square, "black_kings", origin))
        if square >= 46:  # a man promoted on arrival
            for direction in DIAGONALS[:2]:
                origin = neighbour(square, direction)
                if origin is not None and origin in empty:
                    found.append(moved("black_kings", square, "black_men", origin))
    yield from _positions(found, position, seen)

    # captures: the mover's route walked backwards, one captured white piece at a time
    movers = [(square, "black_men", "black_men") for square in black_men]
    for square in black_kings:
        movers.append((square, "black_kings", "black_kings"))
        if square >= 46:  # a man that ended its capture on the back row was crowned
            movers.append((square, "black_kings", "black_men"))
    frontier: list[tuple[int, str, str, int, tuple[int, ...]]] = [
        (square, kind, was, square, ()) for square, kind, was in movers
    ]
    directions = position.variant.capture_directions
    for _length in range(20 - sum(position.count(True))):  # each took a white piece
        found = []
        following = []
        for square, kind, was, at, taken in frontier:
            passable = (empty - set(taken)) | {square}
            for direction in directions:
                for over, origin in _jumps_back(at, direction, passable, king=was == "black_kings"):
                    if over == square:
                        continue
                    route = (*taken, over)
                    following.append((square, kind, was, origin, route))
                    for men, kings in _captured_kinds(route, position.variant):
                        before = moved(kind, square, was, origin)
                        before["white_men"].extend(men)
                        before["white_kings"].extend(kings)
                        found.append(before)
            if len(following) > MAX_CANDIDATES:
                raise SearchTooLarge(MAX_CANDIDATES)
        yield from _positions(found, position, seen)
        frontier = following
        if not frontier:
            return


def _open_ray(square: int, direction: Direction, passable: Set[int]) -> Iterator[int]:
    """The squares after ``square`` in ``direction``, up to the first that is not passable."""
    step = neighbour(square, direction)
    while step is not None and step in passable:
        yield step
        step = neighbour(step, direction)


def _jumps_back(
    at: int, direction: Direction, passable: Set[int], *, king: bool
) -> Iterator[tuple[int, int]]:
    """(captured square, square the jump began on) for every jump that ended on ``at`` coming from
    ``direction``.

    Walked from ``at`` towards ``direction``: a king may have landed any number of empty squares
    beyond the piece it took and come from any distance, a man only from next to it.  The squares
    are only candidates: the rules engine decides whether the whole capture was legal.
    """
    reach = None if king else 1
    for over in islice(_open_ray(at, direction, passable), reach):
        for origin in islice(_open_ray(over, direction, passable), reach):
            yield over, origin


def _captured_kinds(
    route: tuple[int, ...], variant: Variant
) -> Iterator[tuple[list[int], list[int]]]:
    """The white men and kings the route may have taken.

    A white man never stands on 1-5 (it would have been crowned).  By the International rules
    only the number taken counts, so men where possible is the one choice; by the Frisian rules a
    king is worth more than a man (art. 11) and every mixture is tried.
    """
    forced = [square for square in route if square <= 5]
    free = [square for square in route if square > 5]
    if not variant.kings_capture_value_weighted:
        yield free, forced
        return
    for choice in product((False, True), repeat=len(free)):
        yield (
            [square for square, king in zip(free, choice, strict=True) if not king],
            forced + [square for square, king in zip(free, choice, strict=True) if king],
        )


def _positions(found: list[_Pieces], position: Position, seen: set[str]) -> Iterator[Position]:
    """The candidate placements as positions with Black to move, each once, those that can exist."""
    for pieces in found:
        key = repr(sorted((kind, sorted(squares)) for kind, squares in pieces.items()))
        if key in seen:
            continue
        seen.add(key)
        if len(pieces["white_men"]) + len(pieces["white_kings"]) > 20:
            continue
        try:
            yield Position.from_squares(
                white_men=pieces["white_men"],
                white_kings=pieces["white_kings"],
                black_men=pieces["black_men"],
                black_kings=pieces["black_kings"],
                white_to_move=False,
                variant=position.variant,
            )
        except PositionError:
            continue


def _placement(position: Position) -> tuple[int, int, int, int, bool]:
    return (
        position.white_men,
        position.white_kings,
        position.black_men,
        position.black_kings,
        position.white_to_move,
    )
