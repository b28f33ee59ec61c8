"""Search finds what readers type (``rulebook_build/site/search.py``).

The index is refined as the unit tests below pin (keys for articles and problems, one light
entry per problem page, nothing a page hides); the browser tests type into the real search box
of the project's own site, built once (``real_site``), and read the first result.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.site.collections import Collection, read_collection
from rulebook_build.site.problems import ProblemSite
from rulebook_build.site.search import KEYS, KEYS_BOOST, refine_index

from .conftest import CHROMIUM, REPOSITORY, Site

PDN = """[Event "one"]
[SetUp "1"]
[FEN "W:W12,18:B9,25"]
[GameType "20"]
[Composer "J.<b>Scheijen</b> & Co"]
[Source "Het Blad, 1990"]

1. 12-7 9-13 2. 18x9 *

[Event "two"]
[SetUp "1"]
[FEN "W:W12,18:B9,25"]
[GameType "20"]

1. 12-7 9-13 2. 18x9 *

[Event "three"]
[SetUp "1"]
[FEN "W:W12,18:B9,25"]
[GameType "20"]

1. 12-7 9-13 2. 18x9 *
"""
COMPOSER = "J.&lt;b&gt;Scheijen&lt;/b&gt; &amp; Co"
"""The composer as Material writes the page's text into the index: escaped."""
NAME = "Wedstrijd &lt;i&gt;A&amp;B&lt;/i&gt;"
"""The collection's Dutch name, escaped."""


@pytest.fixture
def collections(tmp_path: Path) -> list[Collection]:
    folder = tmp_path / "wedstrijd"
    folder.mkdir()
    (folder / "collection.toml").write_text(
        'title = { nl = "Wedstrijd <i>A&B</i>", en = "Contest" }\nkind = "collection"\n'
        'entry = "number"\n',
        encoding="utf-8",
    )
    (folder / "entries.pdn").write_text(PDN, encoding="utf-8")
    return [read_collection(folder)]


def problem_docs(page: str, facts: str) -> list[dict[str, str]]:
    """The entries Material writes for a problem page: the page, its solution, its verdict."""
    return [
        {
            "location": page,
            "title": "Wedstrijd 1",
            "text": f"<p>Wedstrijd, 1</p>{facts}SpelvormInternationaal <p></p><p>Pijltjestoetsen: "
            "vorige en volgende zet.</p> <p>Zetten: 1. 12-7 9-13 2. 18x9</p> Beginstand",
        },
        {"location": f"{page}#oplossing", "title": "Oplossing", "text": "<p>1. 12-7 9-13</p>"},
        {
            "location": f"{page}#beoordeling",
            "title": "Beoordeling door het controleprogramma",
            "text": "<p>Eindoordeel: correct.</p> CriteriumUitslagAvoldaanwit wint",
        },
    ]


def test_articles_get_the_words_readers_type() -> None:
    fields = {"title": {"boost": 1000.0}, "text": {"boost": 1.0}}
    docs = [
        {"location": "regels/x/", "title": "Reglement", "text": "<p>Inleiding</p>"},
        {"location": "regels/x/#art-17", "title": "Art. 17", "text": "<p>De dam.</p>"},
        {"location": "regels/x/#art-22a", "title": "Artikel 22a", "text": ""},
        {"location": "regels/x/#h-art-2", "title": "Art. 2", "text": ""},
        {"location": "regels/x/#bijlage-2-art-1", "title": "Art. 1", "text": ""},
        {"location": "regels/x/#art-6-3", "title": "6.3", "text": ""},
        {"location": "regels/x/#inhoud", "title": "Inhoud", "text": "<ul><li>art. 17</li></ul>"},
    ]
    index: dict[str, Any] = {"config": {"fields": fields}, "docs": [dict(d) for d in docs]}
    refine_index(index, "nl", [])
    keys = {doc["location"].split("#")[-1]: doc.get(KEYS) for doc in index["docs"]}
    assert keys == {
        "regels/x/": None,
        "art-17": "art artikel article kêst 17",
        "art-22a": "art artikel article kêst 22a",
        "h-art-2": "art artikel article kêst 2",
        "bijlage-2-art-1": "art artikel article kêst 1",
        "art-6-3": None,  # a sub-article is found by its heading, 6.3
        "inhoud": None,
    }
    for before, after in zip(docs, index["docs"], strict=True):
        assert {k: v for k, v in after.items() if k != KEYS} == before  # nothing else changes
    assert index["config"]["fields"] == {**fields, KEYS: {"boost": KEYS_BOOST}}
    assert KEYS not in fields  # the search plugin's own settings are left alone


def test_a_problem_page_is_one_light_entry(collections: list[Collection]) -> None:
    entry = collections[0].entries[0]
    page = f"problemen/wedstrijd/{entry.slug}/"
    facts = f"Componist{COMPOSER}GepubliceerdHet Blad, 1990"
    listing = {
        "location": "problemen/wedstrijd/",
        "title": "Wedstrijd",
        "text": "<p>Gepubliceerde problemen.</p> Nr.StandProbleem 1 1J.Scheijen <p></p>"
        "<ul><li>C: niet beslist</li></ul> <p>correct: 1</p>",
    }
    written = {"location": "problemen/componisten/", "title": "Voor componisten", "text": "x"}
    index: dict[str, Any] = {
        "config": {},
        "docs": [listing, *problem_docs(page, facts), written],
    }
    refine_index(index, "nl", collections)
    assert index["docs"] == [
        {
            "location": "problemen/wedstrijd/",
            "title": "Wedstrijd",
            "text": "<p>Gepubliceerde problemen.</p><p>correct: 1</p>",
        },
        {
            "location": page,
            "title": "Wedstrijd 1",
            "text": f"<p>{NAME}, 1</p><p>{COMPOSER} · Het Blad, 1990</p>"
            "<p>Zetten: 1. 12-7 9-13 2. 18x9</p>",
            KEYS: COMPOSER,
        },
        written,
    ]
    assert "<b>" not in json.dumps(index) and "<i>" not in json.dumps(index)  # escaped


def test_the_collection_line_is_in_the_readers_language(collections: list[Collection]) -> None:
    entry = collections[0].entries[0]
    page = f"problemen/wedstrijd/{entry.slug}/"
    index: dict[str, Any] = {"config": {}, "docs": problem_docs(page, "")}
    refine_index(index, "en", collections)
    assert index["docs"][0]["text"].startswith(f"<p>Contest, {entry.name}</p>")


def test_what_a_page_hides_stays_out_of_the_index(collections: list[Collection]) -> None:
    entry = collections[0].entries[0]
    page = f"problemen/wedstrijd/{entry.slug}.html"  # without directory URLs too
    index: dict[str, Any] = {"config": {}, "docs": problem_docs(page, "Componistanoniem")}
    refine_index(index, "nl", collections)
    [doc] = index["docs"]
    assert KEYS not in doc
    assert "Scheijen" not in doc["text"] and "Het Blad" not in doc["text"]


def test_a_list_of_most_problems_keeps_its_paragraphs(collections: list[Collection]) -> None:
    """The index of every problem (a section of a written page) lists what has entries."""
    titles = [entry.title for entry in collections[0].entries]
    assert titles == ["Contest 1", "Contest 2", "Contest 3"]
    listing = {
        "location": "problemen/#alle-problemen",
        "title": "Alle problemen",
        "text": "<p>Zoek.</p> Spelvormalle <ul><li>Contest 1J.Scheijen</li><li>Contest 2</li>"
        "<li>Contest 3</li></ul>",
    }
    mention = {**listing, "location": "regels/x/", "text": "<ul><li>Contest 1</li></ul>"}
    index: dict[str, Any] = {"config": {}, "docs": [listing, mention]}
    refine_index(index, "nl", collections)
    assert index["docs"] == [{**listing, "text": "<p>Zoek.</p>"}, mention]


def separator(site: Site) -> str:
    index = json.loads((site.site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return str(index["config"]["separator"])


def words(site: Site, text: str) -> list[str]:
    """``text`` split into words as Material splits it with the site's separator."""
    return [word for word in re.split(separator(site), text.lower()) if word]


@pytest.mark.site_build
def test_the_index_keeps_moves_and_numbers_whole(real_site: Site) -> None:
    for lang in ("", "en/", "fy/"):
        path = real_site.site / lang / "search" / "search_index.json"
        index = json.loads(path.read_text(encoding="utf-8"))
        assert "trimmer" not in index["config"]["pipeline"]  # lunr's Dutch one removes digits
        assert index["config"]["fields"][KEYS] == {"boost": KEYS_BOOST}
        found = {doc["location"]: doc for doc in index["docs"]}
        assert found["regels/fries-spel/#art-17"][KEYS].endswith(" 17")
        pages = [location for location in found if location.startswith("problemen/pwcp-2/a")]
        assert "problemen/pwcp-2/a4/" in pages and all("#" not in page for page in pages)
    said = "Art. 17: J.Scheijen, Cat.B1 17, PWCP-2 A4; 32-28 26x37 (2.1) einde."
    assert words(real_site, said) == [
        *("art", "17", "j", "scheijen", "cat", "b1", "17", "pwcp-2", "a4"),
        *("32-28", "26x37", "2.1", "einde"),
    ]


# ----------------------------------------------------------------------------- in Chromium

FIRST = """() => {
  const items = document.querySelectorAll('.md-search-result__item');
  if (!items.length) return null;
  const score = a => parseFloat(a.querySelector('article').getAttribute('data-md-score'));
  let hit = null;
  for (const a of items[0].querySelectorAll('a.md-search-result__link'))
    if (hit === null || score(a) > score(hit)) hit = a;
  const next = items.length > 1
    ? Math.max(...[...items[1].querySelectorAll('a.md-search-result__link')].map(score)) : 0;
  const url = new URL(hit.href);
  return {
    path: url.pathname + url.hash,
    terms: (url.searchParams.get('h') || '').split(' ').filter(Boolean),
    score: score(hit),
    next: next,
    marks: [...hit.querySelectorAll('mark')].map(m => m.textContent),
  };
}"""
"""The first result as the reader sees it: the page or section of the first item with the
highest score, the words it matched (Material's ``?h=``), the words it highlights, and the
best score of the second item."""

ARTICLE_17 = re.compile(r"regels/[\w-]+/#art-17")


def article(found: dict[str, Any], lang: str) -> bool:
    return ARTICLE_17.fullmatch(found["path"].removeprefix(f"/{lang}")) is not None


def any_article(found: dict[str, Any], lang: str) -> bool:
    path = found["path"].removeprefix(f"/{lang}")
    return re.fullmatch(r"regels/[\w-]+/#(?:[a-z]-)?art-\d+[a-z]?", path) is not None


def problem(slug: str) -> Any:
    def check(found: dict[str, Any], lang: str) -> bool:
        # first, and not tied with the next (A4 before A40-A49, not beside them)
        return bool(found["path"] == f"/{lang}problemen/{slug}/" and found["score"] > found["next"])

    return check


def move(text: str) -> Any:
    def check(found: dict[str, Any], lang: str) -> bool:
        return text in found["marks"]

    return check


@functools.cache
def pages_by(surname: str) -> frozenset[str]:
    """The problem pages that show ``surname`` as their composer."""
    site = ProblemSite(REPOSITORY / "problems")
    return frozenset(
        f"problemen/{collection.slug}/{entry.slug}/"
        for collection in site.collections
        for entry in collection.entries
        if surname in entry.composer and collection.publishes("composers")
    )


def composed_by(surname: str) -> Any:
    def check(found: dict[str, Any], lang: str) -> bool:
        pages = pages_by(surname)
        assert pages, surname
        return found["path"].removeprefix(f"/{lang}") in pages

    return check


SEARCHES = {
    "": [
        ("art. 17", article),
        ("artikel 17", article),
        ("Article 17", article),
        ("Art 17", article),
        ("Art.", any_article),
        ("32-28", move("32-28")),
        ("26x37", move("26x37")),
        ("Scheijen", composed_by("Scheijen")),
        ("Douwes", composed_by("Douwes")),
        ("PWCP-2 A4", problem("pwcp-2/a4")),
        ("Cat.B1 17", problem("cat-b1/17")),
    ],
    "en/": [
        ("art. 17", article),
        ("Article 17", article),
        ("32-28", move("32-28")),
        ("26x37", move("26x37")),
        ("Scheijen", composed_by("Scheijen")),
        ("PWCP-2 A4", problem("pwcp-2/a4")),
        ("Cat.B1 17", problem("cat-b1/17")),
    ],
    "fy/": [("artikel 17", article), ("art. 17", article)],
}


@pytest.fixture(scope="module")
def site_server(real_site: Site) -> Iterator[str]:
    from .test_browser import serve  # Playwright's: skipped where it is missing

    yield from serve(real_site)


@pytest.mark.browser
@pytest.mark.site_build
@pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)")
@pytest.mark.parametrize("lang", list(SEARCHES))
def test_the_first_result_is_what_the_reader_typed(
    browser: Any, site_server: str, real_site: Site, lang: str
) -> None:
    from .test_browser import Console

    timeout = pytest.importorskip("playwright.sync_api").TimeoutError
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    console = Console(page)
    page.goto(f"{site_server}/{lang}")
    page.wait_for_load_state("networkidle")  # the search index is loaded
    page.locator("input.md-search__input").click()
    wrong = []
    for query, expected in SEARCHES[lang]:
        page.locator("input.md-search__input").fill("")
        page.keyboard.type(query)  # Material searches on key events, word by word as typed
        terms = words(real_site, query)
        # Material redraws the results after every key: wait for the results of the whole
        # query (the first result matched all its words), then judge them
        try:
            handle = page.wait_for_function(
                f"terms => {{ const found = ({FIRST})(); return found && "
                "terms.every(t => found.terms.includes(t)) ? found : null; }",
                arg=terms,
                timeout=10000,
            )
            found = handle.json_value()
        except timeout:
            found = page.evaluate(FIRST)  # no first result matched every word
        if found is None or not expected(found, lang):
            wrong.append((query, found))
    assert wrong == []
    assert console.problems == []
    context.close()
