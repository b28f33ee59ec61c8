"""``rulebook moves``: the legal moves of positions.

    rulebook moves [--variant international|frisian] [--play "32-28 19-23 ..."] [--json] FEN...

FEN as in PDN 3.0 or ``start``.  ``--play`` plays the moves first.  With ``--json`` one object per
line per FEN: ``{"fen", "variant", "moves": [{"notation", "path", "captured"}], "result"}``, where
``fen`` is the position whose moves are listed (after ``--play``), ``moves`` is empty and
``result`` says why when the game is over by rule.  Extension: ``"played"`` lists the moves of
``--play`` as resolved.  Exit code 2 on a malformed or impossible FEN or an illegal move.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from rulebook_build.errors import RulebookError
from rulebook_build.notation import format_fen, move_notation, parse_fen, resolve_move
from rulebook_build.rules import START_FENS, VARIANTS, Game, Position, Variant, find_variant


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("fens", nargs="+", metavar="FEN", help="a position as FEN, or 'start'")
    add_variant_argument(parser)
    parser.add_argument(
        "--play", default="", metavar="MOVES", help='moves to play first, e.g. "32-28 19-23"'
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per line per FEN")


def add_variant_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default="international",
        choices=[v.name for v in VARIANTS],
        help="rule set (default: international)",
    )


def read_position(text: str, variant: Variant, source: str = "<fen>") -> Position:
    if text.strip().lower() in START_FENS:
        return Position.initial(variant)
    return parse_fen(text, variant=variant, source=source)


def run(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    status = 0
    for index, text in enumerate(args.fens, start=1):
        try:
            game = Game(read_position(text, variant, source=f"FEN {index}"))
            played = []
            for column, move_text in _words(args.play):
                try:
                    move = resolve_move(game.position, move_text)
                except RulebookError as error:
                    error.source, error.line, error.column = "--play", 1, column
                    error.source_line = args.play
                    raise
                played.append(move_notation(move, game.position.legal_moves()))
                game = game.play(move)
        except RulebookError as error:
            print(error.one_line() if args.json else str(error), file=sys.stderr)
            status = 2
            continue
        report(game, played, as_json=args.json)
    return status


def _words(text: str) -> list[tuple[int, str]]:
    """The words of ``text`` with their 1-based columns."""
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]


def report(game: Game, played: list[str], *, as_json: bool) -> None:
    position = game.position
    result = game.result()
    legal = () if result is not None else position.legal_moves()
    moves = [
        {"notation": move_notation(m, legal), "path": list(m.path), "captured": list(m.captured)}
        for m in legal
    ]
    if as_json:
        record: dict[str, object] = {
            "fen": format_fen(position),
            "variant": position.variant.name,
            "moves": moves,
            "result": result,
        }
        if played:
            record["played"] = played
        print(json.dumps(record))
        return
    side = "White" if position.white_to_move else "Black"
    print(f"{format_fen(position)}  ({position.variant.name}, {side} to move)")
    if result is not None:
        print(f"  game over: {result}")
    else:
        print(
            f"  {len(moves)} legal move{'s' if len(moves) != 1 else ''}: "
            + " ".join(str(m["notation"]) for m in moves)
        )
