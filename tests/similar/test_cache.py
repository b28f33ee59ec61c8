"""The search's cache: a file is read once, and again whenever it changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulebook_build.cachedir import ENVIRONMENT
from rulebook_build.similar import cache, index
from rulebook_build.similar.index import Index, build_index, collection_of, record_of
from rulebook_build.similar.records import FileRecord, read_file
from rulebook_build.similar.search import queries, search

FIRST = '[Event "first"]\n[SetUp "1"]\n[FEN "W:W28,29,30:B7,8,9"]\n[GameType "20"]\n\n*\n'
SECOND = FIRST.replace("W28,29,30", "W38,39,40")  # the same size
QUERY = SECOND.replace("first", "query")


@pytest.fixture(autouse=True)
def own_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path / "cache"))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files read from their PDN text (not from the cache), in order."""
    seen: list[Path] = []

    def counting(path: Path, default: object = None) -> FileRecord:
        seen.append(path)
        return read_file(path, default)  # type: ignore[arg-type]

    monkeypatch.setattr(index, "read_file", counting)
    return seen


def best(corpus: Index, folder: Path) -> float:
    """The score of the best match of ``QUERY``."""
    path = folder / "query.pdn"
    path.write_text(QUERY, encoding="utf-8")
    collection = collection_of(path)
    record, _bits = record_of(path, collection, use_cache=False)
    (query,) = queries(corpus, str(path), record, collection)
    found = search(corpus, query, 1)
    return found[0].score if found else 0.0


def test_a_file_is_read_once_then_from_the_cache(tmp_path: Path, reads: list[Path]) -> None:
    corpus = tmp_path / "corpus.pdn"
    corpus.write_text(FIRST, encoding="utf-8")
    first = build_index([(str(corpus), corpus)])
    again = build_index([(str(corpus), corpus)])
    assert reads == [corpus]
    assert again.bitsets == first.bitsets
    assert again.files[0].record.items == first.files[0].record.items
    assert list(cache.folder().glob("*.json.z")) == [cache.entry_path(corpus, None)]
    assert not list(cache.folder().glob(".*.tmp"))  # written whole: nothing half-written left


def test_a_change_of_the_same_size_is_read_again(tmp_path: Path, reads: list[Path]) -> None:
    corpus = tmp_path / "corpus.pdn"
    corpus.write_text(FIRST, encoding="utf-8")
    assert best(build_index([(str(corpus), corpus)]), tmp_path) < 1.0
    before = corpus.stat()
    corpus.write_text(SECOND, encoding="utf-8")
    os.utime(corpus, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    assert corpus.stat().st_size == before.st_size
    assert best(build_index([(str(corpus), corpus)]), tmp_path) == 1.0
    assert reads.count(corpus) == 2


def test_a_change_of_size_is_read_again_whatever_its_time(
    tmp_path: Path, reads: list[Path]
) -> None:
    corpus = tmp_path / "corpus.pdn"
    corpus.write_text(FIRST, encoding="utf-8")
    build_index([(str(corpus), corpus)])
    before = corpus.stat()
    corpus.write_text(SECOND.replace("W38,39,40", "W38,39,40,41"), encoding="utf-8")
    os.utime(corpus, ns=(before.st_atime_ns, before.st_mtime_ns))
    changed = build_index([(str(corpus), corpus)])
    assert reads == [corpus, corpus]
    assert changed.files[0].record.entry_masks(0)[0].bit_count() == 4


def test_a_damaged_entry_is_read_as_missing(tmp_path: Path, reads: list[Path]) -> None:
    corpus = tmp_path / "corpus.pdn"
    corpus.write_text(FIRST, encoding="utf-8")
    first = build_index([(str(corpus), corpus)])
    cache.entry_path(corpus, None).write_bytes(b"not zlib")
    again = build_index([(str(corpus), corpus)])
    assert reads == [corpus, corpus]
    assert again.bitsets == first.bitsets


def test_an_entry_that_cannot_be_put_in_place_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus.pdn"
    corpus.write_text(FIRST, encoding="utf-8")

    def refuse(source: str, target: str) -> None:
        raise OSError("no room")

    monkeypatch.setattr(cache.os, "replace", refuse)
    build_index([(str(corpus), corpus)])
    assert list(cache.folder().iterdir()) == []
