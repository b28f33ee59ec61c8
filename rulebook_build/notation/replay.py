"""Replaying PDN games against the rules engine.

Each written move is resolved in its own position: ``32-28`` and ``26x48`` name a legal
move by origin and destination, ``26x37x48`` also by the squares its route passes.
A short capture that matches two different legal captures is an error that lists both in
full; an illegal move is an error naming the move, the position (FEN) and the legal moves.

Problems (games with a ``FEN`` tag) may be written as problem columns print them, with
only White's moves (``1. 35-30 2. 23-19 +``): when a written move is not legal for the
side to move and that side has exactly one legal move, that forced reply is filled in
(``ReplayedMove.inferred``); when it has several, the error names the move.

The result is a tree of resolved moves, for the problem checker::

    replayed = replay(game)
    replayed.start                    # Position before the first move
    replayed.moves()                  # the main line, engine moves
    for step in replayed.main.moves:  # ReplayedMove: move, before, after, variations
        ...

A problem is read once with :func:`replay_problem`: its start position and its solution
replayed, or why the solution cannot be played as written, from one reading of the FEN tag,
which the checker and the site hand on instead of reading the tag again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from rulebook_build.errors import IllegalMoveError, NotationError, RulebookError
from rulebook_build.notation.fen import FenData, read_fen
from rulebook_build.notation.pdn import (
    Comment,
    MoveText,
    MoveTextItem,
    Nag,
    PdnGame,
    PdnMove,
    Setup,
    Variation,
)
from rulebook_build.notation.resolve import (
    _ambiguous,
    _candidates,
    _check_squares,
    _Context,
    _illegal,
    _legal_list,
    _side,
    candidate_moves,
)
from rulebook_build.notation.resolve import notation_in as move_notation
from rulebook_build.notation.resolve import resolve_written as resolve_move
from rulebook_build.rules import INTERNATIONAL, Game, Move, Position, Variant, find_variant
from rulebook_build.words import Message

__all__ = [
    "GAMETYPE_NAMES",
    "ReplayedGame",
    "ReplayedLine",
    "ReplayedMove",
    "ReplayedProblem",
    "candidate_moves",
    "default_variant",
    "game_variant",
    "move_notation",
    "replay",
    "replay_problem",
    "resolve_move",
    "strict_game",
]

GAMETYPE_NAMES: Final = {
    20: "International draughts",
    21: "English draughts",
    22: "Italian draughts",
    23: "American pool checkers",
    24: "Spanish draughts",
    25: "Russian draughts",
    26: "Brazilian draughts",
    27: "Canadian draughts",
    28: "Portuguese draughts",
    29: "Czech draughts",
    30: "Turkish draughts",
    31: "Thai draughts",
    40: "Frisian draughts",
    41: "Spantsiretti draughts",
}
"""PDN GameType numbers (PDN 3.0, doc/gametype.rst)."""

_LAST_SQUARE_8X8: Final = 32


# --- which variant ---------------------------------------------------------------------


def game_variant(game: PdnGame, default: Variant | None = INTERNATIONAL) -> Variant | None:
    """The variant a game is played in, or None when it is not one this program plays.

    ``GameType`` 20 is International and 40 Frisian; any other GameType is None.  With
    no GameType the game is ``default`` (International unless told otherwise, see
    :func:`default_variant`), except that a game written with alphanumeric squares
    (``a3-b4``) is never 10x10.
    """
    number = game.gametype_number
    if number is not None:
        try:
            return find_variant(str(number))
        except KeyError:
            return None
    if game.gametype is not None and game.gametype.strip():
        return None
    if any(not move.is_numeric for move in game.moves.all_moves()):
        return None
    return default


def _squares_of_fen(text: str) -> list[int]:
    return [int(number) for number in re.findall(r"[0-9]+", text.split(":+")[0])]


_INTERNATIONAL_OPENINGS: Final = frozenset(
    {(31, 26), (31, 27), (32, 27), (32, 28), (33, 28), (33, 29), (34, 29), (34, 30), (35, 30)}
)
"""White's nine first moves from the International start (KNDB art. 3)."""


def default_variant(games: Iterable[PdnGame]) -> Variant | None:
    """The variant of the games of one file that carry no ``GameType`` tag.

    PDN 3.0 says International.  Files of the 8x8 variants often leave the tag out too,
    so the file must show that it is 10x10: a game with a GameType, a square above 32 (in
    a move or a FEN tag), or a game from the start position whose first move is one of
    White's nine International first moves (``32-28`` ...).  A file whose every square
    is 32 or less and which shows none of these is taken to be 8x8 draughts: None.
    A file without any square is International.
    """
    seen_square = False
    for game in games:
        if shows_10x10(game):
            return INTERNATIONAL
        seen_square = seen_square or has_square(game)
    return None if seen_square else INTERNATIONAL


def shows_10x10(game: PdnGame) -> bool:
    """Whether a game shows that its file is 10x10 (see ``default_variant``)."""
    if game.gametype_number is not None:
        return True
    fen = game.fen
    if fen is not None and any(square > _LAST_SQUARE_8X8 for square in _squares_of_fen(fen)):
        return True
    moves = game.main_line()
    if (
        fen is None
        and moves
        and moves[0].is_numeric
        and (moves[0].origin, moves[0].destination) in _INTERNATIONAL_OPENINGS
    ):
        return True
    return any(
        isinstance(square, int) and square > _LAST_SQUARE_8X8
        for move in game.moves.all_moves()
        for square in move.squares
    )


def has_square(game: PdnGame) -> bool:
    """Whether a game names any square (in its FEN tag or a move)."""
    fen = game.fen
    if fen is not None and _squares_of_fen(fen):
        return True
    return any(move.squares for move in game.moves.all_moves())


def describe_gametype(game: PdnGame) -> str:
    """``GameType 21 (English draughts)``, for messages."""
    number = game.gametype_number
    if number is None:
        if game.gametype:
            return f"GameType {game.gametype!r}"
        if any(not move.is_numeric for move in game.moves.all_moves()):
            return "alphanumeric squares, 8x8"
        return "no GameType, 8x8 squares"
    name = GAMETYPE_NAMES.get(number)
    return f"GameType {number} ({name})" if name else f"GameType {number}"


# --- the replayed tree -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReplayedMove:
    """One move of a replayed line.

    ``written`` is the move as in the file, None when it was ``inferred`` (a forced
    reply a problem column left out).  ``variations`` are the alternatives to this move,
    each starting from ``before``.  ``nags`` and ``comments`` follow the move in the file.
    """

    move: Move
    before: Position
    after: Position
    written: PdnMove | None
    variations: tuple[ReplayedLine, ...] = ()
    nags: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()

    @property
    def inferred(self) -> bool:
        return self.written is None

    @property
    def white(self) -> bool:
        """True when White made the move."""
        return self.before.white_to_move

    @property
    def notation(self) -> str:
        """The move in strict notation in its position (a full path only when needed)."""
        return move_notation(self.before, self.move)


@dataclass(frozen=True, slots=True)
class ReplayedLine:
    """A line of play (the main line or a variation) from ``start``."""

    start: Position
    moves: tuple[ReplayedMove, ...] = ()

    @property
    def end(self) -> Position:
        return self.moves[-1].after if self.moves else self.start

    def engine_moves(self) -> tuple[Move, ...]:
        return tuple(step.move for step in self.moves)

    def positions(self) -> tuple[Position, ...]:
        """``start`` and the position after every move."""
        return (self.start, *(step.after for step in self.moves))


@dataclass(frozen=True, slots=True)
class ReplayedGame:
    """A game whose moves have been resolved against the rules engine.

    ``result`` is the engine's verdict at the end of the main line (``"white wins"``,
    ``"draw: ..."``) or None when play could go on.
    """

    game: PdnGame
    variant: Variant
    start: Position
    main: ReplayedLine
    result: str | None
    warnings: tuple[RulebookError, ...] = ()
    """Faults that did not stop the replay (a short capture that only the moves after it
    tell apart), located like errors."""

    def moves(self) -> tuple[Move, ...]:
        """The main line, as engine moves."""
        return self.main.engine_moves()

    def positions(self) -> tuple[Position, ...]:
        return self.main.positions()

    @property
    def end(self) -> Position:
        return self.main.end


# --- replaying lines -------------------------------------------------------------------


def _setup_position(item: Setup, variant: Variant, game: PdnGame) -> Position:
    """The position of a setup command ``/FEN "W:W31:B1"/`` (PDN 3.0 commands)."""
    match = re.search(r'"([^"]*)"', item.text)
    start = match.start(1) if match else 0
    text = match.group(1) if match else item.text
    before = item.text[:start]
    line = item.line + before.count("\n")
    column = (item.column + 1 + start) if "\n" not in before else start - before.rfind("\n")
    data = read_fen(
        text,
        variant=variant,
        source=game.source,
        line=line,
        column=column,
        source_line=game.source_line(line),
    )
    return data.position(variant, white_to_move=data.white_to_move is not False)


_LOOKAHEAD_BUDGET: Final = 20_000
"""Moves resolved at most while reading ahead to tell which of two captures a short
notation meant (the rest of the line is read, but ambiguity upon ambiguity could
otherwise take exponential time)."""


class _Replayer:
    def __init__(self, game: PdnGame, variant: Variant, *, infer_forced: bool) -> None:
        self.game = game
        self.context = _Context(game, game.source)
        self.variant = variant
        self.infer_forced = infer_forced
        self.solver_white = True
        self.warnings: list[RulebookError] = []
        self.budget = _LOOKAHEAD_BUDGET

    def line(self, moves: MoveText, start: Position) -> ReplayedLine:
        steps: list[ReplayedMove] = []
        position = start
        line_start = start
        leading: list[ReplayedLine] = []  # variations before any move of the line
        written_moves = moves.moves()
        seen = 0
        for item in moves:
            if isinstance(item, PdnMove):
                seen += 1
                move, inferred = self.resolve(position, item, written_moves[seen:])
                if inferred is not None:
                    after = position.play(inferred)
                    steps.append(ReplayedMove(inferred, position, after, None))
                    position = after
                after = position.play(move)
                steps.append(ReplayedMove(move, position, after, item, tuple(leading)))
                leading = []
                position = after
            elif isinstance(item, Variation):
                base = steps[-1].before if steps else line_start
                variation = self.line(item.moves, base)
                if steps:
                    last = steps[-1]
                    steps[-1] = replace(last, variations=(*last.variations, variation))
                else:
                    leading.append(variation)
            elif isinstance(item, Nag) and steps:
                last = steps[-1]
                steps[-1] = replace(last, nags=(*last.nags, item.code))
            elif isinstance(item, Comment) and steps:
                last = steps[-1]
                steps[-1] = replace(last, comments=(*last.comments, item.text))
            elif isinstance(item, Setup):
                position = _setup_position(item, self.variant, self.game)
                if not steps:
                    line_start = position
        return ReplayedLine(line_start, tuple(steps))

    def may_infer(self, position: Position) -> bool:
        return self.infer_forced and position.white_to_move != self.solver_white

    def resolve(
        self, position: Position, written: PdnMove, following: Sequence[PdnMove]
    ) -> tuple[Move, Move | None]:
        """The move, and a forced reply that the text left out before it (or None)."""
        _check_squares(written, self.context)
        found = _candidates(position, written)
        if len(found) == 1:
            return found[0], None
        if found:
            return self.disambiguate(position, written, found, following), None
        if self.may_infer(position):
            replies = position.legal_moves()
            fits = [(r, m) for r in replies for m in _candidates(position.play(r), written)]
            if len(replies) == 1 and fits:
                reply = replies[0]
                moves = [m for _r, m in fits]
                if len(moves) == 1:
                    return moves[0], reply
                return self.disambiguate(position.play(reply), written, moves, following), reply
            if fits:
                side = Message.of(_side(position))
                raise self.context.error(
                    IllegalMoveError,
                    Message.of(
                        "notation.reply_missing",
                        side=side,
                        move=written.notation,
                        moves=_legal_list(replies, position),
                    ),
                    written,
                    expected=Message.of(
                        "notation.reply_written_out", side=side, move=written.notation
                    ),
                )
        raise _illegal(written, position, self.context)

    def disambiguate(
        self,
        position: Position,
        written: PdnMove,
        found: Sequence[Move],
        following: Sequence[PdnMove],
    ) -> Move:
        """The one capture of ``found`` after which the moves that follow can be played."""
        self.budget = _LOOKAHEAD_BUDGET
        fitting = [move for move in found if self.fits(position.play(move), following)]
        if len(fitting) != 1:
            raise _ambiguous(written, found, self.context)
        chosen = fitting[0]
        self.warnings.append(
            self.context.error(
                IllegalMoveError,
                Message.of(
                    "notation.ambiguous_read_as",
                    move=written.notation,
                    route=chosen.full_notation(),
                ),
                written,
                expected=Message.of("notation.full_route_pdn", route=chosen.full_notation()),
            )
        )
        return chosen

    def fits(self, position: Position, moves: Sequence[PdnMove]) -> bool:
        """True when the written ``moves`` can be played from ``position`` (or when the
        look-ahead budget runs out: then nothing can be told apart)."""
        self.budget -= 1
        if self.budget <= 0 or not moves:
            return True
        written = moves[0]
        if not written.is_numeric or not all(1 <= int(s) <= 50 for s in written.squares):
            return False
        found = _candidates(position, written)
        if not found and self.may_infer(position):
            replies = position.legal_moves()
            if len(replies) == 1:
                position = position.play(replies[0])
                found = _candidates(position, written)
        return any(self.fits(position.play(move), moves[1:]) for move in found)


def start_position(game: PdnGame, variant: Variant) -> Position:
    """The game's start position: its FEN tag (faults located in the file) or the initial one."""
    return _start_position(game, variant)[0]


def _start_position(game: PdnGame, variant: Variant) -> tuple[Position, FenData | None]:
    fen = game.fen
    if fen is None:
        return Position.initial(variant), None
    line, column = _fen_location(game)
    data = read_fen(
        fen,
        variant=variant,
        source=game.source,
        line=line or 1,
        column=column or 1,
        source_line=game.source_line(line) if line else None,
    )
    if data.white_to_move is None:
        return data.position(variant, white_to_move=True), data
    return data.position(variant), data


def _fen_location(game: PdnGame) -> tuple[int, int]:
    """Line and column of the FEN tag's value in the file, (0, 0) when unknown."""
    last = game.first_line + len(game.source_lines)
    for number in range(game.line, min(game.line + 40, last)):
        text = game.source_line(number) or ""
        match = re.search(r'\[\s*FEN\s+"', text, flags=re.IGNORECASE)
        if match:
            return number, match.end() + 1
    return 0, 0


def replay(
    game: PdnGame, *, variant: Variant | None = None, infer_forced: bool | None = None
) -> ReplayedGame:
    """Resolve every move of ``game`` (variations included) against the rules engine.

    ``variant`` defaults to :func:`game_variant`; a game in a variant this program does
    not play raises :class:`NotationError`.  ``infer_forced`` (default: for problems,
    games with a FEN) fills in forced replies a problem column left out.  A bad FEN
    raises :class:`NotationError`/:class:`PositionError`, a bad move
    :class:`IllegalMoveError`, located in the game's file.
    """
    chosen = variant if variant is not None else game_variant(game)
    if chosen is None:
        raise game.error(
            NotationError,
            Message.of("notation.not_replayed", gametype=describe_gametype(game)),
            expected=Message.of("notation.gametype_played"),
        )
    try:
        start, data = _start_position(game, chosen)
    except RulebookError as error:
        if error.line is None:
            raise game.error(
                type(error), Message.of("notation.bad_fen", fault=error.what)
            ) from None
        raise
    return _replay_from(game, chosen, start, data, infer_forced=infer_forced)


def _replay_from(
    game: PdnGame,
    chosen: Variant,
    start: Position,
    data: FenData | None,
    *,
    infer_forced: bool | None = None,
) -> ReplayedGame:
    """:func:`replay` from the start position already read from the FEN tag (``data``: what
    the tag said, None without one)."""
    replayer = _Replayer(
        game, chosen, infer_forced=game.is_problem if infer_forced is None else infer_forced
    )
    if data is not None and data.white_to_move is None:
        start = _guess_side(game, start, data, chosen)
    replayer.solver_white = start.white_to_move
    main = replayer.line(game.moves, start)
    record = Game(main.start)
    for step in main.moves:
        if step.before != record.position:  # a setup command in the main line
            record = Game(step.before)
        record = record.play(step.move)
    if main.end != record.position:
        record = Game(main.end)
    return ReplayedGame(game, chosen, main.start, main, record.result(), tuple(replayer.warnings))


@dataclass(frozen=True, slots=True)
class Unplayable:
    """Why a game's moves cannot be played as written: the error :func:`replay` raised, located
    in the file, and the written move it stands at."""

    error: RulebookError
    move: str
    """The move as a reader finds it, with its number: ``3. 37x27``, ``1... 31x41``; '' when
    the error is not at a move (a bad square in a setup, say)."""
    in_variation: bool

    def located(self) -> RulebookError:
        """The error for the command line: ``path:line:column: not judged: the solution
        cannot be played as written: move 3. 37x27: illegal move ...``, caret and all."""
        variation = " (in a variation)" if self.in_variation else ""
        named = f"move {self.move}{variation}: " if self.move else ""
        error = self.error
        return type(error)(
            f"not judged: the solution cannot be played as written: {named}{error.message}",
            source=error.source,
            line=error.line,
            column=error.column,
            source_line=error.source_line,
            expected=error.expected,
        )


def unplayable(game: PdnGame, variant: Variant | None = None) -> Unplayable | None:
    """Why ``game`` (a problem's solution, variations included) cannot be played as written,
    or None when every move can."""
    try:
        replay(game, variant=variant)
    except RulebookError as error:
        return _fault(game, error)
    return None


def _fault(game: PdnGame, error: RulebookError) -> Unplayable:
    """The :class:`Unplayable` of an error that replaying ``game`` raised."""
    found = _written_move(game.moves, error.line, error.column)
    return Unplayable(error, *(found or ("", False)))


@dataclass(frozen=True, slots=True)
class ReplayedProblem:
    """A problem read once against the rules: its start position and its solution replayed,
    or why that solution cannot be played as written (:func:`replay_problem`).

    What the checker, the command line, the check page and the site need of a problem, from
    one reading of its FEN tag: each hands this on instead of reading the tag again.
    """

    game: PdnGame
    variant: Variant
    start: Position
    """The position of the FEN tag, as :func:`start_position` gives it (a side to move of
    ``?`` read as White's); ``replayed.start`` is the one the solution is played from (the
    side of ``?`` told by the first written move)."""
    solution: ReplayedGame | Unplayable

    @property
    def replayed(self) -> ReplayedGame | None:
        """The solution replayed, or None when it cannot be played as written."""
        return self.solution if isinstance(self.solution, ReplayedGame) else None

    @property
    def unplayable(self) -> Unplayable | None:
        """Why the solution cannot be played as written, or None when it can."""
        return self.solution if isinstance(self.solution, Unplayable) else None


def replay_problem(game: PdnGame, variant: Variant) -> ReplayedProblem:
    """Read ``game``'s FEN tag once and replay its solution from that position by the rules
    of ``variant``.  A bad FEN raises :class:`NotationError`/:class:`PositionError`, located
    in the file as :func:`start_position` raises it; a move that cannot be played is no
    error here but the problem's :attr:`~ReplayedProblem.unplayable` (as :func:`unplayable`
    gives it)."""
    start, data = _start_position(game, variant)
    try:
        solution: ReplayedGame | Unplayable = _replay_from(game, variant, start, data)
    except RulebookError as error:
        solution = _fault(game, error)
    return ReplayedProblem(game, variant, start, solution)


def _written_move(
    text: MoveText, line: int | None, column: int | None, number: int = 1, black: bool = False
) -> tuple[str, bool] | None:
    """The move written at ``line``:``column``, as ``3. 37x27`` or ``3... 27x38``, and whether
    it stands in a variation; None when no move is there.  A move without its number written
    takes it from the moves before it."""
    before = (number, black)  # the number and side of the move a variation replaces
    for item in text:
        if isinstance(item, PdnMove):
            if item.number is not None:
                number, black = item.number, item.black
            before = (number, black)
            if (item.line, item.column) == (line, column):
                return f"{number}{'...' if black else '.'} {item.notation}", False
            number, black = (number, True) if not black else (number + 1, False)
        elif isinstance(item, Variation):
            found = _written_move(item.moves, line, column, *before)
            if found is not None:
                return found[0], True
    return None


def _guess_side(game: PdnGame, white: Position, data: FenData, variant: Variant) -> Position:
    """FEN ``?``: the side whose move the first written move is."""
    moves = game.main_line()
    black = data.position(variant, white_to_move=False)
    if not moves:
        return white
    if moves[0].black:
        return black
    try:
        resolve_move(white, moves[0])
        return white
    except RulebookError:
        pass
    try:
        resolve_move(black, moves[0])
        return black
    except RulebookError:
        return white


# --- strict rewriting ------------------------------------------------------------------


def _strict_line(line: ReplayedLine, original: MoveText) -> MoveText:
    items: list[MoveTextItem] = []
    for step in line.moves:
        notation = step.notation
        capture = step.move.is_capture
        squares: tuple[int, ...] = tuple(int(s) for s in notation.replace("x", "-").split("-"))
        written = step.written
        items.append(
            PdnMove(
                squares=squares,
                capture=capture,
                strength=written.strength if written else None,
                line=written.line if written else 0,
                column=written.column if written else 0,
            )
        )
        items.extend(Nag(code) for code in step.nags)
        items.extend(Comment(text) for text in step.comments)
        for variation in step.variations:
            items.append(Variation(_strict_line(variation, MoveText())))
    leading = [item for item in original.items[:1] if isinstance(item, Comment)]
    return MoveText((*leading, *items))


def strict_game(replayed: ReplayedGame) -> PdnGame:
    """The game with every move in strict notation (inferred replies written out).

    Moves become ``origin-destination`` / ``originxdestination``, with the full route
    only where two legal captures share both ends (PDN 3.0 writing rules).  NAGs and
    comments after a move are kept; setup commands are not.
    """
    moves = _strict_line(replayed.main, replayed.game.moves)
    return replace(replayed.game, moves=moves)


def line_text(line: ReplayedLine, first_ply: int) -> str:
    """A line with move numbers and its variations in brackets.

    ``first_ply`` counts the plies before the line's first move (0: White's first move of
    move 1); a variation replaces a move, so it starts at that move's ply.
    """
    words: list[str] = []
    number_black = True  # a Black move gets "N..." at the start and after a variation
    for index, step in enumerate(line.moves):
        ply = first_ply + index
        number = ply // 2 + 1
        if step.white:
            words.append(f"{number}. {step.notation}")
        elif number_black:
            words.append(f"{number}... {step.notation}")
        else:
            words.append(step.notation)
        number_black = bool(step.variations)
        for variation in step.variations:
            words.append("(" + line_text(variation, ply) + ")")
    return " ".join(words)
