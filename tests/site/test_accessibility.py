"""Accessibility of the built site in Debian's Chromium: axe-core finds no WCAG 2.1 A or AA
violation on any kind of page, on a desktop and on a phone, in Dutch and English; and the
solution player can be reached and used without a mouse or without sight of colour alone.
The check page showing the engine's opinions is looked at by axe in ``test_checker_page.py``
(``test_what_stays_open_gets_the_engines_opinion_as_on_the_command_line``), which judges that
problem anyway.

axe-core comes from npm, pinned in package.json (``npm ci``, which ``scripts/test.sh`` runs):
``node_modules/axe-core/axe.min.js``. Playwright injects it as an inline script, which the
site's Content-Security-Policy forbids, so the pages are opened with ``bypass_csp``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from rulebook_build.notation.replay import replay
from rulebook_build.render.strings import text
from rulebook_build.rules import Position
from rulebook_build.site.problems import ProblemSite

from .conftest import CHROMIUM, REPOSITORY, Site
from .test_browser import Console, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
    ),
]

AXE = REPOSITORY / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

PAGES: dict[str, tuple[str, str]] = {
    "home": ("", "article h1"),
    "rules": ("regels/fries-spel/", ".md-typeset__scrollwrap"),
    "comparison": ("regels/vergelijking/", "article table"),
    "editions": ("regels/kndb-2009-2018/", "article .rb-editions .rb-diff ins"),
    "index": ("problemen/", "article h1"),
    "collection": ("problemen/cat-b1/", "article h1"),
    "contest": ("problemen/pwcp-2/", "article h1"),
    "problem": ("problemen/pwcp-2/a4/", ".solution-player.rb-js"),
    "relatives": ("problemen/cat-b1/02/", ".rb-relatives"),
    "check": ("controleren/", ".rb-checker-app:not([hidden])"),
}
"""Each kind of page: its address under a language's root, and what shows it is that page
(and that its script ran) rather than a "not found" page that axe would pass."""

EXCLUDED: list[list[str]] = []
"""Nodes that axe must leave out: violations of the Material theme itself that our CSS and
templates cannot fix, each with its rule and reason. None so far."""

PROBLEM = ("pwcp-2", "a4")
"""The problem page of the player tests: a contest entry whose solution is published."""

SETTLE = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two frames: the page's resize observers (the scrolling tables) have run."""


@pytest.fixture(scope="module")
def real_server(real_site: Site) -> Iterator[str]:
    if not AXE.is_file():
        pytest.fail("node_modules/axe-core is missing: run 'npm ci' (scripts/test.sh does)")
    yield from serve(real_site)


def open_page(
    browser: Any, url: str, width: int, scheme: str = "light"
) -> tuple[Any, Any, Console]:
    context = browser.new_context(
        viewport={"width": width, "height": 900}, bypass_csp=True, color_scheme=scheme
    )
    page = context.new_page()
    console = Console(page)
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    return context, page, console


def violations(page: Any) -> list[str]:
    """axe's WCAG 2.1 A and AA violations on the page, one line per element."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """([tags, exclude]) => axe.run(exclude.length ? {exclude: exclude} : document,
            {runOnly: {type: 'tag', values: tags}})""",
        [TAGS, EXCLUDED],
    )
    return [
        f"{rule['id']} ({rule['impact']}): {node['target']} {node['html'][:200]}"
        for rule in result["violations"]
        for node in rule["nodes"]
    ]


def scan(
    browser: Any, server: str, kind: str, width: int, langs: tuple[str, ...], scheme: str
) -> list[str]:
    """axe's violations on a kind of page in each of ``langs`` ("" Dutch, "en/" English)."""
    path, shown = PAGES[kind]
    found: list[str] = []
    for lang in langs:
        context, page, console = open_page(browser, f"{server}/{lang}{path}", width, scheme)
        page.wait_for_selector(shown, state="attached")
        page.evaluate(SETTLE)
        found += [f"/{lang}{path}: {line}" for line in violations(page)]
        assert console.problems == [], console.problems
        context.close()
    return found


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("kind", list(PAGES))
def test_axe_finds_no_wcag_violation(browser: Any, real_server: str, kind: str, width: int) -> None:
    found = scan(browser, real_server, kind, width, ("", "en/"), "light")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("kind", list(PAGES))
def test_axe_finds_no_wcag_violation_in_the_dark_scheme(
    browser: Any, real_server: str, kind: str
) -> None:
    """The reader's system asks for dark: Material shows its slate scheme."""
    found = scan(browser, real_server, kind, 390, ("",), "dark")
    assert found == [], "\n".join(found)


def at_both_widths(page: Any) -> list[str]:
    """axe's violations on a page as it stands at 1280 px, then at 390 px: a check page that
    took a judgement to reach is looked at on a desktop and on a phone without judging twice
    (the page's layout follows the window as it would on a phone turned or a window narrowed)."""
    found = []
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(SETTLE)
        found += [f"{width} px: {line}" for line in violations(page)]
    return found


def test_axe_on_the_check_page_showing_the_anticipations_it_found(
    browser: Any, real_server: str
) -> None:
    context, page, console = open_page(browser, f"{real_server}/controleren/", 1280)
    page.wait_for_function("() => !document.querySelector('.rb-similar').disabled", timeout=120_000)
    page.fill(".rb-paste", "W:W28,29,32,38,39,41,48:B6,7,8,9,17,18,37")
    page.click(".rb-load")
    page.wait_for_function(
        "() => document.querySelector('.rb-sq[data-square=\"37\"]').dataset.piece === 'b'"
    )
    page.click(".rb-similar")
    page.locator(".rb-similar-report .rb-anticipation").first.wait_for(timeout=120_000)
    found = at_both_widths(page)
    assert found == [], "\n".join(found)
    assert console.problems == [], console.problems
    context.close()


def test_a_wide_table_on_a_phone_takes_the_focus_and_scrolls_with_the_keys(
    browser: Any, real_server: str
) -> None:
    context, page, console = open_page(browser, f"{real_server}/regels/fries-spel/", 390)
    page.evaluate(SETTLE)
    boxes = page.locator(".md-typeset__scrollwrap").evaluate_all(
        """boxes => boxes.map(box => ({
            scrolls: box.scrollWidth > box.clientWidth + 1,
            tabindex: box.getAttribute('tabindex'),
            role: box.getAttribute('role'),
            name: box.getAttribute('aria-label'),
        }))"""
    )
    scrolling = [box for box in boxes if box["scrolls"]]
    assert scrolling, "no table of the Fries Spel rules scrolls on a phone"
    for box in scrolling:
        assert box["tabindex"] == "0" and box["role"] == "region" and box["name"], box
    assert all(box["tabindex"] is None for box in boxes if not box["scrolls"]), boxes
    # the keyboard scrolls it: focus it, then the right arrow
    region = page.locator('.md-typeset__scrollwrap[role="region"]').first
    region.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.activeElement.scrollLeft > 0"
        " && document.activeElement.matches('.md-typeset__scrollwrap')",
        timeout=5000,
    )
    # a desktop window: most of those tables fit, and a table that fits is no tab stop
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(
        """(before) => {
            const boxes = [...document.querySelectorAll('.md-typeset__scrollwrap')];
            const scrolls = box => box.scrollWidth > box.clientWidth + 1;
            return boxes.every(box => box.hasAttribute('tabindex') === scrolls(box))
                && boxes.filter(scrolls).length < before;
        }""",
        arg=len(scrolling),
        timeout=5000,
    )
    assert console.problems == []
    context.close()


def expected_pieces(position: Position) -> list[str]:
    """``square:code`` of every piece, as the player's board shows it (w, W, b, B)."""
    codes = []
    for square, piece in position.pieces().items():
        code = "w" if piece.is_white else "b"
        codes.append(f"{square}:{code.upper() if piece.is_king else code}")
    return sorted(codes)


BOARD = """(id) => [...document.querySelectorAll(`#${id} .rb-player-live .rb-piece`)]
    .map(p => {
        const code = p.classList.contains('rb-w') ? 'w' : 'b';
        const king = p.classList.contains('rb-king');
        return p.getAttribute('data-square') + ':' + (king ? code.toUpperCase() : code);
    })"""


def board(page: Any) -> list[str]:
    shown = page.evaluate(BOARD, "diagram-1")
    assert isinstance(shown, list)
    return sorted(shown)


def problem_moves() -> tuple[str, Any]:
    collection, slug = PROBLEM
    entry = ProblemSite(REPOSITORY / "problems").entry(collection, slug, where="test")
    return f"problemen/{collection}/{slug}/", replay(entry.game)


def test_a_move_of_the_list_shows_its_position_by_mouse_and_by_keyboard(
    browser: Any, real_server: str
) -> None:
    path, replayed = problem_moves()
    steps = replayed.main.moves
    assert len(steps) >= 3
    context, page, console = open_page(browser, f"{real_server}/en/{path}", 390)
    moves = page.locator("#diagram-1 .rb-player-move-list .rb-player-move")
    assert moves.count() == len(steps)
    assert moves.evaluate_all("moves => moves.map(m => m.tagName)") == ["BUTTON"] * len(steps)
    assert board(page) == expected_pieces(replayed.start)
    third = moves.nth(2)
    assert third.get_attribute("aria-current") is None

    third.click()
    page.wait_for_function(
        "(text) => document.querySelector('#diagram-1 .rb-player-status').textContent === text",
        arg=text("en", "move_status", number=3, move=steps[2].notation),
        timeout=5000,
    )
    assert board(page) == expected_pieces(steps[2].after)
    assert third.get_attribute("aria-current") == "step"
    assert moves.evaluate_all("ms => ms.filter(m => m.hasAttribute('aria-current')).length") == 1

    # the keyboard: back to the start, then Tab to the first move and Enter on it
    page.locator('#diagram-1 [data-action="first"]').click()
    page.wait_for_function(
        "() => !document.querySelector('#diagram-1 .rb-player-move[aria-current]')", timeout=5000
    )
    assert board(page) == expected_pieces(replayed.start)
    moves.nth(0).focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == third.text_content()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('#diagram-1 .rb-player-move[aria-current]')", timeout=5000
    )
    assert third.get_attribute("aria-current") == "step"
    assert board(page) == expected_pieces(steps[2].after)
    assert console.problems == []
    context.close()


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_the_players_key_help_is_visible(browser: Any, real_server: str, lang: str) -> None:
    path, _replayed = problem_moves()
    prefix = "" if lang == "nl" else f"{lang}/"
    context, page, console = open_page(browser, f"{real_server}/{prefix}{path}", 390)
    help_line = page.locator("#diagram-1 .rb-player-help")
    assert help_line.is_visible()
    assert str(help_line.text_content()).startswith(text(lang, "keys"))
    box = help_line.bounding_box()
    assert box is not None and box["height"] > 0 and box["width"] > 0
    described = page.locator("#diagram-1").get_attribute("aria-describedby")
    assert described == help_line.get_attribute("id")
    assert console.problems == []
    context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_skip_link_moves_the_focus_to_the_player(
    browser: Any, real_server: str, width: int
) -> None:
    path, _replayed = problem_moves()
    names = {}
    for lang in ("", "en/"):
        context, page, console = open_page(browser, f"{real_server}/{lang}{path}", width)
        # the first thing in the page's content that takes the focus (after the heading's
        # own permalink) is the skip link
        first = page.evaluate(
            """() => [...document.querySelectorAll('article a[href], article button,'
                + ' article [tabindex]')].find(e => !e.closest('h1'))?.className"""
        )
        assert first == "rb-skip-link"
        skip = page.locator("a.rb-skip-link")
        names[lang] = str(skip.text_content()).strip()
        skip.focus()
        assert skip.is_visible()  # hidden until it has the focus
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.activeElement.matches('.solution-player')", timeout=5000
        )
        assert page.evaluate("() => document.activeElement.id") == "diagram-1"
        assert page.evaluate("() => document.activeElement.tabIndex") == 0  # a Tab stop too
        # from there the keys work the player
        page.keyboard.press("End")
        page.wait_for_function(
            "() => document.querySelector('#diagram-1 [data-action=\"last\"]')"
            ".getAttribute('aria-disabled') === 'true'",
            timeout=5000,
        )
        assert console.problems == []
        context.close()
    # a word in each language, not a label's key
    assert names[""] and names["en/"] and names[""] != names["en/"], names
    assert not any("_" in name for name in names.values()), names


def test_axe_is_pinned_in_package_json() -> None:
    """``npm ci`` installs exactly the axe-core these tests were written against."""
    package = json.loads((REPOSITORY / "package.json").read_text(encoding="utf-8"))
    wanted = {**package.get("dependencies", {}), **package.get("devDependencies", {})}
    version = wanted.get("axe-core", "")
    assert version.startswith("4.") and version.replace(".", "").isdigit(), version
    installed = json.loads((AXE.parent / "package.json").read_text(encoding="utf-8"))
    assert installed["version"] == version
