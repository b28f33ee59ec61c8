"""A contest's final award read as a report, in Debian's Chromium.

The worked example of guides/contests.md (three entries: two correct, one incorrect) is built
at its final stage, with every column that stage can show: ranks, awards, points, a claim, and
a likeness to a problem of another collection (a copy of A2 published in 1975). Measured:

- at 1280 px the table does not scroll sideways, its faults column is at least 180 px wide,
  and no word of it is broken over two lines;
- at 390 px each entry is a card, and nothing runs off the side of the page;
- on paper (an A4 page, print media) the whole table fits the page's width;
- axe-core finds no WCAG 2.1 A or AA violation at either width.

The entries' verdicts are judged here, counted in work, with the tables of up to 4 pieces.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.checker.judge import Judge
from rulebook_build.engine.tables.endgame import EndgameTables
from rulebook_build.engine.tables.kinds import CheckerTables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.rules import INTERNATIONAL

from .conftest import CHROMIUM, REPOSITORY, Site, mkdocs_build, write_site
from .test_accessibility import AXE, violations
from .test_browser import Console, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
    ),
]

CONTEST = """\
title = { nl = "Clubwedstrijd 2026", en = "Club contest 2026" }
kind = "contest"
files = ["inzendingen.pdn"]
date = "2026"
organiser = "Damclub De Zetter"
jury = "J. de Vries"
stage = "final"
entry = "event"
unsound_scores_zero = true

[points]
A1 = 12
A2 = 9.5

[[claims]]
entry = "A2"
kind = "anticipation"
line = "1. 42-37 31x42 2. 48x37"
by = "P. Bakker"
text = { nl = "Hetzelfde idee als een probleem uit 1975, met de tegenaanval op 27.", \
en = "The same idea as a problem of 1975, with the counter-attack on 27." }

[[awards]]
entry = "A1"
rank = 1
award = "prize"

[[awards]]
entry = "A2"
rank = 2
award = "honourable-mention"
"""

OLD = 'title = "Oude problemen"\nkind = "collection"\nentry = "number"\n'

COLUMNS = 11
"""Number, diagram, entry, pieces, grade, faults, rank, award, points, claims, like."""


def guide_entries() -> str:
    """The three entries of guides/contests.md's worked example, as the guide prints them."""
    guide = (REPOSITORY / "guides" / "contests.md").read_text(encoding="utf-8")
    example = guide[guide.index("## Worked example") :]
    found = re.search(r"```text\n(\[Event \"A1\"\].*?)```", example, re.DOTALL)
    assert found is not None, "the worked example's entries are gone from guides/contests.md"
    return found.group(1)


def judged(paths: list[Path]) -> str:
    """The problems' verdicts, as ``rulebook check --json --deterministic`` stores them, with
    the tables of up to 4 pieces (built once by the suite; none larger is waited for)."""
    kinds = [
        EndgameTables(INTERNATIONAL, max_pieces=4, max_pair_slots=None, semantics=semantics)
        for semantics in ("pure", "rules")
    ]
    judge = Judge(INTERNATIONAL, tables=CheckerTables(*kinds))
    lines = []
    for path in paths:
        games, errors = read_pdn_file(path)
        assert not errors
        for game in games:
            start = parse_fen(game.tag("FEN") or "", variant=INTERNATIONAL)
            lines.append(json.dumps(judge.judge(game, start, seconds=20, by_work=True).as_json()))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def final_award(tmp_path_factory: pytest.TempPathFactory) -> Site:
    root = write_site(tmp_path_factory.mktemp("final-award"))
    with (root / "mkdocs.yml").open("a", encoding="utf-8") as config:
        config.write("extra:\n  generator: false\n")  # as the site's: no theme credit
    contest = root / "problems" / "clubwedstrijd-2026"
    contest.mkdir(parents=True)
    entries = guide_entries()
    (contest / "inzendingen.pdn").write_text(entries, encoding="utf-8")
    (contest / "collection.toml").write_text(CONTEST, encoding="utf-8")
    old = root / "problems" / "oud"
    old.mkdir()
    a2 = entries[entries.index('[Event "A2"]') : entries.index('[Event "A3"]')]
    copy = a2.replace('[Event "A2"]', '[Event "Oud 1"]').replace("B. de Boer", "P. Bakker")
    (old / "oud.pdn").write_text(copy.replace("Offer op 37", "Het Blad, 1975"), encoding="utf-8")
    (old / "collection.toml").write_text(OLD, encoding="utf-8")
    verdicts = judged([contest / "inzendingen.pdn", old / "oud.pdn"])
    (root / "problems" / "verdicts.jsonl").write_text(verdicts, encoding="utf-8")
    grades = [json.loads(line)["grade"] for line in verdicts.splitlines()]
    assert grades[:3] == ["correct", "correct", "incorrect"]  # as the guide says
    result = mkdocs_build(root, root / "site")
    assert result.returncode == 0, result.stderr
    return Site(root, root / "site", result)


@pytest.fixture(scope="module")
def server(final_award: Site) -> Iterator[str]:
    yield from serve(final_award)


LAYOUT = """(table) => {
    const frame = table.closest('.rb-table-scroll');
    const faults = table.querySelector('thead th:nth-child(6)');
    return {
        scrollWidth: frame.scrollWidth, clientWidth: frame.clientWidth,
        columns: table.querySelectorAll('thead th').length,
        faultsHeader: faults.textContent.trim(),
        faults: faults.getBoundingClientRect().width,
        display: getComputedStyle(table).display,
        pageScrolls: document.documentElement.scrollWidth
                     > document.documentElement.clientWidth,
    };
}"""

BROKEN_WORDS = """(within) => {
    // every word of the visible text (a run of characters between spaces and hyphens: a line
    // may end after the hyphen of "counter-attack"): one broken over two lines has client
    // rectangles on two lines
    const broken = [];
    const walker = document.createTreeWalker(within, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement.getClientRects().length) continue;
        const words = /[^\\s-]+/g;
        let word;
        while ((word = words.exec(node.data))) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()]
                .filter(r => r.width > 0).map(r => Math.round(r.bottom)));
            if (lines.size > 1) broken.push(word[0]);
        }
    }
    return broken;
}"""

OVERFLOW = """() => {
    // what reaches past the right edge of the page, the clipped header row of the cards aside
    const edge = document.documentElement.clientWidth + 0.5;
    return [...document.querySelectorAll('article *')]
        .filter(e => !e.closest('thead') && e.getBoundingClientRect().right > edge)
        .map(e => e.tagName + (e.className ? '.' + e.className : ''));
}"""


def open_report(browser: Any, server: str, lang: str, width: int) -> tuple[Any, Any, Console]:
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    console = Console(page)
    response = page.goto(f"{server}/{lang}problemen/clubwedstrijd-2026/")
    assert response is not None and response.status == 200
    page.wait_for_selector("table.rb-report")
    return context, page, console


@pytest.mark.parametrize("lang", ["", "en/"])
def test_at_1280_px_the_final_award_fits_with_a_readable_faults_column(
    browser: Any, server: str, lang: str
) -> None:
    context, page, console = open_report(browser, server, lang, 1280)
    table = page.locator("table.rb-report")
    layout = table.evaluate(LAYOUT)
    assert layout["columns"] == COLUMNS, layout
    assert layout["faultsHeader"] in ("Fouten en opmerkingen", "Faults and remarks"), layout
    assert layout["scrollWidth"] <= layout["clientWidth"], layout  # no sideways scrolling
    assert layout["faults"] >= 180, layout
    assert not layout["pageScrolls"], layout
    assert table.evaluate(BROKEN_WORDS) == []
    # the faults are there to be read: A3's two, whole
    faults = page.locator('tr[data-title="A3"] .rb-cell-findings li')
    assert faults.count() == 2 and "B2" in faults.first.inner_text()
    assert console.problems == [], console.problems
    context.close()


@pytest.mark.parametrize("lang", ["", "en/"])
def test_at_390_px_each_entry_is_a_card_and_nothing_overflows(
    browser: Any, server: str, lang: str
) -> None:
    context, page, console = open_report(browser, server, lang, 390)
    table = page.locator("table.rb-report")
    layout = table.evaluate(LAYOUT)
    assert layout["display"] == "block", layout  # cards, not a table
    assert layout["scrollWidth"] <= layout["clientWidth"], layout
    assert not layout["pageScrolls"], layout
    assert page.evaluate(OVERFLOW) == []
    assert page.locator("table.rb-report tbody").evaluate(BROKEN_WORDS) == []
    # a card's faults take the card's width, not a column's share of it
    faults = page.locator('tr[data-title="A3"] .rb-cell-findings').bounding_box()
    card = page.locator('tr[data-title="A3"]').bounding_box()
    assert faults is not None and card is not None and faults["width"] >= 0.9 * card["width"]
    assert console.problems == [], console.problems
    context.close()


def test_on_paper_the_whole_final_award_fits_the_page(browser: Any, server: str) -> None:
    """An A4 page's width less the printer's margins (about 718 CSS px), in print media."""
    context = browser.new_context(viewport={"width": 718, "height": 1000})
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto(f"{server}/problemen/clubwedstrijd-2026/")
    table = page.locator("table.rb-report")
    layout = table.evaluate(LAYOUT)
    content = page.locator(".md-content__inner").bounding_box()
    box = table.bounding_box()
    assert layout["columns"] == COLUMNS and layout["display"] == "table", layout
    assert content is not None and box is not None
    assert box["x"] + box["width"] <= content["x"] + content["width"] + 0.5, (box, content)
    assert table.evaluate(BROKEN_WORDS) == []
    assert page.locator(".rb-filters").is_hidden()
    # no sort arrow printed beside a header
    arrows = page.evaluate(
        """() => [...document.querySelectorAll('table.rb-report th button')]
            .map(b => getComputedStyle(b, '::after').content).filter(c => c && c !== 'none')"""
    )
    assert arrows == []
    context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_wcag_violation_in_the_final_award(
    browser: Any, server: str, width: int
) -> None:
    if not AXE.is_file():
        pytest.fail("node_modules/axe-core is missing: run 'npm ci' (scripts/test.sh does)")
    found: list[str] = []
    for lang in ("", "en/"):
        context, page, _ = open_report(browser, server, lang, width)
        found += [f"/{lang}: {line}" for line in violations(page)]
        context.close()
    assert found == [], "\n".join(found)


def test_the_guides_entries_are_read_whole() -> None:
    """The fixture's entries are the guide's three, each with its Event tag."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "entries.pdn"
        path.write_text(guide_entries(), encoding="utf-8")
        games, errors = read_pdn_file(path)
    assert not errors and [game.tag("Event") for game in games] == ["A1", "A2", "A3"]
