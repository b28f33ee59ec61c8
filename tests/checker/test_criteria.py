"""Each criterion of the Problemistenwedstrijd, on problems that pass it and problems that fail it.

The unsound problems are in tests/checker/problems/unsound.pdn; the sound reference is the
PWCP-2 problem A3 (a five-against-five combination ending with Black unable to move).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from rulebook_build.checker.analysis import LEVEL, Clock, Dual, TreeWalk
from rulebook_build.checker.criteria import Problem, second
from rulebook_build.checker.criteria import idle as idle_module
from rulebook_build.checker.criteria.final import criterion_f, criterion_g
from rulebook_build.checker.criteria.idle import D_SHARE, IdleMen, without
from rulebook_build.checker.criteria.second import criterion_c, criterion_e, find_cooks
from rulebook_build.checker.criteria.start import start_criteria, white_ahead
from rulebook_build.checker.grade import Cook, Criterion
from rulebook_build.checker.judge import Judge, Judgement
from rulebook_build.checker.legality import check_reachable
from rulebook_build.checker.opinion import Question
from rulebook_build.engine.budget import Work
from rulebook_build.engine.search import Node, ProofSearch, SearchResult, root_node
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn, read_pdn_file
from rulebook_build.notation.replay import ReplayedGame, move_notation, replay
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position, Variant
from rulebook_build.rules.movegen import State
from rulebook_build.rules.position import to_move
from tests.checker.test_duals import answer_by_line, lines_of

UNSOUND = Path(__file__).with_name("problems") / "unsound.pdn"
ENDINGS = ("refuted later", "a line ending", "idle man", "a second winning move")

A3 = """[Event "PWCP-2 A3"]
[SetUp "1"]
[FEN "W:W6,11,18,22,28:B17,32,36,37,43"]

1. 6-1 32x12 2. 1x31 36x18 3. 11x13 *
"""


def judge_text(text: str, seconds: float = 3.0, *, by_work: bool = False) -> Judgement:
    games, errors = read_pdn(text, source="<test>")
    assert not errors
    return judge_game(games[0], seconds, by_work=by_work)


def judge_game(
    game: object,
    seconds: float = 3.0,
    tables: CheckerTables | None = None,
    *,
    by_work: bool = False,
) -> Judgement:
    position = parse_fen(game.fen, variant=INTERNATIONAL)  # type: ignore[attr-defined]
    judge = Judge(INTERNATIONAL, tables=tables)
    return judge.judge(game, position, seconds=seconds, by_work=by_work)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def unsound() -> dict[str, Judgement]:
    """Each unsound problem judged by the search alone, but those whose lines run into endings:
    they are judged with the checker's endgame tables, as 'rulebook check' judges them (the
    search alone would need far more than a test's seconds)."""
    games, errors = read_pdn_file(UNSOUND)
    assert not errors
    tables = checker_tables(INTERNATIONAL)
    # counted in work, not wall time: on a machine busy with other tests, 3 s of wall time
    # once left the cook's A undecided
    return {
        str(game.tag("Event")): judge_game(
            game,
            tables=tables if str(game.tag("Event")).startswith(ENDINGS) else None,
            by_work=True,
        )
        for game in games
    }


def find(judgements: dict[str, Judgement], prefix: str) -> Judgement:
    (found,) = [j for name, j in judgements.items() if name.startswith(prefix)]
    return found


@pytest.fixture(scope="module")
def a3() -> Judgement:
    # 3 s counted in work (3 * budget.PYTHON_RATE positions of the Python search, 30,000 now),
    # not wall time: on a machine busy with other tests, 3 s of wall time once left A
    # undecided after 5,763 positions
    return judge_text(A3, by_work=True)


def test_a_pass_the_win_is_proved_with_the_published_key(a3: Judgement) -> None:
    assert a3.white_wins == "proved"
    assert a3.winning_keys == ["6-1"]
    assert a3.criteria["A"].status == "pass"
    assert a3.solution.legal and a3.solution.key == "6-1" and a3.solution.key_wins is True
    assert a3.proof_line[:5] == ["6-1", "32x12", "1x31", "36x18", "11x13"]


def test_a_fail_white_cannot_move(unsound: dict[str, Judgement]) -> None:
    judgement = find(unsound, "White cannot move")
    assert judgement.white_wins == "refuted"
    assert judgement.criteria["A"].status == "fail"
    assert judgement.verdict == "unsound"
    assert judgement.solution.legal is False


def test_b_pass_on_a_fair_start(a3: Judgement) -> None:
    for name in ("B1", "B2", "B3", "B4"):
        assert a3.criteria[name].status == "pass", name
    assert "not proven reachable" in a3.criteria["B1"].detail


def test_b1_fail_black_had_no_last_move(unsound: dict[str, Judgement]) -> None:
    judgement = find(unsound, "unreachable")
    assert judgement.criteria["B1"].status == "fail"
    assert "no legal last move" in judgement.criteria["B1"].detail


def test_b1_fail_black_to_move_and_too_many_pieces() -> None:
    black_to_move = parse_fen("B:W31,32:B18,19")
    assert check_reachable(black_to_move).status == "fail"
    crowded = Position.from_squares(white_men=range(21, 51), black_men=[1, 2])
    report = check_reachable(crowded)
    assert report.status == "fail" and "30 pieces" in report.detail


def test_b2_b3_b4_fail(unsound: dict[str, Judgement]) -> None:
    judgement = find(unsound, "material advantage")
    assert judgement.criteria["B2"].status == "fail"
    assert judgement.criteria["B3"].status == "fail" and "50" in judgement.criteria["B3"].detail
    assert judgement.criteria["B4"].status == "fail" and "28x19" in judgement.criteria["B4"].detail


def test_c_fail_cook_lists_both_keys(unsound: dict[str, Judgement]) -> None:
    judgement = find(unsound, "cook")
    assert judgement.white_wins == "proved"
    assert set(judgement.winning_keys) == {"12-7", "12-8"}
    assert judgement.criteria["C"].status == "fail"
    assert "12-7" in judgement.criteria["C"].detail and "12-8" in judgement.criteria["C"].detail
    # the key the composer did not give is shown winning, with Black's replies
    (cook,) = set(judgement.winning_keys) - {judgement.solution.key}
    line = judgement.criteria["C"].detail.split("a line that wins: ")[1].split()
    assert line[0] == cook and len(line) >= 3
    assert judgement.verdict == "unsound"


def test_false_solution_shows_blacks_refutation(unsound: dict[str, Judgement]) -> None:
    judgement = find(unsound, "false solution")
    assert judgement.solution.key == "18-13"
    assert judgement.solution.key_wins is False
    assert judgement.solution.error is not None
    assert "Black refutes with 9x7" in judgement.solution.error
    assert judgement.verdict == "unsound"


def test_false_solution_names_the_first_black_move_that_goes_wrong(
    unsound: dict[str, Judgement],
) -> None:
    # 42-38 does not win, the solution's 14-19 holds for Black, but after 38-33 its 34-39 loses
    judgement = find(unsound, "refuted later")
    assert judgement.solution.key_wins is False
    error = judgement.solution.error or ""
    assert "42-38 does not win" in error
    assert "after 42-38 14-19 38-33 (the solution plays 34-39)" in error
    # the reply named instead really keeps White from winning, and the solution's does not
    refutation = error.split("Black refutes with ")[1].split()[0]
    line = "1. 42-38 14-19 2. 38-33 {} *"
    for reply, verdict in ((refutation, "refuted"), ("34-39", "proved")):
        games, _ = read_pdn(f'[FEN "W:W31,42:B14,34"]\n\n{line.format(reply)}\n')
        end = replay(games[0], variant=INTERNATIONAL).main.moves[-1].after
        node = root_node(INTERNATIONAL, end.state())
        search = ProofSearch(INTERNATIONAL, tables=checker_tables(INTERNATIONAL))
        assert search.prove(node, seconds=10).verdict == verdict


def test_false_solution_that_ends_where_white_does_not_win(
    unsound: dict[str, Judgement],
) -> None:
    judgement = find(unsound, "a line ending")
    assert judgement.solution.error == (
        "false solution: 42-38 does not win; the solution ends after 42-38 14-19, "
        "a position White does not win"
    )


def test_d_pass_and_fail(a3: Judgement, unsound: dict[str, Judgement]) -> None:
    assert a3.criteria["D"].status == "pass"
    idle = find(unsound, "idle man")
    assert idle.criteria["D"].status == "fail"
    assert idle.criteria["D"].detail.startswith("idle: black man on 6 (")
    assert idle.grade == "incorrect"


def test_e_pass_and_fail(a3: Judgement, unsound: dict[str, Judgement]) -> None:
    assert a3.criteria["E"].status == "pass"
    swapped = find(unsound, "interchangeable")
    assert swapped.criteria["E"].status == "fail"
    assert "34-29 and 12-7" in swapped.criteria["E"].detail


def test_f_pass_and_undecided_when_the_solution_stops_short(
    a3: Judgement, unsound: dict[str, Judgement]
) -> None:
    assert a3.criteria["F"].status == "pass"
    assert "cannot move" in a3.criteria["F"].detail
    stops_short = find(unsound, "false solution")
    assert stops_short.criteria["F"].status != "pass"


def test_f_fail_when_the_line_ends_in_a_position_white_cannot_win() -> None:
    text = """[SetUp "1"]
[FEN "W:W12,18:B9,25"]

1. 18-13 9x7 *
"""
    judgement = judge_text(text)  # 18-13 9x7 takes White's last two men
    assert judgement.criteria["F"].status == "fail"
    assert "Black wins" in judgement.criteria["F"].detail
    assert judgement.verdict == "unsound"


def test_g_fail_dual_in_the_final_phase(unsound: dict[str, Judgement]) -> None:
    judgement = find(unsound, "a second winning move")
    assert judgement.criteria["G"].status == "fail"
    assert "after 15-10 31-36: 10-4 / 10-5 all win" in judgement.criteria["G"].detail


def test_every_dual_is_kept_with_its_line_kind_and_level(unsound: dict[str, Judgement]) -> None:
    judgement = find(unsound, "a second winning move")
    assert judgement.duals
    assert all(dual.after and len(dual.moves) >= 2 for dual in judgement.duals)
    # the one that G reports is among them, and the JSON carries them all
    shown = judgement.criteria["G"].detail
    assert any(" ".join(d.after) in shown and " / ".join(d.moves) in shown for d in judgement.duals)
    record = judgement.as_json()["duals"]
    assert isinstance(record, list) and len(record) == len(judgement.duals)
    first = judgement.duals[0]
    assert record[0] == {
        "after": " ".join(first.after),
        "moves": list(first.moves),
        "kind": first.kind,
        "level": first.level,
        "on_main": first.on_main,
    }


def test_a_sound_verdict_is_never_given_while_something_is_open(a3: Judgement) -> None:
    statuses = {c.status for c in a3.criteria.values()}
    if "undecided" in statuses:
        assert a3.verdict == "undecided"
    else:
        assert a3.verdict == "sound"


def test_win_only_settles_the_win_and_leaves_the_rest_unexamined() -> None:
    games, errors = read_pdn(A3, source="<test>")
    assert not errors
    position = parse_fen(games[0].fen or "", variant=INTERNATIONAL)
    # counted in work, so that a loaded machine gives the same answer
    judgement = Judge(INTERNATIONAL).judge(
        games[0], position, seconds=3.0, full=False, by_work=True
    )
    assert judgement.white_wins == "proved"
    assert "6-1" in judgement.winning_keys
    assert judgement.solution.key_wins is True
    assert judgement.criteria["A"].status == "pass"
    for name in ("C", "D", "E", "F", "G"):
        assert judgement.criteria[name].status == "undecided", name
    # nothing unexamined is ever reported sound
    assert judgement.verdict == "undecided"


def test_a_first_move_settled_after_the_search_of_the_keys_counts_as_a_key() -> None:
    """The walk of the solution looks at White's other first moves too, and may settle one
    that the search of the keys left open in its share of the time (Cat.B1 289 at 120 s: 27-22,
    once reported as a 'cook in the combination after :' while A named one key). Such a move
    is then a winning key like the others, in A and among the cooks; one refuted since is no
    longer open."""
    position = parse_fen("W:W12,18:B9,25", variant=INTERNATIONAL)
    search = ProofSearch(INTERNATIONAL)
    root = root_node(INTERNATIONAL, position.state())
    children = {move_notation(position, to_move(raw)): child for raw, child in search.expand(root)}
    # as the walk would have left them: every first move settled in the search's table
    verdicts = {key: search.prove(child, seconds=30.0).verdict for key, child in children.items()}
    assert verdicts["12-7"] == verdicts["12-8"] == "proved"
    refuted = [key for key, verdict in verdicts.items() if verdict == "refuted"]
    assert refuted
    # the search of the keys had settled only the composer's
    keys = {key: "proved" if key == "12-7" else "undecided" for key in children}
    judgement = Judgement(source="<test>", event=None, variant="international", fen="")
    judgement.white_wins = "proved"
    judgement.winning_keys = ["12-7"]
    Judge(INTERNATIONAL)._keys_settled_since(search, position, root, keys, judgement)
    assert keys == verdicts
    assert judgement.winning_keys == [key for key in keys if verdicts[key] == "proved"]
    assert set(judgement.winning_keys) == {"12-7", "12-8"}
    assert "12-8" in judgement.criteria["A"].detail and "12-7" in judgement.criteria["A"].detail


# ------------------------------------------------------------------ B1: Black's last move


@pytest.mark.parametrize(
    ("fen", "last"),
    [
        # each position has exactly one legal last move of Black (quiet, or one capture)
        ("W:W10:B14", "9-14"),  # a man stepped down to the right
        ("W:W13:B19", "14-19"),  # ... to the left, 13 being occupied
        ("W:W11:BK6", "1-6"),  # a king from square 1
        ("W:W14,K24:BK15", "4-15"),  # a king slid two squares
        ("W:W22,K19:BK36", "47-36"),  # ... two squares up
        ("W:W29,K39:BK50", "45-50"),  # a man crowned on arrival, not a king that moved
        ("W:W32,K23:BK46", "41-46"),  # ... on 46, the first square of the row
        ("W:W30:B40", "29x40"),  # a man took one piece
        ("W:W37:B36", "27x36"),  # ... on the edge, where the first direction leads off the board
        ("W:W29,44:BK45", "34x45"),  # a king took one piece
        ("W:W28,38,K40:B39", "30x39"),  # from the second direction: 28 blocks the first
        ("W:W26:B1", "12x1"),  # a man took backwards, to the corner
    ],
)
def test_b1_finds_the_one_last_move_black_can_have_played(fen: str, last: str) -> None:
    position = parse_fen(fen, variant=INTERNATIONAL)
    report = check_reachable(position)
    assert report.status == "pass" and report.message == "b1_pass"
    assert report.last_move == last
    white, black = sum(position.count(True)), sum(position.count(False))
    assert report.args == {
        "white": white,
        "black": black,
        "captured_black": 20 - black,
        "captured_white": 20 - white,
        "last": last,
    }


@pytest.mark.parametrize(
    ("fen", "legal"),
    [
        # a king that took onto the back row (from 5, 10, ... or 37, 32 being empty)
        (
            "W:W13,20,45:BK24,K46",
            {"5x46", "10x46", "14x46", "19x46", "23x46", "28x46", "32x46", "37x46"},
        ),
        # a king took, after a man whose captures would have begun on the back row (B40 from 49)
        ("W:W34,K12:B40,K35", {"2x35", "8x35", "13x35", "19x35", "24x35"}),
    ],
)
def test_b1_finds_a_last_capture_of_a_king(fen: str, legal: set[str]) -> None:
    assert check_reachable(parse_fen(fen, variant=INTERNATIONAL)).last_move in legal


def test_b1_reads_the_last_move_by_the_problems_own_rules() -> None:
    # from 23, Black would have had to take 33 orthogonally (Fries Spel art. 7): only 24-29
    assert check_reachable(parse_fen("W:W33:B29", variant=FRISIAN)).last_move == "24-29"
    assert check_reachable(parse_fen("W:W33:B29", variant=INTERNATIONAL)).last_move == "23-29"


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("W:W6,7:B1", "b1_no_last_move"),  # no square to come from, nothing to have taken
        ("B:W31:B18", "b1_black_to_move"),
        ("W:B28", "b1_no_white"),
    ],
)
def test_b1_fails_with_the_reason(fen: str, message: str) -> None:
    report = check_reachable(parse_fen(fen, variant=INTERNATIONAL))
    assert (report.status, report.message, report.args) == ("fail", message, {})
    assert report.last_move is None


def test_b1_counts_kings_with_the_men_up_to_twenty_a_side() -> None:
    men, kings = range(31, 47), [1, 2, 3, 4]  # 16 and 4
    assert (
        check_reachable(
            Position.from_squares(white_men=men, white_kings=kings, black_men=[15])
        ).status
        == "pass"
    )
    # on 9, the black man came from 3 or 4 (White's kings) or took a piece: a 21st white piece
    full = Position.from_squares(white_men=men, white_kings=kings, black_men=[9])
    assert check_reachable(full).message == "b1_no_last_move"
    crowded = Position.from_squares(white_men=[*men, 47], white_kings=kings, black_men=[15])
    report = check_reachable(crowded)
    assert (report.status, report.message, report.args) == (
        "fail",
        "b1_white_pieces",
        {"count": 21},
    )
    men, kings = range(6, 22), [47, 48, 49, 50]
    assert (
        check_reachable(
            Position.from_squares(white_men=[46], black_men=men, black_kings=kings)
        ).status
        == "pass"
    )
    crowded = Position.from_squares(white_men=[46], black_men=[*men, 22], black_kings=kings)
    report = check_reachable(crowded)
    assert (report.status, report.message, report.args) == (
        "fail",
        "b1_black_pieces",
        {"count": 21},
    )


# ------------------------------------------------------------------ B2: material, a king as two men


@pytest.mark.parametrize(
    ("white", "white_kings", "black", "black_kings", "ahead"),
    [
        ([31, 32, 33], [], [5, 6, 7], [], False),  # level
        ([31, 32, 33, 34], [], [5, 6, 7], [], True),
        ([31], [46], [5, 6, 7], [], False),  # a king and a man are three
        ([31, 32], [46], [5, 6, 7], [], True),
        ([31], [46], [5, 6], [], True),
        ([31, 32, 33], [], [5], [3], False),  # a black king and a man are three too
        ([31, 32, 33, 34], [], [5], [3], True),
        ([31, 32, 33, 34], [], [5, 6], [3], False),
    ],
)
def test_b2_counts_a_king_as_two_men(
    white: list[int], white_kings: list[int], black: list[int], black_kings: list[int], ahead: bool
) -> None:
    position = Position.from_squares(
        white_men=white, white_kings=white_kings, black_men=black, black_kings=black_kings
    )
    assert white_ahead(position) is ahead
    b2 = start_criteria(position)["B2"]
    if ahead:
        assert (b2.status, b2.message) == ("fail", "b2_fail")
        assert b2.args == {
            "white_men": len(white),
            "white_kings": len(white_kings),
            "black_men": len(black),
            "black_kings": len(black_kings),
        }
    else:
        assert (b2.status, b2.message) == ("pass", "b2_pass")
        assert b2.args == {
            "white": len(white) + len(white_kings),
            "black": len(black) + len(black_kings),
        }


def test_b1_of_the_start_criteria_is_the_reachability_report() -> None:
    position = parse_fen("W:W13:B19", variant=INTERNATIONAL)
    b1 = start_criteria(position)["B1"]
    assert (b1.status, b1.message, b1.args["last"]) == ("pass", "b1_pass", "14-19")
    b1 = start_criteria(parse_fen("W:W6,7:B1", variant=INTERNATIONAL))["B1"]
    assert (b1.status, b1.message) == ("fail", "b1_no_last_move")


def test_b3_lists_the_kings_and_b4_the_captures_white_has_at_the_start() -> None:
    kings = Position.from_squares(white_men=[31], white_kings=[10], black_men=[5], black_kings=[9])
    b3 = start_criteria(kings)["B3"]
    assert (b3.status, b3.message, b3.args) == ("fail", "b3_fail", {"squares": "9, 10"})
    quiet = start_criteria(parse_fen("W:W31,32:B5,6", variant=INTERNATIONAL))
    assert (quiet["B3"].status, quiet["B3"].message) == ("pass", "b3_pass")
    assert (quiet["B4"].status, quiet["B4"].message) == ("pass", "b4_pass")
    en_prise = start_criteria(parse_fen("W:W28,29:B22,24", variant=INTERNATIONAL))["B4"]
    assert (en_prise.status, en_prise.message) == ("fail", "b4_fail")
    assert en_prise.args == {"captures": "28x17, 29x20"}
    # Black to move with a capture: B4 is about White's first move
    black = Position.from_squares(white_men=[28], black_men=[23], white_to_move=False)
    assert black.has_capture()
    assert start_criteria(black)["B4"].status == "pass"


# ------------------------------------------------------------------ F and G without a solution


def bare_problem(fen: str, replayed: ReplayedGame | None) -> Problem:
    position = parse_fen(fen, variant=INTERNATIONAL)
    judgement = Judgement(source="<test>", event=None, variant="international", fen=fen)
    work = Work()  # one second of counted work for the search and the criteria, as --deterministic
    return Problem(
        INTERNATIONAL,
        position,
        replayed,
        ProofSearch(INTERNATIONAL, timer=work),
        root_node(INTERNATIONAL, position.state()),
        Clock(1.0, work),
        judgement,
        {},
    )


def test_f_and_g_are_undecided_without_a_solution_to_read() -> None:
    fen = "W:W12,18:B9,25"
    games, errors = read_pdn(f'[FEN "{fen}"]\n\n*\n', source="<test>")
    assert not errors
    for replayed in (None, replay(games[0], variant=INTERNATIONAL)):  # none, or no moves
        problem = bare_problem(fen, replayed)
        f = criterion_f(problem)
        assert (f.status, f.message) == ("undecided", "f_no_solution")
        g = criterion_g(problem)
        assert (g.status, g.message) == ("undecided", "no_solution")
    # nor without the solution when the win is proved and a walk is there
    problem = bare_problem(fen, None)
    problem.walk, problem.judgement.white_wins = TreeWalk(), "proved"
    g = criterion_g(problem)
    assert (g.status, g.message) == ("undecided", "no_solution")


MIDDLE_GAME = "W:W27,28,31,32,33,34,36,37,38,39:B12,13,14,16,17,18,19,21,22,23"


@pytest.mark.parametrize(
    ("text", "status", "message"),
    [
        (A3, "pass", "f_white_wins"),  # Black cannot move at the end
        ('[FEN "W:W12,18:B9,25"]\n\n1. 18-13 9x7 *\n', "fail", "f_black_wins"),  # nor White
        ('[FEN "W:W12,18:B9,25"]\n\n1. 12-7 9-13 2. 18x9 *\n', "pass", "f_pass"),  # proved
        ('[FEN "W:W31:B5,6,7"]\n\n1. 31-27 *\n', "fail", "f_fail"),  # refuted
        (f'[FEN "{MIDDLE_GAME}"]\n\n1. 33-29 *\n', "undecided", "f_undecided"),
    ],
)
def test_f_reads_where_the_solution_ends(text: str, status: str, message: str) -> None:
    games, errors = read_pdn(text, source="<test>")
    assert not errors
    fen = games[0].fen or ""
    problem = bare_problem(fen, replay(games[0], variant=INTERNATIONAL))
    f = criterion_f(problem)
    assert (f.status, f.message) == (status, message)
    assert f.args == ({"fen": "B:W27:B5,6,7"} if message == "f_fail" else {})
    # an open end is a question for the engine: the position the solution ends in
    end = problem.replayed.end  # type: ignore[union-attr]
    line = tuple(step.notation for step in problem.replayed.main.moves)  # type: ignore[union-attr]
    expected = [Question("end", ("F",), line, end, root_node(INTERNATIONAL, end.state()))]
    assert problem.questions == (expected if message == "f_undecided" else [])
    if message == "f_undecided":
        assert line == ("33-29",)
    # F has 30 % of the time left (one second of work here), whatever the search can use
    assert problem.clock.timer.now() <= 0.3 + 0.01


def test_g_reads_the_duals_of_the_final_phase_only() -> None:
    games, errors = read_pdn(A3, source="<test>")
    assert not errors
    fen = games[0].fen or ""
    problem = bare_problem(fen, replay(games[0], variant=INTERNATIONAL))
    problem.judgement.white_wins = "proved"
    final = ("6-1", "32x12", "1x31", "36x18")  # the final phase begins after 36x18
    fault = Dual(final, ("11x13", "11x22"), "cook", on_main=True)
    remark = Dual(final, ("11x13", "11x22"), "variation", on_main=False)
    off_main = Dual(final, ("11x13", "11x22"), "cook", on_main=False)
    ignored = [
        Dual(final[:2], ("1x31", "1x40"), "cook", on_main=True),  # before the final phase
        Dual(final, ("11x13", "11x22"), "landing", on_main=True),  # information
        Dual((), ("6-1", "6-2"), "cook", on_main=True),  # a second key: criterion C's
    ]

    def g(duals: list[Dual], **walk: int | bool) -> tuple[str, str, dict[str, object]]:
        problem.walk = TreeWalk(duals=duals, **walk)  # type: ignore[arg-type]
        found = criterion_g(problem)
        return found.status, found.message, dict(found.args)

    assert g(ignored) == ("pass", "g_pass", {})
    moves = {"line": " ".join(final), "moves": "11x13 / 11x22"}
    assert g([*ignored, remark, fault]) == ("fail", "g_fail", moves)
    assert g([*ignored, fault], undecided=1, complete=False) == ("fail", "g_fail", moves)
    assert g([*ignored, remark]) == ("remark", "g_remark", moves)
    assert g([off_main]) == ("remark", "g_remark", moves)
    assert g([remark], undecided=1) == ("undecided", "g_undecided", {})
    assert g([remark], open_moves=1) == ("undecided", "g_undecided", {})
    assert g([], complete=False) == ("undecided", "g_undecided", {})
    problem.judgement.white_wins = "undecided"
    assert g([fault]) == ("undecided", "no_solution", {})


# ------------------------------------------------------------------ C: the keys and the walk


def test_c_reports_the_first_finding_in_order_of_weight() -> None:
    problem = bare_problem("W:W12,18:B9,25", None)
    judgement = problem.judgement

    def c(
        duals: list[Dual] | None = None, keys: dict[str, str] | None = None, **walk: int | bool
    ) -> tuple[str, str, dict[str, object]]:
        problem.walk = None if duals is None else TreeWalk(duals=duals, **walk)  # type: ignore[arg-type]
        problem.keys = keys or {}
        found = criterion_c(problem)
        return found.status, found.message, dict(found.args)

    assert c([]) == ("undecided", "not_proved", {})
    judgement.white_wins = "proved"
    faults = [Dual(("12-7", f"9-1{i}"), ("7-2", "7-1"), "cook", on_main=True) for i in range(4)]
    remarks = [
        Dual(("12-7", f"9-1{i}"), ("7-2", "7-1"), "variation", on_main=False) for i in range(4)
    ]
    shown = [[f"12-7 9-1{i}", "7-2 / 7-1"] for i in range(4)]
    assert c([]) == ("pass", "c_pass", {"count": 0})
    assert c([], positions=12) == ("pass", "c_pass", {"count": 12})
    assert c(None) == ("undecided", "no_solution", {})
    # up to three duals are shown, and how many more there are
    assert c(faults[:3]) == ("fail", "c_cook_line", {"duals": shown[:3]})
    assert c(faults) == ("fail", "c_cook_line_more", {"duals": shown[:3], "count": 1})
    assert c(remarks[:3]) == ("remark", "c_remark", {"duals": shown[:3]})
    assert c(remarks) == ("remark", "c_remark_more", {"duals": shown[:3], "count": 1})
    # a fault is reported before anything open; a remark only when nothing is
    assert c([*remarks, faults[0]], undecided=2) == ("fail", "c_cook_line", {"duals": shown[:1]})
    open_keys = {"12-7": "proved", "12-8": "undecided", "18-13": "refuted", "18-14": "undecided"}
    assert c(remarks, open_keys, undecided=1, open_moves=1) == (
        "undecided",
        "c_undecided_keys",
        {"keys": "12-8, 18-14", "later": 2},
    )
    assert c(remarks, undecided=2) == ("undecided", "c_undecided", {"later": 2})
    assert c(remarks, open_moves=1) == ("undecided", "c_undecided", {"later": 1})
    assert c(remarks, complete=False) == ("undecided", "c_undecided_cut", {"later": 0})
    # a second winning key: a cook, whatever the walk found
    judgement.winning_keys = ["12-7", "12-8"]
    judgement.cooks = [Cook("12-8", ("12-8", "9-13", "18x9"), False)]
    lines = "12-8 9-13 18x9 ..."
    assert c(faults) == ("fail", "c_cook", {"keys": "12-7, 12-8", "lines": lines})
    judgement.cooks.append(Cook("12-9", ("12-9",), True))
    assert c([]) == (
        "fail",
        "c_cook_combination",
        {"keys": "12-7, 12-8", "lines": lines + "; 12-9 ..."},
    )


def test_c_finds_a_cook_when_two_keys_win() -> None:
    problem = bare_problem("W:W12,18:B9,25", None)
    for _raw, child in problem.search.expand(problem.root):
        problem.search.prove(child, seconds=3.0)  # counted work, as the search of the keys
    problem.judgement.winning_keys = ["12-7", "12-8"]
    problem.judgement.solution.key = "12-7"
    (cook,) = find_cooks(problem)
    assert cook.key == "12-8" and cook.line[0] == "12-8" and len(cook.line) >= 3
    assert cook.combination is False  # a man walking to the crown sacrifices nothing
    problem.judgement.winning_keys = ["12-7"]
    assert find_cooks(problem) == []


def test_g_without_a_black_capture_reads_the_whole_solution() -> None:
    fen = "W:W12,18:B9,25"
    games, errors = read_pdn(f'[FEN "{fen}"]\n\n1. 12-7 9-13 2. 18x9 *\n', source="<test>")
    assert not errors
    problem = bare_problem(fen, replay(games[0], variant=INTERNATIONAL))
    problem.judgement.white_wins = "proved"
    # Black never captures: the final phase is the whole solution, from the first Black reply
    problem.walk = TreeWalk(duals=[Dual(("12-7", "9-14"), ("7-2", "7-1"), "variation", False)])
    g = criterion_g(problem)
    assert (g.status, g.message) == ("remark", "g_remark")
    assert g.args == {"line": "12-7 9-14", "moves": "7-2 / 7-1"}


# ------------------------------------------------------------------ E: moves in the other order


def e_problem(text: str) -> Problem:
    games, errors = read_pdn(text, source="<test>")
    assert not errors
    problem = bare_problem(games[0].fen or "", replay(games[0], variant=INTERNATIONAL))
    problem.judgement.white_wins = "proved"
    return problem


SWAPPED = '[FEN "W:W12,34,48:B5,20"]\n\n1. 34-29 5-10 2. 12-7 *\n'
"""34-29 and 12-7 win in either order (the interchangeable problem of unsound.pdn)."""
THREE_MOVES = '[FEN "W:W12,34,48:B5,20"]\n\n1. 48-43 5-10 2. 34-29 10-14 3. 12-7 *\n'
"""Three White moves, each pair of neighbours playable in the other order."""


def test_e_fails_on_two_white_moves_that_win_in_the_other_order() -> None:
    e = criterion_e(e_problem(SWAPPED))
    assert (e.status, e.message, dict(e.args)) == (
        "fail",
        "e_fail",
        {"pairs": [["34-29", "12-7"]]},
    )
    # A3: the second White move (1x31) cannot be played first, nor 11x13 before 1x31
    a3 = criterion_e(e_problem(A3))
    assert (a3.status, a3.message, dict(a3.args)) == ("pass", "e_pass", {})


def test_e_needs_a_proved_win_and_a_solution() -> None:
    problem = e_problem(SWAPPED)
    problem.judgement.white_wins = "undecided"
    assert (criterion_e(problem).status, criterion_e(problem).message) == (
        "undecided",
        "no_solution",
    )
    problem.judgement.white_wins, problem.replayed = "proved", None
    assert (criterion_e(problem).status, criterion_e(problem).message) == (
        "undecided",
        "no_solution",
    )


@pytest.mark.parametrize(
    ("verdicts", "status", "message", "args", "asked"),
    [
        (["refuted", "refuted"], "pass", "e_pass", {}, []),
        (["undecided", "refuted"], "undecided", "e_undecided", {}, [("34-29",)]),
        (
            ["undecided", "undecided"],
            "undecided",
            "e_undecided",
            {},
            [("34-29",), ("48-43", "5-10", "12-7")],
        ),
        # a pair that wins is a fault whatever else stayed open
        (["undecided", "proved"], "fail", "e_fail", {"pairs": [["34-29", "12-7"]]}, [("34-29",)]),
    ],
)
def test_e_asks_each_pair_of_neighbouring_white_moves_in_the_other_order(
    monkeypatch: pytest.MonkeyPatch,
    verdicts: list[str],
    status: str,
    message: str,
    args: dict[str, object],
    asked: list[tuple[str, ...]],
) -> None:
    problem = e_problem(THREE_MOVES)
    given = iter(verdicts)
    budgets: list[float] = []
    nodes: list[object] = []

    def prove(node: object, *, seconds: float) -> SearchResult:
        budgets.append(seconds)
        nodes.append(node)
        return SearchResult(next(given), 1, 0.0)  # type: ignore[arg-type]

    monkeypatch.setattr(problem.search, "prove", prove)
    e = criterion_e(problem)
    assert (e.status, e.message, dict(e.args)) == (status, message, args)
    assert next(given, None) is None  # both pairs were asked
    # E's share: a fifth of the time left (one second of counted work here)
    assert budgets == [pytest.approx(0.2)] * 2
    # the first pair: 34-29 played at the start instead of 48-43
    start = problem.position
    (early,) = [m for m in start.legal_moves() if move_notation(start, m) == "34-29"]
    assert nodes[0] == root_node(INTERNATIONAL, start.play(early).state())
    # each undecided pair leaves a question for the engine: the moves up to it, the swap last
    assert [(q.kind, q.criteria, q.line) for q in problem.questions] == [
        ("swap", ("E",), line) for line in asked
    ]
    for question in problem.questions:
        assert question.node == root_node(INTERNATIONAL, question.position.state())


def test_e_goes_on_past_a_pair_that_cannot_be_swapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """48-43 then 43-39: the second cannot come first (no man on 43 yet); E goes on to the
    next pair, 43-39 and 12-7, which can."""
    problem = e_problem('[FEN "W:W12,34,48:B5,20"]\n\n1. 48-43 5-10 2. 43-39 10-14 3. 12-7 *\n')
    asked: list[object] = []

    def prove(node: object, *, seconds: float) -> SearchResult:
        asked.append(node)
        return SearchResult("proved", 1, 0.0)

    monkeypatch.setattr(problem.search, "prove", prove)
    e = criterion_e(problem)
    assert len(asked) == 1
    assert (e.status, e.message, dict(e.args)) == ("fail", "e_fail", {"pairs": [["43-39", "12-7"]]})


def test_c_reads_a_cooks_line_only_as_far_as_combination_plies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The line of a cook is read COMBINATION_PLIES deep (to tell whether it is itself a
    combination); what C shows of it is at most that much."""
    problem = bare_problem("W:W12,18:B9,25", None)
    for _raw, child in problem.search.expand(problem.root):
        problem.search.prove(child, seconds=3.0)
    problem.judgement.winning_keys = ["12-7", "12-8"]
    problem.judgement.solution.key = "12-7"
    monkeypatch.setattr(second, "COMBINATION_PLIES", 2)
    (cook,) = find_cooks(problem)
    assert cook.line[:1] == ("12-8",) and len(cook.line) == 2


# ------------------------------------------------------------------ D: the question of one man


def test_d_asks_whether_the_key_still_wins_without_the_man() -> None:
    """What D leaves open about a man becomes a question for the engine: the composer's key
    played in the problem without that man (the position after it, and its node)."""
    problem = e_problem(SWAPPED)  # W:W12,34,48:B5,20, key 34-29
    smaller = without(problem.position, 48)
    assert smaller is not None
    assert problem.replayed is not None
    idle = IdleMen(lambda: ProofSearch(INTERNATIONAL))
    question = idle._question(problem, problem.replayed, 48, smaller)
    (key,) = [m for m in smaller.legal_moves() if move_notation(smaller, m) == "34-29"]
    assert (question.kind, question.criteria, question.line, question.square) == (
        "idle",
        ("D",),
        ("34-29",),
        48,
    )
    assert question.position == smaller.play(key)
    assert 48 not in question.position.pieces() and 29 in question.position.pieces()
    search = idle.searches[48]  # the smaller problem's own search, kept for the next round
    children = {
        to_move(raw): child
        for raw, child in search.expand(root_node(INTERNATIONAL, smaller.state()))
    }
    assert question.node == children[key]
    assert question.node[0] == question.position.state()


@pytest.mark.parametrize("variant", [INTERNATIONAL, FRISIAN], ids=lambda v: v.name)
def test_d_takes_one_man_off_and_keeps_every_other_piece(variant: Variant) -> None:
    position = parse_fen("W:W12,K34,48:B5,K20", variant=variant)
    smaller = without(position, 12)
    assert smaller is not None
    assert smaller.pieces() == {s: p for s, p in position.pieces().items() if s != 12}
    assert smaller.white_to_move and smaller.variant is variant  # the problem's own rules


class Asked(NamedTuple):
    """A question D's made-up search was asked: by which search (counted from 1), with how
    many seconds, and about which line of the smaller problem (its moves from the start, up
    to three plies; None deeper in)."""

    search: int
    seconds: float
    line: str | None


def d_setup(
    monkeypatch: pytest.MonkeyPatch,
    verdict: Callable[[int, int], str],
    keys: tuple[str, ...] = (),
    *,
    text: str = SWAPPED,
    by_line: dict[str, str] | None = None,
    walk: TreeWalk | None = None,
) -> tuple[Problem, IdleMen, list[Asked]]:
    """Criterion D of ``text`` (the interchangeable problem W:W12,34,48:B5,20 unless given),
    its searches answered by ``verdict(search, question)`` (both counted from 1), each
    spending half the seconds it is given; ``by_line``, where given, answers a question about
    a line of a smaller problem up to three plies deep instead (refuted where not listed);
    ``keys``: the first moves that win the whole problem; ``walk``: the walk of its published
    tree.  Returns the problem, the IdleMen to judge it and the questions it will ask."""
    problem = e_problem(text)
    problem.walk = walk
    problem.judgement.solution.key_wins = True
    problem.judgement.winning_keys = list(keys)
    asked: list[Asked] = []
    made: list[ProofSearch] = []
    lines: dict[State, list[str]] = {}  # no two smaller problems here meet in three plies
    for square in problem.position.pieces():
        smaller = without(problem.position, square)
        if smaller is not None:
            for state, found in lines_of(smaller, 3).items():
                lines[state] = [" ".join(line) for line in found]

    def new_search() -> ProofSearch:
        search = ProofSearch(INTERNATIONAL, timer=problem.clock.timer)
        made.append(search)
        number, questions = len(made), []

        def prove(node: Node, *, seconds: float) -> SearchResult:
            questions.append(node)
            to_it = lines.get(node[0], [])
            asked.append(Asked(number, seconds, to_it[0] if to_it else None))
            problem.clock.timer.spent += seconds / 2  # type: ignore[attr-defined]
            if by_line is not None and to_it:
                answer = answer_by_line(to_it, by_line, "refuted")
            else:
                answer = verdict(number, len(questions))
            return SearchResult(answer, 1, 0.0)  # type: ignore[arg-type]

        monkeypatch.setattr(search, "prove", prove)
        return search

    return problem, IdleMen(new_search), asked


def d_with(
    monkeypatch: pytest.MonkeyPatch,
    verdict: Callable[[int, int], str],
    keys: tuple[str, ...] = (),
    **given: Any,
) -> tuple[Criterion, list[Asked], IdleMen]:
    """Criterion D of d_setup's problem (``given``: its keyword arguments), judged once: D,
    the questions asked and the IdleMen that judged it."""
    problem, idle, asked = d_setup(monkeypatch, verdict, keys, **given)
    return idle.criterion_d(problem), asked, idle


def test_d_gives_each_man_its_share_of_the_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each man's questions share half the time left (D_SHARE) with the men still to come; the
    composer's key without the man gets half of that man's share.  Here the key is refuted
    without each man asked about (each man needed), so that is all D asks."""
    d, asked, idle = d_with(monkeypatch, lambda search, question: "refuted")
    assert (d.status, d.message) == ("pass", "d_pass")
    # 12, 34 and 5 play in the solution (34-29 5-10 12-7): needed, with no search; 20 and 48
    # are each asked once
    men = list(parse_fen("W:W12,34,48:B5,20").pieces())
    assert men == [5, 12, 20, 34, 48] and list(idle.searches) == [20, 48]
    left = 1.0  # a second of work
    expected = []
    for index, square in enumerate(men):
        if square in idle.searches:
            share = min(left, max(0.05, left * D_SHARE / (len(men) - index)))
            expected.append(share / 2)
            left -= share / 4  # the made-up search spends half of what it is given
    assert [a.seconds for a in asked] == pytest.approx(expected)


def test_d_is_undecided_while_the_key_without_a_man_is_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    d, asked, _idle = d_with(monkeypatch, lambda search, question: "undecided")
    assert (d.status, d.message, dict(d.args)) == (
        "undecided",
        "d_undecided",
        {"men": [["black", 20], ["white", 48]]},
    )
    assert len(asked) == 2 and len({a.search for a in asked}) == 2  # the key alone, for each man


def test_d_calls_a_man_needed_where_he_stops_a_second_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # without each man the key still wins, and so does the second first move asked about
    d, asked, _idle = d_with(monkeypatch, lambda search, question: "proved")
    assert (d.status, d.message) == ("pass", "d_pass")
    # per man: the key with half the time to his deadline, then the next first move with a
    # third of what is left
    searches = sorted({a.search for a in asked})
    assert len(searches) == 2 and len(asked) == 4
    (first_key, first_other), (second_key, second_other) = (
        [a.seconds for a in asked if a.search == search] for search in searches
    )
    assert first_other == pytest.approx((2 * first_key - first_key / 2) / 3)
    assert second_other == pytest.approx((2 * second_key - second_key / 2) / 3)


def test_d_asks_the_other_first_moves_and_stays_undecided_while_one_is_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without each man the key still wins (the first question); a first move that then wins
    and is no key of the whole problem would make him needed, and one left open leaves him
    undecided, never idle."""
    d, asked, _idle = d_with(
        monkeypatch,
        lambda search, question: "proved" if question == 1 else "undecided",
        keys=("34-29",),
    )
    assert (d.status, d.message, dict(d.args)) == (
        "undecided",
        "d_undecided",
        {"men": [["black", 20], ["white", 48]]},
    )
    assert len(asked) > 2  # the other first moves were asked, not only the key


def test_d_asks_every_other_first_move_in_turn_until_one_wins_that_is_no_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without 20 White has six first moves: the key 34-29 wins, and so does the last one,
    48-43, which is no key of the whole problem: 20 is needed to stop it.  Without 48 nothing
    but the key wins, and the walk of the smaller problem finds no new dual: 48 is idle."""
    d, asked, idle = d_with(
        monkeypatch,
        lambda search, question: "refuted",
        keys=("34-29",),
        by_line={"34-29": "proved", "48-43": "proved"},
    )
    assert (d.status, d.message, dict(d.args)) == ("fail", "d_fail", {"men": [["white", 48]]})
    assert list(idle.searches) == [20, 48]
    assert [a.line for a in asked if a.search == 1] == [
        "34-29",  # the key first, then the others in the engine's order
        "12-7",
        "48-42",
        "12-8",
        "34-30",
        "48-43",
    ]
    # without 48: the key, the three other first moves, then the walk, which asks them again
    without_48 = [a.line for a in asked if a.search == 2]
    assert without_48[:8] == ["34-29", "12-7", "12-8", "34-30", "12-7", "34-29", "12-8", "34-30"]


def test_d_walks_the_smaller_problem_only_once_every_first_move_is_settled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """12-7 stays open without either man, the first moves after it are refuted: each man is
    undecided, and D asks nothing more about his smaller problem (no walk)."""
    d, asked, _idle = d_with(
        monkeypatch,
        lambda search, question: "refuted",
        keys=("34-29",),
        by_line={"34-29": "proved", "12-7": "undecided"},
    )
    assert (d.status, dict(d.args)) == ("undecided", {"men": [["black", 20], ["white", 48]]})
    assert [a.line for a in asked] == [
        *("34-29", "12-7", "48-42", "12-8", "34-30", "48-43"),  # without 20
        *("34-29", "12-7", "12-8", "34-30"),  # without 48
    ]


def made_up_walks(monkeypatch: pytest.MonkeyPatch, walk: TreeWalk) -> None:
    """Every walk of a smaller problem D makes finds ``walk`` (and settles nothing more)."""

    @dataclass
    class Walked:
        variant: Variant
        search: ProofSearch
        targets: frozenset[State]
        clock: Clock
        deadline: float

        def walk(self, node: Node, position: Position, main: object) -> TreeWalk:
            return walk

        def settle(self, until: float) -> None:
            pass

    monkeypatch.setattr(idle_module, "SolutionWalker", Walked)


AFTER = ("34-29", "5-10")
COOK = Dual(AFTER, ("12-7", "12-8"), "cook", on_main=True)
IN_A_VARIATION = Dual(AFTER, ("12-7", "12-8"), "variation", on_main=False)
TRANSPOSITION = Dual(AFTER, ("12-7", "12-8"), "transposition", on_main=True)


@pytest.mark.parametrize(
    ("smaller", "whole", "status"),
    [
        ([COOK], None, "pass"),  # a cook the whole problem does not have: needed
        ([COOK], [COOK], "fail"),  # the whole problem has it too: nothing new, idle
        ([TRANSPOSITION], None, "fail"),  # information only: idle
        ([COOK], [IN_A_VARIATION], "pass"),  # a fault where the whole has only a remark
    ],
)
def test_d_counts_a_dual_of_the_smaller_problem_when_it_is_new_and_more_than_information(
    monkeypatch: pytest.MonkeyPatch, smaller: list[Dual], whole: list[Dual] | None, status: str
) -> None:
    """Without each man the key still wins and nothing else does: the walk of his smaller
    problem (made up here) decides.  A dual it finds makes him needed when it is more than
    information and the whole problem's walk has no dual of that level (fail, remark) at
    that place."""

    made_up_walks(monkeypatch, TreeWalk(duals=smaller))
    d, _asked, _idle = d_with(
        monkeypatch,
        lambda search, question: "refuted",
        keys=("34-29",),
        by_line={"34-29": "proved"},
        walk=None if whole is None else TreeWalk(duals=whole),
    )
    men = {"men": [["black", 20], ["white", 48]]}
    assert (d.status, dict(d.args)) == (status, men if status == "fail" else {"count": 5})
    assert LEVEL[COOK.kind] == "fail" and LEVEL[TRANSPOSITION.kind] == "info"


@pytest.mark.parametrize(
    ("walk", "status"),
    [
        (TreeWalk(), "fail"),  # walked to the end, nothing open: both idle
        (TreeWalk(undecided=1), "undecided"),  # a turn with no win proved
        (TreeWalk(open_moves=1), "undecided"),  # a second move whose win stayed open
        (TreeWalk(complete=False), "undecided"),  # time ran out before the end
    ],
)
def test_d_calls_a_man_idle_only_once_his_smaller_problem_is_walked_and_settled(
    monkeypatch: pytest.MonkeyPatch, walk: TreeWalk, status: str
) -> None:
    made_up_walks(monkeypatch, walk)
    d, _asked, _idle = d_with(
        monkeypatch,
        lambda search, question: "refuted",
        keys=("34-29",),
        by_line={"34-29": "proved"},
    )
    assert (d.status, dict(d.args)) == (status, {"men": [["black", 20], ["white", 48]]})


@pytest.mark.parametrize("key_wins", [False, None])
def test_d_waits_for_the_composers_key_to_be_proved(
    monkeypatch: pytest.MonkeyPatch, key_wins: bool | None
) -> None:
    problem, idle, asked = d_setup(monkeypatch, lambda search, question: "proved")
    problem.judgement.solution.key_wins = key_wins
    d = idle.criterion_d(problem)
    assert (d.status, d.message, asked) == ("undecided", "d_needs_key", [])


def test_d_keeps_each_settled_use_and_asks_again_about_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round one: without 20 the key is refuted (20 needed, settled), without 48 it stays open
    (48 undecided, with his question for the engine's opinion).  Round two asks about 48 only,
    with the search of round one, and he is still undecided, not taken for settled."""
    problem, idle, asked = d_setup(
        monkeypatch, lambda search, question: "refuted" if search == 1 else "undecided"
    )
    made: list[ProofSearch] = []
    factory = idle.new_search

    def counted() -> ProofSearch:
        made.append(factory())
        return made[-1]

    idle.new_search = counted
    first = idle.criterion_d(problem)
    assert (first.status, dict(first.args)) == ("undecided", {"men": [["white", 48]]})
    assert [a.search for a in asked] == [1, 2]
    assert [(q.kind, q.square) for q in problem.questions] == [("idle", 48)]
    asked.clear()
    second = idle.criterion_d(problem)
    assert (second.status, dict(second.args)) == ("undecided", {"men": [["white", 48]]})
    assert [a.search for a in asked] == [2]
    # one search for each smaller problem asked about, made once and kept
    assert made == list(idle.searches.values()) and len(made) == 2


def test_d_calls_a_man_needed_without_whom_the_start_could_not_arise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without the black man on 24 Black has no legal last move (B1): 24 is needed, and D does
    not search his smaller problem.  The others (17 plays the key) are idle here: the key
    wins without each of them and nothing else does."""
    text = '[FEN "W:W7,17,34:B24,45"]\n\n1. 17-11 *\n'
    smaller = without(parse_fen("W:W7,17,34:B24,45"), 24)
    assert smaller is not None and check_reachable(smaller).status == "fail"
    d, _asked, idle = d_with(
        monkeypatch, lambda search, question: "proved" if question == 1 else "refuted", text=text
    )
    assert (d.status, dict(d.args)) == (
        "fail",
        {"men": [["white", 7], ["white", 34], ["black", 45]]},
    )
    assert list(idle.searches) == [7, 34, 45]
