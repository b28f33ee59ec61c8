"""The checker's criterion details, in English (the ``detail`` of the JSON), Dutch and Frisian
(the words' catalogs: each message's id is its key there).

A detail is a message id with arguments.  ``rulebook check`` writes the English text as
``detail`` and, as an extension of the JSON, the id and arguments as ``message`` and ``args``,
so that the site can show the detail in the page's language.  An argument is a string or a
number, inserted as it is (moves, squares and positions are written the same in every
language), or a list of items: each item is a list written with the template ``<id>.<name>``
and the items are joined with "; ".  An item's words ``white`` and ``black`` are translated.
"""

from __future__ import annotations

from typing import Final

from rulebook_build.words import LANGUAGES, define, text

Argument = str | int | list[list[str | int]]
CRITERIA: Final = ("A", "B1", "B2", "B3", "B4", "C", "D", "E", "F", "G")
"""The criteria of the Problemistenwedstrijd, in the rulebook's order."""

IDS: Final = frozenset(
    (
        define("not_examined", "not examined (only the win was asked for)"),
        define("a_pass", "White wins (proved), key {keys}"),
        define("a_fail", "White cannot force a win: every first move was refuted"),
        define("a_undecided", "undecided (time limit): no winning key proved; still open: {keys}"),
        define(
            "a_undecided_line",
            "undecided (time limit): no winning key proved; still open: {keys}; the search "
            "stopped in the line {line}",
        ),
        define("b1_white_pieces", "White has {count} pieces; a side starts with 20"),
        define("b1_black_pieces", "Black has {count} pieces; a side starts with 20"),
        define("b1_black_to_move", "Black is to move: a problem starts with White to move"),
        define("b1_no_white", "White has no pieces"),
        define(
            "b1_no_last_move",
            "Black has no legal last move into this position (no quiet move or capture leads "
            "here from a legal position with Black to move)",
        ),
        define(
            "b1_undecided",
            "undecided: no legal last move of Black was found among the first {tried} positions "
            "it could have been played from, and not every one was tried",
        ),
        define(
            "b1_pass",
            "necessary conditions hold: {white} white and {black} black pieces "
            "({captured_black} black and {captured_white} white pieces captured), Black's last "
            "move could be {last}; no game from the start position was constructed (not proven "
            "reachable)",
        ),
        define(
            "b2_fail",
            "White has more material ({white_men} men, {white_kings} kings against {black_men} "
            "men, {black_kings} kings)",
        ),
        define("b2_pass", "White {white} pieces, Black {black}"),
        define("b3_fail", "kings on {squares}"),
        define("b3_pass", "no kings"),
        define("b4_fail", "a black piece is en prise: White can capture at once ({captures})"),
        define("b4_pass", "White has no capture at the start"),
        define("not_proved", "the win is not proved"),
        define("c_cook", "cook: more than one winning key: {keys}; a line that wins: {lines}"),
        define(
            "c_cook_combination",
            "cook: more than one winning key: {keys}; a line that wins: {lines} (the second "
            "solution is itself a combination: the jury may allow it, art. 2C)",
        ),
        define("c_cook_line", "cook in the combination: {duals}"),
        define("c_cook_line.duals", "after {0}: {1} all win"),
        define("c_cook_line_more", "cook in the combination: {duals} (+{count} more)"),
        define("c_cook_line_more.duals", "after {0}: {1} all win"),
        define("c_remark", "dual in a variation or after a forced Black capture: {duals}"),
        define("c_remark.duals", "after {0}: {1} all win"),
        define(
            "c_remark_more",
            "dual in a variation or after a forced Black capture: {duals} (+{count} more)",
        ),
        define("c_remark_more.duals", "after {0}: {1} all win"),
        define("c_undecided", "undecided (time limit): {later} later alternatives undecided"),
        define(
            "c_undecided_cut",
            "undecided (time limit): the solution tree was not walked to the end ({later} later "
            "alternatives undecided)",
        ),
        define(
            "c_undecided_keys",
            "undecided (time limit): keys not refuted: {keys}; {later} later alternatives "
            "undecided",
        ),
        define(
            "c_pass",
            "one winning key and one winning move at every White turn of the solution tree, up "
            "to the end of the problem ({count} positions; harmless alternatives are listed as "
            "information)",
        ),
        define("d_needs_key", "needs a legal solution whose key wins"),
        define(
            "d_fail",
            "idle: {men} (the solution works without it, with no second solution and a legal "
            "start)",
        ),
        define("d_fail.men", "{0} man on {1}"),
        define("d_undecided", "undecided (time limit) for the men on {men}"),
        define("d_undecided.men", "{0} {1}"),
        define("d_pass", "each of the {count} men is needed: without it the solution fails"),
        define("no_solution", "no proved solution to examine"),
        define("e_fail", "interchangeable: {pairs} (either order wins)"),
        define("e_fail.pairs", "{0} and {1}"),
        define("e_undecided", "undecided (time limit)"),
        define("e_pass", "no two White moves can change places"),
        define("f_no_solution", "no legal solution to examine"),
        define(
            "f_white_wins",
            "the solution ends the game: White wins (the other side cannot move)",
        ),
        define(
            "f_black_wins",
            "the solution ends the game: Black wins (the other side cannot move)",
        ),
        define("f_pass", "the solution ends in an ending that is proved won for White"),
        define("f_fail", "the solution stops in a position White cannot win: {fen}"),
        define(
            "f_undecided",
            "undecided (time limit): the position where the solution stops was not proved won",
        ),
        define("g_fail", "the final phase is not won in one way: after {line}: {moves} all win"),
        define("g_undecided", "undecided (time limit): the final phase was not fully examined"),
        define(
            "g_remark",
            "a dual in a variation of the final phase: after {line}: {moves} all win",
        ),
        define("g_pass", "every Black defence in the final phase has exactly one winning reply"),
        define("white", "white"),
        define("black", "black"),
    )
)
"""The checker's messages (their English here, their Dutch and Frisian in the words' catalogs);
an item template ``<id>.<name>`` writes each item of the list argument ``name``."""


def render(message: str, args: dict[str, Argument], lang: str = "en") -> str | None:
    """The text of ``message`` in ``lang``; None for an unknown message or language, or when an
    argument the text needs is missing."""
    if message not in IDS or lang not in LANGUAGES:
        return None
    values: dict[str, str | int] = {}
    for name, value in args.items():
        if isinstance(value, list):
            item_id = f"{message}.{name}"
            if item_id not in IDS:
                return None
            item = text(item_id, lang)
            values[name] = "; ".join(
                item.format(*(text(str(v), lang) if v in ("white", "black") else v for v in x))
                for x in value
            )
        else:
            values[name] = value
    try:
        return text(message, lang).format(**values)
    except (KeyError, IndexError):
        return None
