"""guides/reference.md's table of options for each command is the command's own: every option
argparse knows is in its table, and the table names no option argparse does not know.  A new
option is undocumented the day it is added, or a removed one still documented, and this fails."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from rulebook_build.cli import COMMANDS, build_parser

GUIDE = Path(__file__).resolve().parents[2] / "guides" / "reference.md"


def documented(command: str, text: str | None = None) -> list[str]:
    """The options in the table of the guide's section ``## rulebook <command>``."""
    text = GUIDE.read_text(encoding="utf-8") if text is None else text
    section = re.search(rf"^## rulebook {command}\n(.*?)(?=^## )", text, re.DOTALL | re.MULTILINE)
    assert section is not None, f"reference.md has no section '## rulebook {command}'"
    return re.findall(r"^\| `(--?[\w-]+)", section.group(1), re.MULTILINE)


def known(command: str) -> list[str]:
    """The long options of ``rulebook <command>`` (its help aside), as argparse has them."""
    parser = build_parser(only=command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: list[str] = []
    for action in sub.choices[command]._actions:
        if isinstance(action, argparse._HelpAction) or not action.option_strings:
            continue
        found.append(max(action.option_strings, key=len))
    return found


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_options_table_is_argparse(command: str) -> None:
    assert sorted(documented(command)) == sorted(known(command))


def test_a_missing_row_is_caught() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `--time-limit"))
    assert "--time-limit" in documented("check", text)
    assert "--time-limit" not in documented("check", text.replace(row + "\n", ""))
