"""One error hierarchy for the whole project.

Every error a user can cause (bad FEN, bad PDN, illegal move, missing file) is a
``RulebookError``.  It carries an optional location and renders as::

    path:line:column: message
        the offending source line
               ^
    expected: ...

The command-line interface prints ``str(error)`` and exits non-zero; no traceback.
"""

from __future__ import annotations

from typing import Protocol


class Said(Protocol):
    """A message id with its arguments (``words.Message``), which can be said in a language.

    An error raised with one keeps it, so that a page shows the error in its own language from
    the id and arguments, never by translating the English after the fact."""

    @property
    def id(self) -> str: ...

    def said(self, lang: str = ...) -> str: ...


class RulebookError(Exception):
    """Base of every error the project reports to a person."""

    def __init__(
        self,
        message: str | Said,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        source_line: str | None = None,
        expected: str | Said | None = None,
    ) -> None:
        text = message if isinstance(message, str) else message.said()
        super().__init__(text)
        self.message = text
        """The message in English, as the command line prints it."""
        self.said: Said | None = None if isinstance(message, str) else message
        """The message's id and arguments, when it was raised with them."""
        self.source = source
        self.line = line
        self.column = column
        self.source_line = source_line
        self.expected = (
            expected if expected is None or isinstance(expected, str) else expected.said()
        )
        """What was expected there, in English."""
        self.expected_said: Said | None = None if isinstance(expected, str | None) else expected

    @property
    def what(self) -> str | Said:
        """The message as it was raised (its id and arguments if it had them), to raise again
        at another place."""
        return self.message if self.said is None else self.said

    @property
    def what_expected(self) -> str | Said | None:
        """What was expected, as it was raised."""
        return self.expected if self.expected_said is None else self.expected_said

    @property
    def location(self) -> str:
        parts = [self.source or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}"
        if self.source_line is not None:
            shown, column = _window(self.source_line.rstrip("\r\n"), self.column)
            text += "\n    " + shown
            if column is not None and column >= 1:
                # keep tabs so the caret lines up under the fault
                pad = "".join(c if c == "\t" else " " for c in shown[: column - 1])
                text += "\n    " + pad + "^"
        if self.expected:
            text += f"\nexpected: {self.expected}"
        return text

    def one_line(self) -> str:
        """The message on one line: location and message, no context."""
        return f"{self.location}: {self.message}"


SHOWN_WIDTH = 100
"""A source line longer than this is shown as an excerpt around the fault."""


def _window(line: str, column: int | None) -> tuple[str, int | None]:
    """The part of a long line around ``column`` (with "..." where it is cut), and the column
    of the fault in that part."""
    if len(line) <= SHOWN_WIDTH:
        return line, column
    at = min(max(column or 1, 1), len(line) + 1)
    start = max(0, at - 1 - SHOWN_WIDTH // 2)
    end = min(len(line), start + SHOWN_WIDTH)
    start = max(0, end - SHOWN_WIDTH)
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(line) else ""
    shown = prefix + line[start:end] + suffix
    return shown, None if column is None else at - start + len(prefix)


class PositionError(RulebookError):
    """An impossible position (a man on its own promotion row, duplicate square, ...)."""


class NotationError(RulebookError):
    """Malformed notation: FEN, PDN, move text, diagram block."""


class IllegalMoveError(RulebookError):
    """A move that is not legal in its position, or an ambiguous short capture."""


class ProblemError(RulebookError):
    """A problem that cannot be judged (no FEN, unsupported variant, ...)."""


class SiteError(RulebookError):
    """A fault in the site's sources (bad diagram, broken example)."""


class OutputError(RulebookError):
    """What was to be written could not be: a full disk, a read-only folder (no fault in the
    input, so a command says it with exit code 2, not the 1 of a fault it found)."""
