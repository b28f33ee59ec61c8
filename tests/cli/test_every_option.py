"""Every option of every ``rulebook`` command, given hostile values: exit 2 naming the option, or
a normal exit, and never a traceback.

The options are listed from the parser itself (``build_parser``'s actions), so an option added
to any command is tried here the day it is added.  Each option gets its share of
``EXAMPLES``, with up to two other options of its command beside it.  Commands are run in this
process (``main``), with positional arguments that stop them early (a missing file, a FEN that is
no position) and the entry points that would start long work replaced (a table build, a site
build, a cluster's connection), so that a value the option accepts costs milliseconds; the cache
is a temporary folder, never the user's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook_build.cachedir import ENVIRONMENT
from rulebook_build.cli import COMMANDS, build_parser, main
from rulebook_build.errors import RulebookError

EXAMPLES = 1000
"""Examples in all, shared out among the options."""

FOLDER, FILE, MISSING = "<a folder>", "<a file>", "<a missing file>"
"""Stand-ins, replaced in each example by paths in its own temporary folder."""

HOSTILE = [
    *("nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e999", "-1e999"),
    *("-1", "-5", "0", "-0", "0.0", "1", "2", "4", "5", "6", "7", "64", "65", "1024", "1025"),
    *("0.001", "1.5", "86400", "86401", "1e3", "0x10", "1_000", "\u0663", "\uff11"),
    *("99999999999999999999", "9" * 5000, "", " ", "\t", "\n"),
    *("\u00e9", "\u65e5\u672c\u8a9e", "\u202e", "\udcff", "x" * 5000),
    *("--", "-", "--help", "international", "frisian", "svg", "png", "nl"),
    *("tcp://127.0.0.1:1", "tcp://", "://", "tcp://h\u00e9:1", "host:port"),
    *("W:W99", "empty", "x.pdn", "x.svg", "a/b/c"),
    *(FOLDER, FILE, MISSING),
]


def inside(text: str) -> bool:
    """Whether ``text``, as a path, stays in the example's own folder (the working folder): a
    valid ``--export /`` or ``--in /`` would write to, or read, the whole machine."""
    return not text.startswith(("/", "~")) and ".." not in text


VALUES = st.sampled_from(HOSTILE) | st.text(
    st.characters(blacklist_characters="\x00"), max_size=12
).filter(inside)
"""No NUL: no command line holds one (the system ends each argument at it)."""

EARLY_STOP = {
    "moves": ["W:W99"],  # no such square: exit 2 before any move is listed
    "perft": ["W:W99"],
    "pdn": [MISSING],
    "check": [MISSING],  # no problem to judge: no table is built, no search started
    "diagram": ["W:W99"],
    "similar": [MISSING],
}
"""Positional arguments that end each command early, whatever its options."""

REQUIRED = {"perft": {"--depth": "1"}}
"""A valid value for each required option, when another option is being tried."""


def every_option() -> list[tuple[str, argparse.Action]]:
    """(command, action) for every argument of every command but ``--help``."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for name, command in commands.choices.items():
        for action in command._actions:
            if not isinstance(action, argparse._HelpAction):
                found.append((name, action))
    return found


OPTIONS = every_option()


def label(item: tuple[str, argparse.Action]) -> str:
    command, action = item
    return f"{command} {'/'.join(action.option_strings) or action.dest}"


def test_every_command_and_option_is_listed() -> None:
    listed = {command for command, _ in OPTIONS}
    assert listed == set(COMMANDS)
    names = {label(item) for item in OPTIONS}
    assert {"check --time-limit", "tables --jobs", "build --out", "diagram --size"} <= names
    assert "perft fen" in names and "check files" in names  # the positional ones too


def takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0


def refused_by(action: argparse.Action, value: str) -> bool:
    """Whether argparse must refuse ``value`` for ``action`` (its type or its choices)."""
    if not takes_value(action):
        return False
    if value == "--":  # argparse loses it (an empty list): main refuses that
        return action.nargs is None
    try:
        converted = action.type(value) if callable(action.type) else value
    except (argparse.ArgumentTypeError, ValueError, TypeError):
        return True
    return action.choices is not None and converted not in action.choices


def argument(action: argparse.Action, value: str) -> list[str]:
    """The words that give ``action`` the ``value`` (``--option=value``, so that a value that
    starts with '-' is still a value)."""
    if not action.option_strings:
        return []  # a positional: placed after '--' by ``command_line``
    option = action.option_strings[-1]
    return [f"{option}={value}"] if takes_value(action) else [option]


def command_line(
    command: str, tried: list[tuple[argparse.Action, str]]
) -> tuple[list[str], list[str]]:
    """The command line, and its positional words."""
    options: list[str] = []
    positionals = list(EARLY_STOP.get(command, []))
    given = set()
    for action, value in tried:
        if action.option_strings:
            options += argument(action, value)
            given.add(action.option_strings[-1])
        else:  # a positional: the hostile value in its place
            positionals = [value]
    for option, value in REQUIRED.get(command, {}).items():
        if option not in given:
            options.append(f"{option}={value}")
    return [command, *options, *(["--", *positionals] if positionals else [])], positionals


@contextlib.contextmanager
def sandbox(folder: Path) -> Iterator[dict[str, Path]]:
    """A working folder and a cache of their own, and the environment as it was afterwards."""
    saved_environment = dict(os.environ)
    saved_folder = os.getcwd()
    (folder / "a folder").mkdir()
    (folder / "a file.pdn").write_text('[Event "x"]\n\n1. 32-28 *\n', encoding="utf-8")
    (folder / "cache").mkdir()
    os.environ[ENVIRONMENT] = str(folder / "cache")
    os.chdir(folder)
    try:
        yield {
            FOLDER: folder / "a folder",
            FILE: folder / "a file.pdn",
            MISSING: folder / "missing" / "nothing.pdn",
        }
    finally:
        os.chdir(saved_folder)
        os.environ.clear()
        os.environ.update(saved_environment)


def run(arguments: list[str]) -> tuple[int, str]:
    """The exit code of ``rulebook ARGUMENTS`` in this process, and its standard error."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(arguments)
        except SystemExit as stop:  # argparse: a usage message and exit 2 (or --help: 0)
            code = stop.code if isinstance(stop.code, int) else 2
    return code, err.getvalue()


@pytest.fixture(autouse=True)
def no_long_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a valid value would start that takes minutes: replaced by a record of it."""
    import rulebook_build.cli.check
    import rulebook_build.cli.tables
    import rulebook_build.site.builder

    def build_tables(*arguments: Any, **options: Any) -> None:
        print("(a table build would start here)", file=sys.stderr)

    def build_site(config: Path, out: Path | None = None, **options: Any) -> Any:
        if not config.is_file():
            raise RulebookError("no such configuration", source=str(config))
        return rulebook_build.site.builder.BuildReport(out or Path("site"), 0, 0.0, 0)

    def connect(stack: object, address: str) -> Any:
        raise RulebookError(f"--cluster {address}: no scheduler answers there (test)")

    monkeypatch.setattr(rulebook_build.cli.tables, "build_tables", build_tables)
    monkeypatch.setattr(rulebook_build.site.builder, "build_site", build_site)
    monkeypatch.setattr(rulebook_build.cli.check, "connect", connect)
    monkeypatch.setattr(rulebook_build.cli.tables, "connect", connect)


def _strategy(command: str, main_action: argparse.Action) -> st.SearchStrategy[Any]:
    others = [a for c, a in OPTIONS if c == command and a is not main_action]
    extra = (
        st.lists(st.tuples(st.sampled_from(others), VALUES), max_size=2) if others else st.just([])
    )
    return st.tuples(VALUES, extra)


@pytest.mark.parametrize("item", OPTIONS, ids=label)
def test_hostile_values_exit_2_naming_the_option_or_run_never_a_traceback(
    item: tuple[str, argparse.Action],
) -> None:
    command, action = item

    @settings(
        max_examples=math.ceil(EXAMPLES / len(OPTIONS)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
        derandomize=bool(os.environ.get("CI")),  # CI: the same examples every run
    )
    @given(_strategy(command, action))
    def one(drawn: tuple[str, list[tuple[argparse.Action, str]]]) -> None:
        value, extra = drawn
        with tempfile.TemporaryDirectory() as folder, sandbox(Path(folder)) as paths:

            def real(text: str) -> str:
                return str(paths[text]) if text in paths else text

            tried = [(action, real(value)), *((a, real(v)) for a, v in extra)]
            arguments, _ = command_line(command, tried)
            last = {a: v for a, v in tried}  # an option given twice: the last value counts
            refused = [
                (a, v)
                for a, v in tried
                if a.option_strings and refused_by(a, v) and (v != "--" or last[a] == "--")
            ]
            code, err = run(arguments)
        assert "Traceback" not in err, (arguments, err)
        assert code in (0, 1, 2), (arguments, code, err)
        if refused:
            # a value its type or choices refuse: argparse stops, naming an option refused
            assert code == 2, (arguments, err)
            assert "error: argument " in err, (arguments, err)
            named = [o for a, _ in refused for o in a.option_strings]
            shown = err.split("error: argument ", 1)[1]
            if ": not allowed with argument " in shown:
                # two options of a mutually exclusive group (build --pdf, --no-pdf): argparse
                # names that conflict first, and both options are on the command line
                first, second = shown.split(": not allowed with argument ", 1)
                for option in (first.split("/")[0], second.split()[0]):
                    assert any(a == option or a.startswith(f"{option}=") for a in arguments)
                return
            assert set(shown.split(": ", 1)[0].split("/")) & set(named), (arguments, err)

    one()
