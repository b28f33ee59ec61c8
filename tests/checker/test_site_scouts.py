"""The check page's scouts (issue 54): before a judgement the worker runs its first searches in
instances that never wait for a block, fetches the pages they wanted many at a time, and the
judgement then takes those pages from what is kept instead of asking for each in turn.
Here with the harness that scouts as the worker does (``wasm_host.WasmtimeHost.scout_ahead``,
the WebAssembly search under wasmtime) and the Python the worker runs (``checkpage/tables.py``,
``engine/tables/remote.py``): the scouts ask the judgement's own first searches, the pages they
fetch are the ones the judgement reads, the judgement is the same with or without them, and a
kept page that fails its checksum is fetched again, not used.  (The worker's side in the
browser: ``tests/site/test_checker_page.py``.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.checker.front import Checker
from rulebook_build.checkpage import entry
from rulebook_build.checkpage import tables as tables_module
from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact, remote
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.engine.tables.remote import folder_fetch, publish, site_checker_tables
from rulebook_build.notation import read_pdn, replay_problem
from rulebook_build.rules import INTERNATIONAL

from .wasm_host import WasmtimeHost, prover_wasm

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")

# the composers' guide's sample (benchmarks/data/composers-sample.pdn): correct; its five
# first moves each lead to a search that reads the 4-piece tables
SAMPLE = {
    "fen": "W:W6,11,18,22,28:B17,32,36,37,43",
    "variant": "international",
    "solution": "1. 6-1 32x12 2. 1x31 36x18 3. 11x13",
    "tags": {},
}
SECONDS = 20.0
Range = tuple[str, int, int]


@pytest.fixture(scope="module", autouse=True)
def in_pages() -> Iterator[None]:
    """Published in pages of two blocks, nothing fetched whole, two pages a request: the
    4-piece classes then lie in many pages, as the 5-piece ones do on the site."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(remote, "PAGE", 2)
        patch.setattr(remote, "WHOLE_BYTES", 0)
        patch.setattr(remote, "PAGES_A_REQUEST", 2)
        yield


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("scouted-site")
    tables = checker_tables(INTERNATIONAL)
    tables.prepare_missing()
    return folder, publish(tables, folder, pieces=4)


@pytest.fixture(scope="module")
def program() -> Path:
    return prover_wasm()


def problem() -> Any:
    games, errors = read_pdn(entry._pdn_text(SAMPLE), source="<sample>")
    assert not errors
    return replay_problem(games[0], INTERNATIONAL)


def judged(
    site: tuple[Path, dict[str, Any]], program: Path, *, scouts: bool
) -> tuple[dict[str, Any], list[Range], list[list[Range]], list[str]]:
    """The sample judged as the page judges it, with or without the worker's scouts first:
    the verdict, the judgement's own requests, the scouts' (per round), the compiled search's
    request lines."""
    folder, manifest = site
    requests: list[Range] = []
    kept = remote.KeptRanges()
    fetch = folder_fetch(folder, requests)
    tables = site_checker_tables(INTERNATIONAL, manifest, fetch, kept=kept)
    host = WasmtimeHost(program, tables)
    tables.host = host
    read = problem()
    ahead = host.scout_ahead("international", entry.scout_lines(read, SECONDS), kept, fetch)
    if not scouts:
        ahead = []
        tables = site_checker_tables(INTERNATIONAL, manifest, fetch)
        tables.host = host = WasmtimeHost(program, tables)
    asked: list[str] = []
    opened = host.open

    def noting(variant: str, table_mb: int) -> Any:
        session = opened(variant, table_mb)
        request = session.request

        def noted(line: str) -> str:
            asked.append(line)
            return request(line)

        session.request = noted  # type: ignore[method-assign]
        return session

    host.open = noting  # type: ignore[method-assign]
    requests.clear()
    judgement = Checker(opened={"international": tables}).judge(
        read, seconds=SECONDS, full=True, by_work=True
    )
    record = judgement.as_json()
    record.pop("seconds", None)
    return record, list(requests), ahead, asked


def test_the_scouts_ask_the_judgements_first_searches_and_bring_the_pages_it_reads(
    site: tuple[Path, dict[str, Any]], program: Path
) -> None:
    """One scout a first move, each the node the judgement itself asks the compiled search (its
    clocks included: a scout of another node would fetch pages the judgement never reads);
    with them the judgement is the same, search for search, and asks the host for under a
    tenth of the requests it asks without them; each scout's range is one block's stream or
    its page's sums, and they bring a fraction of the bytes of the pages they touch.  (One
    test: the two judgements are its cost.)"""
    record, requests, _ahead, asked = judged(site, program, scouts=False)
    lines = entry.scout_lines(problem(), SECONDS)
    nodes = {" ".join(line.split()[3:]) for line in lines}
    asked_nodes = {" ".join(line.split()[3:]) for line in asked}
    assert len(lines) == len(problem().replayed.start.legal_moves()) == 5
    assert nodes <= asked_nodes
    assert all(line.split()[:2] == ["solve", f"{SECONDS:.3f}"] for line in lines)
    assert json.loads(entry.scout_requests(json.dumps(SAMPLE), SECONDS)) == lines
    assert json.loads(entry.scout_requests("{not json", SECONDS)) == []

    with_scouts, own, ahead, asked_after = judged(site, program, scouts=True)
    assert with_scouts == record and record["grade"] == "correct"
    assert asked_after == asked  # the same searches, node for node
    assert sum(len(r) for r in ahead) > 100
    assert len(own) * 10 < len(requests), (len(own), len(requests))
    # each range the scouts fetched is a page's sums or a block's stream, and all of them
    # together are under half the bytes of the pages they lie in
    pieces: dict[str, set[Range]] = {}
    page_of: dict[Range, Range] = {}
    for name, start, end in (r for round_ in ahead for r in round_):
        if name not in pieces:
            pieces[name] = set()
            table = remote_table(site, name.removesuffix(remote.BLOCKS))
            for page in range(-(-table.blocks // remote.PAGE)):
                whole = (name, *table._bytes_of(page, page))
                offset, _lengths, _digest, count = table._page_entry(page)
                parts = [(name, offset, offset + count * remote.DIGEST)]
                parts += [
                    (name, *table._stream_range(n))
                    for n in range(page * remote.PAGE, page * remote.PAGE + count)
                ]
                pieces[name].update(parts)
                page_of.update((part, whole) for part in parts)
        assert (name, start, end) in pieces[name], (name, start, end)
    fetched = [r for round_ in ahead for r in round_]
    touched = {page_of[r] for r in fetched}
    assert sum(e - s for _n, s, e in fetched) < sum(e - s for _n, s, e in touched)


def remote_table(site: tuple[Path, dict[str, Any]], name: str) -> remote.RemoteCompactTable:
    """Class ``name`` of the published site, read from its folder."""
    folder, manifest = site
    return remote.RemoteCompactTable(
        name, manifest["classes"][name], folder_fetch(folder), remote.PAGE
    )


def test_a_kept_block_is_taken_without_a_request_and_a_damaged_one_is_fetched_again(
    site: tuple[Path, dict[str, Any]],
) -> None:
    folder, manifest = site
    name = max(manifest["classes"], key=lambda n: manifest["classes"][n]["blocks"])
    entry_ = manifest["classes"][name]
    right = remote_table(site, name)
    per = remote.SPAN // compact.BLOCK
    number = (entry_["blocks"] // 2) * per  # a block of a page in the middle
    requests: list[Range] = []
    kept = remote.KeptRanges()
    host = folder_fetch(folder, requests)

    def fetch(name: str, start: int, end: int) -> bytes:
        """As the worker's: what is kept first (keptFetch), else the host."""
        return kept(name, start, end) or host(name, start, end)

    def keep(ranges: list[Range]) -> None:
        for file, start, end in ranges:
            kept.put(file, start, end, (folder / file).read_bytes()[start:end])

    table = remote.RemoteCompactTable(name, entry_, fetch, remote.PAGE, kept=kept, drop=kept.drop)
    wanted = table.request_for(number)
    assert requests == [(name + remote.PAGES, 0, len(table._page_list()))]  # the page list only
    assert wanted is not None and [r[0] for r in wanted] == [name + remote.BLOCKS] * 2
    sums, stream = wanted
    assert sums[2] - sums[1] == remote.PAGE * remote.DIGEST and stream[1] >= sums[2]
    requests.clear()
    keep(wanted)
    assert table.block(number) == right.block(number)
    assert requests == [] and table.request_for(number) is None  # held now
    # the other block of its page: its stream alone, the page's sums are here
    neighbour = table.request_for(number + per)
    assert neighbour is not None and len(neighbour) == 1 and neighbour[0] != stream
    # kept with a byte turned: refused by its sum, forgotten, and asked of the host with its
    # page (and its group's)
    damaged = bytearray((folder / neighbour[0][0]).read_bytes()[neighbour[0][1] : neighbour[0][2]])
    damaged[0] ^= 1
    kept.put(*neighbour[0], bytes(damaged))
    assert table.block(number + per) == right.block(number + per)
    assert len(requests) == 1 and requests[0][1] <= sums[1] and requests[0][2] >= stream[2]
    assert table.fault is None and table.kept_refused == 1 and neighbour[0] not in kept
    # a page's sums kept with a byte turned: refused by the page list, asked of the host
    later = number + per * remote.PAGE * 2
    sums, stream = table.request_for(later) or []
    keep([stream])
    damaged = bytearray((folder / sums[0]).read_bytes()[sums[1] : sums[2]])
    damaged[-1] ^= 1
    kept.put(*sums, bytes(damaged))
    requests.clear()
    assert table.block(later) == right.block(later)
    assert len(requests) == 1 and table.kept_refused == 2 and sums not in kept


def test_a_scouts_node_carries_the_clocks_after_the_first_move() -> None:
    """After a king's move that captures nothing the count of such moves (art. 9a) is 1 in
    the node the scout asks, as in the node the judgement asks; after a man's move, 0."""
    games, errors = read_pdn(
        entry._pdn_text({"fen": "W:W33,K47:B18,K4", "variant": "international", "tags": {}}),
        source="<kings>",
    )
    assert not errors
    read = replay_problem(games[0], INTERNATIONAL)
    counts = {}
    for move, line in zip(read.start.legal_moves(), entry.scout_lines(read, 5.0), strict=True):
        counts[str(move)] = line.split()[-1]
    assert counts and all(
        clocks.endswith("/1") == move.startswith("47") for move, clocks in counts.items()
    ), counts
    assert any(move.startswith("33") for move in counts)


def test_a_request_of_the_search_leaves_out_the_pages_kept_whole(
    site: tuple[Path, dict[str, Any]],
) -> None:
    """With two pages a request, a page whose neighbour in its group is kept whole is asked
    alone: a range overlapping a kept one would be split by a browser that cached it."""
    folder, manifest = site
    name = max(manifest["classes"], key=lambda n: manifest["classes"][n]["blocks"])
    entry_ = manifest["classes"][name]
    per_page = remote.SPAN // compact.BLOCK * remote.PAGE  # the search's blocks a page
    requests: list[Range] = []
    kept = remote.KeptRanges()
    table = remote.RemoteCompactTable(
        name, entry_, folder_fetch(folder, requests), remote.PAGE, kept=kept
    )
    file = name + remote.BLOCKS
    second, third, fourth = ((file, *table._bytes_of(page, page)) for page in (2, 3, 4))
    kept.put(*third, (folder / third[0]).read_bytes()[third[1] : third[2]])
    requests.clear()
    table.block(per_page * 2)  # pages 2 and 3 make a group: 3 is kept, 2 is asked alone
    assert requests == [second]
    table.block(per_page * 3)  # taken from what is kept
    assert requests == [second]
    table.block(per_page * 4)  # pages 4 and 5, neither kept: one request for both
    assert requests[1][1] == fourth[1] and requests[1][2] > fourth[2]


def test_where_python_can_wait_the_judgement_waits_for_scouts_before_each_search(
    site: tuple[Path, dict[str, Any]], program: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a browser with JSPI the worker's scouts run before every search of the judgement,
    each request line handed to them before the search gets it; the report says so."""
    folder, _manifest = site
    asked: list[str] = []
    waited: list[Any] = []
    for module in (entry, tables_module):
        monkeypatch.setattr(module, "can_wait", lambda: True)
    monkeypatch.setattr(tables_module, "_wait_for", waited.append)

    class Late:
        """The harness's host, made once the tables it reads are open."""

        real: WasmtimeHost

        def open(self, variant: str, table_mb: int) -> Any:
            session = self.real.open(variant, table_mb)
            request = session.request

            def noted(line: str) -> str:
                asked.append(line)
                assert (waited and waited[-1] == ("scouted", line)) or not line.startswith("solve")
                return request(line)

            session.request = noted  # type: ignore[method-assign]
            return session

    late = Late()
    text = (folder / "tables-international.json").read_text(encoding="utf-8")
    said = json.loads(
        entry.open_tables(
            "international", text, folder_fetch(folder), late, None, lambda line: ("scouted", line)
        )
    )
    assert said["compiled"] is True
    late.real = WasmtimeHost(program, entry._OPEN["international"])
    try:
        record = json.loads(entry.check(json.dumps(SAMPLE), SECONDS, "en"))
    finally:
        entry._OPEN.clear()
    assert record["grade"] == "correct" and record["report"]["scouts_waited"] is True
    solves = [line for line in asked if line.startswith("solve ")]
    assert solves and waited == [("scouted", line) for line in solves]
