"""Board diagrams: SVG (pure text), the site's figures and solution players, PNG and GIF.

Depends on :mod:`rulebook_build.rules` and :mod:`rulebook_build.notation`, never on MkDocs.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Final

from rulebook_build.notation._grammar import GRAMMAR_DIR

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
