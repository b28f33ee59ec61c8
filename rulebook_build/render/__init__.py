"""Board diagrams: SVG (pure text), the site's figures and solution players, PNG and GIF.

Depends on :mod:`rulebook_build.rules` and :mod:`rulebook_build.notation`, never on MkDocs.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

from rulebook_build import face
from rulebook_build.notation import GRAMMAR_DIR

RENDERER_VERSION: Final = "1"
"""Bump when the output changes in a way the fingerprint below cannot see."""


@cache
def renderer_fingerprint() -> str:
    """A short hash of the renderer, the notation and the rules sources, plus the version.

    The site keys its diagram cache by it, so editing any code that shapes a diagram makes
    the cache miss instead of serving stale pictures.
    """
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(RENDERER_VERSION.encode())
    for folder in ("render", "notation", "rules"):
        for path in sorted((package / folder).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    for path in sorted(GRAMMAR_DIR.glob("*.lark")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# The face: what the other rooms use, each loaded from its module on first use.
if TYPE_CHECKING:
    from rulebook_build.render.html import Line, diagram_html, player_html
    from rulebook_build.render.raster import render_gif, render_png
    from rulebook_build.render.strings import LANGUAGES, language_of
    from rulebook_build.render.style import NUMBER_FONT, PRINT
    from rulebook_build.render.svg import board_svg, standalone_style

__getattr__ = face(
    __name__,
    {
        "LANGUAGES": ("rulebook_build.render.strings", "LANGUAGES"),
        "Line": ("rulebook_build.render.html", "Line"),
        "NUMBER_FONT": ("rulebook_build.render.style", "NUMBER_FONT"),
        "PRINT": ("rulebook_build.render.style", "PRINT"),
        "board_svg": ("rulebook_build.render.svg", "board_svg"),
        "diagram_html": ("rulebook_build.render.html", "diagram_html"),
        "language_of": ("rulebook_build.render.strings", "language_of"),
        "player_html": ("rulebook_build.render.html", "player_html"),
        "render_gif": ("rulebook_build.render.raster", "render_gif"),
        "render_png": ("rulebook_build.render.raster", "render_png"),
        "standalone_style": ("rulebook_build.render.svg", "standalone_style"),
    },
)

__all__ = [
    "LANGUAGES",
    "NUMBER_FONT",
    "PRINT",
    "Line",
    "board_svg",
    "diagram_html",
    "language_of",
    "player_html",
    "render_gif",
    "render_png",
    "renderer_fingerprint",
    "standalone_style",
]
