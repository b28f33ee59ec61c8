"""The draw counts (``rules/drawrules.py``) against a second reading of the articles.

``advance`` keeps the clocks move by move; here they are worked out again from the whole line
of play, as an arbiter counts them looking back over the score sheet, and compared after every
move of random games in small endings of both variants:

* KNDB 2018 art. 9d: the consecutive moves by kings that capture nothing, both sides;
* art. 9b-c: a lone king against at most two, or three, pieces with a king: the moves made
  since that ending arose (a capture starts a new count, a promotion into another ending too);
* Fries Spel art. 18: two kings against one king, the moves of the side with two kings since
  that ending arose; art. 21: one king each is a draw unless a capture is pending or forced.

Then which count draws the game (``draw_by_count``), and the plies a search may still play
(``plies_left``: International here, Fries Spel in ``test_art18_budget.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position
from rulebook_build.rules.drawrules import (
    NO_CLOCKS,
    DrawClocks,
    advance,
    draw_by_count,
    initial_clocks,
    lone_king_ending,
    material,
    play_is_finite,
    plies_left,
    two_kings_against_one,
)
from rulebook_build.rules.movegen import RawMove, State, generate, make
from rulebook_build.rules.variants import Variant

GAMES = 150
PLIES = 120


# ------------------------------------------------------------------ the articles, read again
def counts(state: State) -> tuple[int, int, int, int]:
    """White men, white kings, black men, black kings, from the position itself."""
    position = Position.from_state(INTERNATIONAL, state)
    pieces = position.pieces()
    wm = sum(1 for p in pieces.values() if p.is_white and not p.is_king)
    wk = sum(1 for p in pieces.values() if p.is_white and p.is_king)
    bm = sum(1 for p in pieces.values() if not p.is_white and not p.is_king)
    bk = sum(1 for p in pieces.values() if not p.is_white and p.is_king)
    return wm, wk, bm, bk


def art9_ending(state: State) -> str | None:
    """KNDB art. 9b-c: one side has one king and nothing else, the other at least one king."""
    wm, wk, bm, bk = counts(state)
    for lone, other in (((wm, wk), (bm, bk)), ((bm, bk), (wm, wk))):
        if lone == (0, 1) and other[1] >= 1 and sum(other) <= 3:
            return "5" if sum(other) <= 2 else "16"
    return None


def art18_strong(state: State) -> bool | None:
    """Fries Spel art. 18: True if White has the two kings against one, False if Black."""
    wm, wk, bm, bk = counts(state)
    if (wm, bm) != (0, 0):
        return None
    return {(2, 1): True, (1, 2): False}.get((wk, bk))


@dataclass(frozen=True)
class Step:
    before: State
    move: RawMove
    after: State

    @property
    def capture(self) -> bool:
        return bool(self.move[2])

    @property
    def by_king(self) -> bool:
        return bool(self.before[1] >> self.move[0] & 1)

    @property
    def by_white(self) -> bool:
        return self.before[4]


def trailing(steps: list[Step], holds: object) -> list[Step]:
    """The last steps of the line for which ``holds(step)`` is true, up to the first that is
    not."""
    run: list[Step] = []
    for step in reversed(steps):
        if not holds(step):  # type: ignore[operator]
            break
        run.append(step)
    return run


def expected_clocks(variant: Variant, start: State, steps: list[Step]) -> DrawClocks:
    now = steps[-1].after if steps else start
    if variant is INTERNATIONAL:
        king_only = len(trailing(steps, lambda s: s.by_king and not s.capture))
        ending = art9_ending(now)
        if ending is None:
            return DrawClocks(None, 0, king_only, None, 0)
        same = trailing(
            steps,
            lambda s: not s.capture and art9_ending(s.before) == art9_ending(s.after) == ending,
        )
        return DrawClocks(ending, len(same), king_only, None, 0)
    strong = art18_strong(now)
    if strong is None:
        return NO_CLOCKS
    run = trailing(
        steps, lambda s: not s.capture and art18_strong(s.before) == art18_strong(s.after)
    )
    return DrawClocks(None, 0, 0, strong, sum(1 for s in run if s.by_white == strong))


def art21_drawn(state: State) -> bool:
    """One king each, no capture pending, and a move after which none is forced either."""
    position = Position.from_state(FRISIAN, state)
    moves = position.legal_moves()
    if not moves or any(m.is_capture for m in moves):
        return False
    return any(not position.play(m).has_capture() for m in moves)


def expected_draw(variant: Variant, clocks: DrawClocks, state: State) -> str | None:
    """The article that draws the game here, by the counts of ``expected_clocks``."""
    if variant is INTERNATIONAL:
        if clocks.king_only_plies >= 50:
            return "9d"
        if clocks.ending == "16" and clocks.ending_plies >= 32:
            return "9c"
        if clocks.ending == "5" and clocks.ending_plies >= 10:
            return "9b"
        return None
    if counts(state) == (0, 1, 0, 1) and art21_drawn(state):
        return "21"
    if clocks.strong_side is not None and clocks.strong_moves >= 7:
        return "18"
    return None


# ------------------------------------------------------------------ random play in small endings
def random_start(variant: Variant, chance: random.Random) -> State:
    """A few kings and men, as the endings the counts are about (and a little more)."""
    squares = chance.sample(range(1, 51), 8)
    if variant is FRISIAN:  # art. 18 and 21 are about kings only
        kings = [(2, 1), (1, 2), (2, 1), (1, 2), (1, 1), (2, 2), (3, 1)]
        men = [(0, 0), (0, 0), (0, 0), (0, 1), (1, 0)]
    else:
        kings = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (2, 2)]
        men = [(0, 0), (0, 0), (0, 1), (1, 0), (1, 1), (0, 2)]
    white_kings, black_kings = chance.choice(kings)
    white_men, black_men = chance.choice(men)
    take = iter(squares)
    white_k = [next(take) for _ in range(white_kings)]
    black_k = [next(take) for _ in range(black_kings)]
    # men away from their promotion rows, so that some promote during the game
    white_m = [s for s in (next(take) for _ in range(white_men)) if s > 5]
    black_m = [s for s in (next(take) for _ in range(black_men)) if s < 46]
    position = Position.from_squares(
        variant=variant,
        white_kings=white_k,
        black_kings=black_k,
        white_men=white_m,
        black_men=black_m,
        white_to_move=chance.random() < 0.5,
    )
    return position.state()


def games(variant: Variant, seed: str) -> Iterator[tuple[State, list[Step]]]:
    """Each prefix of each random game: its start and the steps so far."""
    chance = random.Random(seed)
    for _ in range(GAMES):
        start = random_start(variant, chance)
        state, steps = start, []
        yield start, []
        for _ply in range(PLIES):
            moves = generate(variant, state)
            if not moves:
                break
            # quiet moves are likelier, so that the counts run long
            quiet = [m for m in moves if not m[2]] or moves
            move = chance.choice(quiet if chance.random() < 0.9 else moves)
            after = make(variant, state, move)
            steps.append(Step(state, move, after))
            state = after
            yield start, steps


@pytest.mark.parametrize("variant", [INTERNATIONAL, FRISIAN], ids=lambda v: v.name)
def test_the_clocks_are_what_the_line_of_play_makes_them(variant: Variant) -> None:
    seen = {"ending": 0, "draw": 0, "capture": 0}
    for start, steps in games(variant, f"clocks {variant.name}"):
        if not steps:
            clocks = initial_clocks(variant, start)
            assert clocks == expected_clocks(variant, start, [])
            continue
        step = steps[-1]
        clocks = advance(variant, clocks, step.before, step.move, step.after)
        expected = expected_clocks(variant, start, steps)
        assert clocks == expected, (start, [s.move for s in steps])
        drawn = draw_by_count(variant, clocks, step.after)
        article = expected_draw(variant, expected, step.after)
        assert (drawn is None) == (article is None), (drawn, article)
        if drawn is not None:
            assert drawn.startswith("draw: ") and f"(art. {article})" in drawn
            seen["draw"] += 1
        seen["ending"] += expected.ending is not None or expected.strong_side is not None
        seen["capture"] += step.capture
    # the games met what the counts are about, so the comparison said something
    assert seen["ending"] > 100 and seen["draw"] > 50 and seen["capture"] > 50, seen


def test_each_count_draws_with_its_own_words() -> None:
    assert draw_by_count(INTERNATIONAL, DrawClocks(None, 0, 50, None, 0), NO_STATE) == (
        "draw: 25 moves each with kings only, without capture (art. 9d)"
    )
    assert draw_by_count(INTERNATIONAL, DrawClocks("16", 32, 0, None, 0), NO_STATE) == (
        "draw: 16 moves each in one king against three pieces with a king (art. 9c)"
    )
    assert draw_by_count(INTERNATIONAL, DrawClocks("5", 10, 0, None, 0), NO_STATE) == (
        "draw: 5 moves each in one king against at most two pieces with a king (art. 9b)"
    )
    for clocks in (
        DrawClocks(None, 0, 49, None, 0),
        DrawClocks("16", 31, 0, None, 0),
        DrawClocks("5", 9, 0, None, 0),
        DrawClocks("16", 31, 49, None, 0),
    ):
        assert draw_by_count(INTERNATIONAL, clocks, NO_STATE) is None, clocks
    two_kings = Position.from_squares(variant=FRISIAN, white_kings=[46, 50], black_kings=[3])
    state = two_kings.state()
    assert draw_by_count(FRISIAN, DrawClocks(None, 0, 0, True, 7), state) == (
        "draw: two kings did not beat one king within 7 moves (art. 18)"
    )
    assert draw_by_count(FRISIAN, DrawClocks(None, 0, 0, True, 6), state) is None
    one_each = Position.from_squares(variant=FRISIAN, white_kings=[47], black_kings=[4]).state()
    assert draw_by_count(FRISIAN, NO_CLOCKS, one_each) == (
        "draw: one king against one king (art. 21)"
    )


NO_STATE = Position.from_squares(white_kings=[46], black_kings=[5]).state()
"""A position the International counts do not look at (only the clocks decide there)."""


def test_the_plies_left_before_an_international_count_draws() -> None:
    assert plies_left(INTERNATIONAL, DrawClocks(None, 0, 0, None, 0)) == 50
    assert plies_left(INTERNATIONAL, DrawClocks(None, 0, 17, None, 0)) == 33
    assert plies_left(INTERNATIONAL, DrawClocks("5", 3, 4, None, 0)) == 7  # 10 - 3
    assert plies_left(INTERNATIONAL, DrawClocks("5", 3, 45, None, 0)) == 5  # 50 - 45
    assert plies_left(INTERNATIONAL, DrawClocks("16", 20, 0, None, 0)) == 12  # 32 - 20
    assert plies_left(FRISIAN, NO_CLOCKS) is None


def test_the_endings_by_their_material() -> None:
    # (white men, white kings, black men, black kings)
    assert lone_king_ending((0, 1, 0, 1)) == "5"
    assert lone_king_ending((0, 1, 1, 1)) == "5"
    assert lone_king_ending((0, 1, 2, 1)) == "16"
    assert lone_king_ending((1, 2, 0, 1)) == "16"
    assert lone_king_ending((0, 3, 0, 1)) == "16"
    assert lone_king_ending((0, 4, 0, 1)) is None  # four against the lone king: no count
    assert lone_king_ending((0, 1, 3, 0)) is None  # no king against it
    assert lone_king_ending((1, 1, 0, 2)) is None  # no lone king
    assert two_kings_against_one((0, 2, 0, 1)) is True
    assert two_kings_against_one((0, 1, 0, 2)) is False
    assert two_kings_against_one((1, 2, 0, 1)) is None
    assert two_kings_against_one((0, 2, 1, 1)) is None
    assert two_kings_against_one((0, 2, 0, 2)) is None
    assert material(Position.from_squares(white_men=[31], black_kings=[3, 4]).state()) == (
        1,
        0,
        0,
        2,
    )


def test_only_international_play_is_finite_with_its_clocks() -> None:
    assert play_is_finite(INTERNATIONAL) is True
    assert play_is_finite(FRISIAN) is False


@pytest.mark.parametrize("white", [True, False], ids=["white-promotes", "black-promotes"])
def test_the_move_that_makes_two_kings_against_one_is_not_counted(white: bool) -> None:
    # Fries Spel art. 18 counts the moves made in the ending: the promotion that makes the
    # second king is the last move before it
    if white:
        position = Position.from_squares(
            variant=FRISIAN, white_kings=[46], white_men=[6], black_kings=[45]
        )
        promotion = "6-1"
    else:
        position = Position.from_squares(
            variant=FRISIAN, black_kings=[5], black_men=[45], white_kings=[6], white_to_move=False
        )
        promotion = "45-50"
    state = position.state()
    clocks = initial_clocks(FRISIAN, state)
    assert clocks == NO_CLOCKS
    (move,) = [m for m in position.legal_moves() if str(m) == promotion]
    after = position.play(move).state()
    raw = next(r for r in generate(FRISIAN, state) if make(FRISIAN, state, r) == after)
    clocks = advance(FRISIAN, clocks, state, raw, after)
    assert clocks == DrawClocks(None, 0, 0, white, 0)
    # the first move in the ending is the first that counts, for the side with two kings only
    reply = next(
        r for r in generate(FRISIAN, after) if not generate(FRISIAN, make(FRISIAN, after, r))[0][2]
    )
    later = make(FRISIAN, after, reply)
    assert advance(FRISIAN, clocks, after, reply, later) == DrawClocks(None, 0, 0, white, 0)
    again = next(r for r in generate(FRISIAN, later) if not r[2])
    last = make(FRISIAN, later, again)
    assert advance(FRISIAN, DrawClocks(None, 0, 0, white, 0), later, again, last) == DrawClocks(
        None, 0, 0, white, 1
    )
