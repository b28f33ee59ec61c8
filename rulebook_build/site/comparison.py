"""The ```` ```draughts-comparison ```` block: International and Frisian side by side.

Every cell is computed from the engine's own definitions (``rules/variants.py`` and the draw
clocks of ``rules/drawrules.py``), never typed by hand: change a rule in the engine and the
page follows.  Worked values (what a capture is worth) are computed by the variant's own
``capture_value``.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Final

from rulebook_build.rules import (
    ENDING_PLIES,
    FRISIAN_TWO_KINGS_MOVES,
    KING_ONLY_PLIES,
    ORTHOGONALS,
    VARIANTS,
    Variant,
    play_is_finite,
)

WORDS: Final[dict[str, dict[str, str]]] = {
    "nl": {
        "rule": "Regel",
        "international": "Internationaal",
        "frisian": "Fries",
        "directions": "Slagrichtingen",
        "diagonal": "diagonaal (4 richtingen)",
        "all": "diagonaal, horizontaal en verticaal (8 richtingen)",
        "majority": "Meerslag",
        "count": "het grootste aantal stukken (een dam telt als één)",
        "value": "de grootste waarde (een dam meer dan één schijf, minder dan twee)",
        "examples": "Voorbeeld: waarde van 1 dam / 2 schijven / 3 dammen / 5 schijven / 6 schijven",
        "precedence": "Gelijke waarde",
        "king_first": "de dam moet slaan",
        "free": "vrije keus",
        "king_moves": "Opeenvolgende damzetten",
        "limit": "hoogstens {n} streken achtereen met dezelfde dam (zolang er schijven zijn)",
        "no_limit": "geen beperking",
        "draws": "Remise door telling",
        "intl_draws": "{a} zetten elk bij één dam tegen hoogstens twee stukken met een dam; "
        "{b} bij één dam tegen drie stukken met een dam; {c} zetten elk alleen met dammen",
        "fries_draws": "twee dammen tegen één dam moeten binnen {n} zetten winnen; "
        "één dam tegen één dam is remise",
        "repetition": "Herhaling van zetten",
        "threefold": "derde keer dezelfde stand: remise",
        "none": "geen regel",
        "promotion": "Promotie",
        "promotion_text": "alleen als de zet op de damlijn eindigt",
        "kings": "Dammen",
        "flying": "vliegend, slaan op afstand",
    },
    "en": {
        "rule": "Rule",
        "international": "International",
        "frisian": "Frisian",
        "directions": "Capture directions",
        "diagonal": "diagonal (4 directions)",
        "all": "diagonal, horizontal and vertical (8 directions)",
        "majority": "Majority capture",
        "count": "the most pieces (a king counts as one)",
        "value": "the highest value (a king more than one man, less than two)",
        "examples": "Example: value of 1 king / 2 men / 3 kings / 5 men / 6 men",
        "precedence": "Equal value",
        "king_first": "the king must capture",
        "free": "free choice",
        "king_moves": "Consecutive king moves",
        "limit": "at most {n} non-capturing moves in a row with the same king (while men remain)",
        "no_limit": "no limit",
        "draws": "Draw by count",
        "intl_draws": "{a} moves each in one king against at most two pieces with a king; "
        "{b} in one king against three pieces with a king; {c} moves each with kings only",
        "fries_draws": "two kings against one king must win within {n} moves; "
        "one king against one king is a draw",
        "repetition": "Repetition",
        "threefold": "the same position for the third time: draw",
        "none": "no rule",
        "promotion": "Promotion",
        "promotion_text": "only when the move ends on the back row",
        "kings": "Kings",
        "flying": "flying, capture from a distance",
    },
}


def _words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["nl"])


def _cells(variant: Variant, words: dict[str, str]) -> dict[str, str]:
    orthogonal = any(d in variant.capture_directions for d in ORTHOGONALS)
    values = [
        variant.capture_value(0, 1),
        variant.capture_value(2, 0),
        variant.capture_value(0, 3),
        variant.capture_value(5, 0),
        variant.capture_value(6, 0),
    ]
    limit = variant.max_consecutive_king_moves
    if play_is_finite(variant):
        draws = words["intl_draws"].format(
            a=ENDING_PLIES["5"] // 2, b=ENDING_PLIES["16"] // 2, c=KING_ONLY_PLIES // 2
        )
        repetition = words["threefold"]
    else:
        draws = words["fries_draws"].format(n=FRISIAN_TWO_KINGS_MOVES)
        repetition = words["none"]
    return {
        "directions": words["all"] if orthogonal else words["diagonal"],
        "majority": words["value"] if variant.kings_capture_value_weighted else words["count"],
        "examples": " / ".join(str(v) for v in values),
        "precedence": words["king_first"] if variant.king_capture_precedence else words["free"],
        "king_moves": words["limit"].format(n=limit) if limit else words["no_limit"],
        "kings": words["flying"],
        "promotion": words["promotion_text"],
        "draws": draws,
        "repetition": repetition,
    }


def render_comparison(text: str, *, lang: str) -> str:
    """The comparison table; ``text`` (the block's body) is ignored."""
    del text
    words = _words(lang)
    columns = [(variant, _cells(variant, words)) for variant in VARIANTS]
    head = "".join(f"<th>{html.escape(words[v.name])}</th>" for v, _ in columns)
    rows = []
    for key in (
        "directions",
        "majority",
        "examples",
        "precedence",
        "kings",
        "king_moves",
        "promotion",
        "draws",
        "repetition",
    ):
        cells = "".join(f"<td>{html.escape(c[key])}</td>" for _, c in columns)
        rows.append(f"<tr><th>{html.escape(words[key])}</th>{cells}</tr>")
    return (
        f"<table><thead><tr><th>{html.escape(words['rule'])}</th>"
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


SCORE_WORDS: Final[dict[str, dict[str, str]]] = {
    "nl": {
        "score": "Uitslag volgens de puntentelling",
        "knockout": "knock-out (art. 3)",
        "ahead": "{side} staat {n} schijven voor, een dam telt als twee (art. 4/5)",
        "diagonal": "gelijk materiaal, dam op de hoofdlijn 5-46 (art. 7)",
        "first": "gelijk materiaal, eerst op dam (art. 8)",
        "white": "wit",
        "black": "zwart",
        "open": "geen regel beslist",
    },
    "en": {
        "score": "Result by the scoring rules",
        "knockout": "knockout (art. 3)",
        "ahead": "{side} is {n} men ahead, a king counting two (art. 4/5)",
        "diagonal": "equal material, a king on the main diagonal 5-46 (art. 7)",
        "first": "equal material, first to make a king (art. 8)",
        "white": "White",
        "black": "Black",
        "open": "no rule decides",
    },
}


def render_score(text: str, *, lang: str, where: str, diagram: Callable[[str], str]) -> str:
    """A game shown as a diagram (``position`` and ``moves`` as in a draughts block) and the
    Dampromotie score of its final position, computed by ``rules/scoring.py``."""
    from rulebook_build.notation import parse_diagram
    from rulebook_build.rules import Game, score
    from rulebook_build.rules import material_score as material

    spec = parse_diagram(text, source=where, first_line=1)
    game = Game(spec.position)
    for move in spec.moves:
        game = game.play(move)
    result = score(game, spec.position)
    words = SCORE_WORDS.get(lang, SCORE_WORDS["nl"])
    final = game.position
    difference = material(final, True) - material(final, False)
    if result.reason == "knockout":
        reason = words["knockout"]
    elif difference:
        side = words["white"] if difference > 0 else words["black"]
        reason = words["ahead"].format(side=side, n=abs(difference))
    elif "diagonal" in result.reason:
        reason = words["diagonal"]
    elif "first" in result.reason:
        reason = words["first"]
    else:
        reason = words["open"]
    return (
        diagram(text) + f'<p class="rb-score"><strong>{html.escape(words["score"])}: '
        f"{result.white}-{result.black}</strong> — {html.escape(reason)}</p>"
    )
