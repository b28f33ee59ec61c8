"""The engine's opinions on a stored verdict's open questions, as the site shows them.

A verdict left undecided carries, per question it left open, the evaluating engine's opinion
(``checker/opinion.py``).  The problem page lists them all under the verdict, with the rate at
which the engine agreed with the proofs; the contest page shows the first beside each undecided
criterion.  Each sentence says "not proved" in the page's language (``opinion_words.py``).
"""

from __future__ import annotations

from typing import Final

from rulebook_build.checker import Judgement, calibration, calibration_text, describe, heading

SHOWN_BESIDE: Final = 1
"""How many opinions the contest page shows beside an undecided criterion (the problem page
has them all)."""


def verdict_opinions(record: Judgement, lang: str) -> dict[str, object] | None:
    """What ``verdict.html`` lists under the criteria, or None when there is no opinion."""
    opinions = record.opinions
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
        "calibration": calibration_text(calibration(record.variant), lang),
    }


def beside(record: Judgement, name: str, lang: str, shown: set[int]) -> tuple[list[str], int]:
    """The sentences shown beside criterion ``name`` on the contest page, and how many more
    the problem page has.  An opinion serving several criteria (an open first move is open for
    C and G alike) is shown once, beside the first of them: ``shown`` holds the indexes of the
    opinions already shown on the row."""
    mine = [i for i, opinion in enumerate(record.opinions) if name in opinion.criteria]
    new = [i for i in mine if i not in shown][:SHOWN_BESIDE]
    shown.update(new)
    return [describe(record.opinions[i], lang) for i in new], len(mine) - len(new)
