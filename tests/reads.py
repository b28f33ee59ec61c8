"""Counts what reading a problem costs: how often a FEN is parsed and a digest computed.

``count_reads(monkeypatch)`` wraps the FEN grammar's parser as ``notation/fen.py`` asks for it
(every FEN read, whoever asks, goes through it) and the strict PDN that ``problem_digest``
hashes (its one use in ``checker/judge.py``), and returns the counter they add to: ``"fen"``
and ``"digest"``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from rulebook_build.checker import judge
from rulebook_build.notation import _grammar, fen


class _CountingParser:
    """The FEN grammar's parser, counting the texts it parses."""

    def __init__(self, parser: Any, counted: Counter[str]) -> None:
        self.parser = parser
        self.counted = counted

    def parse(self, text: str) -> Any:
        self.counted["fen"] += 1
        return self.parser.parse(text)


def count_reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    found: Counter[str] = Counter()

    def load_grammar(name: str, start: str) -> Any:
        parser = _grammar.load_grammar(name, start)
        return _CountingParser(parser, found) if (name, start) == ("fen", "fen") else parser

    write_game: Callable[..., str] = judge.write_game

    def written(game: Any) -> str:
        found["digest"] += 1
        return write_game(game)

    monkeypatch.setattr(fen, "load_grammar", load_grammar)
    monkeypatch.setattr(judge, "write_game", written)
    return found
