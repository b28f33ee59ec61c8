"""The comparison of the KNDB rulebooks of 2009 and 2018 (``site/editions.py``), without a
browser: the table pairs every article of both rulebooks, the English page uses the same
table, a pair that differs is marked word by word, a source's text stays text, and a fault of
the table stops the build with its file, line and anchor.

The article lists are read from the Markdown here, with a pattern of this test's own, not with
the module under test.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from rulebook_build.errors import SiteError
from rulebook_build.site.editions import (
    diff_engine,
    plain_text,
    read_rulebook,
    relative_url,
    render_editions,
    word_diff,
)

from .conftest import REPOSITORY

TABLE = "editions/kndb-2009-2018.toml"
PAGES = {lang: REPOSITORY / "docs" / lang / "regels" / "kndb-2009-2018.md" for lang in ("nl", "en")}
RULEBOOKS = {"old": "regels/kndb-2009.md", "new": "regels/kndb-2018.md"}

ANCHOR = re.compile(r"^#{2,6} .*\{#(art-[0-9a-z-]+)\}\s*$", re.MULTILINE)
WHOLE = re.compile(r"art-\d+[a-z]*")


def anchors(lang: str, side: str) -> list[str]:
    """Every article anchor of a rulebook's headings, in order."""
    text = (REPOSITORY / "docs" / lang / RULEBOOKS[side]).read_text(encoding="utf-8")
    return ANCHOR.findall(text)


def table() -> dict[str, object]:
    return tomllib.loads((REPOSITORY / TABLE).read_text(encoding="utf-8"))


def render(lang: str, project: Path = REPOSITORY, name: str = TABLE) -> str:
    return render_editions(
        f"table: {name}",
        lang=lang,
        where="test",
        project=project,
        source=lambda page: project / "docs" / lang / page,
        link=lambda target: relative_url("regels/kndb-2009-2018.md", target),
    )


# ------------------------------------------------------------------ the table of the project


@pytest.mark.parametrize("side", ["old", "new"])
def test_the_table_pairs_every_article_of_both_rulebooks_once(side: str) -> None:
    pairs = table()["pair"]
    assert isinstance(pairs, list)
    listed = [anchor for pair in pairs for anchor in pair.get(side, [])]
    assert len(listed) == len(set(listed)), "an anchor is in two pairs"
    found = anchors("nl", side)
    assert set(listed) <= set(found), sorted(set(listed) - set(found))
    whole = [anchor for anchor in found if WHOLE.fullmatch(anchor)]
    # 66 articles and the lettered ones of 2009 (22a, 29a, ..., 44(T)); 13 of 2018
    assert len(whole) == (73 if side == "old" else 13)
    for article in whole:
        parts = [anchor for anchor in found if anchor.startswith(f"{article}-")]
        assert article in listed or (parts and set(parts) <= set(listed)), article
        assert not (article in listed and set(parts) & set(listed)), article


def test_the_english_rulebooks_have_the_same_anchors() -> None:
    for side in RULEBOOKS:
        assert anchors("en", side) == anchors("nl", side)


def test_the_english_page_uses_the_same_table() -> None:
    fences = {
        lang: re.findall(r"^```edition-comparison\n(.*?)^```", path.read_text(), re.M | re.S)
        for lang, path in PAGES.items()
    }
    assert fences["nl"] == fences["en"] == [f"table: {TABLE}\n"]
    ids = {}
    for lang in PAGES:
        tree = LexborHTMLParser(render(lang))
        ids[lang] = [node.attributes["id"] for node in tree.css("section.rb-edition-pair h2")]
    assert ids["nl"] == ids["en"]
    assert len(ids["nl"]) == len(table()["pair"])  # type: ignore[arg-type]


def test_a_pair_that_differs_is_marked_word_by_word() -> None:
    """2009 art. 7.1 (a wrong board: the game starts again) and 2018 art. 7.1 (the board is
    put right)."""
    tree = LexborHTMLParser(render("nl"))
    section = tree.css_first('section[aria-labelledby="2009-art-7-1"]')
    assert section is not None
    deleted = " ".join(node.text() for node in section.css(".rb-diff del"))
    inserted = " ".join(node.text() for node in section.css(".rb-diff ins"))
    assert "ongeldig" in deleted and "opnieuw" in deleted
    assert "alsnog goed gelegd" in inserted
    assert "ongeldig" not in inserted and "alsnog" not in deleted
    # the words both texts share are neither
    unchanged = section.css_first(".rb-diff").text(deep=False)
    assert "het bord verkeerd ligt" in unchanged
    # a screen reader hears what is inserted and deleted
    assert "[nieuw in 2018: " in inserted and "[vervallen uit 2009: " in deleted
    links = [a.attributes["href"] for a in section.css(".rb-edition-meta a")]
    assert links == ["../kndb-2009/#art-7-1", "../kndb-2018/#art-7-1"]


def test_the_blocks_words_are_said_in_the_language_asked() -> None:
    """The legend, the labels and a screen reader's marks from the catalogs, the editions'
    labels in their places: Frisian here over the Dutch pages (the Frisian site has none of
    its own, and asks the block in Dutch there)."""
    html = render_editions(
        f"table: {TABLE}",
        lang="fy",
        where="test",
        project=REPOSITORY,
        source=lambda page: REPOSITORY / "docs" / "nl" / page,
        link=lambda target: relative_url("regels/kndb-2009-2018.md", target),
    )
    tree = LexborHTMLParser(html)
    assert tree.css_first(".rb-diff-legend strong").text() == "Sa lêze jo de ferskillen"
    caption = tree.css_first("caption")
    assert caption is not None
    assert caption.text() == "De kêsten fan 2009 en 2018, op ûnderwerp neist inoar"
    section = tree.css_first('section[aria-labelledby="2009-art-7-1"]')
    assert section is not None
    assert "[nij yn 2018: " in " ".join(node.text() for node in section.css(".rb-diff ins"))


def test_the_texts_and_the_overview_stay_out_of_the_search_index() -> None:
    """The texts are on the rule pages; the index glued the overview's cells into words
    ("3.13.7verplaatst") on which lunr's prefix search threw (tests/site/test_search.py)."""
    tree = LexborHTMLParser(render("nl"))
    boxes = tree.css(".rb-diff, .rb-table-scroll")
    assert len(boxes) == len(table()["pair"]) + 1  # type: ignore[arg-type]
    assert all("data-search-exclude" in box.attributes for box in boxes)


def test_a_pair_with_one_side_shows_its_text_folded_and_unmarked() -> None:
    tree = LexborHTMLParser(render("en"))
    section = tree.css_first('section[aria-labelledby="2009-art-17"]')
    assert section is not None
    fold = section.css_first("details.rb-edition-text")
    assert fold is not None and "Text of 2009 (dropped)" in fold.css_first("summary").text()
    assert "arbiter" in fold.css_first(".rb-diff").text()
    assert not fold.css("ins, del")


# ------------------------------------------------------------------ a table of the test's own

OLD_PAGE = """\
# Old rules

## Artikel 1 Intro {#art-1}

Two players play TEXT.

## Artikel 2 Board {#art-2}

### 2.1 {#art-2-1}

The board has one hundred squares.

### 2.2 {#art-2-2}

See [art. 1](#art-1).
"""

NEW_PAGE = """\
# New rules

## Artikel 1: The players {#art-1}

Two players play TEXT.

## Artikel 2: Board {#art-2}

The board is square.
"""

SMALL_TABLE = """\
old = {{ page = "regels/kndb-2009.md", label = "2009" }}
new = {{ page = "regels/kndb-2018.md", label = "2018" }}

[[pair]]
old = ["art-1"]
new = ["art-1"]
reason = "same"
subject.nl = "Spelers {subject}"
subject.en = "Players"
summary.nl = "Samenvatting {summary}"
summary.en = "Summary"

[[pair]]
old = ["art-2-1", "{anchor}"]
new = ["art-2"]
reason = "merged"
subject.nl = "Bord"
subject.en = "Board"
summary.nl = "Bord."
summary.en = "Board."
"""

HOSTILE = "a <script>x</script> & b <img src=x onerror=alert(1)> &amp; </div></section><i>"
ALLOWED = {"div", "p", "strong", "ul", "li", "ins", "del", "span", "h2", "table", "caption"}
ALLOWED |= {"thead", "tbody", "tr", "th", "td", "a", "section", "details", "summary"}
ALLOWED |= {"html", "head", "body"}


def small_project(
    root: Path,
    *,
    old_text: str = "draughts",
    new_text: str = "draughts well",
    anchor: str = "art-2-2",
    subject: str = "",
    summary: str = "",
) -> Path:
    for lang in ("nl", "en"):
        folder = root / "docs" / lang / "regels"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "kndb-2009.md").write_text(OLD_PAGE.replace("TEXT", old_text), encoding="utf-8")
        (folder / "kndb-2018.md").write_text(NEW_PAGE.replace("TEXT", new_text), encoding="utf-8")
    (root / "editions").mkdir(exist_ok=True)
    (root / "editions" / "small.toml").write_text(
        SMALL_TABLE.format(anchor=anchor, subject=subject, summary=summary), encoding="utf-8"
    )
    return root


def test_hostile_article_text_and_table_words_stay_text(tmp_path: Path) -> None:
    toml_safe = HOSTILE.replace("\\", "\\\\").replace('"', '\\"')
    project = small_project(
        tmp_path, old_text=HOSTILE, new_text=HOSTILE + " <b>more</b>", subject=toml_safe,
        summary=toml_safe,
    )  # fmt: skip
    fragment = render("nl", project, "editions/small.toml")
    tree = LexborHTMLParser(fragment)
    tags = {node.tag for node in tree.root.traverse() if node.tag and not node.tag.startswith("-")}
    assert tags <= ALLOWED, tags - ALLOWED
    assert not tree.css("script, img, i, b")
    section = tree.css_first('section[aria-labelledby="2009-art-1"]')
    assert section is not None
    text = section.css_first(".rb-diff").text()
    assert "a <script>x</script> & b <img src=x onerror=alert(1)> & </div></section><i>" in text
    assert section.css("ins")[-1].text() == "[nieuw in 2018:  <b>more</b>]"
    # the table's words are plain text, its "&amp;" too; the Markdown's is a character
    assert HOSTILE in section.css_first("h2").text()
    assert HOSTILE in section.css_first(".rb-edition-summary").text()
    # every "<" in the fragment opens one of the template's own tags
    for found in re.finditer(r"<(/?)([a-zA-Z0-9]+)", fragment):
        assert found[2].lower() in ALLOWED, fragment[found.start() : found.start() + 40]


def test_a_missing_anchor_names_the_table_its_line_and_the_anchor(tmp_path: Path) -> None:
    project = small_project(tmp_path, anchor="art-9-9")
    with pytest.raises(SiteError) as raised:
        render("nl", project, "editions/small.toml")
    line = SMALL_TABLE.splitlines().index('old = ["art-2-1", "{anchor}"]') + 1
    message = str(raised.value)
    assert message.startswith(f"editions/small.toml:{line}: ")
    assert "'art-9-9'" in message and "docs/nl/regels/kndb-2009.md" in message


def test_an_article_in_no_pair_stops_the_build(tmp_path: Path) -> None:
    project = small_project(tmp_path, anchor="art-1")
    with pytest.raises(SiteError, match=r"already in the pair of line 4 \(as 'art-1'\)"):
        render("nl", project, "editions/small.toml")
    small_project(tmp_path)
    path = project / "editions" / "small.toml"
    text = path.read_text().replace('"art-2-1", "art-2-2"', '"art-2-1"')
    path.write_text(text.replace('reason = "merged"', 'reason = "same"'))
    with pytest.raises(SiteError) as raised:
        render("nl", project, "editions/small.toml")
    assert "old article 'art-2' of docs/nl/regels/kndb-2009.md is in no pair" in str(raised.value)
    assert "art-2-2" in str(raised.value)


def test_an_article_listed_by_its_parts_has_no_text_outside_them(tmp_path: Path) -> None:
    project = small_project(tmp_path)
    page = project / "docs" / "nl" / "regels" / "kndb-2009.md"
    text = page.read_text().replace("{#art-2}\n", "{#art-2}\n\nAn introduction.\n")
    page.write_text(text)
    with pytest.raises(SiteError) as raised:
        render("nl", project, "editions/small.toml")
    assert str(raised.value) == (
        "editions/small.toml: old article 'art-2' of docs/nl/regels/kndb-2009.md is in no pair "
        "(its text before its first part is in no pair: list it whole); add it, with reason "
        "'dropped' or 'new' if it has no counterpart"
    )


@pytest.mark.parametrize(
    ("reason", "problem"),
    [
        ("split", "needs two or more new articles"),
        ("dropped", "needs old articles and no new ones"),
        ("new", "needs new articles and no old ones"),
        ("renamed", "is not one of same, moved, merged, split, dropped, new"),
        ('merged"\nolds = ["art-1"]\n#"', "unknown key olds"),
    ],
)
def test_a_reason_must_fit_its_pair(tmp_path: Path, reason: str, problem: str) -> None:
    project = small_project(tmp_path)
    path = project / "editions" / "small.toml"
    path.write_text(path.read_text().replace('reason = "merged"', f'reason = "{reason}"'))
    line = SMALL_TABLE.splitlines().index("[[pair]]", 5) + 1
    with pytest.raises(SiteError) as raised:
        render("nl", project, "editions/small.toml")
    assert str(raised.value).startswith(f"editions/small.toml:{line}: ")
    assert problem in str(raised.value)


# ------------------------------------------------------------------ the parts


def test_word_diff_marks_whole_words_and_never_spaces_alone() -> None:
    assert word_diff("the game is invalid", "the game is valid") == [
        ("same", "the game is "),
        ("del", "invalid"),
        ("ins", "valid"),
    ]
    assert word_diff("a  b", "a b\nc") == [("same", "a b"), ("ins", "\nc")]
    assert word_diff("same text", "same text") == [("same", "same text")]
    assert word_diff("", "new") == [("ins", "new")]
    assert word_diff("ab cd", "ab\ncd") == [("same", "ab\ncd")]


def test_the_diff_has_no_time_limit() -> None:
    """Its default limit of a second would give a coarser diff on a busy machine."""
    assert diff_engine().Diff_Timeout == 0


def test_plain_text_keeps_the_words_and_drops_the_markup() -> None:
    markdown = [
        "Een **schijf** gaat [schuin](#art-3) vooruit,",
        "naar een *leeg* veld.",
        "",
        "- a. `eerste`;",
        "  vervolg",
        "",
        "```draughts",
        "position: start",
        "caption: Afb. 1 — Beginstand",
        "```",
        "",
        "#### 2.1 {#art-2-1}",
        "",
        "| a | b |",
        "| --- | --- |",
        "| 1 & 2 | &lt;x&gt; |",
    ]
    assert plain_text(markdown) == "\n".join(
        [
            "Een schijf gaat schuin vooruit, naar een leeg veld.",
            "• a. eerste; vervolg",
            "[diagram: Afb. 1 — Beginstand]",
            "2.1",
            "a | b",
            "1 & 2 | <x>",
        ]
    )


def test_articles_run_to_the_next_heading_of_their_level() -> None:
    book = read_rulebook(OLD_PAGE.replace("TEXT", "x"), path="old.md")
    assert list(book.articles) == ["art-1", "art-2", "art-2-1", "art-2-2"]
    assert book.articles["art-2"].text == "Artikel 2 Board\n2.1\nThe board has one hundred " + (
        "squares.\n2.2\nSee art. 1."
    )
    assert book.articles["art-2-1"].parent == "art-2"
    assert (book.articles["art-1"].number, book.articles["art-1"].title) == ("1", "Intro")
    assert [a.anchor for a in book.whole_articles()] == ["art-1", "art-2"]
    assert not book.articles["art-2"].own_text


def test_links_are_relative_to_the_comparison_page() -> None:
    here = "regels/kndb-2009-2018.md"
    assert relative_url(here, "regels/kndb-2009.md") == "../kndb-2009/"
    assert relative_url(here, "regels/kndb-2009.md", directory_urls=False) == "kndb-2009.html"
    assert relative_url("index.md", "regels/kndb-2018.md") == "regels/kndb-2018/"
