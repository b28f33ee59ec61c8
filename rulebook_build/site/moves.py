"""Move notation in running text kept whole: ``46-41`` never broken at its hyphen.

A Markdown extension (:class:`MoveExtension`, which the plugin adds to every page) wraps each
move of the running text (``46-41``, ``26x37``) in ``<span class="rb-move">``, which the
stylesheet keeps on one line.  It is a Markdown job of its own, apart from the ``draughts``
blocks (:mod:`.fences`), because it works on the element tree of every paragraph, not on
fenced blocks.
"""

from __future__ import annotations

import re
from typing import Final
from xml.etree import ElementTree as ET

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

MOVE: Final = re.compile(r"(?<![\w-])\d{1,2}(?:[-x]\d{1,2})+(?![\w-])")
"""A move in running text: ``46-41``, ``26x37``, ``37x28x19`` (not ``2-6-2018``)."""

NO_MOVES_IN: Final = frozenset(
    {"code", "pre", "kbd", "samp", "script", "style", "svg", "math", "span"}
    | {f"h{level}" for level in range(1, 7)}
)
"""Elements whose text is left as it is: code, headings (their anchors and the table of
contents come from their text), and spans (ours, or someone else's inline markup)."""


class _MoveTreeprocessor(Treeprocessor):
    """Wraps each move of the running text in ``<span class="rb-move">``.

    Works on the element tree, so attributes (a link's URL, an id) are never touched, and
    runs after the inline patterns: code spans are ``<code>`` elements by then, and raw HTML
    (the diagrams, whose SVG and JSON are stashed by :mod:`.fences`) is still a placeholder
    that holds no move.  The search index reads the span's text as part of the word.
    """

    def run(self, root: ET.Element) -> None:
        self._wrap(root)

    def _wrap(self, element: ET.Element) -> None:
        if not isinstance(element.tag, str) or element.tag in NO_MOVES_IN:
            return
        children = list(element)
        for child in children:
            self._wrap(child)
        if element.text:
            head, spans = _split_moves(element.text)
            if spans:
                element.text = head
                for index, span in enumerate(spans):
                    element.insert(index, span)
        for child in children:
            if child.tail:
                head, spans = _split_moves(child.tail)
                if spans:
                    child.tail = head
                    at = list(element).index(child) + 1
                    for offset, span in enumerate(spans):
                        element.insert(at + offset, span)


def _split_moves(text: str) -> tuple[str, list[ET.Element]]:
    """``"a 32-28 b"`` -> ``"a "`` and a span ``32-28`` whose tail is ``" b"``."""
    spans: list[ET.Element] = []
    head = text
    last = 0
    for match in MOVE.finditer(text):
        span = ET.Element("span", {"class": "rb-move"})
        span.text = match.group()
        if spans:
            spans[-1].tail = text[last : match.start()]
        else:
            head = text[: match.start()]
        spans.append(span)
        last = match.end()
    if spans:
        spans[-1].tail = text[last:]
    return head, spans


class MoveExtension(Extension):
    """The Markdown extension the plugin adds: :class:`_MoveTreeprocessor`, after the table
    of contents (5) has read the headings and before escaped characters come back (0)."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.treeprocessors.register(_MoveTreeprocessor(md), "rulebook-moves", 3)
