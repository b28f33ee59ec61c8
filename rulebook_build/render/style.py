"""Board geometry in drawing units and the colour tables of the diagrams.

Every renderer (SVG, Pillow) draws the same board: ten squares of :data:`SQUARE` units, the
pieces as discs, kings with a crown.  The colours are named once here; the site's stylesheet
(``site/assets/draughts.css``) sets the same names as CSS custom properties, and a test keeps
the two in step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Final

from rulebook_build.rules import column_of, row_of

SQUARE: Final = 50
"""Width of one square in drawing units (SVG user units, or pixels at scale 1)."""
BOARD: Final = 10 * SQUARE

PIECE_RADIUS: Final = 18
"""With its 2-unit edge a disc is 38 units wide: it hides the (centred, at most 24-unit
wide) number of its square and leaves the highlight ring at the square's edge free."""
RING_RADIUS: Final = 12
NUMBER_FONT: Final = 17
"""Square numbers, centred on their squares: about 12 CSS pixels on a phone-wide board."""
NUMBER_BASELINE: Final = 6
"""From a square's centre down to its number's baseline: the digits sit in the middle."""
EDGE_WIDTH: Final = 2


def square_origin(square: int, *, flip: bool = False) -> tuple[int, int]:
    """Top-left corner of a square: square 1 top row, 46 bottom left (turned when flipped)."""
    row, column = row_of(square), column_of(square)
    if flip:
        row, column = 9 - row, 9 - column
    return column * SQUARE, row * SQUARE


def square_centre(square: int, *, flip: bool = False) -> tuple[int, int]:
    x, y = square_origin(square, flip=flip)
    return x + SQUARE // 2, y + SQUARE // 2


ARROW_START: Final = PIECE_RADIUS + 3
"""An arrow starts just outside the moving piece's disc (radius 18, edge 19)."""
ARROW_TIP_GAP: Final = 14
"""and stops this far short of the destination's centre, clear of the square's number."""
ARROW_WIDTH: Final = 6
ARROW_HEAD_LENGTH: Final = 16.0
ARROW_HEAD_HALF_WIDTH: Final = 9.5

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class ArrowShape:
    """An arrow in drawing units: a shaft from ``start`` to ``shaft_end`` and a triangle
    ``head`` (tip first)."""

    start: Point
    shaft_end: Point
    head: tuple[Point, Point, Point]


def arrow_shape(origin: int, target: int, *, flip: bool = False) -> ArrowShape | None:
    """The arrow from square ``origin`` to ``target``, shortened at both ends: from the edge
    of the piece to short of the destination's centre.  ``None`` when there is no room."""
    x1, y1 = square_centre(origin, flip=flip)
    x2, y2 = square_centre(target, flip=flip)
    length = math.hypot(x2 - x1, y2 - y1)
    if length < ARROW_START + ARROW_TIP_GAP + ARROW_HEAD_LENGTH:
        return None
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    tip = (x2 - ux * ARROW_TIP_GAP, y2 - uy * ARROW_TIP_GAP)
    base = (tip[0] - ux * ARROW_HEAD_LENGTH, tip[1] - uy * ARROW_HEAD_LENGTH)
    w = ARROW_HEAD_HALF_WIDTH
    left = (base[0] - uy * w, base[1] + ux * w)
    right = (base[0] + uy * w, base[1] - ux * w)
    return ArrowShape(
        start=(x1 + ux * ARROW_START, y1 + uy * ARROW_START),
        # into the head by 2 units: no seam between shaft and head
        shaft_end=(base[0] + ux * 2, base[1] + uy * 2),
        head=(tip, left, right),
    )


# A crown on a king, centred on (0, 0): five points over a band.
CROWN: Final[tuple[tuple[float, float], ...]] = (
    (-10.0, 6.0),
    (-11.0, -6.0),
    (-5.5, -0.5),
    (0.0, -9.0),
    (5.5, -0.5),
    (11.0, -6.0),
    (10.0, 6.0),
)


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of a diagram.  Each field is also a CSS custom property ``--rb-<name>``."""

    light_square: str
    dark_square: str
    frame: str
    number: str
    white_piece: str
    white_edge: str
    black_piece: str
    black_edge: str
    black_ring: str
    crown: str
    last_move: str
    highlight: str
    arrow: str


LIGHT: Final = Palette(
    light_square="#f1dfbf",
    dark_square="#986840",
    frame="#5e3d22",
    number="#fffaf0",
    white_piece="#fbf8f1",
    white_edge="#5b4632",
    black_piece="#2b2420",
    black_edge="#0e0b09",
    black_ring="#75665b",
    crown="#d9a521",
    last_move="#f2c14e",
    highlight="#0a2466",
    arrow="#081d52",
)
"""The light theme; also the colours of standalone SVG, PNG and GIF exports."""

DARK: Final = Palette(
    light_square="#b9a487",
    dark_square="#80603f",
    frame="#9c7a56",
    number="#f3e6d0",
    white_piece="#efe9dd",
    white_edge="#4a3a2a",
    black_piece="#161210",
    black_edge="#000000",
    black_ring="#8c7d71",
    crown="#e0b13a",
    last_move="#d9a93a",
    highlight="#03091c",
    arrow="#050f2e",
)
"""Material's dark (``slate``) scheme."""

PRINT: Final = Palette(
    light_square="#ffffff",
    dark_square="#c4c4c4",
    frame="#000000",
    number="#000000",
    white_piece="#ffffff",
    white_edge="#000000",
    black_piece="#1c1c1c",
    black_edge="#000000",
    black_ring="#9a9a9a",
    crown="#7a7a7a",
    last_move="#8f8f8f",
    highlight="#000000",
    arrow="#000000",
)
"""Paper: greys only."""


def css_variables(palette: Palette) -> dict[str, str]:
    """``{"--rb-light-square": "#f1dfbf", ...}``: the palette as CSS custom properties."""
    return {
        "--rb-" + field.name.replace("_", "-"): getattr(palette, field.name)
        for field in fields(palette)
    }
