"""A problem page's diagram is made from objects: the start position, the solution's moves and
the verdict's other lines as the notation layer read them, never written as a diagram block's
text to be parsed again (issue 38).  The HTML is the one the block's text gave."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from rulebook_build.notation.diagram import DiagramSpec
from rulebook_build.notation.fen import format_fen
from rulebook_build.notation.replay import replay
from rulebook_build.render.html import Line
from rulebook_build.site.blocks import BlockRenderer
from rulebook_build.site.collections import read_collection
from rulebook_build.site.diagrams import DiagramCache, render_block, render_spec
from rulebook_build.site.problems import (
    COLLECTION_FRONT_MATTER,
    ProblemSite,
    alternative_lines,
    collection_markdown,
    markdown_literal,
    problem_markdown,
    render_problem,
    render_problem_page,
)
from rulebook_build.site.state import SiteBuild
from tests.reads import count_reads

from .conftest import REPOSITORY
from .test_contest_stages import CONTEST, ENTRIES

PROBLEM = ("pwcp-2", "a4")
"""A contest entry whose solution is published and whose verdict has cooks or duals."""


def test_a_problem_page_reaches_its_diagram_without_parsing_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_text(*args: object, **kwargs: object) -> None:
        raise AssertionError("a diagram block's text was parsed on the way to a problem page")

    monkeypatch.setattr("rulebook_build.site.diagrams.parse_diagram", no_text)
    monkeypatch.setattr("rulebook_build.notation.diagram.parse_diagram", no_text)
    site = ProblemSite(REPOSITORY / "problems")
    asked: list[tuple[DiagramSpec, Sequence[Line]]] = []

    def diagram(spec: DiagramSpec, lines: Sequence[Line]) -> str:
        asked.append((spec, lines))
        return render_spec(spec, lang="en", element_id="d", cache=DiagramCache(None), lines=lines)

    html = render_problem(
        f"collection: {PROBLEM[0]}\nentry: {PROBLEM[1]}",
        lang="en",
        where="test",
        site=site,
        diagram=diagram,
        root="../../../",
    )
    ((spec, lines),) = asked
    entry = site.entry(*PROBLEM, where="test")
    assert spec.position == entry.start and spec.numbers
    assert spec.caption == "Start position, White to play and win"
    assert spec.moves and lines, "the solution and the verdict's other lines are played"
    for line in lines:  # each line is legal from the start, as the rules engine plays it
        position = spec.position
        for move in line.moves:
            assert move in position.legal_moves()
            position = position.play(move)
    assert 'class="rb-diagram solution-player"' in html


def test_the_objects_give_the_html_the_blocks_text_gave(tmp_path: Path) -> None:
    site = ProblemSite(REPOSITORY / "problems")
    entry = site.entry(*PROBLEM, where="test")
    captured: list[tuple[DiagramSpec, Sequence[Line]]] = []
    render_problem(
        f"collection: {PROBLEM[0]}\nentry: {PROBLEM[1]}",
        lang="nl",
        where="test",
        site=site,
        diagram=lambda spec, lines: captured.append((spec, lines)) or "",
        root="",
    )
    ((spec, lines),) = captured
    record = site.record(entry)
    assert record is not None
    block = "\n".join(
        [
            f"position: {format_fen(spec.position)}",
            f"variant: {entry.variant}",
            "moves: " + " ".join(step.notation for step in replay(entry.game).main.moves),
            "numbers: yes",
            f"caption: {spec.caption}",
        ]
    )
    cache = DiagramCache(None)
    from_text = render_block(
        block,
        lang="nl",
        source="test",
        first_line=1,
        indent=0,
        element_id="d",
        cache=cache,
        lines=alternative_lines(record, "nl"),
    )
    assert render_spec(spec, lang="nl", element_id="d", cache=cache, lines=lines) == from_text


def test_a_made_page_is_its_title_and_the_page_rendered_from_the_entry() -> None:
    """No block of text on the way: the page's Markdown is its title, and the plugin renders
    the rest from the entry (``SiteBuild.made_pages``), the same HTML a block naming it gives."""
    build = SiteBuild()
    build.problems = ProblemSite(REPOSITORY / "problems")
    build.languages.append("en")
    entry = build.problems.entry(*PROBLEM, where="test")
    collection = entry.collection
    assert problem_markdown(entry) == f"# {markdown_literal(entry.title)}\n"
    made_markdown = collection_markdown(collection, "en")
    assert made_markdown.startswith(COLLECTION_FRONT_MATTER + "# ")
    assert made_markdown.removeprefix(COLLECTION_FRONT_MATTER).count("\n") == 1
    renderer = BlockRenderer(build)
    made = renderer.made_page(entry)  # no page under way: the diagrams count from 1
    by_text = render_problem(
        f"collection: {PROBLEM[0]}\nentry: {PROBLEM[1]}",
        lang="en",
        where="test",
        site=build.problems,
        diagram=renderer._diagram_of(build.current_page()),
        root="",
    )
    assert made == by_text and 'class="rb-problem"' in made
    table = renderer.made_page(collection)
    assert "rb-report" in table and entry.name in table


def test_a_collection_reads_each_problem_once_and_its_pages_read_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The collection reads each entry's FEN once (the start position and the solution replayed
    from that reading) and computes its digest once; a problem's page is drawn from what the
    entry holds, reading no FEN again (issue 52)."""
    folder = tmp_path / "wedstrijd"
    folder.mkdir()
    (folder / "collection.toml").write_text(CONTEST.format(stage="final"), encoding="utf-8")
    (folder / "entries.pdn").write_text(ENTRIES, encoding="utf-8")
    counted = count_reads(monkeypatch)
    collection = read_collection(folder)
    assert len(collection.entries) == 2
    assert counted == {"fen": 2, "digest": 2}
    monkeypatch.undo()

    site = ProblemSite(REPOSITORY / "problems")
    entry = site.entry(*PROBLEM, where="test")

    def page() -> str:
        return render_problem_page(
            entry,
            lang="en",
            where="test",
            site=site,
            diagram=lambda spec, lines: format_fen(spec.position),
            root="",
        )

    first = page()  # what the site computes once for every page (the problems like it) is ready
    counted = count_reads(monkeypatch)
    assert page() == first and format_fen(entry.start) in first
    assert counted == {}
