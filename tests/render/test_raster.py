"""PNG and GIF diagrams drawn with Pillow: sizes, colours where pieces stand, frames."""

from __future__ import annotations

import io

from PIL import Image, ImageSequence

from rulebook_build.notation.diagram import parse_diagram
from rulebook_build.render.raster import render_gif, render_image, render_png
from rulebook_build.render.style import LIGHT, square_centre
from rulebook_build.rules import Position


def rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def pixel_at(image: Image.Image, square: int, dx: int = 0, dy: int = 0) -> tuple[int, ...]:
    scale = image.width / 500
    x, y = square_centre(square)
    value = image.getpixel((round((x + dx) * scale), round((y + dy) * scale)))
    assert isinstance(value, tuple)
    return value


def test_png_size_and_piece_colours() -> None:
    image = render_image(Position.initial(), size=400)
    assert image.size == (400, 400)
    # the disc between ring and edge: white men on 31-50, black men on 1-20, 21-30 empty
    assert close(pixel_at(image, 33, dx=15), rgb(LIGHT.white_piece))
    assert close(pixel_at(image, 18, dx=15), rgb(LIGHT.black_piece))
    assert close(pixel_at(image, 25), rgb(LIGHT.dark_square))


def test_caption_adds_height_and_png_bytes_are_reproducible() -> None:
    spec = parse_diagram("position: start\ncaption: Ôfb. 2 — De begjinstân")
    with_caption = render_image(spec.position, size=300, caption=spec.caption)
    assert with_caption.width == 300 and with_caption.height > 300
    first = render_png(spec.position, size=200, numbers=True)
    assert first == render_png(spec.position, size=200, numbers=True)
    assert first.startswith(b"\x89PNG")


def test_last_move_is_marked() -> None:
    spec = parse_diagram("position: start\nmoves: 32-28")
    after = spec.positions()[-1]
    plain = render_image(after, size=500)
    marked = render_image(after, size=500, last_move=spec.moves[0])
    assert pixel_at(plain, 32) != pixel_at(marked, 32)


def test_gif_steps_through_captures_leg_by_leg() -> None:
    spec = parse_diagram("position: W:W32:B18,27,28\nmoves: 32x12")
    data = render_gif(spec.position, spec.moves, size=200)
    image = Image.open(io.BytesIO(data))
    frames = [frame.copy().convert("RGB") for frame in ImageSequence.Iterator(image)]
    durations = [frame.info["duration"] for frame in ImageSequence.Iterator(image)]
    # start, landing on 23 (28 a ghost), landing on 12 (both ghosts), the final position
    assert len(frames) == 4
    assert image.info.get("loop") == 0
    assert durations[0] > durations[1] and durations[-1] > durations[1]
    start, first_leg, second_leg, final = frames
    assert close(pixel_at(start, 32, dx=15), rgb(LIGHT.white_piece), 20)
    assert close(pixel_at(first_leg, 23, dx=15), rgb(LIGHT.white_piece), 20)
    # a ghost (40% opaque) is nearer the square's colour than a black man's, and gone once
    # the move is complete
    ghost = pixel_at(first_leg, 28, dx=15)
    assert sum(ghost) > (sum(rgb(LIGHT.black_piece)) + sum(rgb(LIGHT.dark_square))) / 2
    assert close(pixel_at(second_leg, 12, dx=15), rgb(LIGHT.white_piece), 20)
    assert close(pixel_at(final, 28), rgb(LIGHT.dark_square), 20)
    assert close(pixel_at(final, 18), rgb(LIGHT.dark_square), 20)
    assert close(pixel_at(final, 27, dx=15), rgb(LIGHT.black_piece), 20)


def test_gif_without_moves_is_one_frame() -> None:
    data = render_gif(Position.initial(), (), size=100)
    assert getattr(Image.open(io.BytesIO(data)), "n_frames", 1) == 1
