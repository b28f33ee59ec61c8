"""Outside text on the problem and collection pages is text, checked without a browser.

The browser tests (``test_hostile_text.py``, ``test_hostile_corpus.py``) open the built pages
in Chromium and skip where it is missing; these run everywhere.  A collection whose every text
(``collection.toml``, the PDN tags, the claims, the stored verdict's details) is an attack is
rendered by ``render_problem`` and ``render_collection`` as the site does, parsed with Lexbor
(the HTML5 parser of selectolax, which builds the tree a browser builds) and compared element
for element with the pages of a twin whose texts are harmless words.  The titles go through
``markdown_literal`` and Python-Markdown, as the plugin sends them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import markdown
import pytest
from selectolax.lexbor import LexborHTMLParser

from rulebook_build.checker.grade import Criterion, Judgement, SolutionCheck
from rulebook_build.checker.judge import CRITERIA, problem_digest
from rulebook_build.checker.opinion import Opinion
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.site.problems import (
    ProblemSite,
    markdown_literal,
    render_collection,
    render_problem,
)

ATTACKS = (
    "<script>window.pwned = 1</script>",
    '<img src=x onerror="window.pwned = 2">',
    "</dd></dl><b id=pwned>bold</b>",
    "a < b & c > d &amp; &lt;i&gt; &#60;u&#62;",
    '" onmouseover="window.pwned = 3" data-pwned="',
    "' onfocus='window.pwned = 4' data-pwned='",
    "<!-- --><svg onload=alert(5)>",
)
"""Every one a line; each text below is one of them (the twin has a plain word instead)."""
FIELDS = (
    "title",
    "composer",
    "source",
    "stipulation",
    "organiser",
    "jury",
    "description",
    "claim_by",
    "claim_text",
    "claim_line",
    "detail",
    "collection_source",
    "opinion_after",
    "opinion_line",
)
DIAGRAM = '<div class="stand-in-diagram"></div>'


def texts(hostile: bool) -> dict[str, str]:
    """A text for every field: the attacks in turn, or a harmless word."""
    if not hostile:
        return {field: f"harmless {field}" for field in FIELDS}
    return {field: f"{field} {ATTACKS[index % len(ATTACKS)]}" for index, field in enumerate(FIELDS)}


def pdn_value(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def make_site(root: Path, words: dict[str, str]) -> ProblemSite:
    """``root/test``: a contest at its final stage (everything published) with one problem."""
    folder = root / "test"
    folder.mkdir(parents=True)
    toml = json.dumps  # a JSON string is a TOML basic string
    (folder / "collection.toml").write_text(
        "\n".join(
            [
                'title = "Test"',
                'kind = "contest"',
                'entry = "number"',
                'stage = "final"',
                f"organiser = {toml(words['organiser'])}",
                f"jury = {toml(words['jury'])}",
                f"description = {toml(words['description'])}",
                f"source = {toml(words['collection_source'])}",
                "[points]",
                "1 = 12.5",
                "[[claims]]",
                'entry = "1"',
                'kind = "anticipation"',
                f"by = {toml(words['claim_by'])}",
                f"text = {toml(words['claim_text'])}",
                f"line = {toml(words['claim_line'])}",
                "",
            ]
        ),
        encoding="utf-8",
    )
    tags = {
        "Title": words["title"],
        "Composer": words["composer"],
        "Source": words["source"],
        "Stipulation": words["stipulation"],
    }
    lines = [f'[{tag} "{pdn_value(value)}"]' for tag, value in tags.items()]
    lines += ['[SetUp "1"]', '[FEN "W:W15,38:B16,31"]', '[GameType "20"]', "", "1. 15-10 31-36 *"]
    (folder / "p.pdn").write_text("\n".join(lines) + "\n", encoding="utf-8")
    games, errors = read_pdn_file(folder / "p.pdn")
    assert not errors and len(games) == 1, errors
    # as 'rulebook check --json' writes it: every criterion open, with an attack for its detail,
    # and the engine's opinion on G with attacks for its lines
    judgement = Judgement(
        source="p.pdn:1",
        event=words["title"],
        variant="international",
        fen="W:W15,38:B16,31",
        verdict="undecided",
        white_wins="proved",
        winning_keys=["15-10"],
        solution=SolutionCheck(True, "15-10", True, None),
        criteria={name: Criterion("undecided", words["detail"]) for name in CRITERIA},
        digest=problem_digest(games[0], INTERNATIONAL),
        opinions=[
            Opinion(
                "alternative",
                ("G",),
                tuple(words["opinion_after"].split()),
                "win",
                240,
                12,
                1000,
                tuple(words["opinion_line"].split()),
                1000,
            )
        ],
    )
    record = judgement.as_json()
    (root / "verdicts.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    return ProblemSite(root)


def pages(root: Path, hostile: bool, lang: str) -> tuple[dict[str, str], str, str]:
    words = texts(hostile)
    site = make_site(root, words)
    problem = render_problem(
        "collection: test\nentry: 01",
        lang=lang,
        where="p.md:1",
        site=site,
        diagram=lambda block, lines: DIAGRAM,
        root="../../../",
    )
    collection = render_collection(
        "collection: test", lang=lang, where="c.md:1", site=site, root="../../"
    )
    return words, problem, collection


def shape(html: str) -> list[tuple[str | None, tuple[str, ...]]]:
    """Every element, in document order, as its tag and its attributes' names."""
    root = LexborHTMLParser(html).root
    assert root is not None
    return [(node.tag, tuple(sorted(node.attributes))) for node in root.traverse()]


def attribute_values(html: str) -> list[str]:
    root = LexborHTMLParser(html).root
    assert root is not None
    return [str(value) for node in root.traverse() for value in node.attributes.values()]


@pytest.fixture(params=["nl", "en"])
def rendered(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, object]:
    lang = str(request.param)
    words, problem, collection = pages(tmp_path / "hostile", True, lang)
    _, twin_problem, twin_collection = pages(tmp_path / "harmless", False, lang)
    return {
        "words": words,
        "problem": problem,
        "collection": collection,
        "twin_problem": twin_problem,
        "twin_collection": twin_collection,
    }


def test_the_hostile_pages_have_the_markup_of_their_harmless_twins(
    rendered: dict[str, object],
) -> None:
    for page in ("problem", "collection"):
        html, twin = str(rendered[page]), str(rendered[f"twin_{page}"])
        assert shape(html) == shape(twin), page
        # no attribute got its value from a payload (a broken-out quote would make one)
        assert not [value for value in attribute_values(html) if "pwned" in value], page


def test_the_problem_page_shows_every_text_as_written(rendered: dict[str, object]) -> None:
    words = rendered["words"]
    assert isinstance(words, dict)
    tree = LexborHTMLParser(f"<!doctype html><body>{rendered['problem']}</body>")
    facts = [node.text() for node in tree.css(".rb-problem dl dd")]
    for field in ("composer", "source", "stipulation"):
        assert words[field] in facts, field
    claim = tree.css_first(".rb-problem li")
    assert claim is not None
    said = claim.text()
    for field in ("claim_by", "claim_line", "claim_text"):
        assert words[field] in said, field
    details = {node.text() for node in tree.css("td, dd, li") if words["detail"] in node.text()}
    assert words["detail"] in details
    opinion = tree.css_first(".rb-opinions li")
    assert opinion is not None
    assert words["opinion_after"] in opinion.text() and words["opinion_line"] in opinion.text()
    assert tree.css("script") == [] and tree.css("img") == [] and tree.css("b") == []


def test_the_collection_page_shows_every_text_as_written(rendered: dict[str, object]) -> None:
    words = rendered["words"]
    assert isinstance(words, dict)
    tree = LexborHTMLParser(f"<!doctype html><body>{rendered['collection']}</body>")
    description = tree.css_first(".rb-collection > p")
    assert description is not None and description.text() == words["description"]
    facts = [node.text() for node in tree.css(".rb-collection > dl.rb-facts dd")]
    for field in ("organiser", "jury", "collection_source"):
        assert words[field] in facts, field
    entry = tree.css_first("td.rb-cell-entry")
    assert entry is not None
    assert words["title"] in entry.text() and words["composer"] in entry.text()
    claims = tree.css_first("td.rb-cell-claims")
    assert claims is not None
    for field in ("claim_by", "claim_line", "claim_text"):
        assert words[field] in claims.text(), field
    findings = [node.text() for node in tree.css("ul.rb-findings li")]
    assert findings and all(words["detail"] in text for text in findings)
    beside = [node.text() for node in tree.css("ul.rb-findings li .rb-opinion")]
    assert len(beside) == 1
    assert words["opinion_after"] in beside[0] and words["opinion_line"] in beside[0]
    assert tree.css("script") == [] and tree.css("img:not(.rb-thumb)") == [] and not tree.css("b")


MARKDOWN = ("attr_list", "toc", "admonition")
"""The extensions that read a page's title line in the site (``mkdocs.yml``)."""


@pytest.mark.parametrize(
    "title",
    [
        *ATTACKS,
        "*emphasis* _it_ `code` [link](javascript:alert(1)) ![img](x.png)",
        "Title {: #pwned onclick=alert(1) } {#id .class}",
        "# not a heading \\ back\\slash + - . ! ( ) [ ] { }",
        "multi\nline\n\n# heading\ttab",
    ],
)
def test_markdown_literal_makes_a_title_line_that_shows_as_written(title: str) -> None:
    html = markdown.markdown(f"# {markdown_literal(title)}\n", extensions=list(MARKDOWN))
    tree = LexborHTMLParser(f"<!doctype html><body>{html}</body>")
    body = tree.body
    assert body is not None
    elements = [node.tag for node in body.traverse() if node.tag != "-text"]
    assert elements == ["body", "h1"], html
    heading = tree.css_first("h1")
    assert heading is not None
    assert heading.text() == " ".join(title.split())
    assert set(heading.attributes) <= {"id"}
    assert re.fullmatch(r"[\w-]*", str(heading.attributes.get("id", ""))), heading.attributes
