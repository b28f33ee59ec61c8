"""File and line for MkDocs' warnings about links.

MkDocs names only the file of a broken link; a logging filter finds the line in the Markdown
source and puts ``file:line:`` in front of the message, so that an editor can jump to it.  It
is installed on MkDocs' page logger once per build (:func:`install_link_locator`).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Final

_LINK_WARNING: Final = re.compile(
    r"^Doc file '(?P<file>[^']+)' contains (?:a|an \w+ \w+) link '(?P<link>[^']*)'"
)


class _LinkLocator(logging.Filter):
    """Adds ``file:line:`` to MkDocs' warnings about links (it names only the file)."""

    def __init__(self, docs_dir: Path, project_dir: Path) -> None:
        super().__init__("rulebook-links")
        self.docs_dir = docs_dir
        self.project_dir = project_dir

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        match = _LINK_WARNING.match(message)
        if match is None or getattr(record, "rulebook_located", False):
            return True
        path = (self.docs_dir / match["file"]).resolve()
        try:
            shown = path.relative_to(self.project_dir).as_posix()
        except ValueError:
            shown = path.as_posix()
        line = _find_line(path, match["link"])
        where = f"{shown}:{line}" if line else shown
        record.msg = f"{where}: {message}"
        record.args = ()
        record.rulebook_located = True
        return True


def _find_line(path: Path, link: str) -> int | None:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for wanted in (f"]({link})", f"({link}", link):
        for number, text in enumerate(lines, start=1):
            if wanted in text:
                return number
    return None


def install_link_locator(docs_dir: Path, project_dir: Path) -> None:
    logger = logging.getLogger("mkdocs.structure.pages")
    for existing in list(logger.filters):
        if isinstance(existing, _LinkLocator):
            logger.removeFilter(existing)
    logger.addFilter(_LinkLocator(docs_dir.resolve(), project_dir))
