"""Outside text in the diagrams is text: captions, titles, descriptions and line labels with
``<``, ``&`` and quotes come out as the same characters, never as markup.

Each output is parsed, not searched for strings: the SVG with ``xml.etree`` (a standalone SVG
is an XML file), the HTML with Lexbor (selectolax), the HTML5 parser that builds the tree a
browser builds.  Each hostile output is compared element for element with a harmless twin.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from selectolax.lexbor import LexborHTMLParser, LexborNode

from rulebook_build.notation.diagram import parse_diagram
from rulebook_build.notation.resolve import resolve_move
from rulebook_build.render.html import Line, player_html, static_html
from rulebook_build.render.svg import board_svg
from rulebook_build.rules import Position

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = [
    "a < b & c > d",
    "Fig. 1 & 2 — \"quoted\" and 'single'",
    "</title><script>window.pwned = 1</script>",
    '<img src=x onerror="window.pwned = 2"> &amp; &lt;b&gt; &#60;i&#62;',
    "]]><!-- <b>bold</b> --> </desc></svg><svg onload=alert(1)>",
    '" onmouseover="window.pwned = 3" data-x="',
    "</script data-x=1> <!--<script --> </SCRIPT/>",
]
IDS = ["lt-amp", "quotes", "close-title", "entities", "comments", "attribute", "close-script"]
POSITION = "W:W32:B18,27,28"


def xml_of(svg: str) -> ET.Element:
    if "xmlns=" not in svg:
        svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return ET.fromstring(svg)


def shape(html: str) -> list[tuple[str | None, tuple[str, ...]]]:
    """Every element, in document order, as its tag and its attributes' names."""
    root = LexborHTMLParser(html).root
    assert root is not None
    return [(node.tag, tuple(sorted(node.attributes))) for node in root.traverse()]


def only(tree: LexborHTMLParser, selector: str) -> LexborNode:
    found = tree.css(selector)
    assert len(found) == 1, (selector, len(found))
    return found[0]


# ------------------------------------------------------------------ SVG


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_a_standalone_svg_shows_its_caption_and_title_as_written(text: str) -> None:
    svg = board_svg(Position.initial(), caption=text, standalone=True, id_prefix="x")
    root = xml_of(svg)  # well-formed XML, whatever the caption
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == text and len(title) == 0
    lines = [node for node in root.iter(f"{SVG}text") if node.get("class") == "rb-caption"]
    assert lines and all(len(node) == 0 for node in lines)
    assert " ".join(node.text or "" for node in lines) == " ".join(text.split())
    # nothing from the caption became an element or an attribute
    twin = xml_of(board_svg(Position.initial(), caption="x", standalone=True, id_prefix="x"))
    assert [(n.tag, sorted(n.attrib)) for n in root.iter() if n.tag != f"{SVG}text"] == [
        (n.tag, sorted(n.attrib)) for n in twin.iter() if n.tag != f"{SVG}text"
    ]


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_an_inline_svg_shows_its_title_and_description_as_written(text: str) -> None:
    svg = board_svg(Position.initial(), title=text, description=text, id_prefix="y")
    root = xml_of(svg)
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text == text and len(title) == 0
    assert desc is not None and desc.text == text and len(desc) == 0
    # and in an HTML page, where a browser reads it
    tree = LexborHTMLParser(f"<!doctype html><body>{svg}</body>")
    assert only(tree, "svg title").text() == text
    assert only(tree, "svg desc").text() == text
    assert shape(svg) == shape(board_svg(Position.initial(), title="t", description="d"))


def test_the_caption_is_the_title_when_no_title_is_given() -> None:
    text = HOSTILE[2]
    title = xml_of(board_svg(Position.initial(), caption=text)).find(f"{SVG}title")
    assert title is not None and title.text == text


# ------------------------------------------------------------------ HTML


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_a_still_figure_shows_its_caption_as_written(text: str) -> None:
    spec = parse_diagram(f"position: {POSITION}\ncaption: {text}")
    html = static_html(spec, lang="en", id_prefix="d1")
    tree = LexborHTMLParser(f"<!doctype html><body>{html}</body>")
    assert only(tree, "figure > figcaption").text() == text
    assert only(tree, "figure svg title").text() == text
    twin = static_html(
        parse_diagram(f"position: {POSITION}\ncaption: x"), lang="en", id_prefix="d1"
    )
    assert shape(html) == shape(twin)


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_a_player_shows_its_caption_and_line_labels_as_written(text: str) -> None:
    def player(words: str) -> str:
        spec = parse_diagram(f"position: {POSITION}\nmoves: 32x12 27-31\ncaption: {words}")
        start = Position.from_squares(white_men=[32], black_men=[18, 27, 28])
        other = Line(label=words, sentence=words, moves=(resolve_move(start, "32x12"),))
        return player_html(spec, lang="en", id_prefix="p1", lines=[other])

    html = player(text)
    tree = LexborHTMLParser(f"<!doctype html><body>{html}</body>")
    assert only(tree, "figure > figcaption").text() == text
    assert only(tree, ".rb-player-alt strong").text() == text
    assert only(tree, ".rb-player-alt > p:first-child").text() == f"{text}. {text}"
    assert only(tree, ".rb-player-alt svg title").text() == f"{text}: Final position"
    buttons = [node.text() for node in tree.css("button.rb-player-line")]
    assert len(buttons) == 2 and buttons[1] == text  # the main line, then this one
    # the script's data is JSON that gives the label back, and nothing closes the script early
    data = json.loads(only(tree, "script.rb-player-data").text())
    assert data["lines"][1]["label"] == text
    assert shape(html) == shape(player("x"))


def test_an_alternative_line_is_written_out_for_a_page_without_script() -> None:
    """Without a script the reader sees each alternative line written out: its name, its
    sentence (none: the name alone), its moves and the position it leads to, described in the
    page's language, with ids of its own."""
    spec = parse_diagram(f"position: {POSITION}\nmoves: 32x12 27-31")
    start = Position.from_squares(white_men=[32], black_men=[18, 27, 28])
    first = resolve_move(start, "32x12")
    second = resolve_move(start.play(first), "27-31")
    lines = [
        Line(label="Dual", sentence="", moves=(first, second)),
        Line(label="Cook", sentence="Black & White", moves=(first,)),
    ]
    html = player_html(spec, lang="fy", id_prefix="p7", lines=lines)
    tree = LexborHTMLParser(f"<!doctype html><body>{html}</body>")
    dual, cook = tree.css(".rb-player-alt")
    assert dual.css_first("p").html == "<p><strong>Dual</strong>.</p>"
    assert cook.css_first("p").text() == "Cook. Black & White"
    assert dual.css_first(".rb-player-alt-moves").text() == "1. 32x12 27-31"
    assert cook.css_first(".rb-player-alt-moves").text() == "1. 32x12"
    ids = [node.attributes["id"] for node in tree.css("[id]")]
    assert len(ids) == len(set(ids))  # every id once in the page
    for alt, moves in ((dual, (first, second)), (cook, (first,))):
        final = start
        for move in moves:
            final = final.play(move)
        # the position described in the page's language (Frisian), not the default (Dutch)
        described = {
            lang: xml_of(board_svg(final, lang=lang, standalone=False)).find(f"{SVG}desc")
            for lang in ("fy", "nl")
        }
        assert described["fy"] is not None and described["nl"] is not None
        assert described["fy"].text != described["nl"].text
        assert alt.css_first("svg desc").text().startswith(described["fy"].text or "?")
        assert all(str(i).startswith("p7") for i in (n.attributes["id"] for n in alt.css("[id]")))


def test_a_figure_without_a_caption_has_no_caption() -> None:
    html = static_html(parse_diagram(f"position: {POSITION}"), lang="en", id_prefix="d2")
    figure = only(LexborHTMLParser(f"<!doctype html><body>{html}</body>"), "figure")
    # the board alone: no caption, no text beside it
    assert [child.tag for child in figure.iter()] == ["svg"]
    assert figure.text(deep=False).strip() == ""
