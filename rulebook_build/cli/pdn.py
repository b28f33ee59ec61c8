"""``rulebook pdn FILE... [--json]``: read PDN files, replay their games, report errors.

Every game is read; games in a variant this program plays (GameType 20 or 40, or no
GameType in a 10x10 file) are replayed against the rules engine.  One summary line per
file on standard output, the located errors (path:line:column, source line, caret) on
standard error.  With ``--json``, one JSON object per file and line instead::

    {"file": "wk2003.pdn", "games": 23, "replayed": 23, "errors": []}

Exit status: 0 when all is well, 1 when a game has an illegal move, 2 on a syntax error
or a file that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field

from rulebook_build.errors import IllegalMoveError, RulebookError
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.notation.replay import default_variant, describe_gametype, game_variant, replay

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


def check_file(path: str) -> FileReport:
    """Read one file and replay what can be replayed."""
    report = FileReport(path)
    try:
        games, errors = read_pdn_file(path)
    except RulebookError as error:
        report.fail(error, EXIT_SYNTAX)
        return report
    report.games = len(games)
    for syntax_error in errors:
        report.fail(syntax_error, EXIT_SYNTAX)
    default = default_variant(games)
    for game in games:
        variant = game_variant(game, default)
        if variant is None:
            reason = describe_gametype(game)
            report.not_replayed[reason] = report.not_replayed.get(reason, 0) + 1
            continue
        try:
            replayed = replay(game, variant=variant)
        except IllegalMoveError as error:
            report.fail(error, EXIT_ILLEGAL_MOVE)
        except RulebookError as error:
            report.fail(error, EXIT_SYNTAX)
        else:
            report.replayed += 1
            report.warnings.extend(replayed.warnings)
    report.errors.sort(key=lambda e: (e.line or 0, e.column or 0))
    return report


def run(args: argparse.Namespace) -> int:
    code = EXIT_OK
    for path in args.files:
        report = check_file(path)
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
