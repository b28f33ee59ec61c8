"""Cooks and duals, judged as a contest jury does (Fries Spel H art. 2C, 2D, 2G; analysis.py).

Small hand-made positions, each showing one kind of second winning move: found with the
engine, their solutions written as a composer would, and settled within a second.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import pytest

from rulebook_build.checker import analysis
from rulebook_build.checker.analysis import (
    DUAL_KINDS,
    LEVEL,
    Clock,
    Dual,
    OpenMove,
    SolutionWalker,
    _Cursor,
    ended,
    is_combination,
    published_states,
    transposes,
)
from rulebook_build.checker.judge import Judge, Judgement
from rulebook_build.cli import main
from rulebook_build.engine.budget import Work
from rulebook_build.engine.search import Node, ProofSearch, SearchResult, root_node
from rulebook_build.engine.tables.endgame import EndgameTables
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn
from rulebook_build.notation.replay import move_notation, replay
from rulebook_build.rules import INTERNATIONAL, Move, Position
from rulebook_build.rules.movegen import State


@pytest.fixture(scope="module")
def tables() -> CheckerTables:
    found = checker_tables(INTERNATIONAL)
    found.prepare_missing()
    return found


def judge(
    text: str, tables: CheckerTables | None, seconds: float = 5.0, *, python_only: bool = False
) -> Judgement:
    games, errors = read_pdn(text, source="<test>")
    assert not errors
    position = parse_fen(games[0].fen or "", variant=INTERNATIONAL)
    prover = tables.prover() if tables is not None and not python_only else None
    return Judge(INTERNATIONAL, tables=tables, prover=prover).judge(
        games[0], position, seconds=seconds
    )


def move(position: Position, notation: str) -> Move:
    (found,) = [m for m in position.legal_moves() if move_notation(position, m) == notation]
    return found


def play(position: Position, *notations: str) -> Position:
    for notation in notations:
        position = position.play(move(position, notation))
    return position


def problem(fen: str, moves: str) -> str:
    return f'[SetUp "1"]\n[FEN "{fen}"]\n\n{moves} *\n'


COOK_KEY = problem("W:W12,18:B9,25", "1. 12-7 9-13 2. 18x9")
COOK_IN_LINE = problem("W:W15,38:B16,31", "1. 15-10 31-36 2. 10-4")
AFTER_THE_END = problem("W:W15,38:B16,31", "1. 15-10 31-36")
IN_A_VARIATION = problem("W:W12,13:B23,24", "1. 13-9 23-28 (1... 24-29 2. 9-3) 2. 9-4")
UNPUBLISHED_DEVIATION = problem("W:W12,13:B23,24", "1. 13-9 23-28 2. 9-4")
LANDING = problem("W:W14,30,40:B13,28,35", "1. 40-34 35x24 2. 14-10 13-18 3. 10-4 18-22 4. 4x27")
STOPS_A_COOK = problem("W:W12,18:B4,9,25", "1. 12-7 9-13 2. 18x9")
IDLE = problem("W:W17,30,38:B6,20,22,28", "1. 30-25 22x11 2. 25x14")


def test_a_second_winning_key_is_a_cook_with_its_line(tables: CheckerTables) -> None:
    judgement = judge(COOK_KEY, tables)
    assert judgement.grade == "incorrect" and judgement.verdict == "unsound"
    assert judgement.criteria["C"].status == "fail"
    (cook,) = judgement.cooks
    assert cook.key == "12-8" and cook.line[0] == "12-8" and len(cook.line) >= 3
    assert cook.combination is False  # a man walking to the crown sacrifices nothing
    assert judgement.as_json()["cooks"] == [cook.as_json()]


def test_a_second_winning_move_inside_the_combination_is_a_cook(tables: CheckerTables) -> None:
    judgement = judge(COOK_IN_LINE, tables)
    assert judgement.grade == "incorrect"
    (dual,) = [d for d in judgement.duals if d.level == "fail"]
    assert dual.kind == "cook" and dual.on_main
    assert dual.after == ("15-10", "31-36") and set(dual.moves) == {"10-4", "10-5"}
    assert judgement.criteria["C"].status == "fail"
    assert "cook in the combination" in judgement.criteria["C"].detail
    assert judgement.criteria["G"].status == "fail"  # no Black capture: all is final phase
    assert judgement.summary().startswith("incorrect: C cook in the combination")


def test_the_same_dual_after_the_composers_last_move_does_not_count(
    tables: CheckerTables,
) -> None:
    judgement = judge(AFTER_THE_END, tables)
    assert judgement.grade == "correct"
    assert all(dual.level == "info" for dual in judgement.duals)
    assert judgement.criteria["C"].status == "pass"
    assert judgement.criteria["F"].status == "pass"  # the end is still a proved win


def test_a_dual_in_a_published_variation_is_a_remark(tables: CheckerTables) -> None:
    judgement = judge(IN_A_VARIATION, tables)
    assert judgement.grade == "correct with remarks" and judgement.verdict == "sound"
    (dual,) = judgement.duals
    assert dual.kind == "variation" and dual.level == "remark" and not dual.on_main
    assert dual.after == ("13-9", "24-29") and dual.moves[0] == "9-3"  # the composer's first
    assert judgement.criteria["C"].status == "remark"
    assert judgement.criteria["G"].status == "remark"
    record = judgement.as_json()
    assert record["grade"] == "correct with remarks" and record["verdict"] == "sound"
    assert record["duals"] == [
        {
            "after": "13-9 24-29",
            "moves": list(dual.moves),
            "kind": "variation",
            "level": "remark",
            "on_main": False,
        }
    ]


def test_the_same_dual_after_an_unpublished_black_deviation_is_information(
    tables: CheckerTables,
) -> None:
    judgement = judge(UNPUBLISHED_DEVIATION, tables)
    assert judgement.grade == "correct"
    kinds = {(dual.after, dual.kind, dual.level) for dual in judgement.duals}
    assert (("13-9", "24-29"), "deviation", "info") in kinds


def test_another_landing_square_of_the_same_capture_is_information(
    tables: CheckerTables,
) -> None:
    judgement = judge(LANDING, tables)
    assert judgement.grade == "correct"
    landing = [dual for dual in judgement.duals if dual.kind == "landing"]
    assert landing and landing[0].moves[0] == "4x27"
    assert set(landing[0].moves) == {"4x27", "4x31", "4x36"} and landing[0].level == "info"


def test_a_move_that_transposes_back_into_the_solution_is_information() -> None:
    # 31-26 5-10 32-27 is the solution; 32-27 first comes back to it after 5-10 31-26
    start = Position.from_squares(white_men=[31, 32], black_men=[5])
    targets = frozenset({play(start, "31-26", "5-10", "32-27").state()})
    assert transposes(INTERNATIONAL, play(start, "32-28").state(), targets) is False
    assert transposes(INTERNATIONAL, play(start, "32-27").state(), targets) is True


def test_a_transposition_is_looked_for_three_plies_deep_against_every_reply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 32-27 first: after 5-10 31-26, Black's 10-14 and 10-15 both lead into the tree
    start = Position.from_squares(white_men=[31, 32], black_men=[5])
    line = play(start, "31-26", "5-10", "32-27")
    after_14, after_15 = play(line, "10-14").state(), play(line, "10-15").state()
    moved = play(start, "32-27").state()
    assert transposes(INTERNATIONAL, moved, frozenset({after_14, after_15})) is True
    # one Black reply that stays out is enough to keep it out; White needs only one way in
    assert transposes(INTERNATIONAL, moved, frozenset({after_14})) is False
    # a count of the moves generated, not time: 7 are just enough to get there, 6 are not
    monkeypatch.setattr(analysis, "TRANSPOSE_NODES", 7)
    assert transposes(INTERNATIONAL, moved, frozenset({after_14, after_15})) is True
    monkeypatch.setattr(analysis, "TRANSPOSE_NODES", 6)
    assert transposes(INTERNATIONAL, moved, frozenset({after_14, after_15})) is False


def test_each_kind_of_second_move_by_where_it_is_played() -> None:
    start = Position.from_squares(white_men=[31, 32], black_men=[5])
    targets = frozenset({play(start, "31-26", "5-10", "32-27").state()})
    walker = SolutionWalker(INTERNATIONAL, ProofSearch(INTERNATIONAL), targets, Clock(1.0))
    chosen, again, other = move(start, "31-26"), move(start, "32-27"), move(start, "32-28")
    assert walker._kind(start, again, chosen, "main") == "transposition"
    assert walker._kind(start, other, chosen, "main") == "cook"
    assert walker._kind(start, other, chosen, "variation") == "variation"
    assert walker._kind(start, other, chosen, "forced") == "variation"
    assert walker._kind(start, again, chosen, "deviation") == "deviation"
    landing = play(
        parse_fen("W:W14,30,40:B13,28,35"), "40-34", "35x24", "14-10", "13-18", "10-4", "18-22"
    )
    first = move(landing, "4x27")
    assert walker._kind(landing, move(landing, "4x31"), first, "main") == "landing"
    assert [LEVEL[kind] for kind in DUAL_KINDS] == ["fail", "remark", "info", "info", "info"]


def test_the_published_tree_is_read_move_by_move_with_its_variations() -> None:
    games, errors = read_pdn(IN_A_VARIATION, source="<test>")
    assert not errors
    main = replay(games[0], variant=INTERNATIONAL).main
    start = main.start
    # 1. 13-9 23-28 (1... 24-29 2. 9-3) 2. 9-4: every position, the start and the variation's
    states = published_states(start, main)
    assert start.state() in states
    assert play(start, "13-9", "24-29", "9-3").state() in states
    assert play(start, "13-9", "23-28", "9-4").state() in states
    # after 13-9: Black's main move, the variation's first move, and a reply of neither
    cursor = _Cursor(main, 1)
    after_key = play(start, "13-9")
    assert cursor.expected() == move(after_key, "23-28")
    assert cursor.after(move(after_key, "23-28")) == _Cursor(main, 2)
    (variation,) = main.moves[1].variations
    assert cursor.after(move(after_key, "24-29")) == _Cursor(variation, 1)
    assert cursor.after(move(after_key, "24-30")) is None


def test_a_black_side_without_a_move_is_no_transposition() -> None:
    stuck = Position.from_squares(white_men=[46, 47], black_men=[41], white_to_move=False)
    assert not stuck.legal_moves()
    assert transposes(INTERNATIONAL, stuck.state(), frozenset()) is False


def test_the_end_of_the_problem_is_a_matter_of_material_only() -> None:
    men_against_men = Position.from_squares(white_men=[31, 32, 33], black_men=[5, 6, 7])
    assert ended(men_against_men, 6) is None
    two_ahead = Position.from_squares(white_men=[31, 32, 33, 34], black_men=[5, 6])
    assert ended(two_ahead, 8) == "two pieces ahead"
    king = Position.from_squares(white_men=[31, 32], white_kings=[3], black_men=[5, 6, 7])
    assert ended(king, 8) == "king against no king"
    behind = Position.from_squares(white_men=[31], white_kings=[3], black_men=[5, 6, 7])
    assert ended(behind, 8) is None  # a king, but behind: the problem goes on
    small = Position.from_squares(white_men=[31, 32], black_men=[5, 6])
    assert ended(small, 6) == "small ending"
    assert ended(small, 4) is None  # a problem of four pieces is not over at once


def test_a_cook_line_is_a_combination_when_white_gives_and_takes_more() -> None:
    start = Position.from_squares(white_men=[25, 30], black_men=[10, 29])
    line = ["30-24", "29x20", "25x5"]  # White gives one man and takes two
    moves = [move(play(start, *line[:i]), notation) for i, notation in enumerate(line)]
    assert is_combination(start, moves) is True
    assert is_combination(start, moves[:2]) is False  # given, not yet taken back
    quiet = Position.from_squares(white_men=[15, 38], black_men=[16, 31])
    assert is_combination(quiet, [move(quiet, "15-10")]) is False


def test_what_black_took_is_added_up_over_the_line() -> None:
    # Black takes one, then one more: White's two back only restore the balance
    start = Position.from_squares(
        white_men=[15, 29, 31], black_men=[13, 14, 24, 26, 30], white_to_move=False
    )
    line = ["24x33", "15-10", "26x37", "10x8"]
    moves = [move(play(start, *line[:i]), notation) for i, notation in enumerate(line)]
    assert [len(m.captured_set) for m in moves] == [1, 0, 1, 2]
    assert is_combination(start, moves) is False


def test_a_man_that_stops_a_cook_has_a_purpose(tables: CheckerTables) -> None:
    judgement = judge(STOPS_A_COOK, tables)
    assert judgement.winning_keys == ["12-7"]
    # without the black man on 4 the key still wins, but so does 12-8 (COOK_KEY): the man
    # is needed, though the old rule ("the solution works without it") called it idle
    without_4 = judge(COOK_KEY, tables)
    assert without_4.solution.key_wins is True and "12-8" in without_4.winning_keys
    assert judgement.criteria["D"].status == "pass"
    assert judgement.grade == "correct"


def test_a_man_that_changes_nothing_is_idle(tables: CheckerTables) -> None:
    judgement = judge(IDLE, tables)
    assert judgement.criteria["D"].status == "fail"
    assert judgement.criteria["D"].args["men"] == [["black", 6]]
    assert judgement.grade == "incorrect"


def three_piece_tables() -> CheckerTables:
    """Tables of at most three pieces (what a machine without a C compiler builds)."""
    return CheckerTables(
        *(EndgameTables(INTERNATIONAL, max_pieces=3, semantics=kind) for kind in ("pure", "rules"))
    )


@pytest.mark.parametrize("text", [COOK_KEY, COOK_IN_LINE, AFTER_THE_END, LANDING, STOPS_A_COOK])
def test_the_grade_does_not_depend_on_the_tables(text: str, tables: CheckerTables) -> None:
    """The same grade and the same faults and remarks with the tables 'check' builds (four
    pieces, compiled search), with three-piece tables and with none (Python search), wherever
    the judgement is decided; at least two of the three decide every one of these (IN_A_VARIATION
    and IDLE only the first: without four-piece tables their king endings stay open).  The
    Python search gets 60 s with three-piece tables, which each of these settles in 1 to 7 s
    here (COOK_IN_LINE 9 s beside a table build): a judgement ends as soon as it is decided,
    and the wide margin keeps it decided on a machine busy with other tests."""
    judgements = [
        judge(text, tables),
        judge(text, three_piece_tables(), seconds=60.0, python_only=True),
        judge(text, None),
    ]
    decided = [j for j in judgements if j.grade != "undecided"]
    assert len(decided) >= 2
    first = decided[0]
    for other in decided[1:]:
        assert other.grade == first.grade
        assert [c.key for c in other.cooks] == [c.key for c in first.cooks]
        # every criterion settled in both says the same (the message, not its text: the
        # winning line shown for a cook is the search's own)
        for name, criterion in first.criteria.items():
            twin = other.criteria[name]
            if "undecided" not in (criterion.status, twin.status):
                assert (twin.status, twin.message, twin.args if name == "D" else None) == (
                    criterion.status,
                    criterion.message,
                    criterion.args if name == "D" else None,
                ), name
        if first.criteria["C"].status != "undecided" and other.criteria["C"].status != "undecided":
            assert [(d.after, d.kind) for d in other.duals if d.level != "info"] == [
                (d.after, d.kind) for d in first.duals if d.level != "info"
            ]


def test_the_report_puts_faults_first_and_lists_every_dual_with_its_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "problem.pdn"
    path.write_text(COOK_IN_LINE, encoding="utf-8")
    assert main(["check", "--table-pieces", "4", "--duals", "--time-limit", "5", str(path)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].startswith("  grade: INCORRECT")
    assert lines[2].startswith("  summary: incorrect: C cook in the combination")
    faults = lines.index("  faults:")
    assert lines[faults + 1].startswith("    C: cook in the combination")
    assert "    [fail cook] after 15-10 31-36: 10-4 / 10-5" in lines
    assert main(["check", "--table-pieces", "4", "--json", "--time-limit", "5", str(path)]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["grade"] == "incorrect" and record["verdict"] == "unsound"
    assert record["summary"].startswith("incorrect: C cook in the combination")


def test_the_clock_of_a_judgement_counts_down_on_its_timer() -> None:
    work = Work()  # counted work, set by hand here
    clock = Clock(2.0, work)
    assert (clock.now(), clock.left(), clock.share(0.25)) == (0.0, 2.0, 0.5)
    assert clock.budget(0.3) == pytest.approx(0.6)
    assert clock.budget(0.01) == 0.05  # at least enough for a short search
    work.spent = 1.5
    assert clock.left() == 0.5 and clock.share(0.5) == 0.25
    work.spent = 1.98
    assert clock.budget(0.5) == pytest.approx(0.02)  # never past the end
    work.spent = 3.0
    assert clock.left() == 0.0 and clock.budget(0.5) == 0.0


# ------------------------------------------------------------------ settling the open moves
@dataclass
class Scripted:
    """A proof search that gives each node the verdicts of a script, one per question, and
    spends a tenth of the seconds it is given on the judgement's work timer."""

    timer: Work
    answers: dict[object, list[str]]
    asked: list[tuple[object, float]] = field(default_factory=list)

    def prove(self, node: object, *, seconds: float) -> SearchResult:
        self.asked.append((node, seconds))
        self.timer.spent += seconds / 10
        return SearchResult(self.answers[node].pop(0), 1, seconds)  # type: ignore[arg-type]


def open_turn(answers: dict[str, list[str]]) -> tuple[SolutionWalker, Scripted, list[object]]:
    """A walker with one White turn (31-26 chosen, 32-27 and 32-28 open), ten seconds of work
    on its clock, and a search that answers the open moves from ``answers``."""
    start = Position.from_squares(white_men=[31, 32], black_men=[5])
    work = Work()
    nodes = {n: root_node(INTERNATIONAL, play(start, n).state()) for n in answers}
    search = Scripted(work, {nodes[n]: list(v) for n, v in answers.items()})
    walker = SolutionWalker(INTERNATIONAL, search, frozenset(), Clock(10.0, work))  # type: ignore[arg-type]
    chosen = move(start, "31-26")
    turn = analysis._Turn(start, (), "main", chosen, [chosen])
    turn.open = [(move(start, n), nodes[n]) for n in answers]
    walker._turns.append(turn)
    return walker, search, list(nodes.values())


def test_settling_shares_the_time_left_among_the_open_moves_and_records_what_it_settles() -> None:
    walker, search, (n27, n28) = open_turn({"32-27": ["proved"], "32-28": ["refuted"]})
    walker.settle(until=4.0)
    # the four seconds to the end shared between the two: 2.0 each (the first spends 0.2)
    assert search.asked == [(n27, pytest.approx(2.0)), (n28, pytest.approx(3.8))]
    (turn,) = walker._turns
    assert turn.open == []
    assert [move_notation(turn.position, m) for m in turn.winners] == ["31-26", "32-27"]
    assert walker.result.duals == [Dual((), ("31-26", "32-27"), "cook", on_main=True)]
    assert walker.result.open_moves == 0 and walker.result.open_list == []


def test_a_move_that_stays_open_is_asked_once_a_pass() -> None:
    walker, search, (n27, n28) = open_turn(
        {"32-27": ["undecided"] * analysis.SETTLE_PASSES, "32-28": ["refuted"]}
    )
    walker.settle(until=100.0)  # the clock's ten seconds end first
    assert [node for node, _ in search.asked] == [n27, n28] + [n27] * (analysis.SETTLE_PASSES - 1)
    # each question has the time left shared among the questions of its pass still to come
    assert [seconds for _, seconds in search.asked] == pytest.approx([5.0, 9.5, 8.55, 7.695])
    assert walker.result.open_moves == 1
    assert [o.line for o in walker.result.open_list] == [("32-27",)]
    assert walker.result.duals == []


@pytest.mark.parametrize(
    ("until", "seconds"),
    [
        (0.05, []),  # a twentieth of a second left: nothing is asked
        (0.06, [0.06, 0.054]),  # never past the end, though a walk's move gets 0.5 s
        (1.0, [0.5, 0.95]),  # at least 0.5 s (WALK_MOVE_SECONDS), then what is left
    ],
)
def test_settling_stops_when_no_more_than_a_twentieth_of_a_second_is_left(
    until: float, seconds: list[float]
) -> None:
    walker, search, _nodes = open_turn({"32-27": ["refuted"], "32-28": ["refuted"]})
    walker.settle(until=until)
    assert [given for _node, given in search.asked] == pytest.approx(seconds)


# ------------------------------------------------------------------ the walk, with verdicts given
class Given(ProofSearch):
    """A proof search whose verdicts the test gives: ``answers`` of the position after each
    White move asked about, by a line of moves to it (``lines``, from ``lines_of``), else
    ``default``; each question spends ``cost`` seconds of work."""

    def __init__(
        self,
        answers: dict[tuple[str, ...], str],
        timer: Work,
        cost: float,
        default: str = "refuted",
    ) -> None:
        super().__init__(INTERNATIONAL, timer=timer)
        self.answers = answers
        self.cost = cost
        self.default = default
        self.lines: dict[State, list[tuple[str, ...]]] = {}
        self.asked: list[float] = []

    def prove(self, node: Node, *, seconds: float, node_limit: int | None = None) -> SearchResult:
        self.asked.append(seconds)
        self.timer.spent += self.cost  # type: ignore[attr-defined]
        answer = answer_by_line(self.lines.get(node[0], []), self.answers, self.default)
        return SearchResult(answer, 1, 0.0)  # type: ignore[arg-type]


Line = TypeVar("Line", str, tuple[str, ...])


def lines_of(position: Position, plies: int) -> dict[State, list[tuple[str, ...]]]:
    """The lines of up to ``plies`` moves from ``position`` that lead to each position, by its
    state, breadth first and in move order."""
    found: dict[State, list[tuple[str, ...]]] = {}
    level: list[tuple[Position, tuple[str, ...]]] = [(position, ())]
    for _ply in range(plies):
        level = [
            (before.play(move), (*line, move_notation(before, move)))
            for before, line in level
            for move in before.legal_moves()
        ]
        for after, line in level:
            found.setdefault(after.state(), []).append(line)
    return found


def answer_by_line(lines: list[Line], answers: dict[Line, str], default: str) -> str:
    """The answer given for the first of ``lines`` (the lines to one position) that has one."""
    return next((answers[line] for line in lines if line in answers), default)


@pytest.mark.parametrize("until", [5.0, 0.0])
def test_the_deviations_are_walked_for_information_only(until: float) -> None:
    """A line where Black deviated from the published tree is walked when the rest is done, and
    what stays open there leaves nothing undecided: not C, not the walk (``complete``)."""
    position = parse_fen("W:W31,32:B5,6")
    work = Work()
    walker = SolutionWalker(
        INTERNATIONAL, Given({}, work, 0.0, "undecided"), frozenset(), Clock(10.0, work)
    )
    walker.start_pieces = 4
    walker.result.deviations = [(root_node(INTERNATIONAL, position.state()), position, ("x",))]
    walker.walk_deviations(until)
    assert walker.result.positions == (1 if until else 0)  # until the deadline given
    assert walker.result.deviations == []
    assert walker.result.undecided == 0 and walker.result.open_moves == 0
    assert walker.result.open_list == [] and walker.result.complete is True
    assert walker.result.stopped is None


WALKED = problem("W:W12,18:B9,25", "1. 12-7 9-13 2. 18x9")
"""White's first turn: 12-7 (the key), 12-8 and 18-13; Black then has 9-13, 9-14, 25-30."""


def given_walk(
    answers: dict[tuple[str, ...], str],
    seconds: float = 10.0,
    deadline: float | None = None,
    cost: float = 0.01,
    text: str = WALKED,
    default: str = "refuted",
) -> tuple[SolutionWalker, Given, Position, dict[str, Node]]:
    """Walk ``text`` (WALKED unless given) with the verdicts ``answers`` (by the line of moves to
    the position asked about, up to three plies deep; ``default`` where none is given).  Returns
    the walker, the search, the start position and the nodes after each first move."""
    games, errors = read_pdn(text, source="<test>")
    assert not errors
    replayed = replay(games[0], variant=INTERNATIONAL)
    start = parse_fen(games[0].fen or "")
    work = Work()
    search = Given(answers, work, cost, default)
    root = root_node(INTERNATIONAL, start.state())
    search.lines = lines_of(start, 3)
    firsts = {search.lines[child[0]][0][0]: child for _raw, child in search.expand(root)}
    walker = SolutionWalker(
        INTERNATIONAL,
        search,
        published_states(start, replayed.main),
        Clock(seconds, work),
        deadline=deadline,
    )
    walker.walk(root, start, replayed.main)
    return walker, search, start, firsts


def test_open_moves_of_a_turn_with_a_win_are_listed_with_their_lines() -> None:
    answers: dict[tuple[str, ...], str] = {
        ("12-7",): "proved",
        ("12-8",): "undecided",
        ("18-13",): "undecided",
    }
    answers[("12-7", "9-13", "18x9")] = "proved"
    walker, _search, start, firsts = given_walk(answers)
    result = walker.result
    assert result.complete and result.undecided == 0 and result.stopped is None
    assert result.open_moves == 2 and result.unsettled == 2
    assert result.open_list == [
        OpenMove(("12-8",), start, move(start, "12-8"), firsts["12-8"]),
        OpenMove(("18-13",), start, move(start, "18-13"), firsts["18-13"]),
    ]
    # the positions of the published tree walked: the start, after 12-7, after 9-13
    assert result.positions == 3
    # Black's other replies to 12-7 are deviations, each kept for later with its line
    assert [line for _node, _position, line in result.deviations] == [
        ("12-7", "25-30"),
        ("12-7", "9-14"),
    ]


def test_a_turn_with_no_move_proved_is_undecided_and_each_move_listed() -> None:
    answers: dict[tuple[str, ...], str] = {
        ("12-7",): "undecided",
        ("12-8",): "undecided",
        ("18-13",): "refuted",
    }
    walker, _search, start, firsts = given_walk(answers)
    result = walker.result
    assert result.undecided == 2 and result.open_moves == 0 and result.unsettled == 2
    assert result.open_list == [
        OpenMove(("12-7",), start, move(start, "12-7"), firsts["12-7"]),
        OpenMove(("12-8",), start, move(start, "12-8"), firsts["12-8"]),
    ]
    assert result.positions == 1  # the walk does not go past that turn


WON = {("12-7",): "proved", ("12-7", "9-13", "18x9"): "proved"}


@pytest.mark.parametrize(
    ("seconds", "complete"),
    [
        (0.05, False),  # a twentieth of a second left: no time to walk
        (0.06, True),
        (1.0, True),
    ],
)
def test_the_walk_needs_more_than_a_twentieth_of_a_second(seconds: float, complete: bool) -> None:
    walker, _search, start, _firsts = given_walk(WON, seconds, cost=0.0)
    assert walker.result.complete is complete
    root = root_node(INTERNATIONAL, start.state())
    assert walker.result.stopped == (None if complete else OpenMove((), start, None, root))
    assert walker.result.positions == (3 if complete else 0)


def test_the_walk_stops_at_its_deadline_and_says_where() -> None:
    # a deadline already reached: nothing is asked, the walk stops at the start
    walker, search, start, _firsts = given_walk(WON, deadline=0.0)
    root = root_node(INTERNATIONAL, start.state())
    assert search.asked == [] and walker.result.complete is False
    assert walker.result.stopped == OpenMove((), start, None, root)
    # reached after the first turn's three questions: stopped after 12-7, each question given
    # no more than the time to the deadline
    walker, search, start, _firsts = given_walk(WON, deadline=0.025)
    assert search.asked == pytest.approx([0.025, 0.015, 0.005])
    stopped = walker.result.stopped
    assert walker.result.complete is False and stopped is not None
    assert (stopped.line, stopped.position, stopped.move) == (
        ("12-7",),
        start.play(move(start, "12-7")),
        None,
    )
    # time enough: every question gets the deadline's time left, at most half a second
    walker, search, _start, _firsts = given_walk(WON, deadline=0.05)
    assert walker.result.complete is True
    assert search.asked == pytest.approx([0.05, 0.04, 0.03, 0.02])
    walker, search, _start, _firsts = given_walk(WON, deadline=3.0)
    assert search.asked == pytest.approx([analysis.WALK_MOVE_SECONDS] * 4)


def test_a_turn_with_several_second_moves_shows_the_most_severe_kind() -> None:
    """DUAL_KINDS runs from the most severe; a turn's dual takes the worst of its moves' kinds,
    not the first in the alphabet (a landing square and a variation's dual: a remark)."""
    start = Position.from_squares(white_men=[31, 32], black_men=[5])
    walker = SolutionWalker(INTERNATIONAL, ProofSearch(INTERNATIONAL), frozenset(), Clock(1.0))
    chosen, landing, other = move(start, "31-26"), move(start, "31-27"), move(start, "32-28")
    turn = analysis._Turn(start, ("x",), "variation", chosen, [chosen])
    turn.kinds[landing] = "landing"  # as a capture landing elsewhere would be
    walker._win(turn, other)
    assert turn.kinds[other] == "variation"
    assert turn.dual == Dual(("x",), ("31-26", "32-28"), "variation", on_main=False)
    assert LEVEL[turn.dual.kind] == "remark"


def test_where_several_moves_win_the_walk_follows_the_composers() -> None:
    """12-7 comes first among White's moves, but the composer played 12-8: the walk goes on
    with 12-8 and calls 12-7 the second solution."""
    text = problem("W:W12,18:B9,25", "1. 12-8 9-13 2. 18x9")
    answers = {("12-7",): "proved", ("12-8",): "proved", ("12-8", "9-13", "18x9"): "proved"}
    walker, _search, _start, _firsts = given_walk(answers, text=text)
    assert walker.result.duals == [Dual((), ("12-8", "12-7"), "cook", on_main=True)]
    assert walker.result.positions == 3 and walker.result.complete
    assert [line for _n, _p, line in walker.result.deviations] == [
        ("12-8", "25-30"),
        ("12-8", "9-14"),
    ]


def test_a_deviation_is_walked_to_its_end_and_leaves_nothing_open() -> None:
    """Black's deviation 12-7 25-30 walked for information: Black's replies further on are
    walked at once (not set aside again), and a White move left open there is no open move."""
    walker, search, _start, _firsts = given_walk({("12-7",): "proved"})
    walked = walker.result.positions  # the published tree
    search.answers = {
        ("12-7", "25-30", "18-13"): "proved",
        ("12-7", "25-30", "7-2"): "undecided",
    }
    walker.walk_deviations(until=5.0)
    result = walker.result
    assert result.deviations == [] and result.open_moves == 0 and result.undecided == 0
    assert result.complete
    # more than each deviation's first White turn: the lines after 18-13 were walked too
    assert result.positions > walked + 2


def test_the_principal_line_follows_the_main_line_where_its_moves_are_proved() -> None:
    """12-7 and 12-8 both win W:W12,18:B9,25; the proof line takes the main line's move
    (12-8, then Black's 9-13) where it is proved, else the first proved or legal one."""
    start = parse_fen("W:W12,18:B9,25")
    search = ProofSearch(INTERNATIONAL)
    root = root_node(INTERNATIONAL, start.state())
    for _raw, child in search.expand(root):
        search.prove(child, seconds=10.0)
    assert search.is_proved(search.expand(root)[0][1])  # 12-7, the first move, wins too
    main = (move(start, "12-8"), move(play(start, "12-8"), "9-13"))
    line = [move_notation(p, m) for p, m in analysis.principal_line(search, root, start, main)]
    assert line[:2] == ["12-8", "9-13"]
    plain = [move_notation(p, m) for p, m in analysis.principal_line(search, root, start)]
    assert plain[0] == "12-7"
    assert len(list(analysis.principal_line(search, root, start, plies=3))) == 3


def test_an_open_move_in_a_published_variation_is_kept_open() -> None:
    """In the published variation 1. 12-7 25-30 2. 7-1, White's 18-13 stayed open: a win there
    would be a dual of the variation (a remark), so it is an open move of the walk."""
    text = problem("W:W12,18:B9,25", "1. 12-7 9-13 (1... 25-30 2. 7-1) 2. 18x9")
    answers = {
        ("12-7",): "proved",
        ("12-7", "9-13", "18x9"): "proved",
        ("12-7", "25-30", "7-1"): "proved",
        ("12-7", "25-30", "18-13"): "undecided",
    }
    walker, _search, _start, _firsts = given_walk(answers, text=text)
    result = walker.result
    assert [o.line for o in result.open_list] == [("12-7", "25-30", "18-13")]
    assert result.open_moves == 1 and result.undecided == 0
    assert [line for _n, _p, line in result.deviations] == [("12-7", "9-14")]


TWO_CAPTURES = "W:W15,16,31:B6,7,30,K43"
"""After 1. 16-11 Black must take, 6x17 or 7x16; White then has 15-10, 31-26 and 31-27."""
BOTH_WIN_AFTER_7X16: dict[tuple[str, ...], str] = {
    ("16-11",): "proved",
    ("16-11", "6x17", "15-10"): "proved",
    ("16-11", "7x16", "15-10"): "proved",
    ("16-11", "7x16", "31-26"): "proved",
}


def test_a_black_capture_the_composer_left_out_is_walked_as_forced() -> None:
    """Black takes 6x17 in the solution; 7x16 is Black's only other move and a capture too, so
    it is no choice of Black's: its line is walked (not set aside as a deviation) and a second
    winning move there is a dual of a forced line, a remark."""
    text = problem(TWO_CAPTURES, "1. 16-11 6x17 2. 15-10")
    walker, _search, _start, _firsts = given_walk(BOTH_WIN_AFTER_7X16, text=text)
    result = walker.result
    assert result.duals == [Dual(("16-11", "7x16"), ("15-10", "31-26"), "variation", on_main=False)]
    assert LEVEL["variation"] == "remark"
    assert ("16-11", "7x16") not in [line for _n, _p, line in result.deviations]


def test_in_a_deviation_every_line_stays_a_deviation_captures_too() -> None:
    """Walked for information (a line Black chose to leave the published tree by), Black's
    captures keep it a deviation: a second winning move there is information only."""
    text = problem(TWO_CAPTURES, "1. 15-10")  # the tree is not walked here: only its clock
    walker, search, start, firsts = given_walk({}, text=text)
    search.answers = BOTH_WIN_AFTER_7X16
    after = play(start, "16-11")
    walker.result.deviations = [(firsts["16-11"], after, ("16-11",))]
    walker.walk_deviations(until=5.0)
    assert walker.result.duals == [
        Dual(("16-11", "7x16"), ("15-10", "31-26"), "deviation", on_main=False)
    ]


FALSE_KEY = "W:W19,30,36:B7,12,37,K44"
"""1. 36-31 wins (given below), Black's only move is 37x26, then 19-13 and 30-24 both win."""
AFTER_36_31: dict[tuple[str, ...], str] = {
    ("36-31",): "proved",
    ("36-31", "37x26", "19-13"): "proved",
    ("36-31", "37x26", "30-24"): "proved",
}


@pytest.mark.parametrize(
    ("moves", "dual"),
    [
        # the composer's 19-13 does not win: the walk goes on with 36-31, a line of the
        # false solution, forced (C fails already), where a dual is only a remark
        ("1. 19-13 7-11", ("19-13", "30-24")),
        # 36-31 is the composer's variation: a dual there is a remark
        ("1. 19-13 (1. 36-31 37x26 2. 30-24) 1... 7-11", ("30-24", "19-13")),
    ],
)
def test_after_a_white_move_off_the_main_line_a_dual_is_a_remark(
    moves: str, dual: tuple[str, ...]
) -> None:
    walker, _search, _start, _firsts = given_walk(AFTER_36_31, text=problem(FALSE_KEY, moves))
    assert walker.result.duals == [Dual(("36-31", "37x26"), dual, "variation", on_main=False)]


def test_every_turn_with_no_move_proved_adds_its_open_moves() -> None:
    """Two White turns of the published tree where nothing was proved: after 1... 9-13 (2. 18x9,
    White's only move) and in the variation 1... 25-30 (four moves): each open move counts."""
    text = problem("W:W12,18:B9,25", "1. 12-7 9-13 (1... 25-30 2. 7-1) 2. 18x9")
    answers: dict[tuple[str, ...], str] = {
        ("12-7",): "proved",
        ("12-8",): "refuted",
        ("18-13",): "refuted",
    }
    walker, _search, _start, _firsts = given_walk(answers, text=text, default="undecided")
    result = walker.result
    assert result.undecided == 5 and result.open_moves == 0
    assert [o.line for o in result.open_list] == [
        ("12-7", "9-13", "18x9"),
        ("12-7", "25-30", "7-1"),
        ("12-7", "25-30", "18-12"),
        ("12-7", "25-30", "7-2"),
        ("12-7", "25-30", "18-13"),
    ]


def test_another_landing_square_left_open_is_not_an_open_move() -> None:
    """White must take: the king 45x7 (the key) or 45x1, the same capture landing elsewhere
    (information at most), or the man 35x24.  Left open, only 35x24 could be a cook."""
    text = problem("W:WK45,35:BK30,6,12,44", "1. 45x7")
    answers: dict[tuple[str, ...], str] = {
        ("45x7",): "proved",
        ("45x1",): "undecided",
        ("35x24",): "undecided",
    }
    walker, _search, _start, _firsts = given_walk(answers, text=text)
    assert [o.line for o in walker.result.open_list] == [("35x24",)]
    assert walker.result.open_moves == 1 and walker.result.duals == []
