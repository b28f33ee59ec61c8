"""The settled Fries Spel questions the Frisian opinion is calibrated on
(``benchmarks/data/frisian-questions.json``, made by ``benchmarks/frisian_questions.py``): their
answers are proofs, so some of them are settled again here by the checker's proof search."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rulebook_build.engine import CheckerTables, ProofSearch, Work, checker_tables, root_node
from rulebook_build.notation import parse_fen
from rulebook_build.rules import find_variant

DATA = Path(__file__).resolve().parents[2] / "benchmarks/data/frisian-questions.json"
FRISIAN = find_variant("frisian")
SECONDS = float(json.loads(DATA.read_text(encoding="utf-8"))["seconds_of_work"])
"""The work each question was settled in, unless it says its own (the hard ones): the same
search settles it the same way."""


def _questions() -> list[dict[str, object]]:
    questions = json.loads(DATA.read_text(encoding="utf-8"))["questions"]
    assert isinstance(questions, list)
    return questions


def test_the_set_is_large_and_mixed() -> None:
    questions = _questions()
    kinds = Counter((q["source"], q["settled"]) for q in questions)
    assert len(questions) >= 200
    for source in ("example", "composed", "ending", "hard"):
        assert kinds[(source, "proved")] and kinds[(source, "refuted")], kinds
    assert all(q["wins"] == (q["settled"] == "proved") for q in questions)
    assert len({q["fen"] for q in questions}) == len(questions)


def _sample() -> list[dict[str, object]]:
    """The question of each source and answer (and of the endings with a king) that took the
    search fewest positions, and every fiftieth of the easier sources: a few seconds of search
    in all."""
    chosen: dict[tuple[object, ...], dict[str, object]] = {}
    for index, question in enumerate(_questions()):
        king = question["source"] == "ending" and "K" in str(question["fen"])
        group = (question["source"], question["settled"], king)
        known = chosen.get(group)
        if known is None or int(question["positions"]) < int(known["positions"]):  # type: ignore[call-overload]
            chosen[group] = question
        if index % 50 == 0 and question["source"] != "hard":
            chosen[(index,)] = question
    return list({str(q["fen"]): q for q in chosen.values()}.values())


@pytest.fixture(scope="module")
def tables() -> CheckerTables:
    """The cache's Frisian tables, opened once (the compiled search checks their files)."""
    return checker_tables(FRISIAN)


@pytest.mark.parametrize("question", _sample(), ids=lambda q: str(q["where"]))
def test_a_stored_answer_is_what_the_proof_search_settles(
    tables: CheckerTables, question: dict[str, object]
) -> None:
    search = ProofSearch(FRISIAN, tables=tables, prover=tables.prover(), timer=Work())
    position = parse_fen(str(question["fen"]), variant=FRISIAN)
    seconds = float(question.get("seconds_of_work", SECONDS))  # type: ignore[arg-type]
    verdict = search.prove(root_node(FRISIAN, position.state()), seconds=seconds).verdict
    assert verdict == question["settled"]
    assert question["wins"] == (verdict == "proved")
