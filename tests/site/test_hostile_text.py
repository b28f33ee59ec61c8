"""A problem file with hostile text in every tag and comment: the site shows it as text and
runs none of it (issue: safe with any input).

The project's own site is copied with one more problem whose tags and comments carry script
elements, event handlers, ``javascript:`` links, Markdown link and attribute syntax and HTML
entities; each page that shows the problem is opened in Debian's Chromium.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from rulebook_build.checker.judge import Judge
from rulebook_build.checkpage import EARLY_START
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.site.page_html import content_security_policy

from .conftest import CHROMIUM, REPOSITORY, Site, rulebook_build
from .test_browser import serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
    ),
]

ATTACKS = [
    "<script>window.pwned = 'script'</script>",
    "<img src=x onerror=\"window.pwned = 'onerror'\">",
    "[click me](javascript:window.pwned='link')",
    "<a href=\"javascript:window.pwned='a'\">a link</a>",
    "*bold* _it_ {: onclick=\"window.pwned='attr'\"}",
    "&lt;b&gt;entity&lt;/b&gt; &amp; &#60;i&#62;",
]
TITLE = "Hostile " + ATTACKS[0] + " " + ATTACKS[1]
TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Composer", "Source", "Stipulation")


def hostile_problem() -> str:
    """A small sound problem (a man walks to the crown) with an attack in every tag and
    comment."""
    quoted = TITLE.replace('"', '\\"')
    lines = [f'[Title "{quoted}"]']
    for index, tag in enumerate(TAGS):
        attack = ATTACKS[index % len(ATTACKS)].replace('"', '\\"')
        lines.append(f'[{tag} "{tag} {attack}"]')
    lines += ['[SetUp "1"]', '[FEN "W:W15,38:B16,31"]', '[GameType "20"]', ""]
    comments = " ".join(f"{{{attack}}}" for attack in ATTACKS if "}" not in attack)
    lines.append(f"{comments} 1. 15-10 {{{ATTACKS[0]}}} 31-36 {{{ATTACKS[2]}}} *")
    return "\n".join(lines) + "\n"


def hostile_metadata() -> str:
    """A collection whose every text is an attack too (``collection.toml`` is outside text)."""
    text = json.dumps  # a JSON string is a TOML basic string
    return "\n".join(
        [
            f"title = {text('Collection ' + ATTACKS[0])}",
            'kind = "contest"',
            'entry = "number"',
            f"organiser = {text(ATTACKS[1])}",
            f"jury = {text(ATTACKS[3])}",
            f"description = {{ nl = {text(ATTACKS[2])}, en = {text(ATTACKS[4])} }}",
            f"source = {text(ATTACKS[5])}",
            "source_url = \"javascript:window.pwned='url'\"",
            "[[claims]]",
            'entry = "1"',
            'kind = "cook"',
            f"by = {text(ATTACKS[1])}",
            f"line = {text(ATTACKS[0])}",
            "",
        ]
    )


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    root = tmp_path_factory.mktemp("hostile")
    shutil.copy(REPOSITORY / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPOSITORY / "docs", root / "docs")
    shutil.copytree(REPOSITORY / "editions", root / "editions")  # the pages' tables and history
    shutil.copytree(REPOSITORY / "diagrams", root / "diagrams")  # the rulebooks' diagrams
    # the hostile collection alone: the others' 430 pages would only slow the build
    folder = root / "problems" / "hostile"
    folder.mkdir(parents=True)
    (folder / "collection.toml").write_text(hostile_metadata(), encoding="utf-8")
    path = folder / "hostile.pdn"
    path.write_text(hostile_problem(), encoding="utf-8")
    # its verdict, as 'rulebook check --json' stores it
    games, errors = read_pdn_file(path)
    assert not errors
    position = parse_fen(games[0].fen or "", variant=INTERNATIONAL)
    judgement = Judge(INTERNATIONAL, tables=checker_tables(INTERNATIONAL)).judge(
        games[0], position, seconds=10
    )
    assert judgement.grade == "correct"
    with (root / "problems" / "verdicts.jsonl").open("a", encoding="utf-8") as stream:
        stream.write(json.dumps(judgement.as_json()) + "\n")
    return rulebook_build(root, root / "site")


@pytest.fixture(scope="module")
def server(hostile_site: Site) -> Iterator[str]:
    yield from serve(hostile_site)


PAGES = [
    f"{prefix}problemen/{page}"
    for prefix in ("", "en/", "fy/")
    # the problem's page, its collection's page and the index, each with its title
    for page in ("hostile/01/", "hostile/", "")
]


@pytest.mark.parametrize("path", PAGES)
def test_nothing_from_the_problem_runs_and_its_text_shows_literally(
    browser: Any, server: str, path: str
) -> None:
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{server}/{path}")
    page.wait_for_load_state("networkidle")
    # click every link of the problem's text: a javascript: link would run now
    for link in page.locator("article a").all():
        href = link.get_attribute("href") or ""
        assert not href.lower().startswith("javascript:"), href
    assert page.evaluate("() => window.pwned === undefined"), page.evaluate("() => window.pwned")
    assert dialogs == []
    # no element from the problem's text: no script mentioning it, no event handler attribute
    assert (
        page.evaluate(
            "() => [...document.scripts].filter(s => s.textContent.includes('pwned')).length"
        )
        == 0
    )
    assert (
        page.evaluate(
            "() => [...document.querySelectorAll('*')].filter(e => [...e.attributes]"
            ".some(a => a.name.startsWith('on'))).length"
        )
        == 0
    )
    text = page.locator("article").inner_text()
    assert TITLE in text  # the title as written, tags and all
    if path.endswith("hostile/01/"):
        for tag in ("Composer", "Source"):
            index = TAGS.index(tag)
            assert f"{tag} {ATTACKS[index % len(ATTACKS)]}" in text, tag
    if path.endswith("hostile/"):  # the collection's own texts, and its claim
        assert "Collection " + ATTACKS[0] in text
        assert ATTACKS[1] in text and ATTACKS[5] in text
    context.close()


def test_the_policy_allows_the_theme_scripts_by_hash_and_none_in_the_article(
    browser: Any, server: str, hostile_site: Site
) -> None:
    """A script that got into a page's text would still not run: only the theme's inline
    scripts (outside the article) are allowed, by their hashes."""
    page_path = hostile_site.site / "en" / "problemen" / "hostile" / "01" / "index.html"
    built = page_path.read_text(encoding="utf-8")
    assert '<meta http-equiv="Content-Security-Policy"' in built
    # smuggle a script into the article of the built page, as a flaw elsewhere might
    smuggled = built.replace(
        '<h2 id="oplossing">', "<script>window.pwned = 'smuggled'</script><h2 id=\"oplossing\">", 1
    )
    assert smuggled != built
    page_path.with_name("smuggled.html").write_text(smuggled, encoding="utf-8")
    context = browser.new_context()
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    page.goto(f"{server}/en/problemen/hostile/01/smuggled.html")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => window.pwned === undefined")
    assert violations  # refused, and said so
    # the theme's own scripts ran: the palette script set its attribute on the body
    assert page.evaluate("() => document.body.hasAttribute('data-md-color-scheme')")
    context.close()


def _hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def test_in_a_pages_text_only_the_check_pages_own_starter_script_is_allowed() -> None:
    """The check page's inline script that starts its worker (``EARLY_START``) is allowed by its
    hash, letter for letter; any other script in the article, or that one changed by a letter,
    is not."""
    changed = EARLY_START.replace("worker", "w0rker", 1)
    html = (
        "<html><head><title>t</title></head><body><script>theme()</script><article>"
        f"<script>{EARLY_START}</script><script>window.pwned = 1</script>"
        f"<script>{changed}</script></article></body></html>"
    )
    policy = re.search(r'content="([^"]*)"', content_security_policy(html))
    assert policy is not None
    sources = policy.group(1).split("; ")[1].split()
    assert sources[:2] == ["script-src", "'self'"]
    assert sorted(sources[2:]) == sorted([_hash("theme()"), _hash(EARLY_START)])
