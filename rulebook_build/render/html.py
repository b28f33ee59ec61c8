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
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Final

from rulebook_build.notation import DiagramSpec
from rulebook_build.render.animation import Ply, move_list, plies
from rulebook_build.render.strings import describe_position, text
from rulebook_build.render.style import SQUARE, square_centre
from rulebook_build.render.svg import board_svg, piece_code, piece_shapes
from rulebook_build.rules import SQUARES, Move, Piece

__all__ = ["Line", "diagram_html", "player_data", "player_html", "static_html"]


@dataclass(frozen=True, slots=True)
class Line:
    """A line the reader can switch the player to, besides the main one: a cook, a dual, a
    false solution.  ``moves`` are played from the diagram's position; ``label`` names the
    line on its button, ``sentence`` says what it shows (both plain text)."""

    label: str
    sentence: str
    moves: tuple[Move, ...]


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


def _steps(spec: DiagramSpec, sequence: tuple[Ply, ...], lang: str) -> list[dict[str, object]]:
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
    return steps


def player_data(
    spec: DiagramSpec,
    sequence: tuple[Ply, ...],
    *,
    lang: str,
    lines: Sequence[tuple[Line, tuple[Ply, ...]]] = (),
) -> dict[str, object]:
    """What the player's script needs, as JSON-ready data; ``lines`` the other lines, each
    with its plies (the script switches ``steps`` and the move list to one of them)."""
    data: dict[str, object] = {
        "squares": {str(s): list(square_centre(s, flip=spec.flip)) for s in SQUARES},
        "square": SQUARE,
        "shapes": piece_shapes(),
        "steps": _steps(spec, sequence, lang),
        "labels": {"play": text(lang, "play"), "pause": text(lang, "pause")},
    }
    if lines:
        data["lines"] = [
            {
                "label": text(lang, "main_line"),
                "announce": text(lang, "main_line") + ".",
                "steps": data["steps"],
                "moves": move_list(sequence),
            },
            *(
                {
                    "label": line.label,
                    "announce": text(
                        lang, "line_status", label=line.label, sentence=line.sentence
                    ).strip(),
                    "steps": _steps(spec, played, lang),
                    "moves": move_list(played),
                }
                for line, played in lines
            ),
        ]
    return data


def _json_script(data: dict[str, object]) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # nothing in the payload may close the script element or open a comment
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e")
    return f'<script type="application/json" class="rb-player-data">{payload}</script>'


def _moves_html(sequence: tuple[Ply, ...]) -> str:
    return " ".join(
        f'<span class="rb-player-move" data-ply="{number}">{escape(label)}</span>'
        for number, label in move_list(sequence)
    )


def _final_svg(
    spec: DiagramSpec, played: tuple[Ply, ...], *, lang: str, title: str, id_prefix: str
) -> str:
    """The position a sequence of moves leads to, its last move marked."""
    final = played[-1]
    return board_svg(
        final.after,
        numbers=spec.numbers,
        flip=spec.flip,
        last_move=final.move,
        last_move_text=final.notation,
        lang=lang,
        title=title,
        id_prefix=id_prefix,
    )


def _line_html(
    spec: DiagramSpec, line: Line, played: tuple[Ply, ...], *, lang: str, id_prefix: str
) -> str:
    """An alternative line as the page shows it without a script: its name and sentence,
    its moves and the position it leads to."""
    title = f"{line.label}: {text(lang, 'final_position')}"
    svg = _final_svg(spec, played, lang=lang, title=title, id_prefix=id_prefix)
    moves = " ".join(escape(label) for _number, label in move_list(played))
    sentence = f" {escape(line.sentence)}" if line.sentence else ""
    return (
        f'<div class="rb-player-alt"><p><strong>{escape(line.label)}</strong>.{sentence}</p>'
        f'<p class="rb-player-alt-moves">{moves}</p>\n{svg}</div>'
    )


def player_html(spec: DiagramSpec, *, lang: str, id_prefix: str, lines: Sequence[Line] = ()) -> str:
    """A solution player: still start and final diagrams, the move list, controls, data;
    with ``lines``, a switch to each of them (and, without a script, each one written out
    with the position it leads to)."""
    sequence = plies(spec.position, spec.moves)
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
    final_svg = _final_svg(
        spec,
        sequence,
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
    played = [(line, plies(spec.position, line.moves)) for line in lines if line.moves]
    switch = ""
    alternatives = ""
    if played:
        names = [text(lang, "main_line"), *(line.label for line, _p in played)]
        switch = (
            f'<div class="rb-player-lines" role="group" hidden '
            f'aria-label="{escape(text(lang, "lines"))}">'
            + "".join(
                f'<button type="button" class="rb-player-line" data-line="{index}" '
                f'aria-pressed="{"true" if index == 0 else "false"}">{escape(name)}</button>'
                for index, name in enumerate(names)
            )
            + "</div>"
        )
        alternatives = (
            f'<div class="rb-player-alts" data-search-exclude="true">'
            f'<p class="rb-player-alts-label">{escape(text(lang, "lines"))}:</p>'
            + "".join(
                _line_html(spec, line, moves, lang=lang, id_prefix=f"{id_prefix}-line{index}")
                for index, (line, moves) in enumerate(played, start=1)
            )
            + "</div>"
        )
    keys = text(lang, "keys") + (" " + text(lang, "keys_lines") if played else "")
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
        f"{switch}"
        f'<div class="rb-player-controls" role="group" '
        f'aria-label="{escape(text(lang, "player"))}">{"".join(buttons)}</div>'
        f'<p class="rb-player-status" role="status" aria-live="polite" aria-atomic="true"></p>'
        f'<p class="rb-player-help" id="{id_prefix}-keys">'
        f"{escape(keys)}</p></div>",
        f'<p class="rb-player-moves"><span class="rb-player-moves-label">'
        f'{escape(text(lang, "moves"))}:</span> <span class="rb-player-move-list">'
        f"{_moves_html(sequence)}</span></p>",
        alternatives,
        _json_script(player_data(spec, sequence, lang=lang, lines=played)),
        _caption(spec.caption),
        "</figure>",
    ]
    return "\n".join(p for p in parts if p)
