"""What the check page downloads of the site's tables: requests, bytes and blocks, by page size.

    python benchmarks/site_tables.py [--pages 16] [--per-request 1,2,4] [--whole 32768]
        [--time-limit 20] [--rounds] [--folder DIR] FILE...

Judges each problem as the page does (counted in work, the compiled search as WebAssembly run
by wasmtime, the tables the site build publishes read through ``tables/remote.py``), with the
blocks fetched some pages at a time (``--per-request``) for each page size given (the tables
published again for each, beside the table cache), and prints per problem the grade, the
requests, the bytes fetched and the blocks kept (the page's blocks that passed their checks).
The page fetches through its worker's Range requests; here a fetch reads the published file,
so only the counts are the page's, not the times.  Needs the site's tables published
(``rulebook build``) and Zig.

``--rounds``: the search never waits for a block (``tests/checker/wasm_host.py``): it notes the
blocks it lacks, they are fetched together, and it runs again until a run lacks none.  Printed
per problem: the rounds of fetching (one after another; the requests of a round could be in
flight together), the blocks each round wanted, the searches rerun, and the seconds of all
runs beside those of the last run of each search (what a search that waited would have cost
without its waits).  ``--folder``: where the tables are published (default beside the cache).

``--scout R``: before the judgement, the worker's scouts (``checker-worker.js``, run here by
``tests/checker/wasm_host.py``): the judgement's first searches run without waiting, the pages
they want fetched and kept, R rounds at most; the judgement then takes those pages from what is
kept.  The requests "one after another" are then the judgement's own.  (The page with JSPI
also scouts before each later search: measured in the browser, ``browser_checker.py --home``.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.checker.front import Checker  # noqa: E402
from rulebook_build.checkpage.entry import scout_lines  # noqa: E402
from rulebook_build.engine import wasm  # noqa: E402
from rulebook_build.engine.tables import remote  # noqa: E402
from rulebook_build.engine.tables.endgame import default_cache_dir  # noqa: E402
from rulebook_build.engine.tables.kinds import DEFAULT_TABLE_PIECES, checker_tables  # noqa: E402
from rulebook_build.notation.pdn import read_pdn_file  # noqa: E402
from rulebook_build.notation.replay import game_variant, replay_problem  # noqa: E402
from tests.checker.wasm_host import WasmtimeHost  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--pages", default="16", help="blocks a page (the site publishes 16)")
    parser.add_argument(
        "--span", default=str(remote.SPAN), help="codes a published block (a multiple of 4,096)"
    )
    parser.add_argument(
        "--per-request", default=str(remote.PAGES_A_REQUEST), help="pages a request brings"
    )
    parser.add_argument(
        "--whole", default=str(remote.WHOLE_BYTES), help="classes fetched whole up to these bytes"
    )
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--rounds", action="store_true", help="searches that do not wait")
    parser.add_argument("--enough", type=int, default=0, help="a run stops at these blocks wanted")
    parser.add_argument(
        "--scout", type=int, default=0, help="rounds of the worker's scouts before a judgement"
    )
    parser.add_argument("--folder", type=Path, default=default_cache_dir() / "site-benchmark")
    args = parser.parse_args()
    program = wasm.wasm_build(default_cache_dir())
    assert program is not None, "Zig is missing: pip install -e '.[wasm]'"
    games = []
    for name in args.files:
        found, _errors = read_pdn_file(Path(name))
        games += [g for g in found if g.is_problem]
    settings = [
        (int(s), int(p), int(w), int(r))
        for s in args.span.split(",")
        for p in args.pages.split(",")
        for w in args.whole.split(",")
        for r in args.per_request.split(",")
    ]
    for span, page, whole, per_request in settings:
        remote.SPAN = span  # type: ignore[misc]
        remote.PAGE = page  # type: ignore[misc]
        remote.WHOLE_BYTES = whole  # type: ignore[misc]
        remote.PAGES_A_REQUEST = per_request  # type: ignore[misc]
        for game in games:
            variant = game_variant(game)
            assert variant is not None
            tables = checker_tables(variant)
            folder = args.folder / f"{variant.name}-span-{span}-page-{page}"
            manifest = remote.publish(tables, folder, pieces=DEFAULT_TABLE_PIECES[variant.name])
            requests: list[tuple[str, int, int]] = []
            fetch = remote.folder_fetch(folder, requests)
            kept = remote.KeptRanges()
            site = remote.site_checker_tables(variant, manifest, fetch, kept=kept)
            host = WasmtimeHost(program, site, rounds=args.rounds, enough=args.enough)
            site.host = host
            checker = Checker(opened={variant.name: site})
            began = time.perf_counter()
            read = replay_problem(game, variant)
            ahead: list[list[tuple[str, int, int]]] = []
            if args.scout:
                lines = scout_lines(read, args.time_limit)
                ahead = host.scout_ahead(variant.name, lines, kept, fetch, args.scout)
            scouted = sum(len(r) for r in ahead)
            judgement = checker.judge(read, seconds=args.time_limit, full=True, by_work=True)
            used = sum(len(t._cache) for t in site.remote.values())
            # what the page's worker fetches before the search, several at a time
            # (table-fetch.js tablesToPrefetch): page lists, and classes small enough whole
            ahead_count = scouted + sum(
                1
                for name, start, end in requests
                if name.endswith(remote.PAGES)
                or (start == 0 and end == manifest["classes"][name.split(".")[0]]["bytes"])
            )
            print(
                f"span {span:6} page {page:3} whole {whole:8} pages a request {per_request:3}  "
                f"{game.tag('Event') or '?':10} "
                f"{judgement.grade:21} "
                f"{len(requests):6} requests ({len(requests) - ahead_count} one after another) "
                f"{sum(e - s for _, s, e in requests) / 1e6:8.2f} MB "
                f"{used:7} blocks kept  {time.perf_counter() - began:6.1f} s",
                flush=True,
            )
            if args.scout:
                print(
                    f"    scouts: {len(ahead)} rounds, {scouted} requests "
                    f"(per round {[len(r) for r in ahead]})",
                    flush=True,
                )
            if host.rounds is not None:
                print("    " + rounds_said(host.rounds, requests), flush=True)
                print(f"    memory kept before a request: {host.kept_bytes / 1e6:.0f} MB")
    return 0


def rounds_said(rounds: list[list[tuple[int, float]]], requests: list[tuple[str, int, int]]) -> str:
    """The rounds of fetching of a judgement whose searches do not wait (see the docstring)."""
    wanted = [w for runs in rounds for w, _ in runs if w]
    rerun = sum(1 for runs in rounds if len(runs) > 1)
    every = sum(s for runs in rounds for _, s in runs)
    last = sum(runs[-1][1] for runs in rounds if runs)
    page_lists = sum(1 for name, _, _ in requests if name.endswith(remote.PAGES))
    shape = ",".join(str(len(runs) - 1) for runs in rounds if len(runs) > 1)
    return (
        f"{len(rounds)} searches, {rerun} rerun (rounds each: {shape or '-'}); "
        f"{len(wanted)} rounds, blocks wanted {wanted}; "
        f"{page_lists} page-list requests; runs {every:.1f} s, last runs {last:.1f} s"
    )


if __name__ == "__main__":
    raise SystemExit(main())
