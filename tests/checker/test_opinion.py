"""The engine's opinions on what a judgement left open (``checker/opinion.py``,
``criteria/questions.py``, ``opinion_words.py``): which questions are asked, how an opinion is
stored and read back, and the words that say it is no proof.  The engine itself is tested in
``test_engine.py``; an opinion asked of it in a real judgement is tested there too."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.checker.analysis import OpenMove, TreeWalk
from rulebook_build.checker.criteria import questions as gathering
from rulebook_build.checker.criteria.questions import open_questions
from rulebook_build.checker.front import Checker
from rulebook_build.checker.grade import CRITERIA, Criterion, Judgement
from rulebook_build.checker.judge import Judge
from rulebook_build.checker.opinion import (
    OPINION_NODES,
    WIN_THRESHOLD,
    Calibration,
    Opinion,
    Question,
    calibration,
    says_of,
)
from rulebook_build.checker.opinion_words import calibration_text, describe
from rulebook_build.checker.verdict_json import opinion_from_json
from rulebook_build.engine import binaries
from rulebook_build.engine.binaries import WIN_SCORE
from rulebook_build.engine.search import root_node
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.notation.replay import game_variant, move_notation, start_position
from rulebook_build.rules import INTERNATIONAL, Position
from rulebook_build.rules.position import to_move
from tests.checker.test_criteria import bare_problem
from tests.checker.test_duals import move
from tests.datafiles import PWCP

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"


@pytest.fixture(scope="module")
def left_open() -> list[tuple[Judgement, list[Question]]]:
    """Four PWCP-2 problems judged in Python for a second of work: much stays open."""
    games, errors = read_pdn_file(PWCP)
    assert not errors
    found = []
    for game in [games[0], games[1], games[4], games[5]]:
        variant = game_variant(game)
        assert variant is not None
        judge = Judge(variant)
        judgement = judge.judge(game, start_position(game, variant), seconds=1.0, by_work=True)
        assert judge._problem is not None
        found.append((judgement, open_questions(judge._problem)))
    return found


def test_every_undecided_criterion_and_every_open_key_gets_a_question(
    left_open: list[tuple[Judgement, list[Question]]],
) -> None:
    seen_criteria: set[str] = set()
    for judgement, questions in left_open:
        undecided = [n for n, c in judgement.criteria.items() if c.status == "undecided"]
        assert undecided, "a second of work leaves something open"
        for name in undecided:
            assert any(name in q.criteria for q in questions), name
        seen_criteria.update(undecided)
        asked_keys = {q.line[0] for q in questions if q.kind == "key"}
        assert asked_keys, "open first moves are asked about"
        for question in questions:
            # each question only names criteria that stayed open, and is where it says
            assert set(question.criteria) <= set(undecided)
            assert question.position.state() == question.node[0]
    # the four cover the kinds of open question: keys, a man (D), two moves swapped (E)
    assert {"A", "C", "D", "E", "G"} <= seen_criteria


def test_a_first_move_open_in_the_keys_and_the_walk_is_asked_once(
    left_open: list[tuple[Judgement, list[Question]]],
) -> None:
    for _judgement, questions in left_open:
        for question in questions:  # the criteria it serves, in the rulebook's order
            assert list(question.criteria) == sorted(question.criteria, key=CRITERIA.index)
        lines = [(q.line, q.square) for q in questions]
        assert len(lines) == len(set(lines))


def replay_moves(position: Position, moves: tuple[str, ...]) -> None:
    """Each move legal in turn, by the rules engine."""
    for notation in moves:
        by_notation = {move_notation(position, m): m for m in position.legal_moves()}
        assert notation in by_notation, (notation, sorted(by_notation))
        position = position.play(by_notation[notation])


def opinion(score: int, **changes: object) -> Opinion:
    fields: dict[str, object] = {
        "kind": "key",
        "criteria": ("C", "G"),
        "line": ("42-37",),
        "says": says_of(score),
        "score": score,
        "depth": 14,
        "nodes": 1_000_000,
        "best": ("21-26", "37-31"),
        "budget": 1_000_000,
        "square": None,
    }
    fields.update(changes)
    return Opinion(**fields)  # type: ignore[arg-type]


def test_an_opinion_reads_back_as_it_was_written() -> None:
    for written in (opinion(240), opinion(-35, kind="idle", square=23, line=("39-34",))):
        assert opinion_from_json(written.as_json()) == written


@pytest.mark.parametrize(
    "broken",
    [
        [],
        {"kind": "key"},
        {**opinion(240).as_json(), "kind": "guess"},
        {**opinion(240).as_json(), "says": "proved"},
        {**opinion(240).as_json(), "score": "240"},
        {**opinion(240).as_json(), "criteria": "C"},
    ],
)
def test_a_stored_opinion_that_is_none_is_refused(broken: object) -> None:
    with pytest.raises(ValueError):
        opinion_from_json(broken)


def test_the_threshold_divides_win_from_no_win() -> None:
    assert says_of(WIN_THRESHOLD) == "win"
    assert says_of(WIN_THRESHOLD - 1) == "no win"
    assert says_of(WIN_SCORE - 12) == "win"
    assert says_of(-(WIN_SCORE - 12)) == "no win"


def test_every_sentence_says_it_is_no_proof_in_each_language() -> None:
    starts = {"en": "not proved; ", "nl": "niet bewezen; ", "fy": "net bewiisd; "}
    for lang, start in starts.items():
        win, no_win = describe(opinion(240), lang), describe(opinion(-35), lang)
        assert win.startswith(start) and no_win.startswith(start)
        assert win != no_win
        assert "42-37" in win and "21-26 37-31" in win
    assert "a win for White after the first move 42-37" in describe(opinion(240))
    assert "no win for White after the first move 42-37 at depth 14" in describe(opinion(-35))
    assert "+2.40 men" in describe(opinion(240))
    assert "+2,40 schijven" in describe(opinion(240), "nl")
    ended = opinion(WIN_SCORE - 13)
    assert ended.game_end == 13
    assert "the game ends in 13 plies" in describe(ended)
    idle = opinion(300, kind="idle", square=23, line=("39-34",))
    assert "without the man on 23, after the key 39-34" in describe(idle)


@pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")
def test_opinions_answer_what_stayed_open_and_change_nothing_else() -> None:
    """Three PWCP-2 problems judged with the compiled search for half a second of work, without
    and with opinions: the same JSON but for the opinions, and an opinion for every undecided
    criterion and every open first move, each with a legal best line."""
    games, errors = read_pdn_file(PWCP)
    assert not errors
    tables = checker_tables(INTERNATIONAL)
    tables.prepare_missing()  # up to 4 pieces, as 'rulebook check' builds them
    checker = Checker(opened={INTERNATIONAL.name: tables})
    asked = 0
    for game in games[:3]:
        without = checker.judge(game, seconds=0.5, by_work=True, opinion_nodes=0).as_json()
        judgement = checker.judge(game, seconds=0.5, by_work=True, opinion_nodes=50_000)
        record = judgement.as_json()
        assert without["opinions"] == []
        for field in ("seconds", "opinions"):
            del without[field], record[field]
        assert record == without
        undecided = [n for n, c in judgement.criteria.items() if c.status == "undecided"]
        for name in undecided:
            assert any(name in opinion.criteria for opinion in judgement.opinions), name
        open_keys = str(judgement.criteria["C"].args.get("keys", "")).split(", ")
        keys = {opinion.line[0] for opinion in judgement.opinions if opinion.kind == "key"}
        assert set(filter(None, open_keys)) <= keys
        position = start_position(game, INTERNATIONAL)
        for opinion in judgement.opinions:
            assert opinion.budget == 50_000 and 0 < opinion.nodes <= 50_000
            assert opinion.says == says_of(opinion.score)
            assert opinion.best, "a position with moves gets a line"
            if opinion.kind == "key":  # the line replays from the position after the key
                after = position.play(
                    next(
                        m
                        for m in position.legal_moves()
                        if move_notation(position, m) == opinion.line[0]
                    )
                )
                replay_moves(after, opinion.best)
            asked += 1
    assert asked >= 3, asked


def test_the_rate_is_said_as_measured() -> None:
    measured = Calibration(2038, 2055, 1_000_000)
    assert "99.2 % of the time (2038 of 2055)" in calibration_text(measured)
    assert "99,2 % van de gevallen" in calibration_text(measured, "nl")
    assert "99,2 % fan de gefallen" in calibration_text(measured, "fy")
    assert "not been compared" in calibration_text(None)
    harder = Calibration(2038, 2055, 1_000_000, open_agreed=30, open_asked=41)
    assert calibration_text(harder).endswith(
        "are often harder. Of 41 questions that a check of 20 s left open and one of 120 s "
        "settled, it judged 30 right."
    )
    assert "beoordeelde ze er 30 goed" in calibration_text(harder, "nl")
    stored = calibration()  # what benchmarks/opinion.py --write measured, shipped with the package
    assert stored is not None and 0 < stored.agreed <= stored.asked
    assert stored.budget == OPINION_NODES


def test_a_criterion_with_no_open_position_of_its_own_gets_the_start_position() -> None:
    """Cat.D1 156 starts with Black to move: D waits on the composer's key, which is never
    settled, and no position of D's own is open; the start position is asked instead."""
    games, errors = read_pdn_file(PROBLEMS / "cat-d1" / "Cat.D1.pdn")
    assert not errors
    game = next(g for g in games if g.line == 156)
    judge = Judge(INTERNATIONAL)
    judgement = judge.judge(game, start_position(game, INTERNATIONAL), seconds=2, by_work=True)
    assert judgement.criteria["D"].message == "d_needs_key"
    assert judge._problem is not None
    questions = open_questions(judge._problem)
    start = [q for q in questions if q.kind == "start"]
    assert len(start) == 1 and start[0].criteria == ("D",) and start[0].line == ()


# ------------------------------------------------------------------ gathering the questions
def gathered(
    undecided: tuple[str, ...],
    keys: dict[str, str],
    *,
    proved_key: str | None = None,
    walk: TreeWalk | None = None,
    recorded: tuple[Question, ...] = (),
) -> tuple[list[Question], Position, dict[str, object], object]:
    """The questions ``open_questions`` gathers from a made-up judgement of W:W12,18:B9,25
    (first moves 12-7, 12-8, 18-13): the criteria ``undecided`` (the rest passed), the first
    moves' verdicts ``keys``, the key proved (if any), a walk and the criteria's own
    questions.  Returns them, the start, the nodes after each first move, and the root."""
    problem = bare_problem("W:W12,18:B9,25", None)
    judgement = problem.judgement
    for name in CRITERIA:
        status = "undecided" if name in undecided else "pass"
        judgement.criteria[name] = Criterion.say(status, "not_proved")  # type: ignore[arg-type]
    judgement.white_wins = "proved" if proved_key else "undecided"
    judgement.solution.key = proved_key or "12-7"
    problem.keys = keys
    problem.walk = walk
    problem.questions.extend(recorded)
    start = problem.position
    children = {
        move_notation(start, to_move(raw)): child
        for raw, child in problem.search.expand(problem.root)
    }
    return open_questions(problem), start, children, problem.root  # type: ignore[return-value]


def test_open_first_moves_wait_for_every_undecided_criterion_until_a_key_is_proved() -> None:
    keys = {"12-7": "undecided", "12-8": "undecided", "18-13": "refuted"}
    found, start, children, _root = gathered(("A", "C", "F"), keys)
    assert [(q.kind, q.criteria, q.line) for q in found] == [
        ("key", ("A", "C", "F"), ("12-7",)),
        ("key", ("A", "C", "F"), ("12-8",)),
    ]
    assert (
        found[1].position == start.play(move(start, "12-8")) and found[1].node == children["12-8"]
    )
    # once the composer's key 12-7 is proved... it is no open key; while it is open itself,
    # everything waits on it; another open first move is only a possible cook (C)
    found, *_ = gathered(("C", "F"), keys, proved_key="12-8")
    assert [(q.kind, q.criteria, q.line) for q in found] == [
        ("key", ("C",), ("12-7",)),
        ("key", ("C", "F"), ("12-8",)),
    ]


def test_the_walks_open_moves_and_its_stop_are_asked_besides_the_criterias_own() -> None:
    start = parse_fen("W:W12,18:B9,25")
    after = start.play(move(start, "12-7"))
    root = root_node(INTERNATIONAL, start.state())
    node_12_8 = root_node(INTERNATIONAL, start.play(move(start, "12-8")).state())
    walk = TreeWalk(
        open_list=[OpenMove(("12-8",), start, move(start, "12-8"), node_12_8)],
        stopped=OpenMove(("12-7",), after, None, root),
    )
    end = Question("end", ("F",), ("12-7", "9-13"), after, root)
    found, *_ = gathered(("C", "E", "F", "G"), {}, proved_key="12-7", walk=walk, recorded=(end,))
    assert [(q.kind, q.criteria, q.line) for q in found] == [
        ("alternative", ("C", "G"), ("12-8",)),
        ("end", ("F",), ("12-7", "9-13")),
        ("stopped", ("C", "G"), ("12-7",)),
        ("start", ("E",), ()),  # E has no question of its own: the start position
    ]
    alternative, _end, stopped, bare = found
    assert alternative.position == start.play(move(start, "12-8")) and alternative.node == node_12_8
    assert (stopped.position, stopped.node) == (after, root)
    assert (bare.position, bare.node) == (start, root)
    # only the criteria still undecided are named; a question for none of them is left out
    found, *_ = gathered(("G",), {}, proved_key="12-7", walk=walk, recorded=(end,))
    assert [(q.kind, q.criteria) for q in found] == [("alternative", ("G",)), ("stopped", ("G",))]


def test_each_undecided_criterion_gets_a_question_before_the_rest_up_to_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = parse_fen("W:W12,18:B9,25")
    root = root_node(INTERNATIONAL, start.state())
    many = tuple(Question("swap", ("E",), (f"e{i}",), start, root) for i in range(4))
    last = Question("end", ("F",), ("f",), start, root)
    keys = {"12-8": "undecided"}
    monkeypatch.setattr(gathering, "MAX_QUESTIONS", 3)
    found, *_ = gathered(("C", "E", "F"), keys, proved_key="12-7", recorded=(*many, last))
    # the open key (C), then F's only question before E's second, then E's up to three
    # besides the keys; every question once
    assert [q.line for q in found] == [("12-8",), ("e0",), ("f",), ("e1",)]
    monkeypatch.setattr(gathering, "MAX_QUESTIONS", 12)
    found, *_ = gathered(("C", "E", "F"), keys, proved_key="12-7", recorded=(*many, many[0], last))
    assert [q.line for q in found] == [("12-8",), ("e0",), ("f",), ("e1",), ("e2",), ("e3",)]


def test_a_question_about_a_man_keeps_his_square() -> None:
    start = parse_fen("W:W12,18:B9,25")
    root = root_node(INTERNATIONAL, start.state())
    idle = Question("idle", ("D",), ("12-7",), start, root, 18)
    found, *_ = gathered(("D",), {}, proved_key="12-7", recorded=(idle,))
    assert found == [idle]
