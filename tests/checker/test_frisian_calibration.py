"""A Fries Spel problem's opinions quote the Frisian agreement (measured on the settled Fries Spel
questions, ``benchmarks/opinion.py --variant frisian``), never the International one: in the
text report, on the problem pages and on the check page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook_build.checker import calibration, calibration_text, judgement_from_json
from rulebook_build.checker.grade import Judgement
from rulebook_build.checkpage.entry import check, load
from rulebook_build.cli.check import report
from rulebook_build.site.opinions import verdict_opinions

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLES = REPOSITORY / "problems/examples"
AN_OPINION = {
    "kind": "key",
    "criteria": ["C"],
    "after": "26-21",
    "says": "no win",
    "score": -120,
    "depth": 9,
    "nodes": 1000000,
    "line": "17-22",
    "budget": 1000000,
}


def _frisian_judgement() -> Judgement:
    """The stored judgement of a Frisian example, with one opinion added (the examples are all
    settled, so none has one of its own)."""
    for line in (REPOSITORY / "problems/verdicts.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["variant"] == "frisian":
            return judgement_from_json({**record, "opinions": [AN_OPINION]})
    raise AssertionError("no Frisian record among the stored verdicts")


def _figures(variant: str) -> str:
    found = calibration(variant)
    assert found is not None and found.variant == variant, variant
    return f"({found.agreed} of {found.asked})"


def test_both_variants_are_measured_and_differ() -> None:
    assert _figures("frisian") != _figures("international")
    frisian = calibration("frisian")
    assert frisian is not None and frisian.asked >= 200 and frisian.open_asked == 0
    said = calibration_text(frisian)
    assert said.startswith("On the Fries Spel questions") and _figures("frisian") in said
    assert "in het Fries Spel" in calibration_text(frisian, "nl")
    assert "yn it Fryske spul" in calibration_text(frisian, "fy")


def test_the_report_and_the_pages_quote_the_frisian_figure() -> None:
    judgement = _frisian_judgement()
    text = report(judgement)
    assert _figures("frisian") in text and _figures("international") not in text
    for lang in ("en", "nl", "fy"):
        shown = verdict_opinions(judgement, lang)
        assert shown is not None
        assert shown["calibration"] == calibration_text(calibration("frisian"), lang)


@pytest.mark.parametrize("variant", ["frisian", "international"])
def test_the_check_page_quotes_the_figure_of_the_problems_variant(variant: str) -> None:
    text = (EXAMPLES / f"{variant}-01.pdn").read_text(encoding="utf-8")
    loaded = json.loads(load(text))
    assert loaded["variant"] == variant
    record = json.loads(check(json.dumps(loaded), 2, "en"))
    assert record["report"]["calibration"] == calibration_text(calibration(variant), "en")
