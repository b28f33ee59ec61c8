"""Faults in the fetches of the site's tables (``engine/tables/remote.py``), as the check page
meets them on a failing host: a timeout, a 404 for one class, a 5xx now and then, the whole
file where a range was asked, a body cut short, and a block replaced by another valid zlib
stream of the right length holding other values.  Each is tried again or refused by its
checksum; the class is then judged without; the verdict is the same or less decided, never
another grade, and the report names the tables left out.  (The worker's own side of the same
faults: ``tests/site/test_table_fetch_js.py``.)"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.checkpage import entry as browser
from rulebook_build.engine.tables import compact, remote, tablefile
from rulebook_build.engine.tables.remote import (
    ATTEMPTS,
    DIGEST,
    Fetch,
    FetchFailed,
    folder_fetch,
)
from tests.test_browser_api import published

# "Offer op 14" (tests/test_browser_api.py): correct, and its search probes seven classes of
# the 3-piece tables
PROBLEM = {
    "fen": "W:W19,25,30:B9,15,24",
    "variant": "international",
    "solution": "1. 19-14 24x35 2. 14x3 15-20 3. 25x14 35-40 4. 3-17 40-44 5. 17x50",
    "tags": {},
}
SECONDS = 5


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site's International tables of up to 3 pieces, as the build publishes them."""
    folder = tmp_path_factory.mktemp("site-tables")
    published(folder)
    return folder


@pytest.fixture(scope="module", autouse=True)
def in_ranges() -> Iterator[None]:
    """Every class read a page at a time, and published in pages of two blocks, as the 5-piece
    classes are read a page at a time (the 3-piece ones are small enough to be fetched whole,
    and fill a page or two), so that the faults meet Range requests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(remote, "PAGE", 2)
        patch.setattr(remote, "WHOLE_BYTES", 0)
        patch.setattr(remote, "PAGES_A_REQUEST", 1)
        yield


@pytest.fixture(autouse=True)
def closed() -> Iterator[None]:
    yield
    browser._OPEN.clear()


Requests = list[tuple[str, int, int]]


def judged(site: Path, fetch: Fetch) -> dict[str, Any]:
    """The page's judgement of :data:`PROBLEM` with the site's tables read through ``fetch``."""
    manifest = (site / "tables-international.json").read_text(encoding="utf-8")
    said = json.loads(browser.open_tables("international", manifest, fetch))
    assert "error" not in said, said
    record: dict[str, Any] = json.loads(browser.check(json.dumps(PROBLEM), SECONDS, "en"))
    return record


@pytest.fixture(scope="module")
def clean(site: Path) -> tuple[dict[str, Any], Requests]:
    """The judgement without faults, and what it fetched."""
    seen: Requests = []
    record = judged(site, folder_fetch(site, seen))
    browser._OPEN.clear()
    assert record["grade"] == "correct" and record["report"]["table_faults"] == []
    return record, seen


def verdict(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("seconds", "report")}


def same_or_less_decided(record: dict[str, Any], clean: dict[str, Any]) -> None:
    """The grade is the clean one or undecided; each criterion's status is the clean one or
    undecided: a fault may cost a proof, never change a grade."""
    assert record["grade"] in (clean["grade"], "undecided"), record["grade"]
    for name, criterion in record["criteria"].items():
        assert criterion["status"] in (clean["criteria"][name]["status"], "undecided"), name


def used_class(clean: tuple[dict[str, Any], Requests]) -> str:
    """The class whose blocks the clean judgement fetched most."""
    counts: dict[str, int] = {}
    for name, start, end in clean[1]:
        if name.endswith(".blocks"):
            counts[name[: -len(".blocks")]] = counts.get(name[: -len(".blocks")], 0) + end - start
    return max(counts, key=lambda name: (counts[name], name))


def faulty(
    site: Path, fault: Callable[[str, int, int, int], bytes | None], seen: Requests
) -> Fetch:
    """A fetch over the published files that calls ``fault(name, start, end, n)`` first (n:
    the request's number, from 0); what it returns (or raises) is the answer, None: the
    right bytes."""
    right = folder_fetch(site)

    def fetch(name: str, start: int, end: int) -> bytes:
        seen.append((name, start, end))
        answer = fault(name, start, end, len(seen) - 1)
        return right(name, start, end) if answer is None else answer

    return fetch


def test_a_5xx_now_and_then_is_tried_again_and_changes_nothing(
    site: Path, clean: tuple[dict[str, Any], Requests]
) -> None:
    def fault(name: str, start: int, end: int, n: int) -> bytes | None:
        if n % 2 == 0:  # every other request: 503 Service Unavailable
            raise FetchFailed("HTTP 503", transient=True)
        return None

    seen: Requests = []
    record = judged(site, faulty(site, fault, seen))
    assert verdict(record) == verdict(clean[0])
    assert record["report"]["table_faults"] == []
    assert len(seen) == 2 * len(clean[1])  # each request once more, after its 503


def test_a_timeout_is_tried_again_and_one_that_lasts_leaves_the_class_out(
    site: Path, clean: tuple[dict[str, Any], Requests]
) -> None:
    first: set[tuple[str, int, int]] = set()

    def once(name: str, start: int, end: int, n: int) -> bytes | None:
        if (name, start, end) not in first:
            first.add((name, start, end))
            raise TimeoutError("timed out")
        return None

    record = judged(site, faulty(site, once, []))
    assert verdict(record) == verdict(clean[0]) and record["report"]["table_faults"] == []
    browser._OPEN.clear()

    lost = used_class(clean)
    seen: Requests = []

    def always(name: str, start: int, end: int, n: int) -> bytes | None:
        if name.startswith(lost + "."):
            raise TimeoutError("timed out")
        return None

    record = judged(site, faulty(site, always, seen))
    same_or_less_decided(record, clean[0])
    faults = {fault["class"]: fault["reason"] for fault in record["report"]["table_faults"]}
    assert list(faults) == [lost] and "could not be fetched (timed out)" in faults[lost]
    # tried ATTEMPTS times, then never again: the class is done without
    assert sum(name.startswith(lost + ".") for name, _, _ in seen) == ATTEMPTS


def test_a_404_for_one_class_is_not_tried_again_and_leaves_that_class_out(
    site: Path, clean: tuple[dict[str, Any], Requests]
) -> None:
    lost = used_class(clean)
    seen: Requests = []

    def fault(name: str, start: int, end: int, n: int) -> bytes | None:
        if name.startswith(lost + "."):
            raise FetchFailed("HTTP 404", transient=False)
        return None

    record = judged(site, faulty(site, fault, seen))
    same_or_less_decided(record, clean[0])
    assert record["report"]["table_faults"] == [
        {"class": lost, "kind": "fetch", "reason": f"{lost}.pages could not be fetched (HTTP 404)"}
    ]
    assert [name for name, _, _ in seen if name.startswith(lost + ".")] == [f"{lost}.pages"]


def test_the_whole_file_where_a_range_was_asked_is_sliced_and_kept(
    site: Path, clean: tuple[dict[str, Any], Requests]
) -> None:
    def fault(name: str, start: int, end: int, n: int) -> bytes:
        return (site / name).read_bytes()  # 200 with the whole file, not 206

    seen: Requests = []
    record = judged(site, faulty(site, fault, seen))
    assert verdict(record) == verdict(clean[0]) and record["report"]["table_faults"] == []
    # one request a file: the rest is read from the whole file kept
    assert len(seen) == len({name for name, _, _ in seen}) == len({n for n, _, _ in clean[1]})
    assert len(seen) < len(clean[1])


def test_a_body_cut_short_is_tried_again_and_one_always_short_leaves_the_class_out(
    site: Path, clean: tuple[dict[str, Any], Requests]
) -> None:
    right = folder_fetch(site)

    def once(name: str, start: int, end: int, n: int) -> bytes | None:
        return right(name, start, end)[:-7] if n % 3 == 0 else None

    record = judged(site, faulty(site, once, []))
    assert verdict(record) == verdict(clean[0]) and record["report"]["table_faults"] == []
    browser._OPEN.clear()

    lost = used_class(clean)
    seen: Requests = []

    def always(name: str, start: int, end: int, n: int) -> bytes | None:
        return right(name, start, end)[: (end - start) // 2] if name == lost + ".blocks" else None

    record = judged(site, faulty(site, always, seen))
    same_or_less_decided(record, clean[0])
    [fault] = record["report"]["table_faults"]
    assert fault["class"] == lost and fault["kind"] == "fetch" and "bytes where" in fault["reason"]
    assert sum(name == lost + ".blocks" for name, _, _ in seen) == ATTEMPTS


def other_values(codes: bytes) -> bytes:
    """The same positions with the results turned round: a win a loss, a loss a win (the
    draws and unused slots as they were), as a table of other values would say."""
    turned = bytearray(codes)
    for i, code in enumerate(codes):
        if code in (2, 3):
            turned[i] = 5 - code
        elif 4 <= code < 36:
            turned[i] = code + 32
        elif code >= 36:
            turned[i] = code - 32
    return bytes(turned)


def valid_stream_of_length(codes: bytes, length: int) -> bytes | None:
    """A valid zlib stream of exactly ``length`` bytes that unpacks to ``codes``: the first
    codes compressed, the rest in a stored block, the cut moved until the length fits; None
    when even all of them compressed are too long."""
    adler = zlib.adler32(codes).to_bytes(4, "big")

    def stream(kept: int, level: int) -> bytes:
        packer = zlib.compressobj(level)
        head = packer.compress(codes[:kept]) + packer.flush(zlib.Z_SYNC_FLUSH)
        rest = codes[kept:]
        size = len(rest).to_bytes(2, "little") + (len(rest) ^ 0xFFFF).to_bytes(2, "little")
        return head + b"\x01" + size + rest + adler

    if len(stream(len(codes), 9)) > length:
        return None
    low, high = 0, len(codes)  # the stream is shorter the more codes are compressed
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(stream(middle, 9)) > length else (low, middle)
    for kept in range(high, max(high - 64, -1), -1):
        for level in range(9, -1, -1):
            found = stream(kept, level)
            if len(found) == length:
                assert zlib.decompress(found) == codes
                return found
    return None


def swap_blocks(site: Path, target: Path, name: str) -> list[int]:
    """Copy the published files of ``site`` to ``target``, with every block of class ``name``
    that holds a win or a loss replaced by a valid zlib stream of the same length holding other
    values; the numbers of the blocks replaced."""
    for path in site.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((site / "tables-international.json").read_text(encoding="utf-8"))
    total = manifest["classes"][name]["blocks"]
    pages = (target / f"{name}.pages").read_bytes()
    blocks = bytearray((target / f"{name}.blocks").read_bytes())
    swapped = []
    entry = remote.page_entry(remote.PAGE)
    for page in range(len(pages) // entry.size):
        offset, *lengths, _digest = entry.unpack_from(pages, page * entry.size)
        count = min(remote.PAGE, total - page * remote.PAGE)
        cursor = offset + count * DIGEST
        for i in range(count):
            size = lengths[i]
            codes = zlib.decompress(bytes(blocks[cursor : cursor + size]))
            turned = other_values(codes)
            other = valid_stream_of_length(turned, size) if turned != codes else None
            if other is None:  # no win or loss to turn, or they do not pack so small: drawn
                drawn = bytes(1 if code else 0 for code in codes)
                other = valid_stream_of_length(drawn, size) if drawn != codes else None
            if other is not None:
                assert zlib.decompress(other) != codes
                blocks[cursor : cursor + size] = other
                swapped.append(page * remote.PAGE + i)
            cursor += size
    (target / f"{name}.blocks").write_bytes(bytes(blocks))
    return swapped


def test_a_block_of_other_values_in_a_valid_stream_is_refused_by_its_checksum(
    site: Path, clean: tuple[dict[str, Any], Requests], tmp_path: Path
) -> None:
    """zlib's own check passes such a block (it is a valid stream of the right length), so
    only the block's SHA-256 stands between it and the verdict."""
    lost = used_class(clean)
    swapped = swap_blocks(site, tmp_path, lost)
    assert swapped
    seen: Requests = []
    record = judged(tmp_path, folder_fetch(tmp_path, seen))
    same_or_less_decided(record, clean[0])
    faults = {fault["class"]: fault["reason"] for fault in record["report"]["table_faults"]}
    assert list(faults) == [lost] and "fails its checksum" in faults[lost]
    assert record["report"]["table_faults"][0]["kind"] == "checksum"
    # and block by block, as the compiled search asks for them: none of the swapped blocks
    # is given, every other block is
    tables = browser._OPEN["international"]
    [(material, table)] = [(m, t) for m, t in tables.remote.items() if t.name == lost]
    per = table.span // compact.BLOCK  # the search's blocks in a published one
    for number in range(table.code_blocks):
        codes = tables.codes(material, number)
        assert (codes is None) == (number // per in swapped), number
        if codes is not None:
            assert len(codes) == min(compact.BLOCK, table.size - number * compact.BLOCK)
    # a block refused is not fetched again: the host would send the same
    before = len(seen)
    with pytest.raises(tablefile.DamagedTable, match="fails its checksum"):
        table.published(swapped[0])
    assert len(seen) == before


def test_an_error_of_the_workers_fetch_leaves_the_class_out_without_asking_again(
    site: Path, clean: tuple[dict[str, Any], Requests]
) -> None:
    """In the browser a failed fetch is a JavaScript error (Pyodide's ``JsException``, not an
    ``OSError``) the worker raised after its own tries: final, named by its reason."""

    class JsException(Exception):
        pass

    lost = used_class(clean)
    seen: Requests = []

    def fault(name: str, start: int, end: int, n: int) -> bytes | None:
        if name.startswith(lost + "."):
            raise JsException(f"Error: {name}: HTTP 503")
        return None

    record = judged(site, faulty(site, fault, seen))
    same_or_less_decided(record, clean[0])
    assert record["report"]["table_faults"] == [
        {"class": lost, "kind": "fetch", "reason": f"{lost}.pages could not be fetched (HTTP 503)"}
    ]
    assert sum(name.startswith(lost + ".") for name, _, _ in seen) == 1


def test_a_page_list_that_fails_its_checksum_leaves_the_class_out_and_is_not_fetched_again(
    site: Path, clean: tuple[dict[str, Any], Requests], tmp_path: Path
) -> None:
    lost = used_class(clean)
    for path in site.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    pages = bytearray((tmp_path / f"{lost}.pages").read_bytes())
    pages[-1] ^= 1  # the last page's SHA-256 of its entries: the list no longer matches
    (tmp_path / f"{lost}.pages").write_bytes(bytes(pages))
    seen: Requests = []
    record = judged(tmp_path, folder_fetch(tmp_path, seen))
    same_or_less_decided(record, clean[0])
    assert record["report"]["table_faults"] == [
        {"class": lost, "kind": "checksum", "reason": f"{lost}.pages fails its checksum"}
    ]
    # the compiled search asks block after block: none is given, none fetched
    tables = browser._OPEN["international"]
    [(material, table)] = [(m, t) for m, t in tables.remote.items() if t.name == lost]
    assert all(tables.codes(material, n) is None for n in range(table.blocks))
    assert [name for name, _, _ in seen if name.startswith(lost + ".")] == [f"{lost}.pages"]
