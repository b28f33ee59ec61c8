"""Every hostile payload in every place outside text reaches, on every page that shows it.

The corpus (``tests/data/hostile-input.txt``, with its sources) goes into every PDN tag, comment
and move comment of a collection's problems and into every field of its ``collection.toml``; a
twin collection gets the same problems with a harmless word in place of each payload.  One site
is built with both (and with the rulebooks, so that the pages are the real ones), then:

* in Debian's Chromium, every page that shows the hostile texts navigates nowhere, requests
  nothing beyond the site, opens no dialog, runs nothing, has the elements and attributes of
  its harmless twin and no more, and shows the texts literally (``document.title`` included);
* the check page reads the corpus from a ``#pdn=`` link the same way;
* a fuzz test (no browser: Lexbor's HTML5 parser through selectolax) gives random strings made
  of HTML-significant fragments as titles and comments, and compares every built page with its
  harmless twin element for element, and the ``<title>`` text with the input.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser

from rulebook_build.checker.judge import Judge
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.rules import INTERNATIONAL

from .conftest import CHROMIUM, REPOSITORY, Site, rulebook_build
from .test_browser import serve

CORPUS_FILE = REPOSITORY / "tests" / "data" / "hostile-input.txt"
SITE_NAMES = {
    "": "Spelregels dammen",
    "en/": "Draughts rulebooks",
    "fy/": "Spulregels fan it damjen",
}
PREFIXES = tuple(SITE_NAMES)
PROBLEMS = 4
"""Problems a collection: the payloads are dealt out over them, one share a field."""
TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Composer", "Source", "Stipulation")
FEN = "W:W15,38:B16,31"  # a man walks to the crown: sound, judged in a moment
MOVES = ("15-10", "31-36")

in_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
)


def read_corpus(path: Path = CORPUS_FILE) -> list[str]:
    """The payloads: every line that is neither blank nor a '#' comment."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


CORPUS = read_corpus()


def harmless(payloads: Sequence[str]) -> list[str]:
    """A plain word in place of each payload: the twin that shows what the pages should be."""
    return [f"harmless{index}" for index, _ in enumerate(payloads)]


def deal(texts: Sequence[str], share: int) -> str:
    """The texts whose index is ``share`` modulo :data:`PROBLEMS`, one after another."""
    return " ".join(text for index, text in enumerate(texts) if index % PROBLEMS == share)


@dataclass(frozen=True)
class Problem:
    title: str
    tags: dict[str, str]
    comments: tuple[str, ...]
    """Before the first move and after each move."""


def problems(texts: Sequence[str]) -> list[Problem]:
    """:data:`PROBLEMS` problems that between them carry every text in every field."""
    made = []
    for number in range(PROBLEMS):
        tags = {tag: deal(texts, (number + 1 + i) % PROBLEMS) for i, tag in enumerate(TAGS)}
        comments = tuple(
            # a comment ends at its first '}': such a payload goes in the tags only
            " ".join(t for t in deal(texts, (number + 2 + i) % PROBLEMS).split(" ") if "}" not in t)
            for i in range(len(MOVES) + 1)
        )
        made.append(Problem(deal(texts, number), tags, comments))
    return made


def pdn_value(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def pdn_file(made: Sequence[Problem]) -> str:
    games = []
    for problem in made:
        lines = [f'[Title "{pdn_value(problem.title)}"]']
        lines += [f'[{tag} "{pdn_value(value)}"]' for tag, value in problem.tags.items()]
        lines += ['[SetUp "1"]', f'[FEN "{FEN}"]', '[GameType "20"]', ""]
        first, *after = problem.comments
        moves = f"{{{first}}} 1. {MOVES[0]} {{{after[0]}}} {MOVES[1]} {{{after[1]}}} *"
        games.append("\n".join([*lines, moves, ""]))
    return "\n".join(games)


def collection_toml(texts: Sequence[str]) -> str:
    text = json.dumps  # a JSON string is a TOML basic string
    everything = " ".join(texts)
    return "\n".join(
        [
            f"title = {text(everything)}",
            'kind = "contest"',
            'entry = "number"',
            'stage = "final"',
            f"organiser = {text(deal(texts, 0))}",
            f"jury = {text(deal(texts, 1))}",
            f"description = {{ nl = {text(deal(texts, 2))}, en = {text(deal(texts, 3))}, "
            f"fy = {text(everything)} }}",
            f"source = {text(deal(texts, 1))}",
            f"source_url = {text('https://example.org/' + deal(texts, 2))}",
            "[[claims]]",
            'entry = "1"',
            'kind = "cook"',
            f"by = {text(deal(texts, 3))}",
            f"line = {text(deal(texts, 0))}",
            "",
        ]
    )


def add_collection(root: Path, slug: str, texts: Sequence[str]) -> list[Problem]:
    """``problems/<slug>/`` with the problems that carry ``texts``, and their verdicts appended
    to the stored ones, as ``rulebook check --json`` writes them."""
    folder = root / "problems" / slug
    folder.mkdir(parents=True)
    (folder / "collection.toml").write_text(collection_toml(texts), encoding="utf-8")
    made = problems(texts)
    path = folder / f"{slug}.pdn"
    path.write_text(pdn_file(made), encoding="utf-8")
    games, errors = read_pdn_file(path)
    assert not errors and len(games) == PROBLEMS, errors
    judge = Judge(INTERNATIONAL, tables=checker_tables(INTERNATIONAL))
    with (root / "problems" / "verdicts.jsonl").open("a", encoding="utf-8") as stream:
        for game in games:
            judgement = judge.judge(game, parse_fen(FEN, variant=INTERNATIONAL), seconds=10)
            assert judgement.grade == "correct"
            stream.write(json.dumps(judgement.as_json()) + "\n")
    return made


FRAGMENTS = (
    "<",
    ">",
    "</",
    "/>",
    "&",
    "&amp;",
    "&lt;",
    "&#60;",
    "&#x3c;",
    '"',
    "'",
    "`",
    "=",
    "{",
    "}",
    "{:",
    "[",
    "]",
    "(",
    ")",
    "!",
    "*",
    "_",
    "\\",
    "#",
    "|",
    "~",
    "-->",
    "<!--",
    "]]>",
    "<![CDATA[",
    "</title>",
    "</textarea>",
    "</script>",
    "</style>",
    "<script>",
    "<meta ",
    "<base ",
    "<svg>",
    "<img src=x ",
    "onerror=",
    "onmouseover=",
    "http-equiv=refresh ",
    "javascript:",
    "JaVaScRiPt:",
    "data:",
    "https://",
    "pwned",
    " ",
    "\u00e9",
    "\u2028",
)
FUZZ_PROBLEMS = 8


def fuzz_texts(seed: int, count: int) -> list[str]:
    """``count`` random strings of 1 to 14 fragments each, the same for the same seed; a
    string is one line, without the whitespace runs the pages collapse."""
    chance = random.Random(seed)
    texts = []
    for _ in range(count):
        text = "".join(chance.choice(FRAGMENTS) for _ in range(chance.randint(1, 14)))
        texts.append(" ".join(text.split()) or "x")
    return texts


FUZZ_SEED = int(os.environ.get("HOSTILE_FUZZ_SEED", "20261127"))
"""Set ``HOSTILE_FUZZ_SEED`` to explore other strings; a failure names the seed."""
FUZZ = fuzz_texts(FUZZ_SEED, FUZZ_PROBLEMS * PROBLEMS)


@dataclass(frozen=True)
class Built:
    site: Site
    hostile: list[Problem]
    fuzz: list[Problem]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("hostile-corpus")
    shutil.copy(REPOSITORY / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPOSITORY / "docs", root / "docs")
    shutil.copytree(REPOSITORY / "editions", root / "editions")  # the pages' tables and history
    shutil.copytree(REPOSITORY / "diagrams", root / "diagrams")  # the rulebooks' diagrams
    (root / "problems").mkdir()
    hostile = add_collection(root, "hostile", CORPUS)
    add_collection(root, "harmless", harmless(CORPUS))
    fuzz = add_collection(root, "fuzz", FUZZ)
    add_collection(root, "fuzzharmless", harmless(FUZZ))
    site = rulebook_build(root, root / "site")
    assert site.result.returncode == 0, site.result.stderr
    return Built(site, hostile, fuzz)


def twin_pages(slug: str, twin: str) -> list[tuple[str, str]]:
    """Each page of collection ``slug`` (its report and its problems, in every language) with
    the same page of its harmless ``twin``."""
    pairs = []
    for prefix in PREFIXES:
        pairs.append((f"{prefix}problemen/{slug}/", f"{prefix}problemen/{twin}/"))
        for number in range(1, PROBLEMS + 1):
            pairs.append(
                (f"{prefix}problemen/{slug}/{number:02}/", f"{prefix}problemen/{twin}/{number:02}/")
            )
    return pairs


# ----------------------------------------------------------------------------- without browser


def shape(html: str) -> list[tuple[str, tuple[str, ...]]]:
    """Every element of a page, in document order, as its tag and its attributes' names: what
    markup the page has, whatever its texts."""
    tree = LexborHTMLParser(html)
    return [
        (node.tag, tuple(sorted(node.attributes)))
        for node in tree.root.traverse(include_text=False)  # type: ignore[union-attr]
    ]


def page_html(site: Site, path: str) -> str:
    return (site.site / path / "index.html").read_text(encoding="utf-8")


def title_text(html: str) -> str:
    node = LexborHTMLParser(html).css_first("head title")
    assert node is not None
    return node.text()


def test_the_fuzzed_pages_have_the_markup_of_their_harmless_twins(built: Built) -> None:
    for hostile, twin in twin_pages("fuzz", "fuzzharmless"):
        html, twin_html = page_html(built.site, hostile), page_html(built.site, twin)
        assert shape(html) == shape(twin_html), f"{hostile} (seed {FUZZ_SEED})"


def test_the_fuzzed_titles_are_the_page_titles_as_written(built: Built) -> None:
    for prefix, site_name in SITE_NAMES.items():
        for number, problem in enumerate(built.fuzz, start=1):
            html = page_html(built.site, f"{prefix}problemen/fuzz/{number:02}/")
            assert title_text(html) == f"{problem.title} - {site_name}", f"seed {FUZZ_SEED}"
            heading = LexborHTMLParser(html).css_first("article h1")
            assert heading is not None
            for permalink in heading.css("a.headerlink"):
                permalink.decompose()
            assert heading.text().strip() == problem.title, f"seed {FUZZ_SEED}"


def test_the_corpus_pages_have_the_markup_of_their_harmless_twins(built: Built) -> None:
    for hostile, twin in twin_pages("hostile", "harmless"):
        html, twin_html = page_html(built.site, hostile), page_html(built.site, twin)
        assert shape(html) == shape(twin_html), hostile


def test_the_corpus_titles_are_the_page_titles_as_written(built: Built) -> None:
    for prefix, site_name in SITE_NAMES.items():
        for number, problem in enumerate(built.hostile, start=1):
            html = page_html(built.site, f"{prefix}problemen/hostile/{number:02}/")
            assert title_text(html) == f"{problem.title} - {site_name}"


# ----------------------------------------------------------------------------- in Chromium

MADE_BY_A_PAYLOAD = (
    "[id*=pwned i], [class*=pwned i], [data-pwned], [name=pwned], meta[http-equiv=refresh i], "
    "meta[http-equiv=set-cookie i], base, iframe, object, embed, details[ontoggle], "
    "img[src=x], [href*=evil], [src*=evil], [action*=evil], [data*=evil], "
    "[href^=javascript i], [href^=data i]"
)
"""What the corpus's payloads would add to a page if they became markup."""


@pytest.fixture(scope="module")
def server(built: Built) -> Iterator[str]:
    yield from serve(built.site)


class Watch:
    """What a page did that a payload could make it do: requests beyond the site, navigation,
    dialogs, scripts that ran."""

    def __init__(self, page: Any, server: str) -> None:
        self.page, self.server = page, server
        self.outside: list[str] = []
        self.navigations: list[str] = []
        self.dialogs: list[str] = []
        page.on("request", self._request)
        page.on("framenavigated", lambda frame: self.navigations.append(frame.url))
        page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        # nothing beyond the site is fetched for real: refused, and counted above
        page.route(
            re.compile(r"^(?!" + re.escape(server) + r"|data:|blob:|about:).*"),
            lambda route: route.abort(),
        )

    def _request(self, request: Any) -> None:
        if not request.url.startswith((self.server, "data:", "blob:", "about:")):
            self.outside.append(request.url)

    def assert_nothing_happened(self, url: str, allowed: str = "h1") -> None:
        self.page.wait_for_timeout(300)  # a refresh of 0 s would have left by now
        assert self.outside == [], self.outside
        assert self.dialogs == [], self.dialogs
        away = [u for u in self.navigations if u.split("#")[0] != url.split("#")[0]]
        assert away == [], away
        assert self.page.url.split("#")[0] == url.split("#")[0]
        assert self.page.evaluate("() => window.pwned === undefined")
        made = self.page.evaluate(
            # headings take their ids from their text, links within the page point there, and
            # the collection's source_url is an https address with the payloads in its path
            "([selector, allowed]) => [...document.querySelectorAll(selector)].filter(e => "
            '!e.matches(\'h1, h2, h3, h4, h5, h6, a[href^="#"], '
            'a[href^="https://example.org/"], \' + allowed)).map(e => e.outerHTML)',
            [MADE_BY_A_PAYLOAD, allowed],
        )
        assert made == [], made
        handlers = self.page.evaluate(
            "() => [...document.querySelectorAll('*')].flatMap(e => [...e.attributes]"
            ".filter(a => a.name.startsWith('on')).map(a => e.tagName + ' ' + a.name))"
        )
        assert handlers == [], handlers


def dom_shape(page: Any) -> list[list[Any]]:
    """Every element's tag and attribute names, leaving out what scroll-regions.js adds to a
    table that scrolls sideways (named in its ``data-rb-scroll-region``): whether a table is
    wider than its column depends on the length of its text, which the twin does not share."""
    shaped = page.evaluate(
        "() => [...document.querySelectorAll('*')].map(e => {"
        " const added = (e.getAttribute('data-rb-scroll-region') || '').split(' ');"
        " return [e.tagName, [...e.attributes].map(a => a.name)"
        ".filter(n => n !== 'data-rb-scroll-region' && !added.includes(n)).sort()]; })"
    )
    assert isinstance(shaped, list)
    return shaped


def visit(browser: Any, server: str, path: str) -> tuple[Any, Watch]:
    context = browser.new_context()
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(f"{server}/{path}")
    page.wait_for_load_state("networkidle")
    return page, watch


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.browser
@in_chromium
@pytest.mark.parametrize("hostile, twin", twin_pages("hostile", "harmless"))
def test_a_hostile_page_does_nothing_and_shows_its_text(
    browser: Any, server: str, built: Built, hostile: str, twin: str
) -> None:
    prefix = hostile[: hostile.index("problemen/")]
    page, watch = visit(browser, server, hostile)
    watch.assert_nothing_happened(f"{server}/{hostile}")
    shaped = dom_shape(page)
    text = flat(page.locator("article").inner_text())
    title = page.title()
    page.context.close()
    twin_page, twin_watch = visit(browser, server, twin)
    twin_watch.assert_nothing_happened(f"{server}/{twin}")
    assert shaped == dom_shape(twin_page)
    twin_page.context.close()
    match = re.fullmatch(r".*/hostile/(\d+)/", hostile)
    if match:  # a problem's page: its title and every tag, as written
        problem = built.hostile[int(match.group(1)) - 1]
        assert title == f"{problem.title} - {SITE_NAMES[prefix]}"
        for tag in ("Composer", "Source", "Stipulation"):  # the tags the page shows
            assert flat(problem.tags[tag]) in text, tag
    else:  # the report: the collection's texts and its claim
        assert title.startswith(" ".join(CORPUS)[:200])
        for payload in CORPUS:
            assert flat(payload) in text, payload


@pytest.mark.browser
@in_chromium
@pytest.mark.parametrize("path", ["problemen/", "en/problemen/componisten/", "fy/problemen/"])
def test_the_pages_that_list_the_problems_do_nothing(browser: Any, server: str, path: str) -> None:
    page, watch = visit(browser, server, path)
    watch.assert_nothing_happened(f"{server}/{path}")
    page.context.close()


@pytest.mark.browser
@in_chromium
def test_search_results_show_the_titles_as_text(browser: Any, server: str) -> None:
    page, watch = visit(browser, server, "en/problemen/hostile/01/")
    page.locator("input[data-md-component=search-query]").click()
    page.keyboard.type("pwned evil")
    page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    # a result links to its page with the words searched for ('?h=pwned+evil')
    watch.assert_nothing_happened(
        f"{server}/en/problemen/hostile/01/", allowed="a.md-search-result__link"
    )
    results = page.locator(".md-search-result__item").all_inner_texts()
    assert any("window.pwned" in result for result in results), results
    page.context.close()
