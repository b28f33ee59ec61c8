"""Problem pages: the solution text as printed, and pages in step with problems/."""

from __future__ import annotations

import subprocess
import sys

from rulebook_build.notation.pdn import read_pdn
from rulebook_build.notation.replay import replay
from rulebook_build.site.problems import _line_text

from .conftest import REPOSITORY

PROBLEM = """[SetUp "1"]
[FEN "W:W26,31,36:B6,17,39"]
[GameType "40"]

1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 (3... 11-16 4. 26x6) 4. 34-29 17-22
(4... 17-21 5. 26x17) 5. 26-21 22-27 (5... 22-28 6. 29x27) 6. 21x32 2-0
"""


def test_variations_keep_the_move_numbers_of_the_main_line() -> None:
    games, errors = read_pdn(PROBLEM, source="<test>")
    assert not errors
    text = _line_text(replay(games[0]).main, 0)
    assert text == (
        "1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 (3... 11-16 4. 26x6) 4. 34-29 17-22 "
        "(4... 17-21 5. 26x17) 5. 26-21 22-27 (5... 22-28 6. 29x27) 6. 21x32"
    )


def test_a_black_move_after_a_variation_of_a_white_move_gets_its_number() -> None:
    games, errors = read_pdn(
        '[SetUp "1"]\n[FEN "W:W26,31,36:B6,17,39"]\n[GameType "40"]\n\n'
        "1. 31-27 (1. 26-21 17x46) 17x37 *\n",
        source="<test>",
    )
    assert not errors
    assert _line_text(replay(games[0]).main, 0) == "1. 31-27 (1. 26-21 17x46) 1... 17x37"


def test_every_problem_has_its_pages() -> None:
    script = REPOSITORY / "scripts" / "problem_pages.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
