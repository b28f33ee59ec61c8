"""The evaluating search of the compiled program (``native/opinion.h``, the "opinion" request).

An opinion is not a proof, so these tests check what it must get right whatever its
evaluation: the ends it knows (no legal move, a count rule), a combination that wins material
within its horizon, a line of legal moves, the same answer for the same request wherever it is
asked, the browser's build included, and that the proof searches of a session answer as if no
opinion had been asked between them.  The tables are empty folders: no table value is known.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook_build.engine import binaries, wasm
from rulebook_build.engine.search import Node, child_node, root_node
from rulebook_build.engine.tables.endgame import default_cache_dir
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL
from rulebook_build.rules.board import bit_of
from rulebook_build.rules.drawrules import DrawClocks
from rulebook_build.rules.movegen import generate
from rulebook_build.rules.variants import Variant

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")

VARIANTS = [INTERNATIONAL, FRISIAN]
START = (
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
    ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
)
ERROR = "error expected: opinion NODE_LIMIT WM WK BM BK CLOCKS\nend\n"


@pytest.fixture(scope="module")
def program() -> Path:
    found = binaries.executable(default_cache_dir(), binaries.PROVER_SOURCE)
    assert found is not None, "a C compiler is here, so the search must compile"
    return found


@pytest.fixture(scope="module")
def empty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("no-tables")


def prover_for(variant: Variant, program: Path, empty: Path) -> binaries.NativeProver:
    return binaries.NativeProver(program, empty, empty, variant=variant)


@pytest.fixture(params=VARIANTS, ids=lambda v: v.name)
def variant(request: pytest.FixtureRequest) -> Variant:
    chosen: Variant = request.param
    return chosen


@pytest.fixture
def session(variant: Variant, program: Path, empty: Path) -> Iterator[binaries.ProverSession]:
    with prover_for(variant, program, empty).session(0.0) as opened:
        yield opened


def node_of(variant: Variant, fen: str, clocks: DrawClocks | None = None) -> Node:
    state, start = root_node(variant, parse_fen(fen, variant=variant).state())
    return (state, start if clocks is None else clocks)


def request(prover: binaries.NativeProver, node: Node, node_limit: int) -> str:
    return " ".join(["opinion", str(node_limit), *prover._node(*node)])


def children(variant: Variant, node: Node) -> dict[binaries.Pieces, Node]:
    """Each legal move's pieces, with its node, by the Python rules engine."""
    found = {}
    for move in generate(variant, node[0]):
        child = child_node(variant, node, move)
        found[binaries.pieces_of(child[0])] = child
    return found


def assert_legal(variant: Variant, node: Node, line: tuple[binaries.Pieces, ...]) -> None:
    for ply, pieces in enumerate(line):
        successors = children(variant, node)
        assert pieces in successors, f"ply {ply} of the line is no legal move"
        node = successors[pieces]


# ------------------------------------------------------------------ what it must find
SHOTS = {
    # a man given on 23: Black must take it (18x29), and 34x14 takes two back
    "international": ("W:W28,29,34,40:B6,7,18,19", 29, 23),
    # Fries Spel: 37-32 forces a capture that every reply loses more to
    "frisian": ("W:W22,28,37,44:B13,20,21,26", 37, 32),
}


def test_a_combination_that_wins_material_is_found_and_played(
    variant: Variant, session: binaries.ProverSession
) -> None:
    fen, origin, destination = SHOTS[variant.name]
    node = node_of(variant, fen)
    (key,) = [
        move
        for move in generate(variant, node[0])
        if move[:2] == (bit_of(origin), bit_of(destination))
    ]
    answer = session.opinion(*node, node_limit=200_000)
    assert answer.problem is None
    assert answer.score >= 100, answer  # the balance is even before the shot
    assert answer.depth >= 3
    assert answer.line[0] == binaries.pieces_of(child_node(variant, node, key)[0])
    assert_legal(variant, node, answer.line)


@pytest.mark.parametrize(
    ("fen", "score"),
    [
        # White's man on 46 is blocked by 41 and cannot take it (37 is taken): White has lost
        ("W:W46:B37,41", -binaries.WIN_SCORE),
        # Black's man on 5 likewise, by 10 and 14: the score is White's, so positive
        ("B:W10,14:B5", binaries.WIN_SCORE),
    ],
)
def test_a_side_without_a_move_has_lost(
    variant: Variant, session: binaries.ProverSession, fen: str, score: int
) -> None:
    answer = session.opinion(*node_of(variant, fen), node_limit=10_000)
    assert (answer.score, answer.line, answer.problem) == (score, (), None)
    assert answer.depth == 1  # found in the first iteration, which no deeper one improves


def test_a_known_end_is_scored_by_its_distance(
    session: binaries.ProverSession, variant: Variant
) -> None:
    # International: Black must take 23 (18x29, its only move) and 34x14 takes both back, and
    # Black has no move left.  Fries Spel: 18 may also take 28 along its column, and Black
    # wins a longer game.  Either way the line runs to a side without a move, and the score is
    # WIN less its plies, positive where White wins.
    node = node_of(variant, "B:W23,28,34,40:B18,19")
    answer = session.opinion(*node, node_limit=100_000)
    assert abs(answer.score) == binaries.WIN_SCORE - len(answer.line), answer
    assert_legal(variant, node, answer.line)
    if variant is INTERNATIONAL:
        assert answer.score == binaries.WIN_SCORE - 2
    else:
        assert answer.score < 0


def test_a_count_rule_draw_scores_nothing(program: Path, empty: Path) -> None:
    # one king each, the lone-king count (KNDB art. 9b) run out: a draw, whatever the kings
    # could do (the evaluation alone would give the side to move its small bonus)
    node = node_of(INTERNATIONAL, "W:WK46:BK5", DrawClocks("5", 10, 0, None, 0))
    with prover_for(INTERNATIONAL, program, empty).session(0.0) as session:
        drawn = session.opinion(*node, node_limit=10_000)
        open_count = session.opinion(node[0], DrawClocks("5", 0, 0, None, 0), node_limit=10_000)
    assert (drawn.score, drawn.line) == (0, ())
    assert open_count.line and open_count.problem is None


# ------------------------------------------------------------------ the line
@pytest.mark.parametrize(
    "fen",
    [
        START,
        "W:W28,29,34,40:B6,7,18,19",
        "W:WK46,31,32:BK5,14,19",  # kings of both sides: long moves, Fries Spel runs of art. 17
    ],
)
def test_every_move_of_the_line_is_a_legal_move(
    variant: Variant, session: binaries.ProverSession, fen: str
) -> None:
    node = node_of(variant, fen)
    answer = session.opinion(*node, node_limit=150_000)
    assert answer.problem is None and answer.depth >= 4
    assert len(answer.line) >= answer.depth  # the captures after the horizon may follow
    assert_legal(variant, node, answer.line)
    assert answer.nodes <= 150_000


def test_a_circle_of_kings_ends(session: binaries.ProverSession) -> None:
    # kings only and no count rule in International before the 25 moves; in Fries Spel two
    # kings each may go round for ever: the search stops all the same, within its budget
    node = node_of(session.prover.variant, "W:WK46,K50:BK1,K5")
    answer = session.opinion(*node, node_limit=60_000)
    assert answer.problem is None and answer.depth >= 2 and answer.nodes <= 60_000
    assert_legal(session.prover.variant, node, answer.line)


# ------------------------------------------------------------------ the same answer everywhere
def test_the_same_request_gets_the_same_answer(
    variant: Variant, program: Path, empty: Path
) -> None:
    prover = prover_for(variant, program, empty)
    # a budget that ends an iteration midway, so the answer is the last one completed
    line = request(prover, node_of(variant, START), 30_000)
    with prover.session(0.0) as first:
        once = first._exchange(line)
        first._exchange(request(prover, node_of(variant, SHOTS[variant.name][0]), 20_000))
        twice = first._exchange(line)
    with prover.session(0.0) as second:
        again = second._exchange(line)
    assert once == twice == again
    answer = binaries._parse_opinion(once)
    assert answer.problem is None and answer.nodes == 30_000 and answer.line


def test_an_opinion_leaves_the_proof_searches_as_they_were(
    variant: Variant, program: Path, empty: Path
) -> None:
    prover = prover_for(variant, program, empty)
    first = node_of(variant, SHOTS[variant.name][0])
    second = node_of(variant, START)

    def solve(session: binaries.ProverSession, node: Node) -> str:
        text = session._exchange(" ".join(["solve", "600", "40000", *prover._node(*node)]))
        return "".join(row for row in text.splitlines(True) if not row.startswith("seconds "))

    with prover.session(0.0) as plain:
        expected = [solve(plain, first), solve(plain, second), solve(plain, first)]
    with prover.session(0.0) as mixed:
        got = [solve(mixed, first)]
        assert mixed.opinion(*second, node_limit=50_000).line
        got.append(solve(mixed, second))
        assert mixed.opinion(*first, node_limit=50_000).line
        got.append(solve(mixed, first))
    assert got == expected
    assert "result undecided" in expected[1]  # a search stopped by its node limit


def test_the_browser_build_gives_the_same_opinion(
    variant: Variant, program: Path, empty: Path
) -> None:
    built = wasm.wasm_build(default_cache_dir())
    if built is None:
        pytest.fail("Zig is missing: pip install -e '.[wasm]' (scripts/test.sh does)")
    from .wasm_host import WasmtimeHost

    class NoTables:  # what the page's host answers for a class it has no table of
        def blocks(self, material: tuple[int, ...]) -> int:
            return 0

        def codes(self, material: tuple[int, ...], block: int) -> None:
            return None

    hosted = wasm.HostedProver(WasmtimeHost(built, NoTables()), variant=variant)  # type: ignore[arg-type]
    node = node_of(variant, SHOTS[variant.name][0])
    compiled = prover_for(variant, program, empty)
    assert hosted.opinion(*node, node_limit=80_000) == compiled.opinion(*node, node_limit=80_000)


# ------------------------------------------------------------------ bad requests
@pytest.mark.parametrize(
    "line",
    [
        "opinion",
        "opinion 1000",
        "opinion many 7feffc00000000 0 3ff7fe 0 1/0/0/0",
        "opinion -5 7feffc00000000 0 3ff7fe 0 1/0/0/0",
        "opinion 1000 7feffc00000000 0 3ff7fe 0",
        "opinion 1000 7feffc00000000 0 3ff7fe 0 1/0/0/0 extra",
        "opinion 1000 7feffc00000000 7feffc00000000 3ff7fe 0 1/0/0/0",  # a man and a king
        "opinion 1000 7feffc00000000 0 3ff7fe 0 1/0/0",  # clocks of neither variant
    ],
)
def test_a_malformed_request_is_an_error(program: Path, empty: Path, line: str) -> None:
    with prover_for(INTERNATIONAL, program, empty).session(0.0) as session:
        assert session._exchange(line) == ERROR
        # the session goes on answering
        good = session.opinion(*node_of(INTERNATIONAL, START), node_limit=2_000)
        assert good.problem is None and good.line
    assert binaries._parse_opinion(ERROR).problem == (
        "the compiled search: expected: opinion NODE_LIMIT WM WK BM BK CLOCKS"
    )


def test_a_broken_program_is_an_answer_with_a_problem(tmp_path: Path, empty: Path) -> None:
    missing = binaries.NativeProver(
        tmp_path / "no-such-program", empty, empty, variant=INTERNATIONAL
    )
    answer = missing.opinion(*node_of(INTERNATIONAL, START), node_limit=1_000)
    assert answer.problem is not None and answer.line == ()
    assert binaries._parse_opinion("score 5\ndepth 2\n").problem == "the opinion ended early"
    assert binaries._parse_opinion("score x\nend\n").problem is not None
