"""The engine's opinions on what a judgement left open (``checker/opinion.py``,
``criteria/questions.py``, ``opinion_words.py``): which questions are asked, how an opinion is
stored and read back, and the words that say it is no proof.  The engine itself is tested in
``test_engine.py``; an opinion asked of it in a real judgement is tested there too."""

from __future__ import annotations

import pytest

from rulebook_build.checker.criteria.questions import open_questions
from rulebook_build.checker.grade import Judgement
from rulebook_build.checker.judge import Judge
from rulebook_build.checker.native import WIN_SCORE
from rulebook_build.checker.opinion import WIN_THRESHOLD, Opinion, Question, says_of
from rulebook_build.checker.opinion_words import describe
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.notation.replay import game_variant, start_position
from tests.datafiles import PWCP


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
        lines = [(q.line, q.square) for q in questions]
        assert len(lines) == len(set(lines))


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
        assert Opinion.from_json(written.as_json()) == written


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
        Opinion.from_json(broken)


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
