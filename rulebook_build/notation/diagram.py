"""Diagram blocks of the site's Markdown pages (syntax in guides/webmasters.md, "Diagrams").

::

    position: W:W31,32,K45:B18,19
    variant: international
    moves: 32-28 19-23 28x19
    highlight: 28 23
    arrows: 32-28 19-23
    numbers: yes
    flip: no
    caption: Afb. 2 — De beginstand

:func:`parse_diagram` reads a block with ``grammar/diagram.lark`` (which imports the FEN
and move grammars), checks the position and resolves the moves against the rules
engine.  Every fault is a :class:`NotationError`, :class:`PositionError` or
:class:`IllegalMoveError` located at its line and column in the Markdown file.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import VisitError
from lark.visitors import merge_transformers

from rulebook_build.errors import NotationError, RulebookError
from rulebook_build.notation._grammar import GRAMMAR_DIR, describe_fault
from rulebook_build.notation.fen import _check, _Fen, _FenBuilder, _Where
from rulebook_build.notation.messages import Choices
from rulebook_build.notation.pdn import PdnMove, decode_move_token
from rulebook_build.notation.replay import resolve_move
from rulebook_build.rules import INTERNATIONAL, Move, Position, Variant, find_variant
from rulebook_build.words import Message

__all__ = ["DIAGRAM_KEYS", "DiagramSpec", "parse_diagram"]

DIAGRAM_KEYS: Final = (
    "position",
    "variant",
    "moves",
    "highlight",
    "arrows",
    "numbers",
    "flip",
    "caption",
)


@dataclass(frozen=True, slots=True)
class DiagramSpec:
    """What a diagram block asks for, checked against the rules.

    ``position`` is the position before ``moves`` (each a legal move of the position it
    is played in); ``highlight`` squares to mark; ``arrows`` (from, to) pairs, a capture
    route ``26x37x48`` giving one arrow per leg; ``numbers`` prints the square numbers,
    ``flip`` shows the board from Black's side.
    """

    position: Position
    variant: Variant = INTERNATIONAL
    moves: tuple[Move, ...] = ()
    highlight: tuple[int, ...] = ()
    arrows: tuple[tuple[int, int], ...] = ()
    numbers: bool = False
    flip: bool = False
    caption: str | None = None

    def positions(self) -> tuple[Position, ...]:
        """The position and the one after each move."""
        result = [self.position]
        for move in self.moves:
            result.append(result[-1].play(move))
        return tuple(result)


_TRUE: Final = frozenset({"yes", "true", "on"})


@dataclass(frozen=True, slots=True)
class _Entry:
    key: Token
    values: tuple[object, ...]


class _DiagramBuilder(Transformer[Token, list[_Entry]]):
    """Method names follow the rules of ``grammar/diagram.lark``."""

    def start(self, children: list[_Entry]) -> list[_Entry]:
        return list(children)

    def fen(self, children: list[object]) -> _Fen:
        return _FenBuilder().fen(children)

    def _entry(self, children: list[object]) -> _Entry:
        key = children[0]
        assert isinstance(key, Token)
        return _Entry(key, tuple(c for c in children[1:] if c is not None))

    position = variant = moves = highlight = arrows = numbers = flip = caption = _entry


_PARSER: Lark | None = None


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        _PARSER = Lark.open(
            str(GRAMMAR_DIR / "diagram.lark"),
            parser="lalr",
            lexer="contextual",
            start="start",
            maybe_placeholders=True,
        )
    return _PARSER


_EXPECTED_NAMES: Final[dict[str, Message | str]] = {
    "POSITION_KEY": "position:",
    "VARIANT_KEY": "variant:",
    "MOVES_KEY": "moves:",
    "HIGHLIGHT_KEY": "highlight:",
    "ARROWS_KEY": "arrows:",
    "NUMBERS_KEY": "numbers:",
    "FLIP_KEY": "flip:",
    "CAPTION_KEY": "caption:",
    "START": "start",
    "EMPTY": "empty",
    "SWITCH": Message.of("notation.yes_or_no"),
    "MOVE": Message.of("notation.a_move_example"),
    "MOVENUMBER": Message.of("notation.a_move_number"),
    "NUMBER": Message.of("notation.a_square_number_plain"),
    "VALUE": Message.of("notation.a_value"),
    "COLON": "':'",
    "COMMA": "','",
    "_NL": Message.of("notation.the_end_of_the_line"),
    "$END": Message.of("notation.the_end_of_the_block"),
}
"""What the diagram reader expected, by the grammar's token names: a message where the name is
words; the keys, the keywords and the marks as they are written."""


def _expected(names: frozenset[str]) -> Choices | None:
    readable: set[Message | str] = set()
    for name in names:
        short = name.rsplit("__", 1)[-1]
        if short in ("COLOUR", "UNKNOWN_TURN"):
            readable.add(Message.of("notation.a_fen_example"))
        else:
            readable.add(_EXPECTED_NAMES.get(short, short.lower()))
    return Choices(tuple(sorted(readable, key=str))) if readable else None  # by their English


def parse_diagram(
    text: str, *, source: str = "<diagram>", first_line: int = 1, indent: int = 0
) -> DiagramSpec:
    """Read and check one diagram block.

    ``text`` is the block's content (without the fence lines); ``first_line`` the file
    line of its first line and ``indent`` the number of columns it is indented by in the
    file, so that errors point at the right place in the Markdown file.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    first = text.split("\n", 1)[0]
    where = _Where(text, source, first_line, indent + 1, " " * indent + first, indent)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text, where) from None
    transformer = merge_transformers(_DiagramBuilder(), fen=_FenBuilder())  # type: ignore[no-untyped-call]
    try:
        entries = transformer.transform(tree)
    except VisitError as error:  # a fault of ours: show it, not Lark's wrapper
        raise error.orig_exc from None
    assert isinstance(entries, list)
    return _build(entries, where)


def _syntax_error(error: UnexpectedInput, text: str, where: _Where) -> RulebookError:
    fault = describe_fault(error, text)
    lines = text.split("\n")
    line_text = lines[fault.line - 1] if 0 < fault.line <= len(lines) else ""
    at_line_start = not line_text[: fault.column - 1].strip()
    if at_line_start and line_text.strip():
        word = line_text.strip().split(":", 1)[0].strip()
        if ":" not in line_text:
            message = Message.of("notation.not_key_value", line=line_text.strip())
        else:
            message = Message.of("notation.unknown_key", key=word)
        return where.error(
            NotationError,
            message,
            fault.line,
            fault.column,
            expected=Message.of("notation.one_of_the_keys", keys=", ".join(DIAGRAM_KEYS)),
        )
    message = Message.of("notation.unexpected_in_diagram", found=fault.found)
    return where.error(NotationError, message, fault.line, fault.column, _expected(fault.expected))


def _squares(token: Token, where: _Where) -> tuple[int, ...]:
    squares, _capture = decode_move_token(str(token))
    numbers: list[int] = []
    for square in squares:
        if not isinstance(square, int) or not 1 <= square <= 50:
            raise where.token_error(
                NotationError,
                Message.of("notation.square_does_not_exist", square=square),
                token,
                expected=Message.of("notation.square_numbers"),
            )
        numbers.append(square)
    return tuple(numbers)


def _build(entries: list[_Entry], where: _Where) -> DiagramSpec:
    by_key: dict[str, _Entry] = {}
    for entry in entries:
        key = str(entry.key).lower()
        if key in by_key:
            first = by_key[key].key
            raise where.token_error(
                NotationError,
                Message.of("notation.key_twice", key=key, line=where.at(first.line or 1, 1)[0]),
                entry.key,
                expected=Message.of("notation.each_key_once"),
            )
        by_key[key] = entry
    if "position" not in by_key:
        raise where.error(
            NotationError,
            Message.of("notation.no_position"),
            1,
            1,
            expected=Message.of("notation.position_values"),
        )

    variant = INTERNATIONAL
    if "variant" in by_key:
        token = by_key["variant"].values[0]
        assert isinstance(token, Token)
        try:
            variant = find_variant(str(token).strip())
        except KeyError:
            raise where.token_error(
                NotationError,
                Message.of("notation.unknown_variant", name=str(token).strip()),
                token,
                expected=Message.of("notation.variant_names"),
            ) from None

    position = _position(by_key["position"], where, variant)
    moves = _moves(by_key.get("moves"), where, position)

    highlight: list[int] = []
    if "highlight" in by_key:
        for token in by_key["highlight"].values:
            assert isinstance(token, Token)
            if str(token) == ",":
                continue
            number = int(token)
            if not 1 <= number <= 50:
                raise where.token_error(
                    NotationError,
                    Message.of("notation.square_does_not_exist", square=number),
                    token,
                    expected=Message.of("notation.square_numbers"),
                )
            highlight.append(number)

    arrows: list[tuple[int, int]] = []
    if "arrows" in by_key:
        for token in by_key["arrows"].values:
            assert isinstance(token, Token)
            if str(token) == ",":
                continue
            squares = _squares(token, where)
            arrows.extend(itertools.pairwise(squares))

    caption: str | None = None
    if "caption" in by_key and by_key["caption"].values:
        caption = str(by_key["caption"].values[0]).strip() or None

    return DiagramSpec(
        position=position,
        variant=variant,
        moves=moves,
        highlight=tuple(highlight),
        arrows=tuple(arrows),
        numbers=_switch(by_key.get("numbers")),
        flip=_switch(by_key.get("flip")),
        caption=caption,
    )


def _switch(entry: _Entry | None) -> bool:
    if entry is None or not entry.values:
        return False
    return str(entry.values[0]).lower() in _TRUE


def _position(entry: _Entry, where: _Where, variant: Variant) -> Position:
    value = entry.values[0]
    if isinstance(value, Token):
        if str(value).lower() == "start":
            return Position.initial(variant)
        return Position.from_squares(variant=variant)
    assert isinstance(value, _Fen)
    data = _check(value, where, variant)
    if data.white_to_move is None:
        raise where.token_error(
            NotationError,
            Message.of("notation.fen_unknown_side"),
            value.turn,
            expected=Message.of("notation.w_or_b"),
        )
    try:
        return data.position(variant)
    except RulebookError as error:
        raise where.token_error(type(error), error.what, value.turn) from None


def _moves(entry: _Entry | None, where: _Where, position: Position) -> tuple[Move, ...]:
    if entry is None:
        return ()
    played: list[Move] = []
    for token in entry.values:
        assert isinstance(token, Token)
        if token.type == "MOVENUMBER":
            continue
        squares, capture = decode_move_token(str(token))
        line, column, shown = where.at(token.line or 1, token.column or 1)
        written = PdnMove(squares, capture, line=line, column=column)
        move = resolve_move(position, written, source=where.source, source_line=shown)
        played.append(move)
        position = position.play(move)
    return tuple(played)
