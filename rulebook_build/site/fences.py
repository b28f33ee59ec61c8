"""The Markdown extension for ```` ```draughts ```` blocks.

A preprocessor finds each block before the code-fence extensions see it, hands its text and
file position to a callback, and puts the returned HTML in the page through Markdown's HTML
stash (as the standard ``fenced_code`` extension does).  Fences of other languages are
skipped whole, so a ```` ```draughts ```` example shown inside a longer fence stays text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Fence:
    """A fenced block of a page's lines: where it opens and closes, its indent, and its kind
    (``draughts``, ``draughts-problem``, ... in lower case; "" for another language's)."""

    start: int
    """The index of its opening line."""
    end: int
    """The index of its closing line (``len(lines)`` when it is never closed)."""
    indent: str
    kind: str


def fences(lines: Sequence[str]) -> Iterator[Fence]:
    """Every fenced block of ``lines``, in order; what lies inside one is never read as the
    start of another (a ```` ```draughts ```` example shown inside a longer fence is text)."""
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None or (match["fence"][0] == "`" and "`" in match["info"]):
            index += 1
            continue
        fence, indent = match["fence"], match["indent"]
        end = index + 1
        while end < len(lines) and not _closes(lines[end], fence):
            end += 1
        info = DRAUGHTS_INFO.match(match["info"])
        yield Fence(index, end, indent, info["kind"].lower() if info else "")
        index = end + 1


def dedent(line: str, indent: str) -> str:
    """A line of a block without the block's indent."""
    if line.startswith(indent):
        return line[len(indent) :]
    return line.lstrip(" \t")


class DraughtsPreprocessor(Preprocessor):
    def __init__(
        self, md: Markdown, renderer: BlockRenderer, others: Mapping[str, BlockRenderer]
    ) -> None:
        super().__init__(md)
        self.renderer = renderer
        self.others = others

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        done = 0  # the lines before this index are in ``out``
        for fence in fences(lines):
            kind = fence.kind
            renderer = self.renderer if kind == "draughts" else self.others.get(kind)
            if renderer is None:
                continue  # another language's fence: kept, and everything in it, untouched
            out.extend(lines[done : fence.start])
            body = [dedent(line, fence.indent) for line in lines[fence.start + 1 : fence.end]]
            html = renderer("\n".join(body), fence.start + 2, len(fence.indent))
            placeholder = self.md.htmlStash.store(html)
            out.extend(["", fence.indent + placeholder, ""])
            done = fence.end + 1
        out.extend(lines[done:])
        return out


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
