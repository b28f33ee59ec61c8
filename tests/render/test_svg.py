"""SVG diagrams: golden files fix the output; the rest checks what the picture means."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from rulebook_build.notation.diagram import parse_diagram
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.resolve import resolve_move
from rulebook_build.render.html import diagram_html
from rulebook_build.render.strings import describe_position, square_ranges
from rulebook_build.render.style import (
    DARK,
    LIGHT,
    PIECE_RADIUS,
    PRINT,
    SQUARE,
    Palette,
    arrow_shape,
    css_variables,
    square_centre,
)
from rulebook_build.render.svg import (
    board_svg,
    dark_squares_path,
    piece_svg,
    pieces_svg,
    standalone_style,
)
from rulebook_build.rules import FRISIAN, Piece, Position

Golden = Callable[[str, str], None]
SVG = "{http://www.w3.org/2000/svg}"
CSS = Path(__file__).resolve().parents[2] / "rulebook_build" / "site" / "assets" / "draughts.css"


def parse(svg: str) -> ET.Element:
    if "xmlns=" not in svg:
        svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return ET.fromstring(svg)


def pieces_of(svg: str) -> dict[int, str]:
    root = parse(svg)
    found = {}
    for group in root.iter(f"{SVG}g"):
        classes = group.get("class", "").split()
        if "rb-piece" in classes:
            kind = (
                ("W" if "rb-w" in classes else "B")
                if "rb-king" in classes
                else ("w" if "rb-w" in classes else "b")
            )
            found[int(group.get("data-square", "0"))] = kind
    return found


# ------------------------------------------------------------------ golden files


def test_golden_start_position_with_numbers(golden: Golden) -> None:
    golden("start-numbers.svg", board_svg(Position.initial(), numbers=True, id_prefix="g1"))


def test_golden_empty_board_centres_the_numbers(golden: Golden) -> None:
    empty = Position.from_squares(variant=FRISIAN)
    golden("empty-numbers.svg", board_svg(empty, numbers=True, id_prefix="g2", lang="fy"))


def test_golden_marks_arrows_kings_flipped(golden: Golden) -> None:
    position = parse_fen("B:W28,K45:B19,K3")
    before = parse_fen("W:W33,K45:B19,K3")
    move = resolve_move(before, "33-28")
    svg = board_svg(
        position,
        flip=True,
        last_move=move,
        highlight=(19, 28),
        arrows=((19, 23), (45, 12)),
        lang="en",
        id_prefix="g3",
    )
    golden("marks-flipped.svg", svg)


def test_golden_standalone_with_caption(golden: Golden) -> None:
    svg = board_svg(
        parse_fen("W:W32,37:B8,28"),
        numbers=True,
        caption="Fig. 3 — White captures one piece: 32x23, and the caption wraps",
        standalone=True,
        size=300,
        id_prefix="g4",
        lang="en",
    )
    golden("standalone-caption.svg", svg)


def test_golden_player_html(golden: Golden) -> None:
    spec = parse_diagram(
        "position: W:W32:B18,27,28\nnumbers: yes\nmoves: 32x12 27-31\ncaption: Afb. 4 — meerslag"
    )
    golden("player-nl.html", diagram_html(spec, lang="nl", id_prefix="diagram-1"))


def test_golden_still_figure_html(golden: Golden) -> None:
    spec = parse_diagram("position: start\nvariant: frisian\ncaption: Ôfb. 2 — De begjinstân")
    golden("figure-fy.html", diagram_html(spec, lang="fy", id_prefix="diagram-2"))


# ------------------------------------------------------------------ meaning


def test_the_pieces_drawn_are_the_pieces_of_the_position() -> None:
    position = parse_fen("W:W31,32,K45:B18,19,K3")
    assert pieces_of(board_svg(position)) == {31: "w", 32: "w", 45: "W", 18: "b", 19: "b", 3: "B"}


def test_square_geometry_and_flip() -> None:
    assert square_centre(1) == (75, 25)  # top row, second column
    assert square_centre(46) == (25, 475)  # White's bottom-left corner
    assert square_centre(1, flip=True) == (425, 475)
    assert square_centre(50, flip=True) == (75, 25)


def test_accessible_name_and_description() -> None:
    svg = board_svg(Position.initial(), lang="en", caption="Fig. 1", id_prefix="x")
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "x-title"
    assert root.get("aria-describedby") == "x-desc"
    assert root.find(f"{SVG}title").text == "Fig. 1"  # type: ignore[union-attr]
    desc = root.find(f"{SVG}desc").text  # type: ignore[union-attr]
    assert desc == "White: 20 men on 31–50. Black: 20 men on 1–20. White to move."


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "nl",
            "Wit: 1 schijf op 28 en 1 dam op 45. Zwart: 2 schijven op 18, 19. Zwart is aan zet.",
        ),
        ("en", "White: 1 man on 28 and 1 king on 45. Black: 2 men on 18, 19. Black to move."),
        ("fy", "Wyt: 1 skiif op 28 en 1 dam op 45. Swart: 2 skiven op 18, 19. Swart is oan set."),
    ],
)
def test_description_in_three_languages(lang: str, expected: str) -> None:
    assert describe_position(parse_fen("B:W28,K45:B18,19"), lang) == expected


def test_square_ranges() -> None:
    assert square_ranges([1, 2, 3, 5, 6, 9, 10, 11, 12]) == "1–3, 5, 6, 9–12"
    assert square_ranges([]) == ""


def test_inline_svg_has_no_namespace_or_style_and_is_excluded_from_search() -> None:
    svg = board_svg(Position.initial())
    assert "<style>" not in svg and "xmlns" not in svg
    assert 'data-search-exclude="true"' in svg
    standalone = board_svg(Position.initial(), standalone=True)
    assert standalone.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="500"')
    assert "<style>" in standalone


def test_output_is_deterministic() -> None:
    first = board_svg(Position.initial(), numbers=True, arrows=((32, 28),))
    second = board_svg(Position.initial(), numbers=True, arrows=((32, 28),))
    assert first == second


def _css_block(css: str, opener: str) -> dict[str, str]:
    start = css.index(opener)
    block = css[start : css.index("}", start)]
    return dict(re.findall(r"(--rb-[a-z-]+):\s*(#[0-9a-f]{6})", block))


def test_stylesheet_colours_match_the_palettes() -> None:
    css = CSS.read_text(encoding="utf-8")
    assert _css_block(css, ':root,\n[data-md-color-scheme="default"]') == css_variables(LIGHT)
    assert _css_block(css, '[data-md-color-scheme="slate"]') == css_variables(DARK)
    assert _css_block(css, "@media print {\n  :root") == css_variables(PRINT)


def contrast(one: str, other: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_square_numbers_are_text_contrast(palette: Palette) -> None:
    assert contrast(palette.number, palette.dark_square) >= 4.5


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_black_men_stand_out_on_the_dark_squares(palette: Palette) -> None:
    # WCAG's 3:1 for graphics
    assert contrast(palette.black_piece, palette.dark_square) >= 3
    assert contrast(palette.white_piece, palette.dark_square) >= 3


@pytest.mark.parametrize(
    ("palette", "page"), [(LIGHT, "#ffffff"), (DARK, "#1e2129")], ids=["light", "dark"]
)
def test_the_frame_stands_out_from_the_page(palette: Palette, page: str) -> None:
    # Material's page background: white, and the slate scheme's hsl(232, 15%, 14%)
    assert contrast(palette.frame, page) >= 3


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_highlights_and_arrows_differ_in_brightness_not_only_in_hue(palette: Palette) -> None:
    # the ring lies on a dark square and borders light ones, an arrow crosses both: readers who
    # do not see hue still see them (WCAG's 3:1 for graphics)
    for colour in (palette.highlight, palette.arrow):
        assert contrast(colour, palette.dark_square) >= 3
        assert contrast(colour, palette.light_square) >= 3


@pytest.mark.parametrize(
    ("lang", "expected"), [("nl", "Zet 2: 16x27"), ("en", "Move 2: 16x27"), ("fy", "Set 2: 16x27")]
)
def test_player_status_line_in_three_languages(lang: str, expected: str) -> None:
    from rulebook_build.render.strings import text

    assert text(lang, "move_status", number=2, move="16x27") == expected


def test_player_in_frisian_speaks_frisian() -> None:
    spec = parse_diagram("position: W:W32:B18,27,28\nvariant: frisian\nmoves: 32x12")
    html = diagram_html(spec, lang="fy", id_prefix="p")
    assert '"status":"Set 1: 32x12"' in html
    assert 'aria-label="Folgjende set"' in html and "Begjinstân" in html


@pytest.mark.parametrize(("origin", "target"), [(33, 28), (33, 13), (32, 34), (46, 5)])
def test_arrows_run_from_the_piece_edge_to_short_of_the_centre(origin: int, target: int) -> None:
    shape = arrow_shape(origin, target)
    assert shape is not None
    (x1, y1), (x2, y2) = square_centre(origin), square_centre(target)
    tip = shape.head[0]
    assert math.dist(shape.start, (x1, y1)) > PIECE_RADIUS + 1  # outside the disc and its edge
    assert 12 < math.dist(tip, (x2, y2)) < SQUARE / 2  # in the square, clear of its number
    assert arrow_shape(33, 33) is None


# ------------------------------------------------------------------ defaults and rarer parts


def test_the_defaults_are_a_dutch_unflipped_board_with_its_own_ids() -> None:
    root = parse(board_svg(Position.initial()))
    assert root.get("aria-labelledby") == "rb-board-title"
    desc = root.find(f"{SVG}desc")
    assert desc is not None and (desc.text or "").startswith("Wit: 20 schijven")
    assert dark_squares_path() == dark_squares_path(flip=False) != dark_squares_path(flip=True)
    assert parse(board_svg(Position.initial(), standalone=True)).get("lang") == "nl"


def test_the_numbers_turn_with_a_flipped_board() -> None:
    def numbers(flip: bool) -> dict[str, tuple[str | None, str | None]]:
        root = parse(board_svg(Position.initial(), numbers=True, flip=flip))
        group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "rb-numbers")
        return {t.text or "": (t.get("x"), t.get("y")) for t in group}

    plain, flipped = numbers(False), numbers(True)
    assert len(plain) == len(flipped) == 50
    # square 1 is drawn where square 50 is on the board as White sees it, and so on
    assert all(flipped[str(square)] == plain[str(51 - square)] for square in range(1, 51))
    assert plain["1"] != flipped["1"]


def test_a_piece_alone_and_a_ghost() -> None:
    man = piece_svg(28, Piece.WHITE_MAN)
    assert piece_svg(28, Piece.WHITE_MAN, flip=False, ghost=False) == man
    assert "rb-ghost" not in man
    ghost = parse(f"<svg>{piece_svg(28, Piece.WHITE_MAN, ghost=True)}</svg>")[0]
    assert ghost.get("class", "").split() == ["rb-piece", "rb-w", "rb-ghost"]
    placed = parse(
        f"<svg>{pieces_svg({28: Piece.WHITE_MAN, 19: Piece.BLACK_MAN}, ghosts=[19])}</svg>"
    )
    classes = {g.get("data-square"): g.get("class", "").split() for g in placed}
    assert "rb-ghost" in classes["19"] and "rb-ghost" not in classes["28"]
    assert pieces_svg({28: Piece.WHITE_MAN}) == pieces_svg({28: Piece.WHITE_MAN}, flip=False)


def test_a_standalone_svg_carries_the_palette_it_is_given() -> None:
    dark = board_svg(Position.initial(), standalone=True, palette=DARK)
    assert f"<style>{standalone_style(DARK)}</style>" in dark
    assert standalone_style(DARK) != standalone_style(LIGHT)


def test_an_arrow_from_a_square_to_itself_draws_nothing() -> None:
    root = parse(board_svg(Position.initial(), arrows=((28, 28),)))
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "rb-arrows")
    assert len(group) == 0 and not (group.text or "")


def test_coordinates_are_short_text() -> None:
    from rulebook_build.render.svg import _number

    assert [_number(v) for v in (0.0, -0.0, 1.0, -1.0, 12.5, 12.04, 25)] == [
        "0",
        "0",
        "1",
        "-1",
        "12.5",
        "12",
        "25",
    ]
