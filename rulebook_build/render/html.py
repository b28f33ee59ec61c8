"""HTML for the site's diagrams: a ``<figure>`` with an inline SVG board and its caption, or
a solution player when the diagram has moves.

The player (``<figure class="solution-player">``) works without JavaScript: it shows the
start diagram, the move list and the final diagram.  ``site/assets/player.js`` then turns it
into a board with buttons and keys; everything it shows comes from the JSON embedded here,
computed by the rules engine at build time (every ply's route, captured squares, resulting
placement, status line and description), so the script knows no rules.
"""

from __future__ import annotations

import json
from html import escape
from typing import Final

from rulebook_build.notation.diagram import DiagramSpec
from rulebook_build.render.animation import Ply, move_list, plies
from rulebook_build.render.strings import describe_position, text
from rulebook_build.render.style import SQUARE, square_centre
from rulebook_build.render.svg import board_svg, piece_code, piece_shapes
from rulebook_build.rules import SQUARES, Piece

__all__ = ["diagram_html", "player_data", "player_html", "static_html"]

ICONS: Final = {
    "first": "M6 6h2v12H6zm3.5 6 8.5 6V6z",
    "back": "M15.4 7.4 14 6l-6 6 6 6 1.4-1.4-4.6-4.6z",
    "play": "M8 5v14l11-7z",
    "pause": "M6 19h4V5H6zm8-14v14h4V5z",
    "forward": "M8.6 16.6 13.2 12 8.6 7.4 10 6l6 6-6 6z",
    "last": "M6 18l8.5-6L6 6zm10-12v12h2V6z",
}


def _icon(name: str, css_class: str = "") -> str:
    extra = f' class="{css_class}"' if css_class else ""
    return (
        f'<svg{extra} viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" '
        f'focusable="false"><path d="{ICONS[name]}"/></svg>'
    )


def _label(words: str) -> str:
    return f'<p class="rb-player-label" data-search-exclude="true">{escape(words)}</p>'


def _caption(caption: str | None) -> str:
    return f"<figcaption>{escape(caption, quote=False)}</figcaption>" if caption else ""


def diagram_html(spec: DiagramSpec, *, lang: str, id_prefix: str) -> str:
    """The figure for a diagram block: a still diagram, or a player when it has moves."""
    if spec.moves:
        return player_html(spec, lang=lang, id_prefix=id_prefix)
    return static_html(spec, lang=lang, id_prefix=id_prefix)


def static_html(spec: DiagramSpec, *, lang: str, id_prefix: str) -> str:
    svg = board_svg(
        spec.position,
        numbers=spec.numbers,
        flip=spec.flip,
        highlight=spec.highlight,
        arrows=spec.arrows,
        lang=lang,
        caption=spec.caption,
        id_prefix=f"{id_prefix}-board",
    )
    return f'<figure class="rb-diagram" id="{id_prefix}">\n{svg}\n{_caption(spec.caption)}</figure>'


def _placement(pieces: dict[int, Piece]) -> dict[str, str]:
    return {str(square): piece_code(piece) for square, piece in sorted(pieces.items())}


def player_data(spec: DiagramSpec, sequence: tuple[Ply, ...], *, lang: str) -> dict[str, object]:
    """What the player's script needs, as JSON-ready data."""
    start = spec.position
    steps: list[dict[str, object]] = [
        {
            "pieces": _placement(start.pieces()),
            "status": text(lang, "start_position"),
            "desc": describe_position(start, lang, flip=spec.flip),
        }
    ]
    for ply in sequence:
        steps.append(
            {
                "path": list(ply.move.path),
                "captured": list(ply.move.captured),
                "pieces": _placement(ply.after.pieces()),
                "status": text(lang, "move_status", number=ply.number, move=ply.notation),
                "desc": describe_position(ply.after, lang, flip=spec.flip, last_move=ply.notation),
            }
        )
    return {
        "squares": {str(s): list(square_centre(s, flip=spec.flip)) for s in SQUARES},
        "square": SQUARE,
        "shapes": piece_shapes(),
        "steps": steps,
        "labels": {"play": text(lang, "play"), "pause": text(lang, "pause")},
    }


def _json_script(data: dict[str, object]) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # nothing in the payload may close the script element or open a comment
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e")
    return f'<script type="application/json" class="rb-player-data">{payload}</script>'


def player_html(spec: DiagramSpec, *, lang: str, id_prefix: str) -> str:
    """A solution player: still start and final diagrams, the move list, controls, data."""
    sequence = plies(spec.position, spec.moves)
    final = sequence[-1]
    start_svg = board_svg(
        spec.position,
        numbers=spec.numbers,
        flip=spec.flip,
        highlight=spec.highlight,
        arrows=spec.arrows,
        lang=lang,
        title=text(lang, "start_position"),
        id_prefix=f"{id_prefix}-start",
    )
    final_svg = board_svg(
        final.after,
        numbers=spec.numbers,
        flip=spec.flip,
        last_move=final.move,
        last_move_text=final.notation,
        lang=lang,
        title=text(lang, "final_position"),
        id_prefix=f"{id_prefix}-final",
    )
    buttons = []
    for action in ("first", "back", "play", "forward", "last"):
        label = escape(text(lang, action))
        icon = _icon(action)
        if action == "play":
            icon = _icon("play", "rb-icon-play") + _icon("pause", "rb-icon-pause")
        buttons.append(
            f'<button type="button" class="rb-player-button" data-action="{action}" '
            f'aria-label="{label}" title="{label}">{icon}</button>'
        )
    moves = " ".join(
        f'<span class="rb-player-move" data-ply="{number}">{escape(label)}</span>'
        for number, label in move_list(sequence)
    )
    parts = [
        f'<figure class="rb-diagram solution-player" id="{id_prefix}" lang="{escape(lang)}">',
        '<div class="rb-player-static">',
        f'<div class="rb-player-frame rb-player-begin">\n{start_svg}\n'
        f"{_label(text(lang, 'start_position'))}</div>",
        f'<div class="rb-player-frame rb-player-end">\n{final_svg}\n'
        f"{_label(text(lang, 'final_position'))}</div>",
        "</div>",
        '<div class="rb-player-live" hidden></div>',
        '<div class="rb-player-bar" data-search-exclude="true" hidden>'
        f'<div class="rb-player-controls" role="group" '
        f'aria-label="{escape(text(lang, "player"))}">{"".join(buttons)}</div>'
        f'<p class="rb-player-status" role="status" aria-live="polite" aria-atomic="true"></p>'
        f'<p class="rb-player-help" id="{id_prefix}-keys" hidden>'
        f"{escape(text(lang, 'keys'))}</p></div>",
        f'<p class="rb-player-moves"><span class="rb-player-moves-label">'
        f"{escape(text(lang, 'moves'))}:</span> {moves}</p>",
        _json_script(player_data(spec, sequence, lang=lang)),
        _caption(spec.caption),
        "</figure>",
    ]
    return "\n".join(p for p in parts if p)
