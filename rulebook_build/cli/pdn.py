"""``rulebook pdn FILE... [--json]``: read PDN files, replay their games, report errors.

Every game is read; games in a variant this program plays (GameType 20 or 40, or no
GameType in a 10x10 file) are replayed against the rules engine.  One summary line per
file on standard output, the located errors (path:line:column, source line, caret) on
standard error.  With ``--json``, one JSON object per file and line instead::

    {"file": "wk2003.pdn", "games": 23, "replayed": 23, "errors": []}

Exit status: 0 when all is well, 1 when a game has an illegal move, 2 on a syntax error
or a file that cannot be read.

Files are read as a stream, a game at a time (``notation.pdn.iter_pdn_file``): the memory
used does not grow with the file, and a line on standard error (on a terminal) says every
two seconds how far reading has got.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rulebook_build.errors import IllegalMoveError, NotationError, RulebookError
from rulebook_build.notation import (
    PdnGame,
    default_variant,
    describe_gametype,
    game_variant,
    has_square,
    iter_pdn_file,
    shows_10x10,
)
from rulebook_build.notation import replay_game as replay
from rulebook_build.rules import INTERNATIONAL, Variant

EXIT_OK = 0
EXIT_ILLEGAL_MOVE = 1
EXIT_SYNTAX = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="PDN files to read")
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per file and line, no text"
    )


@dataclass(slots=True)
class FileReport:
    """What reading and replaying one file gave."""

    path: str
    games: int = 0
    replayed: int = 0
    not_replayed: dict[str, int] = field(default_factory=dict)
    errors: list[RulebookError] = field(default_factory=list)
    warnings: list[RulebookError] = field(default_factory=list)
    exit_code: int = EXIT_OK

    def fail(self, error: RulebookError, code: int) -> None:
        self.errors.append(error)
        self.exit_code = max(self.exit_code, code)

    def as_json(self) -> str:
        return json.dumps(
            {
                "file": self.path,
                "games": self.games,
                "replayed": self.replayed,
                "errors": [
                    {"line": e.line, "column": e.column, "message": e.message} for e in self.errors
                ],
            },
            ensure_ascii=False,
        )

    def summary(self) -> str:
        games = f"{self.games} game" + ("" if self.games == 1 else "s")
        parts = [games, f"{self.replayed} replayed"]
        for reason, count in sorted(self.not_replayed.items()):
            parts.append(f"{count} not replayed ({reason})")
        if self.warnings:
            parts.append(f"{len(self.warnings)} warning" + ("" if len(self.warnings) == 1 else "s"))
        if self.errors:
            parts.append(f"{len(self.errors)} error" + ("" if len(self.errors) == 1 else "s"))
        return f"{self.path}: " + ", ".join(parts)


UNDECIDED_GAMES = 1000
"""Games held while a file without GameType tags has not yet shown that it is 10x10: past
this many, the variant is decided on them (``default_variant``), so memory stays bounded."""
PROGRESS_SECONDS = 2.0


def check_file(path: str, progress: Callable[[str], None] | None = None) -> FileReport:
    """Read one file a game at a time and replay what can be replayed; ``progress`` hears
    how far it got every ``PROGRESS_SECONDS``."""
    report = FileReport(path)
    pending: list[PdnGame] = []
    default: Variant | None = None
    decided = False
    seen_square = False
    shown = time.monotonic()
    try:
        for item in iter_pdn_file(path):
            if isinstance(item, NotationError):
                report.fail(item, EXIT_SYNTAX)
                continue
            report.games += 1
            if progress is not None and time.monotonic() - shown >= PROGRESS_SECONDS:
                shown = time.monotonic()
                progress(f"{path}: {report.games:,} games read, {report.replayed:,} replayed")
            if decided:
                _replay(item, default, report)
                continue
            pending.append(item)
            seen_square = seen_square or has_square(item)
            if shows_10x10(item) or len(pending) >= UNDECIDED_GAMES:
                default = INTERNATIONAL if shows_10x10(item) else default_variant(pending)
                decided = True
                for game in pending:
                    _replay(game, default, report)
                pending = []
    except RulebookError as error:  # the file cannot be read at all
        report.fail(error, EXIT_SYNTAX)
        return report
    if not decided:
        default = None if seen_square else INTERNATIONAL
        for game in pending:
            _replay(game, default, report)
    report.errors.sort(key=lambda e: (e.line or 0, e.column or 0))
    return report


def _replay(game: PdnGame, default: Variant | None, report: FileReport) -> None:
    variant = game_variant(game, default)
    if variant is None:
        reason = describe_gametype(game)
        report.not_replayed[reason] = report.not_replayed.get(reason, 0) + 1
        return
    try:
        replayed = replay(game, variant=variant)
    except IllegalMoveError as error:
        report.fail(error, EXIT_ILLEGAL_MOVE)
    except RulebookError as error:
        report.fail(error, EXIT_SYNTAX)
    else:
        report.replayed += 1
        report.warnings.extend(replayed.warnings)


def _progress(message: str) -> None:
    print(f"\r\033[K{message}", end="", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    code = EXIT_OK
    progress = None if args.json or not sys.stderr.isatty() else _progress
    for path in args.files:
        report = check_file(path, progress)
        if progress is not None:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
        code = max(code, report.exit_code)
        if args.json:
            print(report.as_json(), flush=True)
            continue
        print(report.summary(), flush=True)
        for problem in [*report.errors, *report.warnings]:
            label = "warning: " if problem in report.warnings else ""
            text = str(problem)
            if label:
                location, _, rest = text.partition(": ")
                text = f"{location}: {label}{rest}"
            print(text, file=sys.stderr)
    return code
