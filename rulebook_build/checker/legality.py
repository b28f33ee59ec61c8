"""Criterion B1: is the start position reachable by legal play?

Necessary conditions (each reported by name when it fails):

* at most 20 pieces a side, men and kings together (every king was a man);
* no man on its own promotion row (the FEN reader already refuses those);
* Black moved last (White is to move), and Black has a legal last move into this position from
  a position that was itself legal: Black to move there, the move among Black's legal moves
  (so no capture was compulsory instead), no man on its promotion row.  Black's last move is
  searched among quiet moves (men stepping back up, kings sliding back, a promotion undone) and
  single captures of one White piece by a man or a king.

A full game from the initial position is not constructed: when the conditions hold the detail
says so ("necessary conditions hold; no game from the start was constructed").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook_build.checker.messages import Argument, render
from rulebook_build.errors import PositionError
from rulebook_build.rules import Position
from rulebook_build.rules.board import DIAGONALS, neighbour


@dataclass(frozen=True, slots=True)
class LegalityReport:
    status: str  # "pass" or "fail"
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
    last = find_last_black_move(position)
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


def find_last_black_move(position: Position) -> str | None:
    """A legal last move of Black that leads to ``position``, written in notation, or None."""
    pieces = position.pieces()
    empty = [s for s in range(1, 51) if s not in pieces]
    black_men = position.squares_of("black", "man")
    black_kings = position.squares_of("black", "king")
    white_men = list(position.squares_of("white", "man"))
    white_kings = list(position.squares_of("white", "king"))
    candidates: list[tuple[str, dict[str, list[int]]]] = []

    def base() -> dict[str, list[int]]:
        return {
            "white_men": list(white_men),
            "white_kings": list(white_kings),
            "black_men": list(black_men),
            "black_kings": list(black_kings),
        }

    # quiet moves: a black man stepped down from a square up-left/up-right of it
    for square in black_men:
        for direction in DIAGONALS[:2]:  # up-left, up-right: where a black man came from
            origin = neighbour(square, direction)
            if origin is not None and origin in empty:
                pieces_before = base()
                pieces_before["black_men"].remove(square)
                pieces_before["black_men"].append(origin)
                candidates.append((f"{origin}-{square}", pieces_before))
    for square in black_kings:
        # a king slid back along a diagonal
        for direction in DIAGONALS:
            step = square
            while True:
                origin = neighbour(step, direction)
                if origin is None or origin not in empty:
                    break
                pieces_before = base()
                pieces_before["black_kings"].remove(square)
                pieces_before["black_kings"].append(origin)
                candidates.append((f"{origin}-{square}", pieces_before))
                step = origin
        # a man promoted on arrival
        if square >= 46:
            for direction in DIAGONALS[:2]:
                origin = neighbour(square, direction)
                if origin is not None and origin in empty:
                    pieces_before = base()
                    pieces_before["black_kings"].remove(square)
                    pieces_before["black_men"].append(origin)
                    candidates.append((f"{origin}-{square}", pieces_before))
    # single captures: a black man or king jumped one white piece that now is gone
    for square in (*black_men, *black_kings):
        is_king = square in black_kings
        for direction in DIAGONALS:
            over = neighbour(square, direction)
            if over is None or over not in empty:
                continue
            origin = neighbour(over, direction)
            if origin is None or origin not in empty:
                continue
            for kind in ("white_men", "white_kings"):
                if kind == "white_men" and over <= 5:
                    continue
                pieces_before = base()
                pieces_before[kind].append(over)
                mover = "black_kings" if is_king else "black_men"
                pieces_before[mover].remove(square)
                if not is_king and square >= 46:
                    continue  # a capture ending on the back row would have promoted
                pieces_before[mover].append(origin)
                candidates.append((f"{origin}x{square}", pieces_before))

    for notation, pieces_before in candidates:
        try:
            before = Position.from_squares(
                white_men=pieces_before["white_men"],
                white_kings=pieces_before["white_kings"],
                black_men=pieces_before["black_men"],
                black_kings=pieces_before["black_kings"],
                white_to_move=False,
                variant=position.variant,
            )
        except PositionError:
            continue
        for move in before.legal_moves():
            if _placement(before.play(move)) == _placement(position):
                return notation
    return None


def _placement(position: Position) -> tuple[int, int, int, int, bool]:
    return (
        position.white_men,
        position.white_kings,
        position.black_men,
        position.black_kings,
        position.white_to_move,
    )
