"""``rulebook diagram``: export a board diagram as SVG, PNG or animated GIF.

    rulebook diagram POSITION [--variant V] [--moves "32-28 19-23"] [--numbers]
                     [--highlight "28 23"] [--arrows "32-28 19-23"] [--caption TEXT] [--flip]
                     [--lang nl|en|fy] [--format svg|png|gif] [--size PIXELS] [--out FILE]

POSITION is a FEN (PDN 3.0), ``start`` or ``empty``.  The options mean what the keys of a
```` ```draughts ```` block mean (guides/webmasters.md), and are read by the same parser, so the
moves are checked by the rules engine.  SVG and PNG show the position after the moves with
the last move marked; the GIF plays the moves, captures leg by leg.

The format comes from ``--format``, else from the extension of ``--out``, else SVG.  The file
is written to a temporary file beside it and renamed, so it is never left half-written.
Without ``--out`` the diagram goes to standard output (PNG and GIF only when that is not a
terminal).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from rulebook_build.cli.options import file_to_write, whole_number
from rulebook_build.errors import NotationError, RulebookError
from rulebook_build.render import LANGUAGES
from rulebook_build.rules import VARIANTS

FORMATS = ("svg", "png", "gif")
MIN_SIZE, MAX_SIZE = 16, 4000
"""The widths ``--size`` takes, in pixels."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION", help="a FEN, 'start' or 'empty'")
    parser.add_argument(
        "--variant",
        default="international",
        choices=[v.name for v in VARIANTS],
        help="rule set (default: international)",
    )
    parser.add_argument("--moves", default="", metavar="MOVES", help='e.g. "32-28 19-23 28x19"')
    parser.add_argument("--numbers", action="store_true", help="print the square numbers")
    parser.add_argument("--highlight", default="", metavar="SQUARES", help='e.g. "28 23"')
    parser.add_argument("--arrows", default="", metavar="ARROWS", help='e.g. "32-28 19-23"')
    parser.add_argument("--caption", default="", metavar="TEXT", help="caption below the board")
    parser.add_argument("--flip", action="store_true", help="show the board from Black's side")
    parser.add_argument(
        "--lang", default="nl", choices=LANGUAGES, help="language of the description (nl)"
    )
    parser.add_argument("--format", choices=FORMATS, default=None, help="svg, png or gif")
    parser.add_argument(
        "--size",
        type=whole_number(MIN_SIZE, MAX_SIZE),
        default=None,
        metavar="PIXELS",
        help=f"width in pixels, {MIN_SIZE} to {MAX_SIZE} (PNG/GIF)",
    )
    parser.add_argument(
        "--out", type=file_to_write, default=None, metavar="FILE", help="output file"
    )


def _block(args: argparse.Namespace) -> tuple[str, dict[int, tuple[str, str, int]]]:
    """The options as a diagram block, and for each line: (option, value, value column)."""
    rows: list[tuple[str, str, str]] = [
        ("position", "POSITION", args.position),
        ("variant", "--variant", args.variant),
    ]
    for key, option, value in (
        ("moves", "--moves", args.moves),
        ("highlight", "--highlight", args.highlight),
        ("arrows", "--arrows", args.arrows),
        ("caption", "--caption", args.caption),
    ):
        if value.strip():
            rows.append((key, option, value))
    rows.append(("numbers", "--numbers", "yes" if args.numbers else "no"))
    rows.append(("flip", "--flip", "yes" if args.flip else "no"))
    lines, origins = [], {}
    for number, (key, option, value) in enumerate(rows, start=1):
        if "\n" in value or "\r" in value:
            raise NotationError(f"{option} must be one line", source=option)
        lines.append(f"{key}: {value}")
        origins[number] = (option, value, len(key) + 3)
    return "\n".join(lines), origins


def _relocate(error: RulebookError, origins: dict[int, tuple[str, str, int]]) -> None:
    """Point an error in the generated block at the command-line option it came from."""
    if error.line is None or error.line not in origins:
        error.source, error.line, error.column, error.source_line = "<options>", None, None, None
        return
    option, value, start = origins[error.line]
    column = None if error.column is None else max(1, error.column - start + 1)
    error.source, error.line, error.column, error.source_line = option, 1, column, value


def choose_format(requested: str | None, out: Path | None) -> str:
    if requested:
        return requested
    if out is not None:
        suffix = out.suffix.lower().lstrip(".")
        if suffix in FORMATS:
            return suffix
        if suffix:
            raise NotationError(
                f"cannot tell the format from '{out.suffix}'",
                source="--out",
                expected="a file ending in .svg, .png or .gif, or --format",
            )
    return "svg"


def render(args: argparse.Namespace, fmt: str) -> bytes:
    from rulebook_build.notation import parse_diagram

    text, origins = _block(args)
    try:
        spec = parse_diagram(text, source="<options>", first_line=1)
    except RulebookError as error:
        _relocate(error, origins)
        raise
    if args.size is not None and not MIN_SIZE <= args.size <= MAX_SIZE:
        raise NotationError(
            f"--size {args.size} is not {MIN_SIZE}-{MAX_SIZE} pixels", source="--size"
        )
    positions = spec.positions()
    final = positions[-1]
    last = spec.moves[-1] if spec.moves else None
    if fmt == "svg":
        from rulebook_build.notation import move_notation
        from rulebook_build.render import board_svg

        last_text = move_notation(last, positions[-2].legal_moves()) if last else None
        svg = board_svg(
            final,
            numbers=spec.numbers,
            flip=spec.flip,
            last_move=last,
            last_move_text=last_text,
            highlight=spec.highlight,
            arrows=spec.arrows,
            lang=args.lang,
            caption=spec.caption,
            id_prefix="diagram",
            standalone=True,
            size=args.size,
        )
        return (svg + "\n").encode("utf-8")
    from rulebook_build.render import render_gif, render_png

    if fmt == "png":
        return render_png(
            final,
            size=args.size or 500,
            numbers=spec.numbers,
            flip=spec.flip,
            last_move=last,
            highlight=spec.highlight,
            arrows=spec.arrows,
            caption=spec.caption,
        )
    return render_gif(
        spec.position,
        spec.moves,
        size=args.size or 400,
        numbers=spec.numbers,
        flip=spec.flip,
        highlight=spec.highlight,
        arrows=spec.arrows,
        caption=spec.caption,
    )


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    folder = path.resolve().parent
    if not folder.is_dir():
        raise RulebookError(f"folder {folder} does not exist", source="--out")
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    fmt = choose_format(args.format, args.out)
    data = render(args, fmt)
    if args.out is not None:
        try:
            write_atomically(args.out, data)
        except OSError as error:
            raise RulebookError(
                f"cannot write {args.out}: {error.strerror}", source="--out"
            ) from None
        return 0
    if fmt != "svg" and sys.stdout.isatty():
        raise RulebookError(
            f"will not print {fmt.upper()} to a terminal", source="--out", expected="--out FILE"
        )
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
    return 0
