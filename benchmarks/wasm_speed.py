"""The proof search's speed as WebAssembly in V8 (Node.js, the engine of Chromium) against the
native program, on the same searches.

    python benchmarks/wasm_speed.py [--nodes 2000000] [--first 8] [FILE]

For each problem of FILE (default PWCP-2), its start position is searched by both, without
tables (the tables' fetching is the page's other cost, ``browser_checker.py``), stopped by the
same count of positions: the WebAssembly module through the check page's own host
(``checkpage/assets/prover-host.js``), one session per problem, and ``prover serve``.  Both must
answer alike (verdict and nodes); prints each one's nodes a second and their ratio.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.engine import binaries, wasm  # noqa: E402
from rulebook_build.engine.search import root_node  # noqa: E402
from rulebook_build.engine.tables.endgame import default_cache_dir  # noqa: E402
from rulebook_build.notation.pdn import read_pdn_file  # noqa: E402
from rulebook_build.notation.replay import game_variant, start_position  # noqa: E402

LONG = 100_000
"""Searches of fewer nodes are shown but not counted: they measure starting, not searching."""

DRIVER = """
import { readFileSync } from "node:fs";
import { createHost } from "./prover-host.mjs";
const [wasmPath, variant, requestsJson] = process.argv.slice(2);
const module = new WebAssembly.Module(readFileSync(wasmPath));
const none = { blocks: () => 0, codes: () => null };
const out = [];
for (const line of JSON.parse(requestsJson)) {
  const session = createHost(module, none, null).open(variant, 64);
  const began = performance.now();
  const answer = session.request(line);
  out.push({ answer, seconds: (performance.now() - began) / 1000 });
  session.close();
}
console.log(JSON.stringify(out));
"""


def _answer(text: str) -> tuple[str, int]:
    fields = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
    return fields.get("result", "?"), int(fields.get("nodes", "0"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "problems/pwcp-2/PWCP_2.pdn"))
    parser.add_argument("--nodes", type=int, default=2_000_000)
    parser.add_argument("--first", type=int, default=20)
    args = parser.parse_args()
    program = wasm.wasm_build(default_cache_dir())
    compiled = binaries.executable(default_cache_dir(), binaries.PROVER_SOURCE)
    node = shutil.which("node")
    assert program and compiled and node, "needs Zig (the wasm extra), a C compiler and Node.js"
    games, _errors = read_pdn_file(Path(args.file))
    problems = [g for g in games if g.is_problem][: args.first]
    variant = game_variant(problems[0])
    assert variant is not None
    empty = Path(tempfile.mkdtemp())
    prover = binaries.NativeProver(compiled, empty, empty, variant=variant, table_mb=64)
    requests = []
    for game in problems:
        state, clocks = root_node(variant, start_position(game, variant).state())
        fields = " ".join(prover._node(state, clocks))
        requests.append(f"solve 600 {args.nodes} {fields}")
    with tempfile.TemporaryDirectory() as folder:
        host = Path(folder) / "prover-host.mjs"
        shutil.copy(ROOT / "rulebook_build/checkpage/assets/prover-host.js", host)
        driver = Path(folder) / "driver.mjs"
        driver.write_text(DRIVER, encoding="utf-8")
        done = subprocess.run(
            [node, str(driver), str(program), variant.name, json.dumps(requests)],
            capture_output=True,
            text=True,
            check=True,
        )
    in_v8 = json.loads(done.stdout)
    ratios = []
    for game, request, found in zip(problems, requests, in_v8, strict=True):
        command = [str(compiled), "serve", variant.name, str(empty), str(empty), "64"]
        began = time.perf_counter()
        served = subprocess.run(command, input=request + "\n", capture_output=True, text=True)
        native_seconds = time.perf_counter() - began
        expected = _answer(served.stdout)
        got = _answer(found["answer"])
        assert got == expected, (game.tag("Event"), got, expected)
        wasm_rate = got[1] / found["seconds"]
        native_rate = expected[1] / native_seconds
        if got[1] >= LONG:  # a short one measures the process start and the table's memory
            ratios.append(wasm_rate / native_rate)
        print(
            f"{game.tag('Event') or '?':6} {got[0]:9} {got[1]:10,} nodes  WebAssembly "
            f"{wasm_rate:10,.0f}/s  native {native_rate:10,.0f}/s  "
            f"ratio {wasm_rate / native_rate:.2f}",
            flush=True,
        )
    ratios.sort()
    print(
        f"ratio WebAssembly / native over the {len(ratios)} searches of at least {LONG:,} "
        f"nodes: median {ratios[len(ratios) // 2]:.2f}"
        if ratios
        else "no long search"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
