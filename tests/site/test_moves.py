"""Moves in running text are kept on one line: ``<span class="rb-move">46-41</span>``."""

from __future__ import annotations

import markdown

from rulebook_build.site.moves import MoveExtension

from .conftest import Site
from .test_build import read

SOURCE = """\
## Art. 3-4 met 32-28 {#art-3-4}

Wit speelt 46-41, zwart slaat 26x37x48; zie [art. 12-3](kndb-2018.md#art-12-3) en 1-27.
Geen zet: `32-28` in code, 2-6-2018 een datum, 10x10x toch niet, 123-45 ook niet.

| zet | uitleg |
| --- | --- |
| 33-28 | *17-22* |

    32-28 in een codeblok

<div markdown="1" data-x="19-23">De stand na 19-23.</div>
"""


def convert(text: str) -> str:
    return markdown.markdown(
        text, extensions=[MoveExtension(), "toc", "attr_list", "tables", "md_in_html"]
    )


def test_moves_in_running_text_are_wrapped() -> None:
    html = convert(SOURCE)
    moves = [
        "46-41",
        "26x37x48",
        "12-3",  # a link's text, not its address
        "1-27",
        "33-28",
        "17-22",
        "19-23",
    ]
    for move in moves:
        assert f'<span class="rb-move">{move}</span>' in html, move
    assert html.count('class="rb-move"') == len(moves)
    assert 'href="kndb-2018.md#art-12-3"' in html
    assert 'data-x="19-23"' in html


def test_headings_code_and_non_moves_are_left_alone() -> None:
    html = convert(SOURCE)
    assert '<h2 id="art-3-4">Art. 3-4 met 32-28</h2>' in html
    assert "<code>32-28</code>" in html
    assert "<pre><code>32-28 in een codeblok" in html
    for text in ("2-6-2018", "10x10x", "123-45"):
        assert text in html and f">{text}<" not in html


def test_the_site_wraps_moves_and_search_still_reads_them_whole(tiny_site: Site) -> None:
    html = read(tiny_site.site, "index.html")
    assert '<span class="rb-move">32x12</span>' in html
    assert '<span class="rb-move">27-31</span>' in html
    # the diagrams' own markup (SVG, the player's JSON and move list) is not touched
    figure = html[html.index('<figure class="rb-diagram') : html.index("</figure>")]
    assert "rb-move" not in figure.replace("rb-player-move", "")
