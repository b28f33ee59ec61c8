"""The engine's opinions on a stored verdict's open questions, as the site shows them.

A verdict left undecided carries, per question it left open, the evaluating engine's opinion
(``checker/opinion.py``).  The problem page lists them all under the verdict, with the rate at
which the engine agreed with the proofs; the contest page shows the first beside each undecided
criterion.  Each sentence says "not proved" in the page's language (``opinion_words.py``).
"""

from __future__ import annotations

from typing import Final

from rulebook_build.checker.opinion import Opinion, calibration
from rulebook_build.checker.opinion_words import calibration_text, describe, heading
from rulebook_build.errors import SiteError

SHOWN_BESIDE: Final = 1
"""How many opinions the contest page shows beside an undecided criterion (the problem page
has them all)."""


def opinions_of(record: dict[str, object]) -> list[Opinion]:
    """The opinions of a stored verdict; a located error for one that is not an opinion."""
    found = record.get("opinions", [])
    if not isinstance(found, list):
        raise SiteError(f"{record.get('source')}: the stored verdict's 'opinions' is not a list")
    opinions = []
    for index, data in enumerate(found):
        try:
            opinions.append(Opinion.from_json(data))
        except ValueError as error:
            raise SiteError(
                f"{record.get('source')}: stored verdict, opinion {index + 1}: {error}"
            ) from None
    return opinions


def verdict_opinions(record: dict[str, object], lang: str) -> dict[str, object] | None:
    """What ``verdict.html`` lists under the criteria, or None when there is no opinion."""
    opinions = opinions_of(record)
    if not opinions:
        return None
    return {
        "heading": heading(lang),
        "items": [
            {
                "criteria": ", ".join(opinion.criteria) or "-",
                "says": "win" if opinion.says == "win" else "no-win",
                "text": describe(opinion, lang),
            }
            for opinion in opinions
        ],
        "calibration": calibration_text(calibration(), lang),
    }


def beside(record: dict[str, object], name: str, lang: str) -> tuple[list[str], int]:
    """The sentences shown beside criterion ``name`` on the contest page, and how many more
    the problem page has."""
    mine = [opinion for opinion in opinions_of(record) if name in opinion.criteria]
    shown = [describe(opinion, lang) for opinion in mine[:SHOWN_BESIDE]]
    return shown, len(mine) - len(shown)
