"""Property-based tests: random and mutated input never escapes as anything but our errors.

Every parser of the notation layer (FEN, PDN, diagram blocks, replay) gets random text
and mutations of valid text; the only exceptions allowed out are ``RulebookError``s,
and each of them carries a location.  Generated games survive ``write_pdn`` and
``read_pdn`` unchanged.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook_build.errors import RulebookError
from rulebook_build.notation.diagram import parse_diagram
from rulebook_build.notation.fen import format_fen, parse_fen, read_fen
from rulebook_build.notation.pdn import (
    RESULTS,
    Comment,
    MoveText,
    MoveTextItem,
    Nag,
    PdnGame,
    PdnMove,
    Setup,
    Variation,
    decode_pdn,
    read_pdn,
    write_pdn,
)
from rulebook_build.notation.replay import replay
from rulebook_build.notation.resolve import parse_move, resolve_move
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position

FAST = settings(
    max_examples=int(os.environ.get("NOTATION_EXAMPLES", "150")),  # more: a deeper search
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

FEN_SEEDS = [
    "W:W31-50:B1-20",
    "B:W18,24,K10:BK22,12.",
    "W:WK46,31:BK32,12:+232+0",
    "W:W31:B19:H0:F1",
    "?:W29,13,11:B22,4,2",
]
PDN_SEEDS = [
    '[Event "x"]\n[FEN "W:W31-50:B1-20"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n',
    "32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23",
    '% comment\n[White "a \\" b"]\n1.32-28!? 19-23(!?!!!) $3 /FEN "W:W31:B1"/ 2.28x19 *\n',
    '[FEN "W:W32,36:B22"]\n1. 32-27 2. 36x27 +\n',
]
DIAGRAM_SEEDS = [
    "position: start\nvariant: international\nnumbers: yes\ncaption: Afb. 2\n",
    "position: W:W31-35:B18,19\nmoves: 32-28 19-23 28x19\nhighlight: 28 23\narrows: 32-28\n",
]

ALPHABET = st.sampled_from(list('WBK?:,.-x+HF0123456789 \n\t[]"{}()!?$%/*abhk'))
NOISE = st.text(alphabet=ALPHABET, max_size=80) | st.text(max_size=40)


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """A seed with a few characters inserted, deleted, replaced or slices repeated."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "repeat"]))
        piece = draw(st.text(alphabet=ALPHABET, min_size=1, max_size=3))
        if action == "insert":
            text = text[:position] + piece + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + 1 :]
        elif action == "replace":
            text = text[:position] + piece + text[position + 1 :]
        else:
            end = draw(st.integers(position, len(text)))
            text = text[:end] + text[position:end] + text[end:]
    return text


def assert_located(error: RulebookError) -> None:
    assert error.message
    assert "\n" not in error.message
    assert error.line is None or error.line >= 1
    assert error.column is None or error.column >= 1
    str(error)  # renders


@FAST
@given(NOISE | mutated(FEN_SEEDS))
def test_fen_never_leaks(text: str) -> None:
    for variant in (INTERNATIONAL, FRISIAN):
        try:
            position = parse_fen(text, variant=variant)
        except RulebookError as error:
            assert_located(error)
        else:
            assert parse_fen(format_fen(position), variant=variant) == position
        try:
            read_fen(text, variant=variant)
        except RulebookError as error:
            assert_located(error)


@FAST
@given(NOISE | mutated(PDN_SEEDS))
def test_pdn_never_leaks(text: str) -> None:
    games, errors = read_pdn(text, source="random.pdn")
    for error in errors:
        assert_located(error)
        assert error.line is not None and error.column is not None
    for game in games:
        try:
            replay(game)
        except RulebookError as error:
            assert_located(error)
    if games:
        again, problems = read_pdn(write_pdn(games))
        assert problems == ()
        assert again == games


@FAST
@given(st.binary(max_size=200) | mutated(PDN_SEEDS).map(lambda t: t.encode("latin-1", "replace")))
def test_pdn_bytes_never_leak(data: bytes) -> None:
    """Files as bytes: any encoding, BOM, NUL and stray line ends."""
    games, errors = read_pdn(decode_pdn(data), source="bytes.pdn")
    for error in errors:
        assert_located(error)
    for game in games:
        try:
            replay(game)
        except RulebookError as error:
            assert_located(error)


@FAST
@given(NOISE | mutated(DIAGRAM_SEEDS))
def test_diagram_never_leaks(text: str) -> None:
    try:
        parse_diagram(text, source="page.md", first_line=7, indent=2)
    except RulebookError as error:
        assert_located(error)
        assert error.line is not None and error.line >= 7


@FAST
@given(NOISE | mutated(["32-28", "26x37x48", "a3-b4", "36x13x2x16", "1- 7"]))
def test_move_text_never_leaks(text: str) -> None:
    try:
        move = parse_move(text)
    except RulebookError as error:
        assert_located(error)
        return
    try:
        resolve_move(Position.initial(), text)
    except RulebookError as error:
        assert_located(error)
    assert move.squares


# --- generated games -----------------------------------------------------------------

SAFE_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r}"),
    max_size=20,
)
squares = st.integers(1, 50)
numeric_moves = st.one_of(
    # 1-1 would be the result "1-1": a move never goes to its own square
    st.builds(lambda a, b: ((a, b), False), squares, squares).filter(lambda m: m[0][0] != m[0][1]),
    st.builds(lambda path: (tuple(path), True), st.lists(squares, min_size=2, max_size=5)),
)
alpha_moves = st.builds(
    lambda a, b, capture: ((a, b), capture),
    st.from_regex(r"[a-h][1-8]", fullmatch=True),
    st.from_regex(r"[a-h][1-8]", fullmatch=True),
    st.booleans(),
)
strengths = st.sampled_from([None, "!", "?", "!!", "??", "!?", "?!", "(?)", "(!)"])


@st.composite
def pdn_moves(draw: st.DrawFn) -> PdnMove:
    squares_, capture = draw(numeric_moves | alpha_moves)
    return PdnMove(squares_, capture, draw(strengths))


def move_texts(depth: int) -> st.SearchStrategy[MoveText]:
    items: list[st.SearchStrategy[MoveTextItem]] = [
        pdn_moves(),
        st.builds(Comment, SAFE_TEXT),
        st.builds(Nag, st.integers(0, 255)),
        st.builds(Setup, SAFE_TEXT.map(lambda t: t.replace("/", ""))),
    ]
    if depth > 0:
        items.append(st.builds(Variation, move_texts(depth - 1).filter(bool)))
    return st.lists(st.one_of(items), max_size=8).map(lambda xs: MoveText(tuple(xs)))


tags = st.lists(
    st.tuples(
        st.from_regex(r"[A-Z][A-Za-z0-9_]{0,10}", fullmatch=True),
        st.text(
            alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"),
            max_size=20,
        ),
    ),
    max_size=5,
)


@st.composite
def games(draw: st.DrawFn) -> PdnGame:
    game = PdnGame(
        tags=tuple(draw(tags)),
        moves=draw(move_texts(2)),
        result=draw(st.sampled_from(sorted(RESULTS))),
    )
    if not game.tags and not game.moves:
        game = PdnGame(tags=(("Event", "?"),), moves=game.moves, result=game.result)
    return game


@FAST
@given(st.lists(games(), min_size=1, max_size=3))
def test_written_games_read_back_the_same(written: list[PdnGame]) -> None:
    text = write_pdn(written)
    again, errors = read_pdn(text, source="written.pdn")
    assert errors == (), text
    assert list(again) == written
