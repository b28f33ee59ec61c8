"""SVG board diagrams: a pure function of a position and keyword-only options.

::

    board_svg(position, numbers=True, last_move=move, arrows=[(32, 28)], lang="en")

The picture is drawn in :mod:`style` units (a square is 50 units, the board 500).  Colours
are CSS classes (``rb-dark``, ``rb-w`` ...): inline in a page the site's stylesheet colours
them from CSS custom properties (light, dark and print themes); a ``standalone`` SVG carries
its own ``<style>`` with the light palette, and can show its caption below the board.

Accessible: ``role="img"`` with a ``<title>`` (the caption, or "Dambord") and a ``<desc>``
listing the pieces in the page's language.  The output depends only on the arguments, so it
is byte-for-byte reproducible (golden files in ``tests/render/golden/``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Final

from rulebook_build.render.strings import describe_position, text
from rulebook_build.render.style import (
    ARROW_WIDTH,
    BOARD,
    CROWN,
    LIGHT,
    NUMBER_BASELINE,
    NUMBER_FONT,
    PIECE_RADIUS,
    RING_RADIUS,
    SQUARE,
    Palette,
    arrow_shape,
    square_centre,
    square_origin,
)
from rulebook_build.rules import SQUARES, Move, Piece, Position

__all__ = [
    "board_svg",
    "dark_squares_path",
    "piece_code",
    "piece_shapes",
    "piece_svg",
    "pieces_svg",
    "standalone_style",
]

CAPTION_FONT: Final = 18
CAPTION_LINE: Final = 24
CAPTION_WIDTH: Final = 48
"""Characters per caption line in a standalone SVG (a rough measure of 18-unit text)."""

PIECE_CODES: Final[Mapping[Piece, str]] = {
    Piece.WHITE_MAN: "w",
    Piece.WHITE_KING: "W",
    Piece.BLACK_MAN: "b",
    Piece.BLACK_KING: "B",
}


def piece_code(piece: Piece) -> str:
    """``w`` white man, ``W`` white king, ``b`` black man, ``B`` black king."""
    return PIECE_CODES[piece]


def _number(value: float) -> str:
    """A coordinate as short text: ``25``, ``12.5``; never ``-0``."""
    rounded = round(value, 1)
    if rounded == int(rounded):
        return str(int(rounded)) if rounded != 0 else "0"
    return f"{rounded:.1f}"


def _crown_path() -> str:
    points = " ".join(f"{_number(x)} {_number(y)}" for x, y in CROWN)
    return f"M{points}Z"


def piece_shapes() -> dict[str, str]:
    """The inner markup of each kind of piece, centred on (0, 0), by :func:`piece_code`."""
    man = f'<circle r="{PIECE_RADIUS}"/><circle class="rb-ring" r="{RING_RADIUS}"/>'
    king = man + f'<path class="rb-crown" d="{_crown_path()}"/>'
    return {"w": man, "W": king, "b": man, "B": king}


_SHAPES: Final = piece_shapes()


def _piece_classes(piece: Piece) -> str:
    colour = "rb-w" if piece.is_white else "rb-b"
    return f"rb-piece {colour}" + (" rb-king" if piece.is_king else "")


def piece_svg(square: int, piece: Piece, *, flip: bool = False, ghost: bool = False) -> str:
    """One piece on its square (a ``<g>`` that the solution player can move)."""
    x, y = square_centre(square, flip=flip)
    classes = _piece_classes(piece) + (" rb-ghost" if ghost else "")
    return (
        f'<g class="{classes}" data-square="{square}" transform="translate({x} {y})">'
        f"{_SHAPES[piece_code(piece)]}</g>"
    )


def pieces_svg(
    pieces: Mapping[int, Piece], *, flip: bool = False, ghosts: Iterable[int] = ()
) -> str:
    """The pieces layer: one :func:`piece_svg` per occupied square, ascending."""
    ghost_set = set(ghosts)
    return "".join(
        piece_svg(square, pieces[square], flip=flip, ghost=square in ghost_set)
        for square in sorted(pieces)
    )


def dark_squares_path(*, flip: bool = False) -> str:
    """One path covering the fifty playing squares."""
    parts = []
    for square in SQUARES:
        x, y = square_origin(square, flip=flip)
        parts.append(f"M{x} {y}h{SQUARE}v{SQUARE}h-{SQUARE}z")
    return "".join(parts)


def _numbers(flip: bool) -> str:
    """The square numbers, centred on their squares: drawn beneath the pieces, a piece hides
    the number of its square (the disc is wider than any number) and covers no other."""
    cells = []
    for square in SQUARES:
        x, y = square_centre(square, flip=flip)
        cells.append(f'<text x="{x}" y="{y + NUMBER_BASELINE}">{square}</text>')
    return '<g class="rb-numbers">' + "".join(cells) + "</g>"


def _square_rect(square: int, css_class: str, *, flip: bool, inset: int = 0) -> str:
    x, y = square_origin(square, flip=flip)
    side = SQUARE - 2 * inset
    return (
        f'<rect class="{css_class}" x="{x + inset}" y="{y + inset}" '
        f'width="{side}" height="{side}"/>'
    )


def _arrow(origin: int, target: int, *, flip: bool) -> str:
    shape = arrow_shape(origin, target, flip=flip)
    if shape is None:
        return ""
    (x1, y1), (x2, y2) = shape.start, shape.shaft_end
    points = " ".join(f"{_number(px)},{_number(py)}" for px, py in shape.head)
    return (
        f'<path class="rb-arrow" d="M{_number(x1)} {_number(y1)}L{_number(x2)} {_number(y2)}"/>'
        f'<polygon class="rb-arrow-head" points="{points}"/>'
    )


def standalone_style(palette: Palette = LIGHT) -> str:
    """The CSS a standalone SVG carries: the site's rules with the palette's colours."""
    p = palette
    rules = (
        f".rb-light{{fill:{p.light_square}}}",
        f".rb-dark{{fill:{p.dark_square}}}",
        f".rb-frame{{fill:none;stroke:{p.frame};stroke-width:3}}",
        f".rb-numbers{{fill:{p.number};font-family:sans-serif;font-size:{NUMBER_FONT}px;"
        f"font-weight:600;text-anchor:middle;paint-order:stroke;stroke:{p.dark_square};"
        "stroke-width:3px;stroke-linejoin:round}",
        f".rb-w{{fill:{p.white_piece};stroke:{p.white_edge};stroke-width:2}}",
        f".rb-b{{fill:{p.black_piece};stroke:{p.black_edge};stroke-width:2}}",
        ".rb-ring{fill:none;stroke-width:1.5}",
        f".rb-w .rb-ring{{stroke:{p.white_edge};opacity:.45}}",
        f".rb-b .rb-ring{{stroke:{p.black_ring}}}",
        f".rb-crown{{fill:{p.crown};stroke:{p.white_edge};stroke-width:1}}",
        ".rb-ghost{opacity:.4}",
        f".rb-last{{fill:{p.last_move};opacity:.65}}",
        f".rb-hl{{fill:none;stroke:{p.highlight};stroke-width:4}}",
        ".rb-arrows{opacity:.85}",
        f".rb-arrow{{fill:none;stroke:{p.arrow};stroke-width:{ARROW_WIDTH};stroke-linecap:round}}",
        f".rb-arrow-head{{fill:{p.arrow}}}",
        f".rb-caption{{fill:#1f1f1f;font-family:sans-serif;font-size:{CAPTION_FONT}px}}",
    )
    return "".join(rules)


def board_svg(
    position: Position,
    *,
    numbers: bool = False,
    flip: bool = False,
    last_move: Move | None = None,
    last_move_text: str | None = None,
    highlight: Sequence[int] = (),
    arrows: Sequence[tuple[int, int]] = (),
    lang: str = "nl",
    title: str | None = None,
    description: str | None = None,
    caption: str | None = None,
    id_prefix: str = "rb-board",
    standalone: bool = False,
    size: int | None = None,
    palette: Palette = LIGHT,
) -> str:
    """The diagram of ``position`` as SVG text.

    ``last_move`` marks its origin and destination (``last_move_text`` is how the
    description names it, ``str(last_move)`` by default); ``highlight`` squares get a
    ring, ``arrows`` are (from, to) pairs.  ``title`` defaults to the caption, else the word
    for a draughtboard; ``description`` to the pieces in words.  ``id_prefix`` makes the ids
    of ``<title>`` and ``<desc>`` unique in a page.  ``standalone`` adds the XML namespace,
    a pixel ``size`` (default 500), the ``palette`` as a ``<style>`` and the caption below the
    board.
    """
    pieces = position.pieces()
    if description is None:
        move_name = last_move_text or (str(last_move) if last_move else None)
        description = describe_position(position, lang, flip=flip, last_move=move_name)
    marked = (last_move.origin, last_move.destination) if last_move else ()
    return render_board(
        pieces,
        numbers=numbers,
        flip=flip,
        marked=marked,
        highlight=highlight,
        arrows=arrows,
        title=title or caption or text(lang, "board"),
        description=description,
        caption=caption,
        id_prefix=id_prefix,
        standalone=standalone,
        size=size,
        palette=palette,
        lang=lang,
    )


def render_board(
    pieces: Mapping[int, Piece],
    *,
    numbers: bool,
    flip: bool,
    marked: Sequence[int],
    highlight: Sequence[int],
    arrows: Sequence[tuple[int, int]],
    title: str,
    description: str,
    caption: str | None = None,
    id_prefix: str = "rb-board",
    standalone: bool = False,
    size: int | None = None,
    palette: Palette = LIGHT,
    lang: str = "nl",
    ghosts: Iterable[int] = (),
) -> str:
    """:func:`board_svg` for a bare piece placement (frames in the middle of a capture)."""
    caption_lines: list[str] = []
    if standalone and caption:
        caption_lines = textwrap.wrap(caption, CAPTION_WIDTH) or [caption]
    height = BOARD + (12 + CAPTION_LINE * len(caption_lines) if caption_lines else 0)
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    attributes = []
    if standalone:
        pixels = size or BOARD
        attributes += [
            'xmlns="http://www.w3.org/2000/svg"',
            f'width="{pixels}"',
            f'height="{round(pixels * height / BOARD)}"',
            f'lang="{escape(lang)}"',
        ]
    attributes += [
        'class="rb-board"',
        f'viewBox="0 0 {BOARD} {height}"',
        'role="img"',
        f'aria-labelledby="{title_id}"',
        f'aria-describedby="{desc_id}"',
    ]
    if not standalone:
        attributes.append('data-search-exclude="true"')
    out = [f"<svg {' '.join(attributes)}>"]
    out.append(f'<title id="{title_id}">{escape(title, quote=False)}</title>')
    out.append(f'<desc id="{desc_id}">{escape(description, quote=False)}</desc>')
    if standalone:
        out.append(f"<style>{standalone_style(palette)}</style>")
    out.append(f'<rect class="rb-light" width="{BOARD}" height="{BOARD}"/>')
    out.append(f'<path class="rb-dark" d="{dark_squares_path(flip=flip)}"/>')
    marks = [_square_rect(s, "rb-last", flip=flip) for s in dict.fromkeys(marked)]
    marks += [_square_rect(s, "rb-hl", flip=flip, inset=2) for s in dict.fromkeys(highlight)]
    out.append('<g class="rb-marks">' + "".join(marks) + "</g>")
    if numbers:
        # beneath the pieces: a number never covers a piece (a piece hides its own square's)
        out.append(_numbers(flip))
    out.append('<g class="rb-pieces">' + pieces_svg(pieces, flip=flip, ghosts=ghosts) + "</g>")
    if arrows:
        drawn = "".join(_arrow(a, b, flip=flip) for a, b in arrows)
        out.append(f'<g class="rb-arrows">{drawn}</g>')
    out.append(f'<rect class="rb-frame" x="1.5" y="1.5" width="{BOARD - 3}" height="{BOARD - 3}"/>')
    for index, line in enumerate(caption_lines):
        y = BOARD + 4 + CAPTION_LINE * (index + 1)
        out.append(f'<text class="rb-caption" x="0" y="{y}">{escape(line, quote=False)}</text>')
    out.append("</svg>")
    return "\n".join(out)
