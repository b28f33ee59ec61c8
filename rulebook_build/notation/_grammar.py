"""Loading the Lark grammars of ``grammar/`` and turning Lark's errors into ours.

Only the notation layer imports :mod:`lark`; no Lark exception leaves this package.
Grammars live in the top-level ``grammar/`` folder of the project, their one source; a wheel
carries them as ``rulebook_build/grammar/`` (``pyproject.toml`` maps that folder there). They
are compiled once per process (LALR, contextual lexer), on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lark import Lark, Token, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken


def _grammar_dir() -> Path:
    """Where the ``.lark`` files are: inside the package when installed from a wheel, the
    project's ``grammar/`` folder when run from the source tree (or an editable install)."""
    package = Path(__file__).resolve().parents[1]
    installed = package / "grammar"
    return installed if (installed / "pdn.lark").is_file() else package.parent / "grammar"


GRAMMAR_DIR = _grammar_dir()


@cache
def load_grammar(name: str, start: str) -> Lark:
    """The compiled LALR parser of ``grammar/<name>.lark`` for the rule ``start``."""
    return Lark.open(
        str(GRAMMAR_DIR / f"{name}.lark"),
        parser="lalr",
        lexer="contextual",
        start=start,
        maybe_placeholders=True,
        propagate_positions=False,
    )


@dataclass(frozen=True, slots=True)
class SyntaxFault:
    """Where and why Lark stopped, in the coordinates of the parsed text (1-based)."""

    line: int
    column: int
    found: str
    """What was found there: ``"'x'"``, ``"end of input"``."""
    expected: frozenset[str]
    """Terminal names Lark would have accepted (possibly empty)."""
    token: Token | None


def end_position(text: str) -> tuple[int, int]:
    """Line and column just after the last non-blank character of ``text``."""
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    last_newline = stripped.rfind("\n")
    column = len(stripped) - last_newline
    return line, column


def describe_fault(error: UnexpectedInput, text: str) -> SyntaxFault:
    """Translate any Lark ``UnexpectedInput`` into a :class:`SyntaxFault`.

    ``UnexpectedEOF`` and the ``$END`` token carry no usable position (line -1), so
    the end of the text is used instead.
    """
    if isinstance(error, UnexpectedToken):
        token = error.token
        expected = frozenset(error.expected)
        if token.type == "$END" or token.line is None or token.line < 1:
            line, column = end_position(text)
            return SyntaxFault(line, column, "end of input", expected, None)
        return SyntaxFault(token.line, token.column or 1, f"{str(token)!r}", expected, token)
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        character = text[position] if 0 <= position < len(text) else ""
        expected = frozenset(error.allowed or ())
        return SyntaxFault(error.line, error.column, f"{character!r}", expected, None)
    if isinstance(error, UnexpectedEOF):
        line, column = end_position(text)
        return SyntaxFault(line, column, "end of input", frozenset(error.expected), None)
    line = error.line if error.line and error.line > 0 else 1
    column = error.column if error.column and error.column > 0 else 1
    return SyntaxFault(line, column, "unexpected input", frozenset(), None)
