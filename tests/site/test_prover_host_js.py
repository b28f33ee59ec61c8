"""The check page's host of the WebAssembly search (``checkpage/assets/prover-host.js``), run in
node as the page's worker runs it: the search's clock leaves out the waits for table blocks, so
that a search counted in work takes the same steps however slowly the site serves its tables
(a slow host once made the page's judgement differ from the command line's)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.engine import binaries
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.rules.drawrules import NO_CLOCKS
from tests.checker.wasm_host import prover_wasm

ASSETS = Path(__file__).resolve().parents[2] / "rulebook_build" / "checkpage" / "assets"
NODE = shutil.which("node")
FEN = "W:W27,28,32,33,34,38:B13,14,17,18,19,22"
"""A position the search leaves open after 60,000 positions, asking for tables on its way."""

pytestmark = pytest.mark.skipif(
    NODE is None and not os.environ.get("CI"),
    reason="node is missing (scripts/test.sh installs it with npm ci)",
)

SCRIPT = """
import {{ readFileSync }} from "node:fs";
import {{ createHost }} from {host};
let clock = 0;  // the page's performance.now(), moved by hand: a minute a table request
Object.defineProperty(performance, "now", {{ value: () => clock, configurable: true }});
const module = new WebAssembly.Module(readFileSync({program}));
function search(slow) {{
  let asked = 0;
  const tables = {{
    blocks() {{ asked += 1; if (slow) clock += 60000; return 0; }},
    codes() {{ return null; }}
  }};
  const session = createHost(module, tables, null).open("international", 16);
  const answer = session.request({line});
  return {{ answer, asked }};
}}
console.log(JSON.stringify([search(false), search(true)]));
"""


def solve_line(node_limit: int, fen: str = FEN) -> str:
    """A request for ``fen`` (International) with ten seconds of wall limit and ``node_limit``
    positions."""
    state = parse_fen(fen, variant=INTERNATIONAL).state()
    words = binaries.node_words(INTERNATIONAL, state, NO_CLOCKS)
    return " ".join(["solve", "10.000", str(node_limit), *words])


def in_node(tmp_path: Path, template: str, line: str, **fields: object) -> Any:
    """Run ``template`` (a script importing prover-host.js and the module) in node with the
    request ``line``; what it prints on its last line, as JSON."""
    program = prover_wasm()
    assert NODE is not None, "node is missing: scripts/test.sh installs it (npm ci)"
    script = tmp_path / "host.mjs"
    script.write_text(
        template.format(
            host=json.dumps((ASSETS / "prover-host.js").as_uri()),
            program=json.dumps(str(program)),
            line=json.dumps(line),
            **fields,
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [NODE, str(script)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_slow_table_host_does_not_change_a_search_counted_in_work(tmp_path: Path) -> None:
    # ten seconds of wall limit and 60,000 positions: the count ends the search, not the clock
    quick, slow = in_node(tmp_path, SCRIPT, solve_line(60000))
    assert slow["asked"] > 0, "the search asked for no table: the test shows nothing"
    nodes = int(quick["answer"].split("\n")[1].removeprefix("nodes "))
    assert quick["answer"].startswith("result undecided\n") and nodes >= 60000, quick["answer"]
    # a minute's wait for each table request, far past the ten seconds: the same search
    assert slow["answer"].split("seconds")[0] == quick["answer"].split("seconds")[0]
    assert slow["answer"].split("\n", 3)[3] == quick["answer"].split("\n", 3)[3]


SCOUT_SCRIPT = """
import {{ readFileSync }} from "node:fs";
import {{ createHost }} from {host};
const module = new WebAssembly.Module(readFileSync({program}));
// every class of the tables has its blocks (engine/tables/index.py class_slots, International)
const comb = (n, k) => {{
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
}};
const blocks = (a, b, c, d) =>
  Math.ceil(comb(45, a) * comb(50, b) * comb(45, c) * comb(50, d) / {block});
const tables = {{ blocks, codes() {{ return null; }} }};
const host = createHost(module, tables, null);
const none = host.scout("international", 64, {line}, () => false, {enough});
const all = host.scout("international", 64, {line}, () => true, {enough});
const unstopped = host.scout("international", 64, {line}, () => false, 1e9);
console.log(JSON.stringify([none, all, unstopped.length]));
"""


def scout_with_nothing_ready(enough: int) -> Any:
    """The tests' scout (``wasm_host``, under wasmtime) of the International tables, every class
    with its blocks and none ever ready, stopping once ``enough`` blocks are wanted."""
    from rulebook_build.engine.tables import compact
    from rulebook_build.engine.tables.index import class_slots
    from tests.checker.wasm_host import WasmtimeHost, WasmtimeSession

    class Stand:
        """Every class has its blocks; none is ever ready."""

        def blocks(self, material: tuple[int, int, int, int]) -> int:
            return -(-class_slots(material, None) // compact.BLOCK)

    host = WasmtimeHost(prover_wasm(), Stand(), enough_scout=enough)  # type: ignore[arg-type]
    return WasmtimeSession(host, "international", 64, ready=lambda material, number: False)


def test_a_scout_wants_the_blocks_the_tests_scout_wants_and_stops_at_enough(
    tmp_path: Path,
) -> None:
    """The worker's scout (``createHost(...).scout``) under node and the tests' (``wasm_host``,
    under wasmtime, which the Python tests of the scouts rely on) want the same blocks in the
    same order, stop once ``enough`` are wanted (at the search's next look at its clock), and
    want none when every block is ready."""
    from rulebook_build.engine.tables import compact

    line = solve_line(200000)
    enough = 16
    wanted, none, unstopped = in_node(
        tmp_path, SCOUT_SCRIPT, line, block=compact.BLOCK, enough=enough
    )
    assert none == []
    # stopped at its next look at the clock after the sixteenth: long before its node limit
    assert enough <= len(wanted) < unstopped / 2, (len(wanted), unstopped)
    assert len({tuple(block) for block in wanted}) == len(wanted)

    scout = scout_with_nothing_ready(enough)
    scout.request(line)
    assert [[*material, number] for material, number in scout.in_order] == wanted


@pytest.mark.parametrize(
    ("fen", "result"),
    [
        # six pieces, no capture: the position's own block
        ("W:W27,28,32,33:B13,19", "proved"),
        ("W:W27,28:B13,14,18,19", "refuted"),
        # White must capture (28x17): the block of the one position the capture leads to
        ("W:W28,32,33,34:B14,22", "proved"),
        ("W:W28,32,33:B13,14,22", "refuted"),
    ],
)
def test_a_scout_takes_a_position_whose_block_is_not_here_as_settled_by_its_material(
    fen: str, result: str
) -> None:
    """A scout that meets a block not here yet (the host answers -2) guesses the position's
    value by its material and searches no further below it (prover.c ``pending_guess``): the
    judgement takes the table's answer there, so the blocks below are ones it never reads.
    Here the start position is in the tables and nothing is ready: the scout settles it at
    once, by the side with more pieces, wanting only the block it met (a capture's position is
    read through the position after the capture, ``resolved_code``)."""
    scout = scout_with_nothing_ready(10**9)
    answer = scout.request(solve_line(200000, fen)).splitlines()
    assert answer[:2] == [f"result {result}", "nodes 1"], answer
    assert len(scout.in_order) == 1, scout.in_order
