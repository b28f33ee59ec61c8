"""The check page's own SHA-256 (``checkpage/assets/table-fetch.js``) in V8 against Python's
hashlib.

    python benchmarks/sha256_js.py [--sizes 8000,1000000,16000000] [--repeat 5]

The worker hashes each variant's manifest with it (some 8 KB); larger sizes show what it would
cost to hash more.  Runs the asset itself in Node.js; prints per size the best of ``--repeat``
runs in milliseconds, and MB a second, for both, after checking that both give the same digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ASSET = ROOT / "rulebook_build" / "checkpage" / "assets" / "table-fetch.js"

SCRIPT = """import { sha256, hex } from %s;
import { readFileSync } from "node:fs";
const data = new Uint8Array(readFileSync(process.argv[2]));
const repeat = Number(process.argv[3]);
let best = Infinity, digest = "";
for (let i = 0; i < repeat; i++) {
  const began = performance.now();
  digest = hex(sha256(data));
  best = Math.min(best, performance.now() - began);
}
console.log(JSON.stringify({ best, digest }));
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8000,1000000,16000000")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("sha256_js.py: node is missing (npm ci installs the site's packages with it)")
        return 2
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"Node.js {version}; best of {options.repeat} runs")
    print(f"{'bytes':>12} {'JS ms':>9} {'JS MB/s':>9} {'hashlib ms':>11} {'hashlib MB/s':>13}")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "bench.mjs"
        script.write_text(SCRIPT % json.dumps(ASSET.as_uri()), encoding="utf-8")
        for size in (int(s) for s in options.sizes.split(",")):
            data = random.Random(size).randbytes(size)
            path = Path(folder) / "data.bin"
            path.write_bytes(data)
            done = subprocess.run(
                [node, str(script), str(path), str(options.repeat)],
                capture_output=True,
                text=True,
                check=True,
            )
            said = json.loads(done.stdout)
            best = float("inf")
            for _ in range(options.repeat):
                began = time.perf_counter()
                digest = hashlib.sha256(data).hexdigest()
                best = min(best, (time.perf_counter() - began) * 1000)
            if said["digest"] != digest:
                print(f"{size}: the digests differ")
                return 1
            js = float(said["best"])
            print(
                f"{size:>12,} {js:>9.2f} {size / js / 1000:>9.0f} {best:>11.2f}"
                f" {size / best / 1000:>13.0f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
