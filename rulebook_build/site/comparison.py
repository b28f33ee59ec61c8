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
from rulebook_build.words import define
from rulebook_build.words import text as said

IDS: Final[dict[str, str]] = {
    "rule": define("comparison.rule", "Rule"),
    "international": define("comparison.international", "International"),
    "frisian": define("comparison.frisian", "Frisian"),
    "directions": define("comparison.directions", "Capture directions"),
    "diagonal": define("comparison.diagonal", "diagonal (4 directions)"),
    "all": define("comparison.all", "diagonal, horizontal and vertical (8 directions)"),
    "majority": define("comparison.majority", "Majority capture"),
    "count": define("comparison.count", "the most pieces (a king counts as one)"),
    "value": define(
        "comparison.value", "the highest value (a king more than one man, less than two)"
    ),
    "examples": define(
        "comparison.examples", "Example: value of 1 king / 2 men / 3 kings / 5 men / 6 men"
    ),
    "precedence": define("comparison.precedence", "Equal value"),
    "king_first": define("comparison.king_first", "the king must capture"),
    "free": define("comparison.free", "free choice"),
    "king_moves": define("comparison.king_moves", "Consecutive king moves"),
    "limit": define(
        "comparison.limit",
        "at most {n} non-capturing moves in a row with the same king (while men remain)",
    ),
    "no_limit": define("comparison.no_limit", "no limit"),
    "draws": define("comparison.draws", "Draw by count"),
    "intl_draws": define(
        "comparison.intl_draws",
        "{a} moves each in one king against at most two pieces with a king; "
        "{b} in one king against three pieces with a king; {c} moves each with kings only",
    ),
    "fries_draws": define(
        "comparison.fries_draws",
        "two kings against one king must win within {n} moves; one king against one king is a draw",
    ),
    "repetition": define("comparison.repetition", "Repetition"),
    "threefold": define("comparison.threefold", "the same position for the third time: draw"),
    "none": define("comparison.none", "no rule"),
    "promotion": define("comparison.promotion", "Promotion"),
    "promotion_text": define(
        "comparison.promotion_text", "only when the move ends on the back row"
    ),
    "kings": define("comparison.kings", "Kings"),
    "flying": define("comparison.flying", "flying, capture from a distance"),
}
"""The comparison table's words by their short name here, each a message of the catalogs."""


class _Words:
    """The table's words in one language: ``words["rule"]``, ``words.said("limit", n=3)``."""

    def __init__(self, ids: dict[str, str], lang: str) -> None:
        self.ids = ids
        self.lang = lang

    def __getitem__(self, key: str) -> str:
        return said(self.ids[key], self.lang)

    def said(self, key: str, **args: object) -> str:
        return said(self.ids[key], self.lang, **args)


def _cells(variant: Variant, words: _Words) -> dict[str, str]:
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
        draws = words.said(
            "intl_draws",
            a=ENDING_PLIES["5"] // 2,
            b=ENDING_PLIES["16"] // 2,
            c=KING_ONLY_PLIES // 2,
        )
        repetition = words["threefold"]
    else:
        draws = words.said("fries_draws", n=FRISIAN_TWO_KINGS_MOVES)
        repetition = words["none"]
    return {
        "directions": words["all"] if orthogonal else words["diagonal"],
        "majority": words["value"] if variant.kings_capture_value_weighted else words["count"],
        "examples": " / ".join(str(v) for v in values),
        "precedence": words["king_first"] if variant.king_capture_precedence else words["free"],
        "king_moves": words.said("limit", n=limit) if limit else words["no_limit"],
        "kings": words["flying"],
        "promotion": words["promotion_text"],
        "draws": draws,
        "repetition": repetition,
    }


def render_comparison(text: str, *, lang: str) -> str:
    """The comparison table; ``text`` (the block's body) is ignored."""
    del text
    words = _Words(IDS, lang)
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


SCORE_IDS: Final[dict[str, str]] = {
    "score": define("score.score", "Result by the scoring rules"),
    "knockout": define("score.knockout", "knockout (art. 3)"),
    "ahead": define("score.ahead", "{side} is {n} men ahead, a king counting two (art. 4/5)"),
    "diagonal": define(
        "score.diagonal", "equal material, a king on the main diagonal 5-46 (art. 7)"
    ),
    "first": define("score.first", "equal material, first to make a king (art. 8)"),
    "white": define("score.white", "White"),
    "black": define("score.black", "Black"),
    "open": define("score.open", "no rule decides"),
}
"""The Dampromotie score's words, each a message of the catalogs."""


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
    words = _Words(SCORE_IDS, lang)
    final = game.position
    difference = material(final, True) - material(final, False)
    if result.reason == "knockout":
        reason = words["knockout"]
    elif difference:
        side = words["white"] if difference > 0 else words["black"]
        reason = words.said("ahead", side=side, n=abs(difference))
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
