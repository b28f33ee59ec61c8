"""The compiled proof search (``native/prover.c``) and the Python walk that checks its trees.

The compiled search is not trusted: ``ProofSearch`` accepts its "proved" or "refuted" only after
walking the tree it prints with the Python engine.  These tests check that it agrees with the
Python search where both settle a node, that its trees pass the walk, and that a wrong tree (a
claimed proof of a position White does not win, a missing or illegal choice) is turned down.
"""

from __future__ import annotations

import math
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.checker.judge import Judge
from rulebook_build.engine import binaries
from rulebook_build.engine.budget import COMPILED_RATE, PYTHON_RATE, Work
from rulebook_build.engine.search import (
    NATIVE_FROM_SECONDS,
    NATIVE_NODE_LIMIT,
    PYTHON_NODE_LIMIT,
    Node,
    ProofSearch,
    child_node,
    root_node,
)
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn, read_pdn_file
from rulebook_build.notation.replay import move_notation, replay, start_position
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.rules.drawrules import DrawClocks
from rulebook_build.rules.movegen import State, generate
from rulebook_build.rules.position import Position, to_move
from tests.datafiles import PWCP

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")

PROBLEMS = Path(__file__).resolve().parents[2] / "problems" / "examples"


@pytest.fixture(scope="module")
def tables() -> CheckerTables:
    found = checker_tables(INTERNATIONAL)
    found.prepare_missing()  # up to 4 pieces, as 'rulebook check' builds them
    return found


@pytest.fixture(scope="module")
def prover(tables: CheckerTables) -> binaries.NativeProver:
    compiled = tables.prover()
    assert compiled is not None, "a C compiler is here, so the search must compile"
    return compiled


def first_moves(path: Path) -> list[Node]:
    games, errors = read_pdn_file(path)
    assert not errors
    found = []
    for game in games[:4]:
        root = root_node(INTERNATIONAL, start_position(game, INTERNATIONAL).state())
        moves = generate(INTERNATIONAL, root[0])
        found += [child_node(INTERNATIONAL, root, move) for move in moves]
    return found


def test_the_compiled_search_agrees_with_the_python_search(
    tables: CheckerTables, prover: binaries.NativeProver
) -> None:
    compared = {"proved": 0, "refuted": 0}
    # the collection's problems, and the first four of the PWCP-2 (where some tries are
    # refuted only deep down)
    for path in [*sorted(PROBLEMS.glob("international-*.pdn")), PWCP]:
        for node in first_moves(path):
            # limits counted in positions (5,000 and 300,000: a fifth and a quarter of a
            # second's work), not in wall time, so the same nodes are compared under any load
            # (19 proved, 47 refuted); the generous clock never ends a search first
            python = ProofSearch(INTERNATIONAL, tables=tables).prove(
                node, seconds=120.0, node_limit=PYTHON_RATE // 5
            )
            if python.verdict == "undecided":
                continue  # nothing to compare with (the compiled search's time spent elsewhere)
            answer = prover.solve(node[0], node[1], seconds=120.0, node_limit=COMPILED_RATE // 4)
            assert answer.problem is None
            if answer.verdict == "undecided":
                continue
            assert answer.verdict == python.verdict
            compared[python.verdict] += 1
    # both kinds of answer were met, so the comparison said something
    assert compared["proved"] >= 15 and compared["refuted"] >= 45, compared


def test_a_compiled_proof_is_checked_and_kept_for_the_criteria(
    tables: CheckerTables, prover: binaries.NativeProver
) -> None:
    (game,), _ = read_pdn_file(PROBLEMS / "international-05.pdn")
    judge = Judge(INTERNATIONAL, tables=tables, prover=prover)
    judgement = judge.judge(game, start_position(game, INTERNATIONAL), seconds=30.0)
    assert judgement.white_wins == "proved"
    assert judgement.verdict == "sound"
    assert judgement.proof_line, "the walked tree's nodes are settled in the Python table"


def test_a_compiled_proof_passes_the_walk(
    tables: CheckerTables, prover: binaries.NativeProver
) -> None:
    search = ProofSearch(INTERNATIONAL, tables=tables, prover=prover)
    node = next(n for n in first_moves(PROBLEMS / "international-05.pdn") if is_the_key(n, tables))
    result = search.prove(node, seconds=5.0)
    assert result.verdict == "proved"
    assert search.native_nodes > 0 and not search.native_problems
    assert search.table[node] == (0, 10**9)


def test_a_compiled_refutation_passes_the_walk_and_says_refuted(
    tables: CheckerTables, prover: binaries.NativeProver
) -> None:
    """The word a checked compiled refutation comes back with is the one every caller reads (a
    first move of international-05 that does not win, settled by the compiled search alone)."""
    search = ProofSearch(INTERNATIONAL, tables=tables, prover=prover)
    node = next(
        n for n in first_moves(PROBLEMS / "international-05.pdn") if not is_the_key(n, tables)
    )
    first = search.prove(node, seconds=5.0)
    assert first.verdict == "refuted"
    assert search.nodes == 0 and search.native_nodes > 0 and not search.native_problems
    assert search.table[node][1] == 0


def test_the_compiled_searches_positions_are_added_up() -> None:
    liar = Liar(Claim("undecided", nodes=7))
    search = ProofSearch(INTERNATIONAL, prover=liar)
    first, second = first_moves(PROBLEMS / "international-05.pdn")[:2]
    search.prove(first, seconds=NATIVE_FROM_SECONDS + 0.5)
    search.prove(second, seconds=NATIVE_FROM_SECONDS + 0.5)
    assert liar.calls == 2 and search.native_nodes == 14


def test_a_proof_larger_than_the_table_is_printed_whole(
    tables: CheckerTables, prover: binaries.NativeProver
) -> None:
    # a table of 0 MB is one bucket of three entries: the search proves A5's key all the same
    # (about 600,000 nodes), and the printer finds the nodes it settled in the settled store
    # instead of searching each again (without it the tree was cut short after 10 s)
    node = pwcp_child("A5", "23-18")
    search = ProofSearch(INTERNATIONAL, tables=tables)
    tiny = binaries.NativeProver(
        prover.program,
        tables.pure.folder(),
        tables.rules.folder(),
        variant=INTERNATIONAL,
        table_mb=0,
    )
    answer = tiny.solve(node[0], node[1], seconds=30.0, node_limit=10**9)
    assert answer.verdict == "proved" and answer.problem is None
    assert answer.choices
    assert search._adopt(node, answer, deadline=time.perf_counter() + 60)
    assert search.table[node] == (0, 10**9)


def test_a_short_search_gets_a_small_table() -> None:
    program = binaries.NativeProver(
        Path("prover"), Path("pure"), Path("rules"), variant=INTERNATIONAL
    )
    assert program.table_mb_for(0.1) == binaries.PROVER_MIN_TABLE_MB
    assert program.table_mb_for(2.0) == 2 * binaries.PROVER_MB_PER_SECOND
    assert program.table_mb_for(600.0) == binaries.PROVER_TABLE_MB
    # odd seconds (a caller that skipped the command's checks) size a table, never crash
    assert program.table_mb_for(math.inf) == binaries.PROVER_TABLE_MB
    for odd in (math.nan, 0.0, -5.0, -math.inf):
        assert program.table_mb_for(odd) == binaries.PROVER_MIN_TABLE_MB


def is_the_key(node: Node, tables: CheckerTables) -> bool:
    return ProofSearch(INTERNATIONAL, tables=tables).prove(node, seconds=2.0).verdict == "proved"


# ------------------------------------------------------------------ wrong trees are turned down
@dataclass
class Claim:
    """An answer as the compiled search would give it, made up by the test."""

    verdict: str
    choices: dict[tuple[int, ...], tuple[int, int, int, int]] = field(default_factory=dict)
    nodes: int = 1
    problem: str | None = None
    open_line: tuple[tuple[int, int, int, int], ...] = ()

    def choice(self, state: State, clocks: DrawClocks) -> tuple[int, int, int, int] | None:
        key = (*binaries.pieces_of(state), int(state[4]), int(clocks.ending or 0))
        return self.choices.get((*key, clocks.ending_plies, clocks.king_only_plies))


@dataclass
class Liar:
    """A prover that always gives the same answer."""

    claim: Claim
    calls: int = 0
    node_limits: list[int] = field(default_factory=list)

    def solve(
        self,
        state: State,
        clocks: DrawClocks,
        *,
        seconds: float,
        node_limit: int,
        table_seconds: float | None = None,
    ) -> Claim:
        self.calls += 1
        self.node_limits.append(node_limit)
        return self.claim


def test_a_claimed_proof_of_a_drawn_position_is_turned_down() -> None:
    # a king each: nobody wins; the claim chooses White's first move at the root only
    node = root_node(INTERNATIONAL, parse_fen("W:WK46:BK5", variant=INTERNATIONAL).state())
    child = child_node(INTERNATIONAL, node, generate(INTERNATIONAL, node[0])[0])
    key = (*binaries.pieces_of(node[0]), 1, 0, 0, 0)
    liar = Liar(Claim("proved", {key: binaries.pieces_of(child[0])}))
    search = ProofSearch(INTERNATIONAL, prover=liar)
    result = search.prove(node, seconds=NATIVE_FROM_SECONDS + 0.5)
    assert liar.calls == 1
    assert result.verdict != "proved"
    assert search.native_problems == ["the compiled search's tree has no legal choice"]
    assert search.table.get(child, (1, 1))[0] != 0


def test_a_choice_that_is_no_legal_move_is_turned_down() -> None:
    # White wins at once with 28x19 (Black then has no piece); the claim names another square
    state = parse_fen("W:W28:B23", variant=INTERNATIONAL).state()
    node = root_node(INTERNATIONAL, state)
    key = (*binaries.pieces_of(state), 1, 0, 0, 0)
    liar = Liar(Claim("proved", {key: (1 << 30, 0, 0, 0)}))
    search = ProofSearch(INTERNATIONAL, prover=liar)
    result = search.prove(node, seconds=NATIVE_FROM_SECONDS + 0.5)
    assert search.native_problems == ["the compiled search's tree has no legal choice"]
    assert result.verdict == "proved", "the Python search still proves it in the time left"


def test_a_claimed_refutation_of_a_won_position_is_turned_down() -> None:
    state = parse_fen("W:W28:B23", variant=INTERNATIONAL).state()
    search = ProofSearch(INTERNATIONAL, prover=Liar(Claim("refuted")))
    result = search.prove(root_node(INTERNATIONAL, state), seconds=NATIVE_FROM_SECONDS + 0.5)
    assert search.native_problems == ["the compiled search's tree ends in a wrong leaf"]
    assert result.verdict == "proved"


def test_only_time_limits_the_compiled_search_by_default() -> None:
    # the Python search's node limit had stopped A9's proof at 50 of its 51.8 million nodes
    liar = Liar(Claim("undecided"))
    state = parse_fen("W:W28:B23", variant=INTERNATIONAL).state()
    search = ProofSearch(INTERNATIONAL, prover=liar)
    search.prove(root_node(INTERNATIONAL, state), seconds=NATIVE_FROM_SECONDS + 0.1)
    search.prove(root_node(INTERNATIONAL, state), seconds=NATIVE_FROM_SECONDS + 0.1, node_limit=7)
    assert liar.node_limits == [NATIVE_NODE_LIMIT, 7]
    assert NATIVE_NODE_LIMIT > 1000 * PYTHON_NODE_LIMIT


def test_a_short_search_stays_in_python() -> None:
    liar = Liar(Claim("refuted"))
    state = parse_fen("W:W28:B23", variant=INTERNATIONAL).state()
    search = ProofSearch(INTERNATIONAL, prover=liar)
    assert search.prove(root_node(INTERNATIONAL, state), seconds=0.1).verdict == "proved"
    assert liar.calls == 0


def test_the_program_refuses_an_impossible_position(prover: binaries.NativeProver) -> None:
    overlapping = (1 << 30, 0, 1 << 30, 0, True, (0, 0), (0, 0))
    answer = prover.solve(overlapping, DrawClocks(None, 0, 0, None, 0), seconds=1, node_limit=10)
    assert answer.verdict == "undecided"
    assert answer.problem == "the compiled search failed: prover: bad position or clocks"


# ------------------------------------------------------------------ where an undecided search stops
def pwcp_child(event: str, move: str) -> Node:
    """The node after ``move`` in the PWCP-2 problem ``event``."""
    games, _ = read_pdn_file(PWCP)
    (game,) = [g for g in games if g.tag("Event") == event]
    root = root_node(INTERNATIONAL, start_position(game, INTERNATIONAL).state())
    start = Position.from_state(INTERNATIONAL, root[0])
    search = ProofSearch(INTERNATIONAL)
    (child,) = [c for raw, c in search.expand(root) if move_notation(start, to_move(raw)) == move]
    return child


def a9_after_the_key() -> Node:
    return pwcp_child("A9", "18-12")


def test_an_undecided_compiled_search_gives_the_line_it_was_working_on(
    prover: binaries.NativeProver, tables: CheckerTables
) -> None:
    node = a9_after_the_key()  # far beyond a second of search
    answer = prover.solve(node[0], node[1], seconds=1.0, node_limit=10**9)
    assert answer.verdict == "undecided" and len(answer.open_line) >= 4
    # every position of the line is reached by a legal move from the one before
    search = ProofSearch(INTERNATIONAL, tables=tables, prover=prover)
    assert len(search.moves_to(node, answer.open_line)) == len(answer.open_line)
    assert search.prove(node, seconds=1.0).verdict == "undecided"
    assert len(search.open_line(node)) >= 4


def test_an_undecided_python_search_gives_the_line_of_open_nodes() -> None:
    node = a9_after_the_key()
    search = ProofSearch(INTERNATIONAL)
    assert search.prove(node, seconds=0.3).verdict == "undecided"
    line = search.open_line(node)
    assert line
    for raw in line:  # each node on the line is still open when its move is chosen
        pn, dn = search.lookup(node)
        assert pn > 0 and dn > 0
        node = child_node(INTERNATIONAL, node, raw)


def test_an_undecided_judgement_names_the_line_to_look_at() -> None:
    games, _ = read_pdn_file(PWCP)
    (game,) = [g for g in games if g.tag("Event") == "A9"]
    position = parse_fen(game.fen or "", variant=INTERNATIONAL)
    judgement = Judge(INTERNATIONAL).judge(game, position, seconds=1.0, full=False)
    a = judgement.criteria["A"]
    assert a.status == "undecided" and a.message == "a_undecided_line"
    line = str(a.args["line"])
    assert line.startswith("18-12 ") and line in a.detail
    # the line is legal play from the start position
    (replayed,) = read_pdn(f'[FEN "{game.fen}"]\n\n{line} *\n')[0]
    assert len(replay(replayed, variant=INTERNATIONAL).main.moves) == len(line.split())


def test_a_class_with_a_table_with_count_rules_only_proves_in_the_compiled_search(
    tables: CheckerTables, prover: binaries.NativeProver, tmp_path: Path
) -> None:
    # as the 6-piece classes are cached: two kings against a king without its pure tables
    for table in tables.pure.folder().glob("*.bin"):
        if table.name not in ("m0k2-m0k1.bin", "m0k1-m0k2.bin"):
            (tmp_path / table.name).symlink_to(table.resolve())
    rules_only = binaries.NativeProver(
        prover.program, tmp_path, tables.rules.folder(), variant=INTERNATIONAL
    )
    state = parse_fen("W:WK28,K45:BK22", variant=INTERNATIONAL).state()  # 28x17 wins at once
    node = root_node(INTERNATIONAL, state)
    answer = rules_only.solve(node[0], node[1], seconds=5.0, node_limit=10**6)
    assert answer.verdict == "proved"
    assert not answer.choices, "the table closes the root: there is no move to print"
    # no table for it at all
    searched = binaries.NativeProver(prover.program, tmp_path, tmp_path, variant=INTERNATIONAL)
    answer = searched.solve(node[0], node[1], seconds=5.0, node_limit=10**6)
    assert answer.verdict == "proved" and len(answer.choices) == 1, "the capture, found by search"


# ------------------------------------------------------------------ one process for many searches
@pytest.fixture(scope="module")
def long_search(
    tables: CheckerTables, prover: binaries.NativeProver
) -> tuple[Node, binaries.ProverAnswer]:
    """A17 after 28-22, which Black refutes: some 400,000 nodes with the 5-piece tables, 1.6
    million without them; and the compiled search's whole answer."""
    node = pwcp_child("A17", "28-22")
    whole = prover.solve(node[0], node[1], seconds=120.0, node_limit=10**9)
    assert whole.verdict == "refuted" and whole.problem is None
    assert whole.nodes > 100_000
    return node, whole


def test_a_session_goes_on_where_its_last_search_stopped(
    long_search: tuple[Node, binaries.ProverAnswer],
    tables: CheckerTables,
    prover: binaries.NativeProver,
) -> None:
    node, whole = long_search
    part = whole.nodes * 7 // 10  # too few for one search
    assert prover.solve(node[0], node[1], seconds=120.0, node_limit=part).verdict == "undecided"
    with prover.session(120.0) as session:
        first = session.solve(node[0], node[1], seconds=120.0, node_limit=part)
        second = session.solve(node[0], node[1], seconds=120.0, node_limit=part)
        assert first.verdict == "undecided"
        assert second.verdict == "refuted" and second.problem is None
        # the tree printed is the whole refutation, which the Python walk accepts
        search = ProofSearch(INTERNATIONAL, tables=tables)
        assert search._adopt(node, second, deadline=time.perf_counter() + 120)
        # a settled root costs the next search nothing
        third = session.solve(node[0], node[1], seconds=120.0, node_limit=part)
        assert third.verdict == "refuted" and third.nodes <= 1


def test_a_session_answers_a_bad_request_and_goes_on(
    tables: CheckerTables, prover: binaries.NativeProver
) -> None:
    state = parse_fen("W:W28:B23", variant=INTERNATIONAL).state()  # 28x19 wins at once
    node = root_node(INTERNATIONAL, state)
    request = " ".join(["solve", "5", "1000", *prover._node(node[0], node[1])])
    command = [str(prover.program), "serve", "international"]
    command += [str(tables.pure.folder()), str(tables.rules.folder()), "16"]
    done = subprocess.run(
        command,
        input=f"nonsense\nsolve 5 1000 40000000 0 40000000 0 1/0/0/0\n{'x' * 2000}\n{request}\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    answers = done.stdout.split("end\n")
    assert answers[-1] == ""
    assert [a.splitlines()[0] for a in answers[:-1]] == [
        "error expected: solve SECONDS NODE_LIMIT WM WK BM BK CLOCKS"
    ] * 3 + ["result proved"]


def test_a_session_whose_program_died_answers_undecided(
    long_search: tuple[Node, binaries.ProverAnswer], prover: binaries.NativeProver
) -> None:
    node, _whole = long_search
    with prover.session(1.0) as session:
        assert session.solve(node[0], node[1], seconds=5.0, node_limit=1000).verdict == "undecided"
        assert session._process is not None
        session._process.kill()
        for _ in range(2):
            answer = session.solve(node[0], node[1], seconds=5.0, node_limit=1000)
            assert answer.verdict == "undecided"
            assert answer.problem is not None and "failed" in answer.problem
        assert session._process is None


def test_a_walk_cut_short_keeps_what_it_checked(
    long_search: tuple[Node, binaries.ProverAnswer], tables: CheckerTables
) -> None:
    node, answer = long_search
    refuted = (10**9, 0)
    timer = Work()
    search = ProofSearch(INTERNATIONAL, tables=tables, timer=timer)
    # a fiftieth of a second's checking: a thousand nodes, far less than the tree
    assert not search._adopt(node, answer, deadline=timer.now() + 0.02)
    assert search.native_problems == ["no time left to check the compiled search's tree"]
    kept = [n for n, value in search.table.items() if value == refuted]
    assert len(kept) >= 1024 and node not in kept
    # each node kept is a refutation the walk finished: the next walk skips it
    first_cost = timer.now()
    assert search._adopt(node, answer, deadline=timer.now() + 600)
    assert search.table[node] == refuted
    again = ProofSearch(INTERNATIONAL, tables=tables, timer=Work())
    assert again._adopt(node, answer, deadline=600)
    assert timer.now() - first_cost < again.timer.now()


def test_a_running_prover_takes_shorter_searches() -> None:
    # a process already running costs nothing to start: a tenth of a second is worth asking
    state = parse_fen("W:W28:B23", variant=INTERNATIONAL).state()
    liar = Liar(Claim("undecided"))
    liar.from_seconds = binaries.SESSION_FROM_SECONDS  # type: ignore[attr-defined]
    search = ProofSearch(INTERNATIONAL, prover=liar)
    assert binaries.SESSION_FROM_SECONDS < 0.1 < NATIVE_FROM_SECONDS
    search.prove(root_node(INTERNATIONAL, state), seconds=0.1)
    assert liar.calls == 1


def test_every_compiled_search_of_a_judgement_runs_in_one_process(
    tables: CheckerTables, prover: binaries.NativeProver, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[binaries.ProverSession] = []
    asked: list[str] = []
    session_solve = binaries.ProverSession.solve

    def open_session(self: binaries.NativeProver, seconds: float) -> binaries.ProverSession:
        opened.append(binaries.ProverSession(self, self.table_mb_for(seconds)))
        return opened[-1]

    def solve_in_session(self: binaries.ProverSession, *args: Any, **kwargs: Any) -> Any:
        asked.append("session")
        return session_solve(self, *args, **kwargs)

    def solve_alone(self: binaries.NativeProver, *args: Any, **kwargs: Any) -> Any:
        asked.append("alone")
        raise AssertionError("a search of the judgement started a process of its own")

    monkeypatch.setattr(binaries.NativeProver, "session", open_session)
    monkeypatch.setattr(binaries.ProverSession, "solve", solve_in_session)
    monkeypatch.setattr(binaries.NativeProver, "solve", solve_alone)
    (game,), _ = read_pdn_file(PROBLEMS / "international-05.pdn")
    judgement = Judge(INTERNATIONAL, tables=tables, prover=prover).judge(
        game, start_position(game, INTERNATIONAL), seconds=10.0, by_work=True
    )
    assert judgement.criteria["D"].status != "undecided"  # D's smaller problems were searched
    assert len(opened) == 1 and asked and set(asked) == {"session"}
    assert opened[0]._process is None, "the process ends with the judgement"
