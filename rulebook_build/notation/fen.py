"""FEN position strings (PDN 3.0), read liberally and written in one strict form.

Reading accepts everything the PDN 3.0 standard and lidraughts produce::

    W:W31-50:B1-20              ranges
    B:W18,24,K10:BK22,12.       kings marked with K, optional trailing "."
    W:B1,2:W45                  colour sections in any order, either missing or empty
    W:W31:B19:H0:F1             lidraughts' clock fields, ignored
    W:WK46:BK5:+232+0           Frisian king-move record (Fries Spel art. 17)

Writing gives ``W:W31,32,K45:B1,2`` (squares ascending, kings marked ``K``, no ranges)
and the Frisian king-move record only when it is not zero.

Every fault is reported with the column where it is: a square 0 or 51, a duplicate
square, a man on its own promotion row, garbage, empty input, a missing side to move.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token, Transformer, UnexpectedInput
from lark.exceptions import VisitError

from rulebook_build.errors import NotationError, PositionError, RulebookError, Said
from rulebook_build.notation._grammar import describe_fault, load_grammar
from rulebook_build.notation.messages import Choices
from rulebook_build.rules import INTERNATIONAL, Position, Variant
from rulebook_build.words import Message

__all__ = ["FenData", "format_fen", "parse_fen", "read_fen"]

FIRST_SQUARE = 1
LAST_SQUARE = 50
WHITE_PROMOTION_ROW = range(1, 6)
"""A white man on 1-5 would have been promoted (KNDB art. 3; Fries Spel art. 5)."""
BLACK_PROMOTION_ROW = range(46, 51)

_EXPECTED_NAMES: dict[str, Message | str] = {
    "COLOUR": Message.of("notation.w_or_b"),
    "UNKNOWN_TURN": "?",
    "NUMBER": Message.of("notation.a_square_number_in_brackets"),
    "ALPHASQUARE": Message.of("notation.a_square"),
    "KING": "K",
    "CLOCK": Message.of("notation.h_or_f"),
    "COLON": "':'",
    "COMMA": "','",
    "MINUS": "'-'",
    "PLUS": "'+'",
    "DOT": "'.'",
    "$END": Message.of("notation.end_of_the_fen"),
}
"""What the FEN reader expected, by the grammar's token names: a message where the name is
words, the characters themselves where it is a mark written the same in every language."""


@dataclass(frozen=True, slots=True)
class FenData:
    """What a FEN string says, checked, before it becomes a :class:`Position`.

    ``white_to_move`` is None when the FEN says ``?`` (some old PDN files do); a
    king streak is ``(count, square)`` as in :meth:`Position.from_squares`.
    """

    white_to_move: bool | None
    white_men: tuple[int, ...] = ()
    white_kings: tuple[int, ...] = ()
    black_men: tuple[int, ...] = ()
    black_kings: tuple[int, ...] = ()
    white_king_streak: tuple[int, int] = (0, 0)
    black_king_streak: tuple[int, int] = (0, 0)

    def position(
        self, variant: Variant = INTERNATIONAL, *, white_to_move: bool | None = None
    ) -> Position:
        """Build the position; ``white_to_move`` overrides (or supplies) the side to move."""
        turn = self.white_to_move if white_to_move is None else white_to_move
        if turn is None:
            raise PositionError(Message.of("notation.side_unknown"))
        return Position.from_squares(
            white_men=self.white_men,
            white_kings=self.white_kings,
            black_men=self.black_men,
            black_kings=self.black_kings,
            white_to_move=turn,
            variant=variant,
            white_king_streak=self.white_king_streak,
            black_king_streak=self.black_king_streak,
        )


# --- syntax tree -> plain values -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Piece:
    king: bool
    first: Token
    last: Token | None


@dataclass(frozen=True, slots=True)
class _Section:
    colour: Token
    pieces: tuple[_Piece, ...]


@dataclass(frozen=True, slots=True)
class _KingMoves:
    black: Token
    white: Token


@dataclass(frozen=True, slots=True)
class _Fen:
    turn: Token
    sections: tuple[_Section, ...]
    king_moves: _KingMoves | None


def _kind(token: Token) -> str:
    """A token's terminal name without the namespace ``%import`` gives it (``fen__KING``)."""
    return token.type.rsplit("__", 1)[-1]


class _FenBuilder(Transformer[Token, _Fen]):
    """Method names follow the rule and alias names of ``grammar/fen.lark``.

    Grammars that ``%import`` the FEN rule (``grammar/diagram.lark``) reuse this class
    through Lark's ``merge_transformers``.
    """

    def fen(self, children: list[object]) -> _Fen:
        turn = children[0]
        assert isinstance(turn, Token)
        sections = tuple(c for c in children if isinstance(c, _Section))
        king_moves = [c for c in children if isinstance(c, _KingMoves)]
        return _Fen(turn, sections, king_moves[-1] if king_moves else None)

    def known_turn(self, children: list[Token]) -> Token:
        return children[0]

    def unknown_turn(self, children: list[Token]) -> Token:
        return children[0]

    def colour_section(self, children: list[object]) -> _Section:
        colour, pieces = children
        assert isinstance(colour, Token)
        return _Section(colour, pieces if isinstance(pieces, tuple) else ())

    def pieces(self, children: list[_Piece]) -> tuple[_Piece, ...]:
        return tuple(children)

    def piece(self, children: list[Token]) -> _Piece:
        king = _kind(children[0]) == "KING"
        squares = children[1:] if king else children
        return _Piece(king, squares[0], squares[1] if len(squares) > 1 else None)

    def square(self, children: list[Token]) -> Token:
        return children[0]

    def clock_field(self, children: list[Token]) -> None:
        return None  # lidraughts' H (half-move clock) and F (move number): not needed

    def king_moves_field(self, children: list[Token]) -> _KingMoves:
        return _KingMoves(children[0], children[1])


# --- locating faults -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a parsed text sits in its file, to turn its positions into file positions.

    ``line``/``column`` are where the text starts; its later lines start at column
    ``indent + 1`` (a diagram block indented in a Markdown list).  ``source_line`` is the
    file's first line to show, when the text does not start it.
    """

    text: str
    source: str
    line: int
    column: int
    source_line: str | None
    indent: int = 0

    def at(self, token_line: int, token_column: int) -> tuple[int, int, str | None]:
        """File line, file column and the source line to show, for a place in the text."""
        text_lines = self.text.splitlines() or [""]
        if token_line <= 1:
            shown = self.source_line
            if shown is None and self.column == 1:
                shown = text_lines[0]
            return self.line, self.column + token_column - 1, shown
        own = text_lines[token_line - 1] if token_line <= len(text_lines) else ""
        shown = " " * self.indent + own
        return self.line + token_line - 1, self.indent + token_column, shown

    def error(
        self,
        kind: type[RulebookError],
        message: str | Said,
        token_line: int = 1,
        token_column: int = 1,
        expected: str | Said | None = None,
    ) -> RulebookError:
        line, column, shown = self.at(token_line, token_column)
        return kind(
            message,
            source=self.source,
            line=line,
            column=column,
            source_line=shown,
            expected=expected,
        )

    def token_error(
        self,
        kind: type[RulebookError],
        message: str | Said,
        token: Token,
        expected: str | Said | None = None,
    ) -> RulebookError:
        return self.error(kind, message, token.line or 1, token.column or 1, expected)


# --- reading ---------------------------------------------------------------------------


def read_fen(
    text: str,
    *,
    variant: Variant = INTERNATIONAL,
    source: str = "<fen>",
    line: int = 1,
    column: int = 1,
    source_line: str | None = None,
) -> FenData:
    """Read and check a FEN string without building a position.

    ``source``, ``line`` and ``column`` say where the FEN starts in its file, so that a
    fault is reported at its own column; ``source_line`` is the file's line to show
    under the message (by default the FEN itself when it starts a line).
    Raises :class:`NotationError` (syntax, squares) or :class:`PositionError`
    (duplicate square, man on its promotion row, bad king-move record).
    """
    where = _Where(text, source, line, column, source_line)
    if not text.strip():
        raise where.error(
            NotationError,
            Message.of("notation.empty_fen"),
            expected=Message.of("notation.side_and_pieces"),
        )
    stripped = text.lstrip()
    if stripped[0] == ":":
        offset = len(text) - len(stripped)
        raise where.error(
            NotationError,
            Message.of("notation.fen_no_side"),
            1,
            offset + 1,
            expected=Message.of("notation.w_or_b_then_colon"),
        )
    try:
        tree = load_grammar("fen", "fen").parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, where) from None
    try:
        fen = _FenBuilder().transform(tree)
    except VisitError as error:  # a fault of ours: show it, not Lark's wrapper
        raise error.orig_exc from None
    return _check(fen, where, variant)


def parse_fen(
    text: str,
    *,
    variant: Variant = INTERNATIONAL,
    source: str = "<fen>",
    line: int = 1,
    column: int = 1,
    source_line: str | None = None,
) -> Position:
    """Read a FEN string (PDN 3.0, liberal) into a :class:`Position` of ``variant``.

    Faults raise :class:`NotationError` or :class:`PositionError` located at
    ``source:line:column`` of the fault (``line``/``column`` say where the FEN starts).
    """
    data = read_fen(
        text, variant=variant, source=source, line=line, column=column, source_line=source_line
    )
    where = _Where(text, source, line, column, source_line)
    if data.white_to_move is None:
        raise where.error(
            NotationError,
            Message.of("notation.fen_unknown_side"),
            1,
            len(text) - len(text.lstrip()) + 1,
            expected=Message.of("notation.w_or_b"),
        )
    try:
        return data.position(variant)
    except PositionError as error:
        raise where.error(PositionError, error.what) from None


def _syntax_error(error: UnexpectedInput, where: _Where) -> RulebookError:
    fault = describe_fault(error, where.text)
    names = {_EXPECTED_NAMES.get(name, name) for name in fault.expected}
    expected = Choices(tuple(sorted(names, key=str))) if names else None  # by their English
    token = fault.token
    first_column = len(where.text) - len(where.text.lstrip()) + 1
    if (
        fault.line == 1
        and fault.column == first_column + 1
        and where.text.lstrip()[:1] in ("W", "B")
        and (token is None or token.type in ("NUMBER", "KING", "COLOUR"))
    ):
        return where.error(
            NotationError,
            Message.of("notation.fen_no_side_colon"),
            1,
            first_column,
            expected=Message.of("notation.side_before_pieces"),
        )
    if fault.found == "end of input":
        message = Message.of("notation.fen_ends_early")
    else:
        message = Message.of("notation.unexpected_in_fen", found=fault.found)
    return where.error(NotationError, message, fault.line, fault.column, expected)


def _square_number(token: Token, where: _Where) -> int:
    if _kind(token) == "ALPHASQUARE":
        raise where.token_error(
            NotationError,
            Message.of("notation.alphanumeric_square", square=str(token)),
            token,
            expected=Message.of("notation.a_square_number"),
        )
    number = int(token)
    if not FIRST_SQUARE <= number <= LAST_SQUARE:
        raise where.token_error(
            NotationError,
            Message.of("notation.square_does_not_exist", square=number),
            token,
            expected=Message.of("notation.a_square_number"),
        )
    return number


def _check(fen: _Fen, where: _Where, variant: Variant) -> FenData:
    turn = str(fen.turn)
    white_to_move = None if turn == "?" else turn == "W"
    seen: set[int] = set()
    pieces: dict[tuple[str, bool], list[int]] = {
        ("W", False): [],
        ("W", True): [],
        ("B", False): [],
        ("B", True): [],
    }
    for section in fen.sections:
        colour = str(section.colour)
        for piece in section.pieces:
            first = _square_number(piece.first, where)
            last = first if piece.last is None else _square_number(piece.last, where)
            if last < first:
                assert piece.last is not None
                raise where.token_error(
                    NotationError,
                    Message.of("notation.empty_range", first=first, last=last),
                    piece.last,
                    expected=Message.of("notation.a_square_from", first=first),
                )
            for square in range(first, last + 1):
                token = piece.last if square == last and piece.last is not None else piece.first
                if square in seen:
                    raise where.token_error(
                        PositionError, Message.of("notation.occupied_twice", square=square), token
                    )
                if not piece.king:
                    promotion = WHITE_PROMOTION_ROW if colour == "W" else BLACK_PROMOTION_ROW
                    if square in promotion:
                        name = "notation.white_man" if colour == "W" else "notation.black_man"
                        raise where.token_error(
                            PositionError,
                            Message.of(
                                "notation.man_crowned", colour=Message.of(name), square=square
                            ),
                            token,
                            expected=Message.of(
                                "notation.king_or_man",
                                square=square,
                                rows=f"{promotion.start}-{promotion.stop - 1}",
                            ),
                        )
                seen.add(square)
                pieces[(colour, piece.king)].append(square)
    white_streak = black_streak = (0, 0)
    if fen.king_moves is not None:
        black_streak = _king_streak(fen.king_moves.black, "B", pieces, where, variant)
        white_streak = _king_streak(fen.king_moves.white, "W", pieces, where, variant)
    return FenData(
        white_to_move=white_to_move,
        white_men=tuple(sorted(pieces[("W", False)])),
        white_kings=tuple(sorted(pieces[("W", True)])),
        black_men=tuple(sorted(pieces[("B", False)])),
        black_kings=tuple(sorted(pieces[("B", True)])),
        white_king_streak=white_streak,
        black_king_streak=black_streak,
    )


def _king_streak(
    token: Token,
    colour: str,
    pieces: dict[tuple[str, bool], list[int]],
    where: _Where,
    variant: Variant,
) -> tuple[int, int]:
    """Fries Spel art. 17: ``<count><square>`` of the king that made the last moves."""
    digits = str(token)
    count = int(digits[0])
    square = int(digits[1:]) if len(digits) > 1 else 0
    if count == 0:
        return (0, 0)
    limit = variant.max_consecutive_king_moves
    side = Message.of("notation.white_side" if colour == "W" else "notation.black_side")
    name = Message.of("notation.white_man" if colour == "W" else "notation.black_man")
    if limit is None:
        raise where.token_error(
            PositionError,
            Message.of("notation.king_record_frisian_only", record=digits),
            token,
            expected="+0",
        )
    if count > limit:
        raise where.token_error(
            PositionError,
            Message.of("notation.too_many_king_moves", side=side, count=count, limit=limit),
            token,
            expected=Message.of("notation.count_then_square", limit=limit),
        )
    if square not in pieces[(colour, True)]:
        raise where.token_error(
            PositionError,
            Message.of("notation.no_king_for_record", record=digits, colour=name, square=square),
            token,
            expected=Message.of("notation.square_of_king", colour=name, count=count),
        )
    return (count, square)


# --- writing ---------------------------------------------------------------------------


def _section(colour: str, men: tuple[int, ...], kings: tuple[int, ...]) -> str:
    items = sorted([(s, str(s)) for s in men] + [(s, f"K{s}") for s in kings])
    return colour + ",".join(text for _square, text in items)


def format_fen(position: Position) -> str:
    """The strict FEN of ``position``: ``W:W31,32,K45:B1,2``.

    Squares ascending per colour, kings marked ``K``, no ranges; the Frisian king-move
    record ``:+<black><white>`` only when one of its counts is not zero.
    """
    turn = "W" if position.white_to_move else "B"
    white = _section("W", position.squares_of("white", "man"), position.squares_of("white", "king"))
    black = _section("B", position.squares_of("black", "man"), position.squares_of("black", "king"))
    text = f"{turn}:{white}:{black}"
    white_streak = tuple(position.white_king_streak)
    black_streak = tuple(position.black_king_streak)
    if white_streak[0] or black_streak[0]:
        text += f":+{_streak_text(black_streak)}+{_streak_text(white_streak)}"
    return text


def _streak_text(streak: tuple[int, ...]) -> str:
    count, square = streak[0], streak[1]
    return f"{count}{square}" if count else "0"
