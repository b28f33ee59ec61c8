"""An engine's opinion in words, in English, Dutch and Frisian, for the text report, the problem
and contest pages and the check page.

Every sentence starts "not proved" (and its translations): an opinion is the engine's estimate,
and its words must never read as the checker's proof.  Moves and squares are written the same
in every language; a long line is shortened to its last moves.
"""

from __future__ import annotations

from typing import Final

from rulebook_build.checker.opinion import Calibration, Kind, Opinion
from rulebook_build.words import LANGUAGES, define
from rulebook_build.words import text as said

SHOWN_PLIES: Final = 6
"""How many of the moves leading to a question are written out (the last ones)."""
BEST_PLIES: Final = 10
"""How many moves of the engine's best line are written out."""

_WORDS_IDS: Final[dict[str, str]] = {
    "key": define("opinion.key", "after the first move {line}"),
    "alternative": define("opinion.alternative", "after {line}"),
    "stopped": define("opinion.stopped", "after {line}, where the walk of the solution stopped"),
    "swap": define("opinion.swap", "with the moves in the other order, {line}"),
    "idle": define("opinion.idle", "without the man on {square}, after the key {line}"),
    "end": define("opinion.end", "in the final position, after {line}"),
    "start": define("opinion.start", "in the start position"),
    "win": define(
        "opinion.win",
        "not proved; the engine sees a win for White {where} (score {score}, depth {depth}): "
        "{best}",
    ),
    "no_win": define(
        "opinion.no_win",
        "not proved; the engine sees no win for White {where} at depth {depth} (score {score}): "
        "{best}",
    ),
    "score": define("opinion.score", "{men} men"),
    "end_of_game": define("opinion.end_of_game", "the game ends in {plies} plies"),
    "heading": define("opinion.heading", "Engine opinions (not proofs)"),
    "calibration": define(
        "opinion.calibration",
        "On the questions the proof search settled, the engine's opinion at this budget agreed "
        "with the proof {percent} of the time ({agreed} of {asked}); the questions that stay "
        "open are often harder.",
    ),
    "calibration_frisian": define(
        "opinion.calibration_frisian",
        "On the Fries Spel questions the proof search settled (the examples, composed "
        "positions and random endings), the engine's opinion at this budget agreed with the "
        "proof {percent} of the time ({agreed} of {asked}); the questions that stay open are "
        "often harder.",
    ),
    "uncalibrated": define(
        "opinion.uncalibrated",
        "The engine's opinion has not been compared with the proofs yet.",
    ),
    "open_rate": define(
        "opinion.open_rate",
        "Of {asked} questions that a check of 20 s left open and one of 120 s settled, it "
        "judged {agreed} right.",
    ),
}
WORDS: Final[dict[str, dict[str, str]]] = {
    lang: {key: said(message, lang) for key, message in _WORDS_IDS.items()} for lang in LANGUAGES
}
"""Each language's words for an opinion, read from the catalogs (their English is above)."""


def _words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def _shortened(line: tuple[str, ...], plies: int) -> str:
    if len(line) <= plies:
        return " ".join(line)
    return "… " + " ".join(line[-plies:])


def where(kind: Kind, line: tuple[str, ...], square: int | None, lang: str = "en") -> str:
    """Where the question is, in words."""
    words = _words(lang)
    if not line and kind != "idle":
        return words["start"]
    return words[kind].format(line=_shortened(line, SHOWN_PLIES), square=square)


def score_text(opinion: Opinion, lang: str = "en") -> str:
    """The score in men, signed, or the end of the game the engine saw."""
    words = _words(lang)
    plies = opinion.game_end
    if plies is not None:
        return words["end_of_game"].format(plies=plies)
    men = f"{opinion.score / 100:+.2f}"
    if lang != "en":
        men = men.replace(".", ",")
    return words["score"].format(men=men)


def describe(opinion: Opinion, lang: str = "en") -> str:
    """The opinion as one sentence that starts "not proved"."""
    words = _words(lang)
    return words["win" if opinion.says == "win" else "no_win"].format(
        where=where(opinion.kind, opinion.line, opinion.square, lang),
        score=score_text(opinion, lang),
        depth=opinion.depth,
        best=" ".join(opinion.best[:BEST_PLIES]) or "-",
    )


def heading(lang: str = "en") -> str:
    return _words(lang)["heading"]


def calibration_text(found: Calibration | None, lang: str = "en") -> str:
    """How far the opinions can be trusted, as measured (``benchmarks/opinion.py``) in the
    variant of ``found``: each variant's sentence says which questions it was measured on."""
    words = _words(lang)
    if found is None or not found.asked:
        return words["uncalibrated"]
    percent = f"{found.percent:.1f}"
    if lang != "en":
        percent = percent.replace(".", ",")
    sentence = "calibration_frisian" if found.variant == "frisian" else "calibration"
    # the per cent sign is the argument's: in the text, "% o" would read as a printf placeholder
    said = words[sentence].format(percent=f"{percent} %", agreed=found.agreed, asked=found.asked)
    if found.open_asked:
        said += " " + words["open_rate"].format(agreed=found.open_agreed, asked=found.open_asked)
    return said
