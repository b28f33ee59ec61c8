"""The check page's scout before Python (``checkpage/assets/early-scouts.js``), run in node:
while Pyodide loads, the worker writes the request line of the problem's start position and
finds the page each wanted block lies in without Python.  Both must be Python's: the line
``entry`` would write (``binaries.node_words`` with ``initial_clocks``, so that the scout runs
the search the judgement makes), and the range ``RemoteCompactTable.request_for`` would ask
(so that the judgement finds the page kept).  (The scout itself: ``test_prover_host_js.py``;
the worker running it in Chromium: ``test_checker_page.py``.)"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact, remote
from rulebook_build.engine.tables.index import material_of_name
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation import read_pdn_file
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Variant, initial_clocks

from .test_prover_host_js import in_node
from .test_table_fetch_js import ASSETS, NODE, run

REPOSITORY = Path(__file__).resolve().parents[2]
SCOUTS = json.dumps((ASSETS / "early-scouts.js").as_uri())

pytestmark = pytest.mark.skipif(
    NODE is None and not os.environ.get("CI"),
    reason="node is missing (scripts/test.sh installs it with npm ci)",
)

CRAFTED = [
    # black to move, kings, ranges and spaces, a trailing full stop
    ("international", "B:W31-35,K12:B 1 - 5, K46."),
    # a lone king against kings: the 5- and 16-move counts of art. 9 (the clocks' first field)
    ("international", "W:WK10:BK46,K50"),
    ("international", "B:WK10,K20,15:BK46"),
    ("international", "W:WK1,K2,K3:BK50"),
    # Fries Spel, two kings against one either way (art. 18), and a king with men
    ("frisian", "W:WK10,K20:BK46"),
    ("frisian", "B:WK10:BK46,K40"),
    ("frisian", "W:W31,K12:B19,K44"),
]


def python_line(variant: Variant, fen: str, seconds: float, nodes: int) -> str:
    state = parse_fen(fen, variant=variant).state()
    words = binaries.node_words(variant, state, initial_clocks(variant, state))
    return " ".join(["solve", f"{seconds:.3f}", str(nodes), *words])


def problem_fens() -> list[tuple[str, str]]:
    """Every start position of the site's own problems: PWCP-2, Cat.B1 and the Frisian
    examples."""
    found = []
    for path in sorted((REPOSITORY / "problems").glob("*/*.pdn")):
        games, _errors = read_pdn_file(path)
        for game in games:
            fen = game.tag("FEN")
            if fen:
                frisian = (game.tag("GameType") or "").startswith("40")
                found.append(("frisian" if frisian else "international", fen))
    return found


def test_the_start_positions_line_is_the_one_python_writes(tmp_path: Path) -> None:
    cases = [*problem_fens(), *CRAFTED]
    assert len(cases) > 100 and any(v == "frisian" for v, _ in cases)
    said = run(
        tmp_path,
        f"import {{ rootLine }} from {SCOUTS};\n"
        f"const cases = {json.dumps(cases)};\n"
        "console.log(JSON.stringify(cases.map(([v, fen]) => rootLine(v, fen, 20, 2000000))));\n",
    )
    variants = {"international": INTERNATIONAL, "frisian": FRISIAN}
    for (variant, fen), line in zip(cases, said, strict=True):
        assert line == python_line(variants[variant], fen, 20, 2_000_000), fen
    # and no line at all where the FEN cannot be read (then the worker does not scout early)
    unread = run(
        tmp_path,
        f"import {{ rootLine }} from {SCOUTS};\n"
        "console.log(JSON.stringify(['W:W51:B1', 'X:W1:B2', 'W:W1,1:B2', 'W:W1:B2:C3', 'W:Wa1:B2']"
        ".map((fen) => rootLine('international', fen, 20, 1))));\n",
    )
    assert unread == [None] * 5


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    """The International classes of up to 3 pieces, published in pages of two blocks and none
    fetched whole: most classes lie in several pages."""
    tables = checker_tables(INTERNATIONAL)
    tables.prepare_missing()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(remote, "PAGE", 2)
        patch.setattr(remote, "WHOLE_BYTES", 0)
        folder = tmp_path_factory.mktemp("published")
        yield folder, remote.publish(tables, folder, pieces=3)


@pytest.mark.parametrize("whole", [0, 2000])
def test_the_ranges_of_a_block_are_the_ones_python_asks(
    tmp_path: Path, published: tuple[Path, dict[str, Any]], whole: int
) -> None:
    """For every block of every class (and one past the end), the ranges the worker fetches
    for it before Python is there (its page's sums and its stream), and the ranges Python
    would ask: the same; with ``whole`` bytes, the small classes' whole ``.blocks``."""
    folder, manifest = published
    assert manifest["page"] == 2
    lists = {
        name: base64.b64encode((folder / (name + remote.PAGES)).read_bytes()).decode()
        for name in manifest["classes"]
    }
    blocks = {
        name: -(-entry["size"] // compact.BLOCK) + 1 for name, entry in manifest["classes"].items()
    }
    assert sum(blocks.values()) > 100 and max(blocks.values()) > 2 * manifest["page"] * 4
    said = run(
        tmp_path,
        f"import {{ blockRange, classBlocks }} from {SCOUTS};\n"
        f"const manifest = {json.dumps(manifest)};\n"
        f"const lists = {json.dumps(lists)};\n"
        f"const blocks = {json.dumps(blocks)};\n"
        "const out = {};\n"
        "for (const name of Object.keys(blocks)) {\n"
        "  const list = new Uint8Array(Buffer.from(lists[name], 'base64'));\n"
        "  const [a, b, c, d] = name.match(/\\d+/g).map(Number);\n"
        "  out[name] = [classBlocks(manifest, a, b, c, d), [...Array(blocks[name]).keys()]\n"
        f"    .map((n) => blockRange(manifest, name, list, n, {whole}))];\n"
        "}\n"
        "console.log(JSON.stringify(out));\n",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(remote, "WHOLE_BYTES", whole)
        tables = remote.site_checker_tables(INTERNATIONAL, manifest, remote.folder_fetch(folder))
        for name, (count, ranges) in said.items():
            material = material_of_name(name)
            assert count == tables.blocks(material), name
            expected = [tables.request_for(material, n) for n in range(blocks[name])]
            assert [None if r is None else [tuple(x) for x in r] for r in ranges] == expected, name
    # past the small classes: a page's sums and a block's stream, not at the file's start
    assert any(r is not None and r[-1][1] > 0 for _, ranges in said.values() for r in ranges)


FIRST_LINES = """
import {{ readFileSync }} from "node:fs";
import {{ createHost }} from {host};
import {{ firstLines, movesRequest, rootLine }} from {scouts};
const module = new WebAssembly.Module(readFileSync({program}));
const host = createHost(module, {{ blocks() {{ return 0; }}, codes() {{ return null; }} }}, null);
const cases = {cases};
console.log(JSON.stringify(cases.map(([variant, fen]) => {{
  const line = rootLine(variant, fen, 20, 2000000);
  const session = host.open(variant, 1);
  try {{
    return firstLines(line, session.request(movesRequest(line)));
  }} finally {{
    session.close();
  }}
}})));
"""


def test_the_scouts_before_python_search_what_the_judgement_searches_first(
    tmp_path: Path,
) -> None:
    """The lines the worker scouts while Python loads (the compiled search's "moves" of the
    start position) are the judgement's first searches, which Python's scouts run later
    (``entry.scout_requests``): each position after a first move, with its clocks, once; the
    crafted positions' king moves start the clocks of art. 9 and the runs of Fries Spel art.
    17."""
    from rulebook_build.checkpage import entry

    cases = [*problem_fens(), *CRAFTED]
    # the host of the WebAssembly search as test_prover_host_js runs it (no request line of
    # its own: each case writes its own)
    said = in_node(tmp_path, FIRST_LINES, "", scouts=SCOUTS, cases=json.dumps(cases))
    for (variant, fen), lines in zip(cases, said, strict=True):
        problem = {"fen": fen, "variant": variant, "solution": "", "tags": {}}
        expected = json.loads(entry.scout_requests(json.dumps(problem), 20))
        # the same searches, each once (the compiled search lists the moves in its own order)
        assert len(lines) == len(set(lines)) and sorted(lines) == sorted(set(expected)), fen
    assert sum(map(len, said)) > 500
