"""The WebAssembly build of the proof search answers as the native program does.

``prover.c`` compiled for ``wasm32-wasi`` (``engine/wasm.py``, Zig from the ``ziglang``
package) runs here under wasmtime, with the imports the check page's worker gives it
(``wasm_host.py``), reading the tables a site publishes through ``tables/remote.py``; the native
program reads the same compact files.  On random positions of both variants with their clocks,
both searches stopped by the same count of positions must give the same verdict, node count,
proof tree and open line, so that a judgement counted in work is the same in the browser as on
the command line; and a whole judgement through the hosted search equals the native one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.checker.judge import Judge
from rulebook_build.engine import binaries, wasm
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.engine.tables.remote import (
    SiteCheckerTables,
    folder_fetch,
    publish,
    site_checker_tables,
)
from rulebook_build.notation.pdn import read_pdn
from rulebook_build.notation.replay import start_position
from rulebook_build.rules import FRISIAN, INTERNATIONAL
from rulebook_build.rules.variants import Variant
from tests.checker.differential import random_node

from .wasm_host import WasmtimeHost, prover_wasm

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")

PIECES = 3
"""The published tables: every class of up to 3 pieces (packed in a few seconds)."""


@pytest.fixture(scope="module")
def wasm_program() -> Path:
    return prover_wasm()


@dataclass
class Published:
    variant: Variant
    site: SiteCheckerTables
    hosted: wasm.HostedProver
    native: binaries.NativeProver
    host: WasmtimeHost
    folder: Path
    manifest: dict[str, Any]


def published(variant: Variant, folder: Path, program: Path) -> Published:
    tables: CheckerTables = checker_tables(variant)
    tables.prepare_missing()
    manifest = publish(tables, folder, pieces=PIECES)
    site = site_checker_tables(variant, manifest, folder_fetch(folder))
    host = WasmtimeHost(program, site)
    site.host = host
    hosted = site.prover()
    assert hosted is not None
    compiled = tables.prover()
    assert compiled is not None
    # the native program reads the published compact files only, as the browser does
    reader = binaries.NativeProver(compiled.program, folder, folder, variant=variant)
    return Published(variant, site, hosted, reader, host, folder, manifest)


@pytest.fixture(scope="module", params=[INTERNATIONAL, FRISIAN], ids=lambda v: v.name)
def both(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    wasm_program: Path,
) -> Iterator[Published]:
    variant = request.param
    yield published(variant, tmp_path_factory.mktemp(f"site-{variant.name}"), wasm_program)


def test_random_positions_get_the_same_search_in_webassembly(both: Published) -> None:
    rng = random.Random(35)
    settled = undecided = 0
    for count in range(60):
        # at least 30 positions, and on until both kinds of answer were met enough (the same
        # positions on every run: the generator is seeded)
        if count >= 30 and settled >= 10 and undecided >= 5:
            break
        state, clocks = random_node(both.variant, rng)
        limit = rng.choice((200, 2_000, 20_000))
        expected = both.native.solve(state, clocks, seconds=60, node_limit=limit, table_seconds=1)
        found = both.hosted.solve(state, clocks, seconds=60, node_limit=limit, table_seconds=1)
        assert found.problem == expected.problem
        assert (found.verdict, found.nodes) == (expected.verdict, expected.nodes)
        assert found.choices == expected.choices
        assert found.open_line == expected.open_line
        settled += expected.verdict != "undecided"
        undecided += expected.verdict == "undecided"
    # what the run met: both settled searches (with their trees) and open ones
    assert settled >= 10 and undecided >= 5, (settled, undecided)
    # and the tables: the module asked for blocks, which came checked
    assert sum(len(t._cache) for t in both.site.remote.values()) > 0


def test_a_session_goes_on_where_the_last_search_stopped(both: Published) -> None:
    rng = random.Random(36)
    nodes = [random_node(both.variant, rng) for _ in range(6)]
    with both.native.session(5) as expected_session:
        expected = [expected_session.solve(s, c, seconds=60, node_limit=3_000) for s, c in nodes]
    session = both.hosted.session(5)
    try:
        found = [session.solve(s, c, seconds=60, node_limit=3_000) for s, c in nodes]
    finally:
        session.close()
    assert [(a.verdict, a.nodes, a.choices) for a in found] == [
        (a.verdict, a.nodes, a.choices) for a in expected
    ]


def test_a_search_that_does_not_wait_for_blocks_ends_as_one_that_waits(
    both: Published, wasm_program: Path
) -> None:
    """``benchmarks/site_tables.py --rounds``: the searches of a session run again until a run
    lacks no block (``wasm_host.py``); the answers are those of the searches that wait."""
    # the tables published for the module, read afresh: no block held yet
    site = site_checker_tables(both.variant, both.manifest, folder_fetch(both.folder))
    host = WasmtimeHost(wasm_program, site, rounds=True, enough=4)
    site.host = host
    hosted = site.prover()
    assert hosted is not None
    rng = random.Random(37)
    nodes = [random_node(both.variant, rng) for _ in range(6)]
    with both.native.session(5) as expected_session:
        expected = [expected_session.solve(s, c, seconds=60, node_limit=3_000) for s, c in nodes]
    session = hosted.session(5)
    try:
        found = [session.solve(s, c, seconds=60, node_limit=3_000) for s, c in nodes]
    finally:
        session.close()
    assert [(a.verdict, a.nodes, a.choices, a.open_line) for a in found] == [
        (a.verdict, a.nodes, a.choices, a.open_line) for a in expected
    ]
    # searches were run again, after a session's earlier searches had filled its tables
    assert host.rounds is not None
    assert sum(len(runs) > 1 for runs in host.rounds[1:]) >= 1, host.rounds


SMALL = """[Event "example"]
[SetUp "1"]
[FEN "W:W26,31,36:B6,17,39"]
[GameType "40"]

1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 4. 34-29 17-22 5. 26-21 22-27 6. 21x32 *
"""


def test_a_judgement_through_the_hosted_search_is_the_native_one(
    tmp_path: Path, wasm_program: Path
) -> None:
    site = published(FRISIAN, tmp_path, wasm_program)
    game = read_pdn(SMALL)[0][0]
    position = start_position(game, FRISIAN)
    native_tables = CheckerTables(site.site.pure, site.site.rules)
    native_tables._prover = site.native
    native_tables._prover_looked_for = True
    results = []
    for tables in (native_tables, site.site):
        judge = Judge(FRISIAN, tables=tables, prover=tables.prover())
        judgement = judge.judge(game, position, seconds=5, by_work=True)
        record = judgement.as_json()
        record.pop("seconds")
        results.append(record)
    assert results[0] == results[1]
    assert results[1]["grade"] == "correct"
    assert site.host.sessions >= 1  # the judgement did ask the WebAssembly search
