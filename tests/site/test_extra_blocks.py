"""The generated blocks: rules comparison, Dampromotie scores, problem pages and index."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from rulebook_build.checker.grade import CRITERIA, Criterion, Judgement, SolutionCheck
from rulebook_build.checker.judge import problem_digest
from rulebook_build.errors import RulebookError
from rulebook_build.notation.diagram import DiagramSpec
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.render.html import Line
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.site.comparison import render_comparison, render_score
from rulebook_build.site.problems import (
    ProblemSite,
    render_collection,
    render_index,
    render_problem,
)


def no_diagram(block: str, lines: object = ()) -> str:
    return f"<pre class='diagram'>{block}</pre>"


def spec_diagram(spec: DiagramSpec, lines: Sequence[Line] = ()) -> str:
    """A problem page's diagram as the moves it was given (the page passes objects)."""
    return f"<pre class='diagram'>moves: {' '.join(map(str, spec.moves))}</pre>"


def test_comparison_is_computed_from_the_variants() -> None:
    table = render_comparison("", lang="en")
    assert "diagonal (4 directions)" in table
    assert "diagonal, horizontal and vertical (8 directions)" in table
    # the capture values come from Variant.capture_value: 3 kings between 5 and 6 men
    assert "63 / 64 / 189 / 160 / 192" in table
    assert "1 / 2 / 3 / 5 / 6" in table
    assert "at most 3 non-capturing moves" in table
    assert "5 moves each" in table and "16 in one king" in table and "25 moves each" in table
    assert "Internationaal" in render_comparison("", lang="nl")


@pytest.mark.parametrize(
    ("lang", "heading", "limit"),
    [
        ("nl", "Slagrichtingen", "hoogstens 3 streken achtereen met dezelfde dam"),
        ("en", "Capture directions", "at most 3 non-capturing moves in a row"),
        ("fy", "Slachrjochtingen", "op syn heechst 3 setten efterinoar mei deselde dam"),
    ],
)
def test_the_comparison_is_said_in_the_language_asked(lang: str, heading: str, limit: str) -> None:
    """Its words are the catalogs': Frisian where it is asked in Frisian (the Frisian site asks
    it in Dutch, on a page shown in Dutch), the argument in its place."""
    table = render_comparison("", lang=lang)
    assert f"<th>{heading}</th>" in table
    assert limit in table


def test_the_score_is_said_in_the_language_asked() -> None:
    block = "position: W:W31,32,33,34,35:B1"
    html = render_score(block, lang="fy", where="test.md:1", diagram=no_diagram)
    assert "<strong>Útslach neffens de puntetelling: 9-1</strong>" in html
    assert "wyt stiet 4 skiven foar, in dam telt as twa (art. 4/5)" in html


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ("position: W:W33:B28\nmoves: 33x22", "12-0"),
        ("position: W:W31,32,33,34,35:B1", "9-1"),
        ("position: W:WK28,35:B1", "7-3"),
        ("position: W:WK28:BK27", "6-4"),
        ("position: W:W7:B44\nmoves: 7-2 44-50", "6-4"),
        ("position: W:WK27:BK28", "4-6"),
    ],
)
def test_scores_are_computed_by_the_engine(block: str, expected: str) -> None:
    html = render_score(block, lang="nl", where="test.md:1", diagram=no_diagram)
    assert f"<strong>Uitslag volgens de puntentelling: {expected}</strong>" in html


def test_score_with_an_illegal_move_is_a_located_error() -> None:
    with pytest.raises(RulebookError) as caught:
        render_score(
            "position: W:W33:B28\nmoves: 33-29", lang="nl", where="x.md:3", diagram=no_diagram
        )
    assert "33-29" in str(caught.value)


PROBLEM = """[Event "t"]
[SetUp "1"]
[FEN "W:W6,11,18,22,28:B17,32,36,37,43"]
[GameType "20"]
[Composer "A. Composer"]
[Source "Het Blad, 1990"]
[Title "Offer op 1"]
[Stipulation "White to play and win"]

1. 6-1 32x12 2. 1x31 36x18 3. 11x13 2-0
"""

METADATA = """title = "Test"
kind = "contest"
entry = "number"
stage = "final"
[points]
1 = 12.5
[[claims]]
entry = "1"
kind = "anticipation"
by = "B. Solver"
text = "as in Het Blad, 1985"
"""


def make_site(
    root: Path, *, with_verdict: bool, extra: dict[str, object] | None = None
) -> ProblemSite:
    folder = root / "test"
    folder.mkdir(exist_ok=True)
    (folder / "collection.toml").write_text(METADATA, encoding="utf-8")
    (folder / "p.pdn").write_text(PROBLEM, encoding="utf-8")
    if with_verdict:
        games, _ = read_pdn_file(folder / "p.pdn")
        judgement = Judgement(
            source="p.pdn:1",
            event=None,
            variant="international",
            fen=games[0].tag("FEN") or "",
            verdict="sound",
            white_wins="proved",
            winning_keys=["6-1"],
            solution=SolutionCheck(True, "6-1", True, None),
            criteria={name: Criterion("pass", f"detail {name}") for name in CRITERIA},
            digest=problem_digest(games[0], INTERNATIONAL),
        )
        # as 'rulebook check --json' writes it: the English detail and the message behind it
        judgement.criteria["D"] = Criterion.say("pass", "d_pass", count=7)
        record = judgement.as_json()
        record.update(extra or {})
        (root / "verdicts.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    return ProblemSite(root)


def problem_page(root: Path, lang: str, **extra: object) -> str:
    return render_problem(
        "collection: test\nentry: 01",
        lang=lang,
        where="p.md:3",
        site=make_site(root, with_verdict=True, extra=extra),
        diagram=spec_diagram,
        root="../../../",
    )


def test_problem_page_shows_tags_solution_player_and_verdict(tmp_path: Path) -> None:
    html = problem_page(tmp_path, "nl")
    assert "A. Composer" in html and "Het Blad, 1990" in html and "Internationaal" in html
    assert "moves: 6-1 32x12 1x31 36x18 11x13" in html  # the player's main line
    assert "1. 6-1 32x12 2. 1x31 36x18 3. 11x13" in html  # the solution text
    assert "correct</span>" in html and "detail C" in html
    # the detail with a message is shown in the page's language, the others as written
    assert "elk van de 7 schijven is nodig" in html and "each of the 7" not in html
    # the collection it belongs to, and the claim the contest published against it
    assert '<a href="../../../problemen/test/">Test</a>, 1' in html
    assert "voorganger" in html and "B. Solver" in html


def test_the_english_page_shows_the_english_detail(tmp_path: Path) -> None:
    html = problem_page(tmp_path, "en")
    assert "each of the 7 men is needed: without it the solution fails" in html


def test_cooks_duals_and_false_solutions_become_lines_of_the_player(tmp_path: Path) -> None:
    seen: list[Line] = []

    def diagram(spec: DiagramSpec, lines: Sequence[Line] = ()) -> str:
        seen.extend(lines)
        return "<pre></pre>"

    render_problem(
        "collection: test\nentry: 01",
        lang="en",
        where="p.md:3",
        site=make_site(
            tmp_path,
            with_verdict=True,
            extra={
                "cooks": [{"key": "6-1", "line": "6-1 32x12", "combination": False}],
                "duals": [
                    {
                        "after": "6-1 32x12",
                        "moves": ["1x31", "1x26"],
                        "kind": "variation",
                        "level": "remark",
                        "on_main": False,
                    },
                    {
                        "after": "6-1 32x12",
                        "moves": ["1x31", "1x45"],
                        "kind": "landing",
                        "level": "info",
                        "on_main": False,
                    },
                ],
                "tries": [{"key": "28-23", "line": "28-23 17x19", "refutation": "17x19"}],
            },
        ),
        diagram=diagram,
        root="",
    )
    labels = [line.label for line in seen]
    assert labels == ["Cook 6-1", "Dual 1x26", "Try 28-23?"]  # information-only duals are not
    assert [str(move) for move in seen[1].moves] == ["6-1", "32x12", "1x26"]
    assert "Black refutes with 17x19" in seen[2].sentence


def test_problem_page_refuses_a_stale_verdict(tmp_path: Path) -> None:
    site = make_site(tmp_path, with_verdict=False)
    with pytest.raises(RulebookError) as caught:
        render_problem(
            "collection: test\nentry: 01",
            lang="en",
            where="p.md:3",
            site=site,
            diagram=spec_diagram,
            root="",
        )
    assert "rulebook check --json" in str(caught.value) and "p.pdn:1" in str(caught.value)


def test_collection_page_is_a_jury_report(tmp_path: Path) -> None:
    site = make_site(tmp_path, with_verdict=True)
    html = render_collection("collection: test", lang="en", where="c.md:1", site=site, root="../")
    assert 'data-grade="correct"' in html and "12.5" in html  # grade and points
    assert "final award" in html and "anticipation (B. Solver)" in html
    # the page's own language: English pages live under en/, the thumbnails at the root
    assert '<a href="../en/problemen/test/01/">1</a>' in html
    assert 'src="../assets/rulebook/problems/' in html
    dutch = render_collection("collection: test", lang="nl", where="c.md:1", site=site, root="../")
    assert '<a href="../problemen/test/01/">1</a>' in dutch


def test_problem_index_lists_every_problem_with_its_grade(tmp_path: Path) -> None:
    site = make_site(tmp_path, with_verdict=True)
    html = render_index("", lang="en", where="i.md:1", site=site, root="")
    assert '<a href="en/problemen/test/01/">Offer op 1</a>' in html and ">correct<" in html
    assert 'data-text="offer op 1 a. composer het blad, 1990 test"' in html
    assert "no problems yet" in render_index(
        "variant: frisian", lang="en", where="i.md:1", site=site, root=""
    )
