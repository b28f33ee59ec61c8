"""What a reader sees on the built site (``real_site``): nothing from the workshop (no path
into the project's ``tests/`` or ``benchmarks/``), a home page that leads to the rules, the
problems, the contests and the check page, and a composers' guide that speaks of the site's
grades and leads to the check page, in every language."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from selectolax.lexbor import LexborHTMLParser

from rulebook_build.site.problems import GRADES, LABELS

from .conftest import REPOSITORY, Site

pytestmark = pytest.mark.site_build

LANGUAGES = {"nl": "", "en": "en/", "fy": "fy/"}
WORKSHOP = re.compile(r"(?<![\w.-])(?:tests|benchmarks)/")
"""A path into the project's tests or benchmarks: ``tests/checker/x.pdn``, ``../tests/``,
``https://github.com/o/r/tree/main/benchmarks/``, not ``conformiteitstests`` or ``contests``."""
BASE = "https://site.invalid/"


def visible_text(tree: LexborHTMLParser) -> str:
    """The page's text as a reader can come to see it: everything in the body but scripts
    and styles (the messages a script shows are JSON data, searched as well)."""
    body = tree.body
    assert body is not None
    messages = [
        node.text()
        for node in body.css('script[type="application/json"]')  # a script's words
    ]
    for node in body.css("script, style"):
        node.decompose()
    return " ".join([body.text(separator=" "), *messages])


def parse(page: Path) -> LexborHTMLParser:
    return LexborHTMLParser(page.read_text(encoding="utf-8"))


def address(site: Site, page: Path) -> str:
    """The address of a built page, ``regels/x/index.html`` -> ``https://.../regels/x/``."""
    relative = page.relative_to(site.site).as_posix()
    return urljoin(BASE, relative.removesuffix("index.html"))


def links(site: Site, page: Path, tree: LexborHTMLParser, where: str = "body") -> list[str]:
    """The links of a page, resolved to the site's paths (``en/problemen/``, with a
    ``#fragment`` where the link has one)."""
    scope = tree.css_first(where)
    assert scope is not None, where
    found = []
    for anchor in scope.css("a[href]"):
        target = urljoin(address(site, page), anchor.attributes["href"] or "")
        if target.startswith(BASE):
            parts = urlsplit(target)
            found.append(parts.path.lstrip("/") + (f"#{parts.fragment}" if parts.fragment else ""))
    return found


def built(site: Site, target: str) -> bool:
    """Whether a link's page was built and has the element its fragment names."""
    path, _, fragment = target.partition("#")
    page = site.site / path / "index.html"
    if not page.is_file():
        return False
    return not fragment or parse(page).css_first(f'[id="{fragment}"]') is not None


def contests() -> list[str]:
    """The collections of ``problems/`` that are contests (their pages' folder names)."""
    found = []
    for toml in sorted((REPOSITORY / "problems").glob("*/collection.toml")):
        if tomllib.loads(toml.read_text(encoding="utf-8")).get("kind") == "contest":
            found.append(toml.parent.name)
    assert found
    return found


def test_no_page_shows_a_path_into_tests_or_benchmarks(real_site: Site) -> None:
    assert real_site.result.returncode == 0, real_site.result.stderr
    pages = sorted(real_site.site.rglob("*.html"))
    assert len(pages) > 400
    found = []
    for page in pages:
        tree = parse(page)
        hrefs = [
            node.attributes.get(name) or ""
            for node in tree.css("[href], [src]")
            for name in ("href", "src")
        ]
        text = visible_text(tree)
        for match in WORKSHOP.finditer(text):
            found.append(f"{page.relative_to(real_site.site)}: {text[match.start() - 40 :][:80]}")
        found += [
            f"{page.relative_to(real_site.site)}: link {h}" for h in hrefs if WORKSHOP.search(h)
        ]
    # the site search shows the pages' text as well
    index = json.loads((real_site.site / "search/search_index.json").read_text(encoding="utf-8"))
    found += [f"search: {doc['location']}" for doc in index["docs"] if WORKSHOP.search(doc["text"])]
    assert found == []


def test_the_examples_carry_no_date(real_site: Site) -> None:
    """The site's teaching examples are nobody's dated work: no page of theirs shows a year
    (the day a program generated them is the workshop's, not the reader's)."""
    pages = [
        page
        for prefix in LANGUAGES.values()
        for page in sorted((real_site.site / prefix / "problemen" / "examples").rglob("*.html"))
    ]
    assert len(pages) > 3 * 20
    found = []
    for page in pages:
        article = parse(page).css_first("article")  # not the menu: it names the rulebooks
        assert article is not None
        text = article.text(separator=" ")
        found += [f"{page}: {year}" for year in re.findall(r"\b(?:19|20)\d\d\b", text)]
    assert found == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_leads_to_rules_problems_contests_and_the_check_page(
    real_site: Site, lang: str
) -> None:
    prefix = LANGUAGES[lang]
    home = real_site.site / prefix / "index.html"
    targets = links(real_site, home, parse(home), "article")
    assert all(built(real_site, target) for target in targets), targets
    assert any(target.startswith(f"{prefix}regels/") for target in targets)
    assert f"{prefix}problemen/" in targets
    assert f"{prefix}controleren/" in targets
    assert f"{prefix}problemen/componisten/" in targets
    # the contests: a link to the list of collections and contests (not to one contest's page,
    # which a site with other problems would not have), and that list names a contest's page
    (listing,) = [target for target in targets if target.startswith(f"{prefix}problemen/#")]
    index = real_site.site / prefix / "problemen" / "index.html"
    html = index.read_text(encoding="utf-8")
    start = html.index(f'id="{listing.partition("#")[2]}"')
    assert start < html.index('class="rb-collections"')
    # (any language's page of the contest: the table's links are the site's to get right)
    listed = links(real_site, index, parse(index), "table.rb-collections")
    pages = {f"problemen/{contest}/" for contest in contests()}
    assert pages & {re.sub(r"^(?:en|fy)/", "", target) for target in listed}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_composers_guide_speaks_of_the_sites_grades(real_site: Site, lang: str) -> None:
    prefix = LANGUAGES[lang]
    guide = real_site.site / prefix / "problemen" / "componisten" / "index.html"
    tree = parse(guide)
    targets = links(real_site, guide, tree, "article")
    assert f"{prefix}controleren/" in targets
    assert f"{prefix}problemen/" in targets
    article = tree.css_first("article")
    assert article is not None
    text = " ".join(article.text(separator=" ").split())
    for grade in GRADES:
        assert LABELS[lang][grade] in text, grade
    for status in ("pass", "fail", "remark"):
        assert LABELS[lang][status] in text, status
    # the command line's marks, not the site's words
    assert not re.search(r"\bFAIL\b|\?\?|\bok\b", text), text
