"""The Markdown extension for ```` ```draughts ```` blocks.

A preprocessor finds each block before the code-fence extensions see it, hands its text and
file position to a callback, and puts the returned HTML in the page through Markdown's HTML
stash (as the standard ``fenced_code`` extension does).  Fences of other languages are
skipped whole, so a ```` ```draughts ```` example shown inside a longer fence stays text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

BlockRenderer = Callable[[str, int, int], str]
"""``(block text, 1-based Markdown line of its first line, indent) -> HTML``."""

FENCE: Final = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")
DRAUGHTS_INFO: Final = re.compile(
    r"^\{?\s*\.?(?P<kind>draughts(?:-[a-z]+)?|edition-comparison)\s*\}?\s*$", re.IGNORECASE
)

PRIORITY: Final = 28
"""After ``normalize_whitespace`` (30), before ``fenced_code_block`` (25)."""


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


class DraughtsPreprocessor(Preprocessor):
    def __init__(
        self, md: Markdown, renderer: BlockRenderer, others: Mapping[str, BlockRenderer]
    ) -> None:
        super().__init__(md)
        self.renderer = renderer
        self.others = others

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        index = 0
        while index < len(lines):
            match = FENCE.match(lines[index])
            if match is None or (match["fence"][0] == "`" and "`" in match["info"]):
                out.append(lines[index])
                index += 1
                continue
            fence, indent = match["fence"], match["indent"]
            end = index + 1
            while end < len(lines) and not _closes(lines[end], fence):
                end += 1
            info = DRAUGHTS_INFO.match(match["info"])
            kind = info["kind"].lower() if info else ""
            renderer = self.renderer if kind == "draughts" else self.others.get(kind)
            if renderer is None:
                # another language's fence: keep it, and everything in it, untouched
                out.extend(lines[index : end + 1])
                index = end + 1
                continue
            body = [_dedent(line, indent) for line in lines[index + 1 : end]]
            html = renderer("\n".join(body), index + 2, len(indent))
            placeholder = self.md.htmlStash.store(html)
            out.extend(["", indent + placeholder, ""])
            index = end + 1
        return out


def _dedent(line: str, indent: str) -> str:
    if line.startswith(indent):
        return line[len(indent) :]
    return line.lstrip(" \t")


class DraughtsExtension(Extension):
    """Renders ```` ```draughts ```` blocks with ``renderer``; ``others`` renders the
    ```` ```draughts-problem ````, ```` ```draughts-problems ```` and the other generated
    blocks, ```` ```edition-comparison ```` among them (by that name)."""

    def __init__(
        self, renderer: BlockRenderer, others: Mapping[str, BlockRenderer] | None = None
    ) -> None:
        super().__init__()
        self.renderer = renderer
        self.others = dict(others or {})

    def extendMarkdown(self, md: Markdown) -> None:
        preprocessor = DraughtsPreprocessor(md, self.renderer, self.others)
        md.preprocessors.register(preprocessor, "draughts", PRIORITY)
