"""An engine's opinion in words, in English, Dutch and Frisian, for the text report, the problem
and contest pages and the check page.

Every sentence starts "not proved" (and its translations): an opinion is the engine's estimate,
and its words must never read as the checker's proof.  Moves and squares are written the same
in every language; a long line is shortened to its last moves.
"""

from __future__ import annotations

from typing import Final

from rulebook_build.checker.opinion import Calibration, Kind, Opinion

SHOWN_PLIES: Final = 6
"""How many of the moves leading to a question are written out (the last ones)."""
BEST_PLIES: Final = 10
"""How many moves of the engine's best line are written out."""

WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "key": "after the first move {line}",
        "alternative": "after {line}",
        "stopped": "after {line}, where the walk of the solution stopped",
        "swap": "with the moves in the other order, {line}",
        "idle": "without the man on {square}, after the key {line}",
        "end": "in the final position, after {line}",
        "start": "in the start position",
        "win": "not proved; the engine sees a win for White {where} (score {score}, depth "
        "{depth}): {best}",
        "no_win": "not proved; the engine sees no win for White {where} at depth {depth} "
        "(score {score}): {best}",
        "score": "{men} men",
        "end_of_game": "the game ends in {plies} plies",
        "heading": "Engine opinions (not proofs)",
        "calibration": "On the questions the proof search settled, the engine's opinion at this "
        "budget agreed with the proof {percent} % of the time ({agreed} of {asked}); the "
        "questions that stay open are often harder.",
        "uncalibrated": "The engine's opinion has not been compared with the proofs yet.",
        "open_rate": " Of {asked} questions that a check of 20 s left open and one of 120 s "
        "settled, it judged {agreed} right.",
    },
    "nl": {
        "key": "na de eerste zet {line}",
        "alternative": "na {line}",
        "stopped": "na {line}, waar de doorloop van de oplossing stopte",
        "swap": "met de zetten in andere volgorde, {line}",
        "idle": "zonder de schijf op {square}, na de sleutelzet {line}",
        "end": "in de slotstand, na {line}",
        "start": "in de beginstand",
        "win": "niet bewezen; de engine ziet winst voor Wit {where} (score {score}, diepte "
        "{depth}): {best}",
        "no_win": "niet bewezen; de engine ziet geen winst voor Wit {where} op diepte {depth} "
        "(score {score}): {best}",
        "score": "{men} schijven",
        "end_of_game": "de partij eindigt na {plies} halve zetten",
        "heading": "Oordeel van de engine (geen bewijs)",
        "calibration": "Bij de vragen die het bewijs wel beslechtte, kwam het oordeel van de "
        "engine bij dit budget in {percent} % van de gevallen overeen met het bewijs ({agreed} "
        "van {asked}); de vragen die open blijven zijn vaak moeilijker.",
        "uncalibrated": "Het oordeel van de engine is nog niet met de bewijzen vergeleken.",
        "open_rate": " Van {asked} vragen die een controle van 20 s open liet en een van 120 s "
        "beslechtte, beoordeelde ze er {agreed} goed.",
    },
    "fy": {
        "key": "nei de earste set {line}",
        "alternative": "nei {line}",
        "stopped": "nei {line}, dêr't de trochrin fan de oplossing stoppe",
        "swap": "mei de setten yn oare folchoarder, {line}",
        "idle": "sûnder de skiif op {square}, nei de kaaiset {line}",
        "end": "yn de einstân, nei {line}",
        "start": "yn de begjinstân",
        "win": "net bewiisd; de motor sjocht winst foar Wyt {where} (skoare {score}, djipte "
        "{depth}): {best}",
        "no_win": "net bewiisd; de motor sjocht gjin winst foar Wyt {where} op djipte {depth} "
        "(skoare {score}): {best}",
        "score": "{men} skiven",
        "end_of_game": "de partij einiget nei {plies} heale setten",
        "heading": "Oardiel fan de motor (gjin bewiis)",
        "calibration": "By de fragen dy't it bewiis wol besleat, kaam it oardiel fan de motor by "
        "dit budzjet yn {percent} % fan de gefallen oerien mei it bewiis ({agreed} fan {asked}); "
        "de fragen dy't iepen bliuwe binne faak dreger.",
        "uncalibrated": "It oardiel fan de motor is noch net mei de bewizen fergelike.",
        "open_rate": " Fan {asked} fragen dy't in kontrôle fan 20 s iepen liet en ien fan 120 s "
        "besleat, beoardiele er {agreed} goed.",
    },
}


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
    """How far the opinions can be trusted, as measured (``benchmarks/opinion.py``)."""
    words = _words(lang)
    if found is None or not found.asked:
        return words["uncalibrated"]
    percent = f"{found.percent:.1f}"
    if lang != "en":
        percent = percent.replace(".", ",")
    said = words["calibration"].format(percent=percent, agreed=found.agreed, asked=found.asked)
    if found.open_asked:
        said += words["open_rate"].format(agreed=found.open_agreed, asked=found.open_asked)
    return said
