"""PNG and animated GIF diagrams, drawn with Pillow (no cairo, no browser).

The same board as :mod:`svg`: the geometry and colours of :mod:`style`, drawn three times
larger and scaled down for smooth edges.  The GIF steps through the moves of
:func:`animation.frames`: captures leg by leg, the captured pieces shown as ghosts until the
move is complete.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from rulebook_build.render.animation import Frame, frames
from rulebook_build.render.style import (
    ARROW_WIDTH,
    BOARD,
    CROWN,
    LIGHT,
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

__all__ = ["draw_board", "render_gif", "render_image", "render_png"]

SUPERSAMPLE = 3
RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


def _rgb(colour: str) -> RGB:
    value = colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def _rgba(colour: str, alpha: float) -> RGBA:
    return (*_rgb(colour), round(255 * alpha))


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

CAPTION_FONTS = ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "NotoSans-Regular.ttf")
"""Tried in turn for captions (accents, dashes); Pillow's own font when none is installed."""


@cache
def _font(size: int) -> Font:
    """Pillow's built-in font: digits look the same on every machine."""
    return ImageFont.load_default(size=size)


@cache
def _caption_font(size: int) -> tuple[Font, bool]:
    """A font for captions and whether it has accented letters and dashes."""
    for name in CAPTION_FONTS:
        try:
            return ImageFont.truetype(name, size), True
        except OSError:
            continue
    return ImageFont.load_default(size=size), False


def _plain(text: str) -> str:
    """Captions for Pillow's built-in font, which lacks accents and dashes: ``ê`` -> ``e``."""
    text = text.replace("—", "-").replace("–", "-").replace("×", "x")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _wrap(text: str, font: Font, width: float) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and font.getlength(candidate) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


class _Canvas:
    """Drawing in board units (500 a side) on a supersampled RGBA image."""

    def __init__(self, size: int, extra_height: int) -> None:
        self.scale = size * SUPERSAMPLE / BOARD
        width = round(BOARD * self.scale)
        height = round((BOARD + extra_height) * self.scale)
        self.image = Image.new("RGBA", (width, height), (255, 255, 255, 255))
        self.draw = ImageDraw.Draw(self.image)

    def px(self, value: float) -> float:
        return value * self.scale

    def box(self, x: float, y: float, width: float, height: float) -> list[float]:
        s = self.scale
        return [x * s, y * s, (x + width) * s - 1, (y + height) * s - 1]

    def overlay(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        layer = Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        return layer, ImageDraw.Draw(layer)

    def compose(self, layer: Image.Image, alpha: float = 1.0) -> None:
        if alpha < 1.0:
            channel = layer.getchannel("A").point(lambda a: round(a * alpha))
            layer.putalpha(channel)
        self.image.alpha_composite(layer)


def _draw_piece(
    draw: ImageDraw.ImageDraw, canvas: _Canvas, square: int, piece: Piece, flip: bool, p: Palette
) -> None:
    cx, cy = square_centre(square, flip=flip)
    s = canvas.scale
    fill, edge = (p.white_piece, p.white_edge) if piece.is_white else (p.black_piece, p.black_edge)
    radius = PIECE_RADIUS + 1  # the SVG stroke is centred on the circle
    draw.ellipse(
        [(cx - radius) * s, (cy - radius) * s, (cx + radius) * s, (cy + radius) * s],
        fill=_rgb(edge),
    )
    inner = PIECE_RADIUS - 1
    draw.ellipse(
        [(cx - inner) * s, (cy - inner) * s, (cx + inner) * s, (cy + inner) * s],
        fill=_rgb(fill),
    )
    ring_colour = _mix(edge, fill, 0.45) if piece.is_white else _rgb(p.black_ring)
    ring_box = [
        (cx - RING_RADIUS) * s,
        (cy - RING_RADIUS) * s,
        (cx + RING_RADIUS) * s,
        (cy + RING_RADIUS) * s,
    ]
    draw.ellipse(ring_box, outline=ring_colour, width=max(1, round(1.5 * s)))
    if piece.is_king:
        points = [((cx + x) * s, (cy + y) * s) for x, y in CROWN]
        draw.polygon(points, fill=_rgb(p.crown), outline=_rgb(p.white_edge), width=max(1, round(s)))


def _mix(top: str, bottom: str, alpha: float) -> RGB:
    a, b = _rgb(top), _rgb(bottom)
    return (
        round(a[0] * alpha + b[0] * (1 - alpha)),
        round(a[1] * alpha + b[1] * (1 - alpha)),
        round(a[2] * alpha + b[2] * (1 - alpha)),
    )


def _draw_numbers(canvas: _Canvas, *, flip: bool, p: Palette) -> None:
    """Square numbers centred on the squares, beneath the pieces, with a halo (as the SVG)."""
    s = canvas.scale
    font = _font(round(NUMBER_FONT * s))
    for square in SQUARES:
        cx, cy = square_centre(square, flip=flip)
        canvas.draw.text(
            (cx * s, cy * s),
            str(square),
            fill=_rgb(p.number),
            font=font,
            anchor="mm",
            stroke_width=round(1.5 * s),
            stroke_fill=_rgb(p.dark_square),
        )


def _draw_arrows(
    canvas: _Canvas, arrows: Sequence[tuple[int, int]], flip: bool, p: Palette
) -> None:
    layer, draw = canvas.overlay()
    s = canvas.scale
    colour = _rgba(p.arrow, 1.0)
    for origin, target in arrows:
        shape = arrow_shape(origin, target, flip=flip)
        if shape is None:
            continue
        (x1, y1), (x2, y2) = shape.start, shape.shaft_end
        draw.line([x1 * s, y1 * s, x2 * s, y2 * s], fill=colour, width=round(ARROW_WIDTH * s))
        r = ARROW_WIDTH / 2 * s  # the SVG's round line cap
        draw.ellipse([x1 * s - r, y1 * s - r, x1 * s + r, y1 * s + r], fill=colour)
        draw.polygon([(x * s, y * s) for x, y in shape.head], fill=colour)
    canvas.compose(layer, 0.85)


def draw_board(
    pieces: Mapping[int, Piece],
    *,
    size: int = 500,
    numbers: bool = False,
    flip: bool = False,
    marked: Sequence[int] = (),
    highlight: Sequence[int] = (),
    arrows: Sequence[tuple[int, int]] = (),
    ghosts: Iterable[int] = (),
    caption: str | None = None,
    palette: Palette = LIGHT,
) -> Image.Image:
    """An RGB picture of a piece placement, ``size`` pixels wide."""
    p = palette
    caption_font, full = _caption_font(round(18 * size / BOARD * SUPERSAMPLE))
    caption_lines: list[str] = []
    extra = 0
    if caption:
        caption = caption if full else _plain(caption)
        caption_lines = _wrap(caption, caption_font, size * SUPERSAMPLE)
        extra = 12 + 24 * len(caption_lines) + 6
    canvas = _Canvas(size, extra)
    draw, s = canvas.draw, canvas.scale
    draw.rectangle(canvas.box(0, 0, BOARD, BOARD), fill=_rgb(p.light_square))
    for square in SQUARES:
        x, y = square_origin(square, flip=flip)
        draw.rectangle(canvas.box(x, y, SQUARE, SQUARE), fill=_rgb(p.dark_square))
    if marked:
        layer, layer_draw = canvas.overlay()
        for square in dict.fromkeys(marked):
            x, y = square_origin(square, flip=flip)
            layer_draw.rectangle(canvas.box(x, y, SQUARE, SQUARE), fill=_rgba(p.last_move, 1.0))
        canvas.compose(layer, 0.65)
    for square in dict.fromkeys(highlight):
        x, y = square_origin(square, flip=flip)
        draw.rectangle(
            canvas.box(x + 2, y + 2, SQUARE - 4, SQUARE - 4),
            outline=_rgb(p.highlight),
            width=round(4 * s),
        )
    if numbers:
        _draw_numbers(canvas, flip=flip, p=p)
    ghost_set = set(ghosts)
    for square in sorted(pieces):
        if square in ghost_set:
            continue
        _draw_piece(draw, canvas, square, pieces[square], flip, p)
    if ghost_set & set(pieces):
        layer, layer_draw = canvas.overlay()
        for square in sorted(ghost_set & set(pieces)):
            _draw_piece(layer_draw, canvas, square, pieces[square], flip, p)
        canvas.compose(layer, 0.4)
    if arrows:
        _draw_arrows(canvas, arrows, flip, p)
    draw = canvas.draw
    draw.rectangle(canvas.box(0, 0, BOARD, BOARD), outline=_rgb(p.frame), width=round(3 * s))
    for index, line in enumerate(caption_lines):
        draw.text((0, (BOARD + 10 + 24 * index) * s), line, fill=(31, 31, 31), font=caption_font)
    image = canvas.image.convert("RGB")
    width = size
    height = round(image.height / SUPERSAMPLE)
    return image.resize((width, height), Image.Resampling.LANCZOS)


def render_image(
    position: Position,
    *,
    size: int = 500,
    numbers: bool = False,
    flip: bool = False,
    last_move: Move | None = None,
    highlight: Sequence[int] = (),
    arrows: Sequence[tuple[int, int]] = (),
    caption: str | None = None,
    palette: Palette = LIGHT,
) -> Image.Image:
    """The diagram of ``position`` as a Pillow image (options as :func:`svg.board_svg`)."""
    marked = (last_move.origin, last_move.destination) if last_move else ()
    return draw_board(
        position.pieces(),
        size=size,
        numbers=numbers,
        flip=flip,
        marked=marked,
        highlight=highlight,
        arrows=arrows,
        caption=caption,
        palette=palette,
    )


def render_png(position: Position, **options: object) -> bytes:
    """:func:`render_image` as PNG bytes (no timestamps: the same input gives the same bytes)."""
    image = render_image(position, **options)  # type: ignore[arg-type]
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def render_gif(
    position: Position,
    moves: Sequence[Move],
    *,
    size: int = 400,
    numbers: bool = False,
    flip: bool = False,
    highlight: Sequence[int] = (),
    arrows: Sequence[tuple[int, int]] = (),
    caption: str | None = None,
    palette: Palette = LIGHT,
) -> bytes:
    """An animated GIF of ``moves`` played from ``position``, looping.

    The first frame shows the start with the diagram's highlights and arrows; then each leg of
    each move, the captured pieces fading only when the move is complete.
    """
    pictures: list[Image.Image] = []
    durations: list[int] = []
    steps: list[Frame] = frames(position, moves)
    for index, frame in enumerate(steps):
        image = draw_board(
            frame.pieces,
            size=size,
            numbers=numbers,
            flip=flip,
            marked=frame.marked,
            highlight=highlight if index == 0 else (),
            arrows=arrows if index == 0 else (),
            ghosts=frame.ghosts,
            caption=caption,
            palette=palette,
        )
        pictures.append(
            image.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        )
        durations.append(frame.duration)
    buffer = io.BytesIO()
    pictures[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=pictures[1:],
        duration=durations,
        loop=0,
        disposal=1,
    )
    return buffer.getvalue()
