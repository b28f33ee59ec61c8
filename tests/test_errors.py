"""Located error messages: the line, a caret under the fault, and only an excerpt of a long line."""

from __future__ import annotations

from rulebook_build.errors import SHOWN_WIDTH, RulebookError


def test_a_short_line_is_shown_whole_with_the_caret_under_the_fault() -> None:
    error = RulebookError("bad move", source="a.pdn", line=2, column=4, source_line="1. 99-12\n")
    assert str(error).splitlines() == ["a.pdn:2:4: bad move", "    1. 99-12", "       ^"]


def test_a_long_line_is_cut_around_the_fault_and_the_caret_still_points_at_it() -> None:
    line = "1. 32-28 " * 200 + "XX" + " 19-23" * 200
    column = line.index("XX") + 1
    error = RulebookError("unexpected XX", source="b.pdn", line=1, column=column, source_line=line)
    _, shown, caret = str(error).splitlines()
    assert len(shown) <= 4 + SHOWN_WIDTH + 6
    assert shown.startswith("    ...") and shown.endswith("...")
    assert shown[caret.index("^") : caret.index("^") + 2] == "XX"
