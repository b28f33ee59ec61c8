"""The check page's table reader (``checkpage/assets/table-fetch.js``) and its worker
(``checker-worker.js``), run in node without a browser: the SHA-256 that needs no secure
context, against known vectors and Python's hashlib; the manifest's check; each fault of a
failing host met by the Range reader (timeout, 404, 5xx, 200 for 206, a body cut short); and
the worker itself, with a stand-in Pyodide, refusing a manifest that does not match the page's
digest before Python ever sees it.  (Python's side of the same faults:
``tests/checker/test_remote_faults.py``.)"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.checker import wasm_host

ASSETS = Path(__file__).resolve().parents[2] / "rulebook_build" / "checkpage" / "assets"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None and not os.environ.get("CI"),
    reason="node is missing (scripts/test.sh installs it with npm ci)",
)

READER = f"""import {{ sha256, hex, checkedManifest, fetchWhole, rangeReader, xhrSend }} from
    {json.dumps((ASSETS / "table-fetch.js").as_uri())};
"""


def run(tmp_path: Path, script: str) -> Any:
    """Run ``script`` as an ES module in node (the reader's functions imported); what it
    prints on its last line, as JSON."""
    assert NODE is not None, "node is missing: scripts/test.sh installs it (npm ci)"
    path = tmp_path / "test.mjs"
    path.write_text(READER + script, encoding="utf-8")
    done = subprocess.run(
        [NODE, str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


VECTORS = {
    # FIPS 180-4's examples, and the empty message
    "": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
}


def test_sha256_gives_the_standards_digests(tmp_path: Path) -> None:
    said = run(
        tmp_path,
        f"""const vectors = {json.dumps(list(VECTORS))};
const million = new Uint8Array(1000000).fill(0x61);  // "a" a million times
console.log(JSON.stringify([
  ...vectors.map((text) => hex(sha256(new TextEncoder().encode(text)))),
  hex(sha256(million)),
]));
""",
    )
    assert said == [
        *VECTORS.values(),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    ]


def test_sha256_agrees_with_hashlib_at_every_length_around_a_block(tmp_path: Path) -> None:
    """Lengths 0 to 200 (every way the padding falls across 64-byte blocks) and a manifest's
    size, of random bytes."""
    generator = random.Random(51)
    data = generator.randbytes(200 + 70_000)
    (tmp_path / "data.bin").write_bytes(data)
    lengths = [*range(201), 70_000]
    said = run(
        tmp_path,
        f"""import {{ readFileSync }} from "node:fs";
const data = new Uint8Array(readFileSync({json.dumps(str(tmp_path / "data.bin"))}));
const lengths = {json.dumps(lengths)};
console.log(JSON.stringify(lengths.map((n, i) => hex(sha256(data.subarray(i % 7, i % 7 + n))))));
""",
    )
    assert said == [
        hashlib.sha256(data[i % 7 : i % 7 + n]).hexdigest() for i, n in enumerate(lengths)
    ]


def test_a_manifest_is_read_only_when_it_matches_the_pages_digest(tmp_path: Path) -> None:
    text = '{"format":"site-tables-2","classes":{}}\n'
    digest = hashlib.sha256(text.encode()).hexdigest()
    said = run(
        tmp_path,
        f"""const bytes = new TextEncoder().encode({json.dumps(text)});
const changed = bytes.slice(); changed[3] ^= 1;
const said = [checkedManifest(bytes, {json.dumps(digest)}, "tables-x.json")];
const tries = [[changed, {json.dumps(digest)}], [bytes, undefined], [bytes, "0".repeat(64)]];
for (const [b, d] of tries) {{
  try {{ said.push(checkedManifest(b, d, "tables-x.json")); }} catch (e) {{ said.push(e.message); }}
}}
console.log(JSON.stringify(said));
""",
    )
    assert said == [text, *["tables-x.json does not match its checksum"] * 3]


# a host that answers each request as scripted: answers[n] for the n-th request (the last one
# for every later request); "206", "200", "short" give the right bytes, the whole file, a body
# cut short; a number another status; "timeout" a request never answered
HOST = """
const file = new Uint8Array(1000).map((_, i) => (i * 7) & 255);
function host(answers) {
  const asked = [];
  const send = (url, start, end) => {
    asked.push([url, start, end]);
    const answer = answers[Math.min(asked.length - 1, answers.length - 1)];
    if (answer === "timeout") return { failure: "timed out after 30 s" };
    if (answer === "206") return { status: 206, body: file.slice(start, end) };
    if (answer === "200") return { status: 200, body: file.slice() };
    if (answer === "short") return { status: 206, body: file.slice(start, end - 9) };
    return { status: answer, body: new TextEncoder().encode("<h1>error</h1>") };
  };
  return { send, asked };
}
function attempt(answers, ranges) {
  const { send, asked } = host(answers);
  const read = rangeReader(send, 3);
  const got = [];
  for (const [start, end] of ranges) {
    try {
      const bytes = read("https://site/tables/m1k0-m0k1.blocks", start, end);
      const right = bytes.length === end - start && bytes.every((b, i) => b === file[start + i]);
      got.push(right ? "right" : "WRONG BYTES");
    } catch (error) {
      got.push(error.message);
    }
  }
  return { got, requests: asked.length, counted: read.requests };
}
"""


def faults(tmp_path: Path, cases: dict[str, tuple[list[Any], list[tuple[int, int]]]]) -> Any:
    return run(
        tmp_path,
        HOST
        + f"""const cases = {json.dumps(cases)};
const said = {{}};
for (const [name, [answers, ranges]] of Object.entries(cases)) {{
  said[name] = attempt(answers, ranges);
}}
console.log(JSON.stringify(said));
""",
    )


def test_the_range_reader_meets_each_fault_of_a_failing_host(tmp_path: Path) -> None:
    ranges = [(100, 144), (500, 820)]
    said = faults(
        tmp_path,
        {
            "fine": (["206"], ranges),
            "5xx now and then": ([503, "206", 502, "206"], ranges),
            "5xx always": ([503], ranges),
            "404": ([404], ranges),
            "timeout once": (["timeout", "206"], ranges),
            "timeout always": (["timeout"], ranges),
            "200 for 206": (["200"], [*ranges, (0, 1000), (999, 1000)]),
            "short once": (["short", "206"], ranges),
            "short always": (["short"], ranges),
        },
    )
    right = {"got": ["right", "right"], "requests": 2, "counted": 2}
    assert said["fine"] == right
    assert said["5xx now and then"] == {**right, "requests": 4, "counted": 4}
    # tried three times, then the class is left out (Python stops asking for it)
    assert said["5xx always"]["got"] == ["m1k0-m0k1.blocks: HTTP 503"] * 2
    assert said["5xx always"]["requests"] == 6
    # a file the host does not have is not asked for again
    assert said["404"] == {"got": ["m1k0-m0k1.blocks: HTTP 404"] * 2, "requests": 2, "counted": 2}
    assert said["timeout once"] == {**right, "requests": 3, "counted": 3}
    assert said["timeout always"]["got"] == ["m1k0-m0k1.blocks: timed out after 30 s"] * 2
    assert said["timeout always"]["requests"] == 6
    # the whole file, sent where a range was asked: sliced, and kept for the later ranges
    assert said["200 for 206"] == {"got": ["right"] * 4, "requests": 1, "counted": 1}
    assert said["short once"] == {**right, "requests": 3, "counted": 3}
    assert said["short always"]["got"] == [
        "m1k0-m0k1.blocks: 35 bytes where 44 were asked",
        "m1k0-m0k1.blocks: 311 bytes where 320 were asked",
    ]


def test_the_workers_request_sets_the_range_and_the_timeout(tmp_path: Path) -> None:
    said = run(
        tmp_path,
        """const made = [];
globalThis.XMLHttpRequest = class {
  constructor() { this.headers = {}; made.push(this); }
  open(method, url, asynchronous) { Object.assign(this, { method, url, asynchronous }); }
  setRequestHeader(name, value) { this.headers[name] = value; }
  send() {
    if (this.url.endsWith("slow")) throw Object.assign(new Error("late"), { name: "TimeoutError" });
    if (this.url.endsWith("lost")) throw Object.assign(new Error("lost"), { name: "NetworkError" });
    this.status = 206;
    this.response = new Uint8Array([1, 2, 3]).buffer;
  }
};
const send = xhrSend(30000);
const answers = ["fine", "slow", "lost"].map((name) => send("https://site/" + name, 10, 13));
console.log(JSON.stringify({
  answers: answers.map((a) => a.failure || [a.status, Array.from(a.body)]),
  asked: made.map((r) => [r.method, r.asynchronous, r.headers.Range, r.timeout, r.responseType]),
}));
""",
    )
    assert said["answers"] == [[206, [1, 2, 3]], "timed out after 30 s", "NetworkError"]
    assert said["asked"] == [["GET", False, "bytes=10-12", 30000, "arraybuffer"]] * 3


WORKER = """
import { writeFileSync, mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
// a stand-in Pyodide: the worker's own code runs; Python's answers are scripted
const base = pathToFileURL(process.argv[2]).href + "/";
mkdirSync(process.argv[2] + "/pyodide", { recursive: true });
writeFileSync(process.argv[2] + "/pyodide/pyodide.mjs", `
export async function loadPyodide() {
  return { unpackArchive() {}, runPython() {}, pyimport() { return globalThis.fakeApi; } };
}`);
const opened = [];
globalThis.fakeApi = {
  open_tables(variant, text, fetcher, host) {
    let fetched;
    try {
      fetched = Array.from(fetcher("m1k0-m0k1.pages", 0, 3));
    } catch (e) {
      fetched = e.message;
    }
    opened.push([text, fetched]);
    return JSON.stringify({ classes: 1, pieces: 2, compiled: false });
  },
  check() { return JSON.stringify({ grade: "correct", report: {} }); },
};
const manifest = new TextEncoder().encode('{"format":"site-tables-2"}\\n');
let manifestAsked = 0;
globalThis.fetch = async (url) => {
  const name = String(url).slice(String(url).lastIndexOf("/") + 1);
  if (name === "tables-international.json" && manifestAsked++ === 0) {
    return { ok: false, status: 503 };  // a 5xx now and then: asked again
  }
  const bytes = {
    "tables-international.json": manifest.buffer,
    "rulebook-python.zip": new ArrayBuffer(4),
  };
  if (name in bytes) return { ok: true, arrayBuffer: async () => bytes[name] };
  return { ok: false, status: 404 };
};
globalThis.XMLHttpRequest = class {
  open(method, url) { this.url = url; }
  setRequestHeader() {}
  send() { this.status = 404; this.response = new ArrayBuffer(0); }
};
const messages = [];
globalThis.self = { postMessage: (message) => messages.push(message) };
await import(process.argv[3]);
const digest = process.argv[4];
self.onmessage({ data: {
  id: 1, base, op: "check", args: ['{"variant": "international"}', 20, "en"],
  tables: { international: { digest, pieces: 5 } },
} });
// the answer, not the progress (fetching, nodes) said on the way
const answered = (m) => m.id === 1 && (m.result !== undefined || m.failure !== undefined);
while (!messages.some(answered)) await new Promise((done) => setTimeout(done, 5));
const answer = messages.find(answered);
const result = answer.result ? JSON.parse(answer.result) : answer;
console.log(JSON.stringify({ opened, manifestAsked, answer: result }));
"""


def worker(tmp_path: Path, digest: str) -> Any:
    assert NODE is not None, "node is missing: scripts/test.sh installs it (npm ci)"
    path = tmp_path / "worker.mjs"
    path.write_text(WORKER, encoding="utf-8")
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    done = subprocess.run(
        [NODE, str(path), str(site), (ASSETS / "checker-worker.js").as_uri(), digest],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_worker_refuses_a_manifest_that_does_not_match_the_page(tmp_path: Path) -> None:
    """The worker's own check, run as the browser runs it: a manifest other than the one the
    page names never reaches Python, and the report says why; the one it names does, and a
    table Python then asks for that the host does not have comes back as an error Python
    turns into a class left out (``browser._fetched``)."""
    right = hashlib.sha256(b'{"format":"site-tables-2"}\n').hexdigest()
    said = worker(tmp_path, right)
    assert said["opened"] == [['{"format":"site-tables-2"}\n', "m1k0-m0k1.pages: HTTP 404"]]
    assert said["answer"]["report"]["tables_error"] is None
    assert said["answer"]["grade"] == "correct"
    assert said["manifestAsked"] == 2  # after a 503
    other = worker(tmp_path, hashlib.sha256(b"another manifest").hexdigest())
    assert other["opened"] == []
    assert other["answer"]["report"]["tables_error"] == (
        "tables-international.json does not match its checksum"
    )


def test_a_manifest_is_asked_again_after_a_5xx_or_a_lost_connection_not_after_a_404(
    tmp_path: Path,
) -> None:
    said = run(
        tmp_path,
        """const cases = { "fine": [200], "503 then fine": [503, 200],
  "lost then fine": ["lost", 200], "503 always": [503], "404": [404, 200] };
const said = {};
for (const [name, answers] of Object.entries(cases)) {
  let asked = 0;
  globalThis.fetch = async () => {
    const answer = answers[Math.min(asked++, answers.length - 1)];
    if (answer === "lost") throw new TypeError("Failed to fetch");
    return { ok: answer === 200, status: answer, arrayBuffer: async () => new ArrayBuffer(3) };
  };
  try {
    const bytes = await fetchWhole("https://site/tables-frisian.json", 3);
    said[name] = [bytes.length, asked];
  } catch (error) {
    said[name] = [error.message, asked];
  }
}
console.log(JSON.stringify(said));
""",
    )
    assert said == {
        "fine": [3, 1],
        "503 then fine": [3, 2],
        "lost then fine": [3, 2],
        "503 always": ["tables-frisian.json: HTTP 503", 3],
        "404": ["tables-frisian.json: HTTP 404", 1],
    }


KEPT = f"""import {{
  keptSpans, keptFetch, mergedRanges, prefetch, tablesToPrefetch, materialOf
}} from
    {json.dumps((ASSETS / "table-fetch.js").as_uri())};
// the browser's IndexedDB as the tests have it: a Map per digest
function mapBackend() {{
  const stored = new Map();
  return {{
    stored,
    load: async (digest) => [...(stored.get(digest) || new Map()).values()],
    save: async (digest, spans) => {{
      const kept = stored.get(digest) || new Map();
      spans.forEach((s) => kept.set(s.name + s.start + "-" + s.end, s));
      stored.set(digest, kept);
    }},
    forget: async (digest) => {{ stored.delete(digest); }},
  }};
}}
"""


def test_kept_spans_serve_a_later_visit_of_the_same_table_set_and_no_other(
    tmp_path: Path,
) -> None:
    """What a check fetched is read again without the network, in the same visit and (saved
    under the manifest's digest) in the next; a new digest reads none of it; forget() empties
    memory and storage."""
    said = run(
        tmp_path,
        KEPT
        + """
const backend = mapBackend();
const asked = [];
const network = (name, start, end) => {
  asked.push(name);
  return new Uint8Array(end - start).fill(7);
};
const first = keptSpans(backend, "d1");
await first.ready;
const read = keptFetch(first, network);
read("a.blocks", 0, 10); read("a.blocks", 0, 10); read("a.blocks", 10, 30);
const sameVisit = asked.length;
await first.flush();
const next = keptSpans(backend, "d1");
await next.ready;
const again = keptFetch(next, network)("a.blocks", 10, 30);
const nextVisit = asked.length;
const other = keptSpans(backend, "d2");
await other.ready;
keptFetch(other, network)("a.blocks", 0, 10);
const otherSet = asked.length;
await next.forget();
const gone = keptSpans(backend, "d1");
await gone.ready;
console.log(JSON.stringify([
  sameVisit, nextVisit, next.bytes === 0, again.length, otherSet, gone.bytes, first.bytes,
]));
""",
    )
    assert said == [2, 2, True, 20, 3, 0, 30]


def test_a_range_inside_a_kept_span_is_served_from_it_and_dropped_with_it(
    tmp_path: Path,
) -> None:
    """The scouts fetch a block's stream and its page's sums in one request where they lie
    close: Python then asks for each alone and finds it inside that span, on this visit and
    the next; a range that fails its checksum is dropped with the span that held it."""
    said = run(
        tmp_path,
        KEPT
        + """
const backend = mapBackend();
const kept = keptSpans(backend, "d");
await kept.ready;
const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);
kept.put("a.blocks", 100, 200, bytes);
const inside = Array.from(kept.get("a.blocks", 130, 140));
const edges = [kept.get("a.blocks", 100, 200).length, kept.get("a.blocks", 190, 200).length];
const outside = [kept.get("a.blocks", 90, 110), kept.get("a.blocks", 195, 205),
  kept.get("b.blocks", 130, 140)];
await kept.flush();
const next = keptSpans(backend, "d");
await next.ready;
const again = Array.from(next.get("a.blocks", 150, 152));
next.drop("a.blocks", 150, 152);
console.log(JSON.stringify([inside, edges, outside.map((x) => x === undefined), again,
  next.get("a.blocks", 100, 101) === undefined, next.bytes]));
""",
    )
    assert said == [list(range(30, 40)), [100, 10], [True] * 3, [50, 51], True, 0]


def test_ranges_of_one_file_close_together_are_asked_in_one_request(tmp_path: Path) -> None:
    said = run(
        tmp_path,
        KEPT
        + """
const ranges = [
  { name: "b", start: 500, end: 600 }, { name: "a", start: 0, end: 32 },
  { name: "a", start: 40, end: 90 }, { name: "a", start: 200, end: 250 },
  { name: "a", start: 60, end: 70 }, { name: "b", start: 0, end: 10 },
];
console.log(JSON.stringify([mergedRanges(ranges, 110), mergedRanges(ranges, 0)]));
""",
    )
    a_near = [{"name": "a", "start": 0, "end": 250}]
    b_far = [{"name": "b", "start": 0, "end": 10}, {"name": "b", "start": 500, "end": 600}]
    assert said[0] == a_near + b_far
    assert said[1] == [
        {"name": "a", "start": 0, "end": 32},
        {"name": "a", "start": 40, "end": 90},
        {"name": "a", "start": 200, "end": 250},
        *b_far,
    ]


def test_the_prefetch_asks_what_python_asks_first_for_the_classes_a_position_can_reach(
    tmp_path: Path,
) -> None:
    """The ranges prefetched are those remote.py asks for a class's page list (and a small
    class's whole .blocks), for the classes the start material can come to by captures and
    promotions (either side to move), and none other."""
    from rulebook_build.engine.tables import remote

    classes = {
        "m1k0-m1k0": {"size": 40_000, "blocks": 3, "bytes": 1000, "pages": "0"},
        "m2k1-m1k0": {"size": 900_000, "blocks": 55, "bytes": 90_000, "pages": "0"},
        "m0k2-m1k0": {"size": 5000, "blocks": 1, "bytes": 500, "pages": "0"},
        "m3k0-m1k0": {"size": 5000, "blocks": 1, "bytes": 500, "pages": "0"},  # 3 white men
        "m1k0-m2k1": {"size": 900_000, "blocks": 55, "bytes": 90_000, "pages": "0"},
    }
    manifest = {"page": remote.PAGE, "classes": classes}
    said = run(
        tmp_path,
        KEPT
        + f"""
const manifest = {json.dumps(manifest)};
console.log(JSON.stringify([materialOf("W:W12,K13,14:B40"),
  tablesToPrefetch(manifest, "W:W12,K13,14:B40", {remote.WHOLE_BYTES})]));
""",
    )
    assert said[0] == [2, 1, 1, 0]
    # what Python asks first of each class: its page list, whole
    expected = []
    for name in ("m0k2-m1k0", "m1k0-m1k0", "m1k0-m2k1", "m2k1-m1k0"):
        seen: list[tuple[str, int, int]] = []

        def fetch(file: str, start: int, end: int, seen: list[Any] = seen) -> bytes:
            seen.append((file, start, end))
            return bytes(end - start)

        table = remote.RemoteCompactTable(name, classes[name], fetch, remote.PAGE)
        with pytest.raises(Exception, match="checksum"):
            table.block(0)
        expected.append({"name": seen[0][0], "start": seen[0][1], "end": seen[0][2]})
        if classes[name]["bytes"] <= remote.WHOLE_BYTES:
            expected.append({"name": f"{name}.blocks", "start": 0, "end": classes[name]["bytes"]})
    assert said[1] == expected


def test_the_prefetch_keeps_several_requests_in_flight_and_skips_what_is_kept(
    tmp_path: Path,
) -> None:
    said = run(
        tmp_path,
        KEPT
        + """
const kept = keptSpans(mapBackend(), "d");
await kept.ready;
kept.put("x.pages", 0, 44, new Uint8Array(44));
const spans = [{name: "x.pages", start: 0, end: 44}];
for (let i = 0; i < 20; i++) spans.push({name: "c" + i + ".pages", start: 0, end: 100 + i});
let inFlight = 0, most = 0, asked = 0;
const progress = [];
const fetchAsync = (name, start, end) => {
  asked += 1; inFlight += 1; most = Math.max(most, inFlight);
  return new Promise((resolve) => setTimeout(() => {
    inFlight -= 1;
    resolve(new Uint8Array(end - start));
  }, 5));
};
const done = await prefetch(spans, kept, fetchAsync, 6, (d, t) => progress.push([d, t]));
const read = keptFetch(kept, () => { throw new Error("asked the network"); });
console.log(JSON.stringify([
  most, asked, done, progress[progress.length - 1], read("c7.pages", 0, 107).length,
]));
""",
    )
    total = sum(100 + i for i in range(20))
    assert said == [6, 20, {"requests": 20, "bytes": total}, [total, total], 107]


def test_a_span_the_host_refused_for_good_while_prefetched_is_not_asked_again(
    tmp_path: Path,
) -> None:
    """A 404 met by the prefetch is the search's at once, in the Range reader's words; a
    failure that may pass (a 503) is left to the search, which asks the host again."""
    said = run(
        tmp_path,
        KEPT
        + """
const kept = keptSpans(mapBackend(), "d");
await kept.ready;
const fetchAsync = (name) => {
  const error = new Error(name + ": HTTP " + (name === "gone.pages" ? 404 : 503));
  error.final = name === "gone.pages";
  return Promise.reject(error);
};
const spans = [{name: "gone.pages", start: 0, end: 44}, {name: "busy.pages", start: 0, end: 44}];
await prefetch(spans, kept, fetchAsync, 2, null);
// a second prefetch (the check's, after the one made while Python loaded) asks the 503 again,
// not the 404
const again = [];
await prefetch(spans, kept, (name) => { again.push(name); return fetchAsync(name); }, 2, null);
const asked = [];
const read = keptFetch(kept, (name, start, end) => {
  asked.push(name);
  return new Uint8Array(end - start);
});
let gone;
try { read("gone.pages", 0, 44); } catch (error) { gone = error.message; }
console.log(JSON.stringify([gone, read("busy.pages", 0, 44).length, asked, again]));
""",
    )
    assert said == ["gone.pages: HTTP 404", 44, ["busy.pages"], ["busy.pages"]]


def test_a_span_another_prefetch_is_fetching_is_waited_for_not_asked_again(
    tmp_path: Path,
) -> None:
    """The page lists asked while Python loads and a check's own prefetch (or two scouts of
    one round) may want the same span at once: it is asked of the host once, and both
    prefetches count it done when it came; after that it is kept and not asked at all."""
    said = run(
        tmp_path,
        KEPT
        + """
const kept = keptSpans(mapBackend(), "d");
await kept.ready;
const asked = [];
const fetchAsync = (name, start, end) => {
  asked.push(name);
  return new Promise((resolve) => setTimeout(() => resolve(new Uint8Array(end - start)), 20));
};
const one = [{name: "a.blocks", start: 0, end: 10}, {name: "b.blocks", start: 0, end: 20}];
const two = [{name: "b.blocks", start: 0, end: 20}, {name: "c.blocks", start: 5, end: 9}];
const done = await Promise.all([prefetch(one, kept, fetchAsync, 4, null),
                                prefetch(two, kept, fetchAsync, 4, null)]);
const again = await prefetch(two, kept, fetchAsync, 4, null);
console.log(JSON.stringify([asked.sort(), done, again, kept.get("b.blocks", 0, 20).length]));
""",
    )
    assert said == [
        ["a.blocks", "b.blocks", "c.blocks"],
        [{"requests": 2, "bytes": 30}, {"requests": 2, "bytes": 24}],
        {"requests": 0, "bytes": 0},
        20,
    ]


def whole_file_host(status: str) -> str:
    """The start of a node script: ``fetch`` stood in by a host that answers every request,
    10 ms later, with the whole of a 100-byte file (bytes 0 to 99) and the status the
    JavaScript expression ``status`` gives (``url`` and ``asked``, the requests so far, in
    scope); ``rangeFetch`` and ``WHOLE_FILES`` imported."""
    return (
        "import { rangeFetch, WHOLE_FILES } from "
        + json.dumps((ASSETS / "table-fetch.js").as_uri())
        + """;
const file = new Uint8Array(100).map((_, i) => i);
const asked = [];
globalThis.fetch = (url, options) => {
  asked.push(url + " " + options.headers.Range);
  const status = """
        + status
        + """;
  return new Promise((resolve) => setTimeout(() => resolve({
    status, arrayBuffer: async () => file.slice().buffer,
  }), 10));
};
"""
    )


def test_a_host_that_sends_whole_files_sends_each_once_to_prefetches_and_search(
    tmp_path: Path,
) -> None:
    """Scouts ask many ranges of one file at once; a host that answers a range with the whole
    file (200) is asked once, the others wait for that answer and are sliced from it, and so
    are the search's own synchronous requests afterwards."""
    said = run(
        tmp_path,
        whole_file_host("200")
        + """
const fetchAsync = rangeFetch("/t/");
const parts = await Promise.all([[0, 10], [10, 30], [50, 51], [90, 100]].map(
  ([start, end]) => fetchAsync("c.blocks", start, end)));
const sent = [];
const reader = rangeReader((url) => { sent.push(url); return {failure: "asked"}; }, 1, WHOLE_FILES);
const read = Array.from(reader("/t/c.blocks", 3, 6));
console.log(JSON.stringify([asked, parts.map((p) => Array.from(p)), read, sent]));
""",
    )
    asked, parts, read, sent = said
    assert asked == ["/t/c.blocks bytes=0-9"]
    assert parts == [list(range(10)), list(range(10, 30)), [50], list(range(90, 100))]
    assert read == [3, 4, 5] and sent == []


def test_the_scouts_ranges_pass_the_browsers_http_cache_by(tmp_path: Path) -> None:
    """Every range a prefetch asks goes with ``cache: "no-store"``: Chromium's HTTP cache lets
    one request of a URL through at a time, so ranges of one file asked together would come
    one round trip after another (benchmarks/README.md, "One request of a file at a time");
    the page keeps what it fetched itself (keptSpans)."""
    said = run(
        tmp_path,
        "import { rangeFetch } from "
        + json.dumps((ASSETS / "table-fetch.js").as_uri())
        + """;
const asked = [];
globalThis.fetch = (url, options) => {
  asked.push([url, options.headers.Range, options.cache || null]);
  return Promise.resolve({status: 206, arrayBuffer: async () => new ArrayBuffer(2)});
};
const fetchAsync = rangeFetch("/t/");
await fetchAsync("c.blocks", 0, 2);
await Promise.all([fetchAsync("c.blocks", 10, 12), fetchAsync("c.blocks", 40, 42)]);
console.log(JSON.stringify(asked));
""",
    )
    assert said == [
        ["/t/c.blocks", "bytes=0-1", "no-store"],
        ["/t/c.blocks", "bytes=10-11", "no-store"],
        ["/t/c.blocks", "bytes=40-41", "no-store"],
    ]


def test_the_scouts_ask_wide_ranges_only_where_the_browser_asks_six_at_a_time(
    tmp_path: Path,
) -> None:
    """Over HTTP/1.x (every protocol the worker's requests went over) the scouts ask fewer,
    wider ranges; over HTTP/2 or 3, or with no protocol known yet, blocks alone in more rounds;
    and the harness that scouts as the worker does (``tests/checker/wasm_host.py``) keeps the
    HTTP/2 settings."""
    said = run(
        tmp_path,
        "import { scoutingFor } from "
        + json.dumps((ASSETS / "table-fetch.js").as_uri())
        + """;
const cases = [["http/1.1", "http/1.1"], ["http/1.1", ""], ["HTTP/1.0"], ["h2"], ["h3"],
  ["http/1.1", "h2"], [], [""], undefined];
console.log(JSON.stringify(cases.map((protocols) => scoutingFor(protocols))));
""",
    )
    wide = {"rounds": 4, "enough": 512, "gap": 65536}
    alone = {"rounds": 6, "enough": 1024, "gap": 4096}
    assert said == [wide, wide, wide, alone, alone, alone, alone, alone, alone]
    assert (alone["rounds"], alone["enough"]) == (wasm_host.SCOUT_ROUNDS, wasm_host.SCOUT_ENOUGH)


def test_a_whole_file_host_that_fails_first_is_asked_once_more_not_once_a_range(
    tmp_path: Path,
) -> None:
    """The first request of a file meets a 503: the ranges waiting for it do not all ask at
    once; the next one asks, gets the whole file, and the rest are sliced from it.  A file the
    host does not have (404) is asked once, and every range waiting for it is refused with that
    answer."""
    said = run(
        tmp_path,
        whole_file_host('url.endsWith("gone.blocks") ? 404 : asked.length === 1 ? 503 : 200')
        + """
const fetchAsync = rangeFetch("/t/");
const spans = [[0, 10], [10, 30], [50, 51], [90, 100]];
const parts = await Promise.allSettled(spans.map(([start, end]) =>
  fetchAsync("c.blocks", start, end)));
const gone = await Promise.allSettled(spans.map(([start, end]) =>
  fetchAsync("gone.blocks", start, end)));
console.log(JSON.stringify([
  asked,
  parts.map((p) => p.status === "fulfilled" ? Array.from(p.value) : p.reason.message),
  gone.map((p) => [p.status, p.reason && p.reason.message, p.reason && p.reason.final]),
]));
""",
    )
    asked, parts, gone = said
    assert asked == [
        "/t/c.blocks bytes=0-9",
        "/t/c.blocks bytes=10-29",
        "/t/gone.blocks bytes=0-9",
    ]
    assert parts == ["c.blocks: HTTP 503", list(range(10, 30)), [50], list(range(90, 100))]
    assert gone == [["rejected", "gone.blocks: HTTP 404", True]] * 4
