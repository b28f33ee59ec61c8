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


class RulebookError(Exception):
    """Base of every error the project reports to a person."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        source_line: str | None = None,
        expected: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.source_line = source_line
        self.expected = expected

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
            shown = self.source_line.rstrip("\r\n")
            text += "\n    " + shown
            if self.column is not None and self.column >= 1:
                # keep tabs so the caret lines up under the fault
                pad = "".join(c if c == "\t" else " " for c in shown[: self.column - 1])
                text += "\n    " + pad + "^"
        if self.expected:
            text += f"\nexpected: {self.expected}"
        return text

    def one_line(self) -> str:
        """The message on one line: location and message, no context."""
        return f"{self.location}: {self.message}"


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
