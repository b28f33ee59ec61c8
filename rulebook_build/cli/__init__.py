"""The ``rulebook`` command.

Each subcommand lives in its own module of this package and provides two functions::

    def add_arguments(parser: argparse.ArgumentParser) -> None
    def run(args: argparse.Namespace) -> int

Modules are imported only when their command runs, so a slow import (MkDocs, the checker)
never slows down ``rulebook moves``.  Every ``RulebookError`` is printed as a located message
and ends the program with exit code 2 (or the code the command chose); no traceback reaches
the user.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

from rulebook_build import __version__
from rulebook_build.errors import RulebookError

# command name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "moves": ("rulebook_build.cli.moves", "list the legal moves of positions (FEN or 'start')"),
    "perft": ("rulebook_build.cli.perft", "count the move tree of a position to a depth"),
    "pdn": ("rulebook_build.cli.pdn", "read PDN files, replay their games, report errors"),
    "check": ("rulebook_build.cli.check", "judge draughts problems (Problemistenwedstrijd)"),
    "tables": (
        "rulebook_build.cli.tables",
        "build, verify, export and install the checker's endgame tables",
    ),
    "build": ("rulebook_build.cli.build", "build the website, every language, strictly"),
    "diagram": ("rulebook_build.cli.diagram", "export a board diagram as SVG, PNG or GIF"),
    "similar": ("rulebook_build.cli.similar", "look for anticipations: problems and games alike"),
}


def _load(name: str) -> object:
    module_name = COMMANDS[name][0]
    return importlib.import_module(module_name)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulebook",
        description="Draughts rulebooks, notation and problems (International and Frisian).",
    )
    parser.add_argument("--version", action="version", version=f"rulebook {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (_module, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            try:
                module = _load(name)
            except ModuleNotFoundError:
                continue
            module.add_arguments(command_parser)  # type: ignore[attr-defined]
    return parser


def _refuse_lost_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse an option whose value argparse lost: Python 3.11's reads ``--moves=--`` (or
    ``--moves -- x``) as an empty list, where every command expects one text (exit 2, as for
    any option without its value)."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command_parser = commands.choices[args.command]
    for action in command_parser._actions:
        if not action.option_strings or action.nargs is not None:
            continue
        value = getattr(args, action.dest, None)
        if isinstance(action, argparse._AppendAction):
            lost = isinstance(value, list) and any(isinstance(item, list) for item in value)
        else:
            lost = isinstance(value, list)
        if lost:
            command_parser.error(f"argument {'/'.join(action.option_strings)}: expected one value")


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in arguments if not a.startswith("-")), None)
    only = command if command in COMMANDS else None
    if only is not None:
        try:
            _load(only)
        except ModuleNotFoundError as error:
            if error.name and error.name.startswith("rulebook_build"):
                print(f"rulebook: the '{only}' command is not available yet", file=sys.stderr)
                return 2
            raise
    parser = build_parser(only=only if only is not None else "")
    args = parser.parse_args(arguments)
    _refuse_lost_values(parser, args)
    module = _load(args.command)
    try:
        code: int = module.run(args)  # type: ignore[attr-defined]
    except RulebookError as error:
        print(str(error), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rulebook: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (``| head``): what the command would have said is unknown, so
        # say neither success nor an input error; 141 is what a shell reports for SIGPIPE
        # (without a real file descriptor, in an embedding program, there is nothing to flush)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as error:
        # a full disk, a read-only folder, a file gone meanwhile: what the system said, and
        # where, as a command's own input errors are said (each command says most of them
        # itself, with what it was doing; this is for the rest)
        where = error.filename2 or error.filename
        said = f"rulebook {args.command}: {error.strerror or error}"
        print(said + (f": {where}" if where else ""), file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
