"""B1-B4: the start position (Fries Spel, supplementary regulations H, art. 2B).

B1 the position can arise in a game (necessary conditions, ``legality.py``); B2 White has no
material advantage; B3 there are no kings; B4 no black man is en prise.
"""

from __future__ import annotations

from rulebook_build.checker.grade import Criterion
from rulebook_build.checker.legality import check_reachable
from rulebook_build.notation import notation_in as move_notation
from rulebook_build.rules import Position


def white_ahead(position: Position) -> bool:
    """B2: White has more material (a king counted as two men)."""
    white_men, white_kings = position.count(True)
    black_men, black_kings = position.count(False)
    return white_men + 2 * white_kings > black_men + 2 * black_kings


def start_criteria(position: Position) -> dict[str, Criterion]:
    report = check_reachable(position)
    found = {
        "B1": Criterion.say(report.status, report.message, **report.args)  # type: ignore[arg-type]
    }
    white_men, white_kings = position.count(True)
    black_men, black_kings = position.count(False)
    if white_ahead(position):
        found["B2"] = Criterion.say(
            "fail",
            "b2_fail",
            white_men=white_men,
            white_kings=white_kings,
            black_men=black_men,
            black_kings=black_kings,
        )
    else:
        found["B2"] = Criterion.say(
            "pass", "b2_pass", white=white_men + white_kings, black=black_men + black_kings
        )
    kings = position.squares_of("white", "king") + position.squares_of("black", "king")
    found["B3"] = (
        Criterion.say("fail", "b3_fail", squares=", ".join(map(str, sorted(kings))))
        if kings
        else Criterion.say("pass", "b3_pass")
    )
    if position.white_to_move and position.has_capture():
        captures = ", ".join(move_notation(position, m) for m in position.legal_moves())
        found["B4"] = Criterion.say("fail", "b4_fail", captures=captures)
    else:
        found["B4"] = Criterion.say("pass", "b4_pass")
    return found
