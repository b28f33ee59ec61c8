"""Diagram blocks (guides/webmasters.md, "Diagrams")."""

from __future__ import annotations

import pytest

from rulebook_build.errors import IllegalMoveError, NotationError, PositionError, RulebookError
from rulebook_build.notation.diagram import DiagramSpec, parse_diagram
from rulebook_build.notation.fen import format_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position


def test_the_example_of_contributing() -> None:
    spec = parse_diagram(
        "position: start\nvariant: international\nnumbers: yes\ncaption: Afb. 2 — De beginstand\n",
        source="docs/nl/regels/kndb-2018.md",
        first_line=12,
    )
    assert spec == DiagramSpec(
        position=Position.initial(),
        variant=INTERNATIONAL,
        numbers=True,
        caption="Afb. 2 — De beginstand",
    )


def test_every_key() -> None:
    spec = parse_diagram(
        "position: W:W31-35:B18,19\n"
        "moves: 32-28 19-23 28x19\n"
        "highlight: 28 23\n"
        "arrows: 32-28, 19-23\n"
        "numbers: no\n"
        "flip: yes\n"
        "caption: Slaan is verplicht\n",
        source="x.md",
        first_line=1,
    )
    assert format_fen(spec.position) == "W:W31,32,33,34,35:B18,19"
    assert [str(m) for m in spec.moves] == ["32-28", "19-23", "28x19"]
    assert spec.highlight == (28, 23)
    assert spec.arrows == ((32, 28), (19, 23))
    assert (spec.numbers, spec.flip) == (False, True)
    assert spec.caption == "Slaan is verplicht"
    assert len(spec.positions()) == 4


def test_keys_in_any_order_blank_lines_and_move_numbers() -> None:
    spec = parse_diagram(
        "\nvariant: frisian\n\nmoves: 1. 32-28 19-23\nposition: start\n",
        source="x.md",
        first_line=3,
    )
    assert spec.variant == FRISIAN
    assert spec.position == Position.initial(FRISIAN)
    assert len(spec.moves) == 2


def test_empty_board_and_capture_arrows() -> None:
    spec = parse_diagram("position: empty\narrows: 26x37x48", source="x.md", first_line=1)
    assert spec.position.legal_moves() == ()
    assert spec.arrows == ((26, 37), (37, 48))
    assert spec.caption is None


@pytest.mark.parametrize(
    ("text", "kind", "line", "column", "words"),
    [
        ("position: W:W31,51:B1", NotationError, 20, 17, "square 51"),
        ("position: W:W3:B1", PositionError, 20, 14, "crowned"),
        ("position: start\nmoves: 32-29", IllegalMoveError, 21, 8, "illegal move 32-29"),
        ("position: start\nfoo: bar", NotationError, 21, 1, "unknown key 'foo'"),
        ("position: start\nnonsense", NotationError, 21, 1, "not a 'key: value' line"),
        ("variant: frisian", NotationError, 20, 1, "no 'position:'"),
        ("position: start\nvariant: chess", NotationError, 21, 10, "unknown variant"),
        ("position: start\nposition: empty", NotationError, 21, 1, "twice"),
        ("position: start\nnumbers: maybe", NotationError, 21, 10, "unexpected"),
        ("position: start\nhighlight: 28 60", NotationError, 21, 15, "square 60"),
        ("position: ?:W31:B1", NotationError, 20, 11, "side to move"),
        ("position: start\narrows: 60-28", NotationError, 21, 9, "square 60"),
    ],
)
def test_errors_are_located_in_the_markdown_file(
    text: str, kind: type[RulebookError], line: int, column: int, words: str
) -> None:
    with pytest.raises(kind) as caught:
        parse_diagram(text, source="page.md", first_line=20)
    error = caught.value
    assert (error.line, error.column) == (line, column)
    assert words in error.message
    assert str(error).startswith(f"page.md:{line}:{column}: ")


def test_indented_blocks_keep_their_columns() -> None:
    with pytest.raises(NotationError) as caught:
        parse_diagram("position: start\nhighlight: 99", source="p.md", first_line=5, indent=4)
    error = caught.value
    assert (error.line, error.column) == (6, 16)
    shown, caret = str(error).splitlines()[1:3]
    assert shown == "        highlight: 99"
    assert caret.index("^") == shown.index("99")
