"""Diagram blocks to HTML, with a cache on disk.

A block's HTML depends on its text, the page's language and the renderer (its source code:
:func:`rulebook_build.render.renderer_fingerprint`); the cache keys on exactly those, so a
rebuild after one edit renders only the blocks that changed.  The element ids, which depend
on where the block stands in its page, are filled in after the cache.

Entries are files ``<key>.html`` written through a temporary file and renamed, so a build
that is stopped never leaves half an entry.  A block that fails is never cached: its error
is reported again on every build, at its current line.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from rulebook_build.notation import DiagramSpec, format_fen, parse_diagram
from rulebook_build.render import Line, diagram_html, player_html, renderer_fingerprint

ID_TOKEN: Final = "\ue000rb-id\ue000"
"""Stands for the element id in cached HTML (a private-use character cannot be in a page)."""


@dataclass
class DiagramCache:
    """A folder of rendered diagrams; ``folder=None`` turns caching off."""

    folder: Path | None
    hits: int = 0
    misses: int = 0
    _seen: set[str] = field(default_factory=set)

    def key(self, text: str, lang: str) -> str:
        digest = hashlib.sha256()
        for part in (renderer_fingerprint(), lang, text.strip()):
            digest.update(part.encode())
            digest.update(b"\0")
        return digest.hexdigest()[:32]

    def get(self, key: str) -> str | None:
        if self.folder is None:
            return None
        try:
            return (self.folder / f"{key}.html").read_text(encoding="utf-8")
        except OSError:
            return None

    def put(self, key: str, html: str) -> None:
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(html)
            os.chmod(temporary, 0o644)
            os.replace(temporary, self.folder / f"{key}.html")
        except OSError:
            pass  # a cache that cannot be written only costs time


def render_block(
    text: str,
    *,
    lang: str,
    source: str,
    first_line: int,
    indent: int,
    element_id: str,
    cache: DiagramCache,
    lines: Sequence[tuple[str, str, str]] = (),
) -> str:
    """The HTML of one diagram block; raises the notation layer's ``RulebookError``.

    ``lines`` are the other lines a player offers (label, sentence, moves from the block's
    position): each is read and checked like the block's own ``moves``."""
    key = cache.key(text + "".join(f"\0{a}\0{b}\0{c}" for a, b, c in lines), lang)

    def made() -> str:
        spec = parse_diagram(text, source=source, first_line=first_line, indent=indent)
        if not (lines and spec.moves):
            return _html(spec, lang, ())
        setting = [
            row for row in text.splitlines() if not row.lstrip().startswith(("moves:", "caption:"))
        ]
        others = [
            Line(
                label,
                sentence,
                parse_diagram("\n".join([*setting, f"moves: {moves}"]), source=source).moves,
            )
            for label, sentence, moves in lines
        ]
        return _html(spec, lang, others)

    return _cached(cache, key, made, element_id)


def _html(spec: DiagramSpec, lang: str, lines: Sequence[Line]) -> str:
    """A player with the other lines where there are moves and lines, else the diagram."""
    if lines and spec.moves:
        return player_html(spec, lang=lang, id_prefix=ID_TOKEN, lines=list(lines))
    return diagram_html(spec, lang=lang, id_prefix=ID_TOKEN)


def _cached(cache: DiagramCache, key: str, made: Callable[[], str], element_id: str) -> str:
    """The cached HTML of ``key``, else what ``made`` renders (kept), with its element id."""
    html = cache.get(key)
    if html is None:
        html = made()
        cache.put(key, html)
        cache.misses += 1
    else:
        cache.hits += 1
    return html.replace(ID_TOKEN, element_id)


def _described(spec: DiagramSpec, lines: Sequence[Line]) -> str:
    """What a diagram's HTML depends on, as text for the cache's key (nothing reads it back)."""

    def moves(played: Sequence[object]) -> str:
        return " ".join(repr(move) for move in played)

    parts = [
        "spec",
        format_fen(spec.position),
        spec.variant.name,
        moves(spec.moves),
        repr((spec.highlight, spec.arrows, spec.numbers, spec.flip, spec.caption)),
        *(f"{line.label}\0{line.sentence}\0{moves(line.moves)}" for line in lines),
    ]
    return "\0".join(parts)


def render_spec(
    spec: DiagramSpec,
    *,
    lang: str,
    element_id: str,
    cache: DiagramCache,
    lines: Sequence[Line] = (),
) -> str:
    """The HTML of a diagram made from objects (a problem's start, its solution and its other
    lines, as the notation layer read them): as :func:`render_block`, without a block's text."""
    key = cache.key(_described(spec, lines), lang)
    return _cached(cache, key, lambda: _html(spec, lang, lines), element_id)
