"""The compiled search on first moves a 20 s check left open: how many it settles at a fixed
node count, with the search's material estimate at several weights.

    python benchmarks/refutations.py [--nodes 5000000] [--weights 0,16] [--every N]
        [--cache-dir DIR]

The positions are ``benchmarks/data/open-keys.json``: second keys that criterion C could not
refute in a check before the estimate.  For each weight (``search.py MATERIAL_WEIGHT``; 0 is the
estimate by moves alone) the proof search is compiled with ``-DMATERIAL_WEIGHT=W`` (a weight
``eW`` also with ``-DESTIMATE=1``: the balance is the static evaluation's of ``opinion.h``, W a
man, instead of the material's; ``qW`` with ``-DESTIMATE=2``: the balance after the captures the
side to move must make; ``eqW`` both; a ``w`` among the letters: ``-DWEAK=1``; after a ``+``,
the evaluation as a guide, ``GUIDE``/``GUIDE_TIES``, or the printed tree's choice,
``TREE_CHOICE``: see ``compiled``) and run on
every position up to ``--nodes`` nodes, with no time limit, so the figures are the same on any
machine; ``--every N`` takes every Nth position only (a sample for larger ``--nodes``), ``--only
NAME`` (repeatable) the positions so named.  Prints,
per weight, each position's result and nodes, then how many were proved, refuted and left open,
the nodes in all and the seconds, and the positions of the printed trees (about what the
Python walk checks).  The tables are those of the cache
(``check`` builds the 5-piece ones itself; without them fewer positions settle).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.cachedir import add_cache_argument, use_cache_argument
from rulebook_build.engine import binaries
from rulebook_build.engine.search import ProofSearch, root_node
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.pdn import PdnGame, read_pdn_file
from rulebook_build.notation.replay import game_variant, move_notation, start_position
from rulebook_build.rules import DrawClocks, State, Variant
from rulebook_build.rules.position import to_move

Node = tuple[State, DrawClocks]

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks/data/open-keys.json"


def compiled(setting: str, folder: Path) -> Path:
    """The proof search compiled with this weight (``16``: by material; ``e16``: by the
    static evaluation, ``q16``: after the captures, ``eq16``: both, see ``ESTIMATE``; a ``w``:
    weak proof numbers, ``WEAK``), and after a ``+`` the evaluation's cost on moves (``g8``: 8
    a man on both sides' moves, ``g8w`` White's only, ``g8b`` Black's only; ``GUIDE``) or
    ``o``, ``ow``, ``ob``: the evaluation breaks ties of the least number (``GUIDE_TIES``), or
    ``t0``/``t1``, how the printed tree chooses among settled moves (``TREE_CHOICE``)."""
    target = folder / f"prover-{setting.replace('+', '_')}"
    base, *extras = setting.split("+")
    letters = base.rstrip("0123456789")
    weight = int(base[len(letters) :])
    estimate = ("e" in letters) + 2 * ("q" in letters)
    flags = [*binaries.FLAGS, *binaries.ZLIB_FLAGS, f"-DMATERIAL_WEIGHT={weight}"]
    flags += [f"-DESTIMATE={estimate}", f"-DWEAK={int('w' in letters)}"]
    for extra in extras:
        if extra.startswith("g"):
            sides = {"w": 1, "b": 2}.get(extra[-1], 3)
            flags += [f"-DGUIDE={int(extra[1:].rstrip('wb'))}", f"-DGUIDE_SIDES={sides}"]
        elif extra.startswith("o"):
            sides = {"w": 1, "b": 2}.get(extra[-1], 3)
            flags += ["-DGUIDE_TIES=1", f"-DGUIDE_SIDES={sides}"]
        elif extra.startswith("t"):
            flags.append(f"-DTREE_CHOICE={int(extra[1:])}")
        else:
            raise SystemExit(f"refutations.py: unknown setting {extra!r} in {setting!r}")
    command = [binaries.compiler() or "cc", *flags, "-o", str(target), str(binaries.PROVER_SOURCE)]
    subprocess.run([*command, *binaries.ZLIB_LIBRARY], check=True)
    return target


def key_nodes(positions: list[dict[str, Any]]) -> list[tuple[str, Variant, Node]]:
    """Each position of the sample (``open-keys.json``'s entries: a problem's file and line
    and a first move) as its name ("Cat.B1.pdn:17 42-37"), its variant and the search's node
    after that move (``prover_speed.py`` searches the same ones)."""
    found: list[tuple[str, Variant, Node]] = []
    games: dict[Path, tuple[PdnGame, ...]] = {}
    for entry in positions:
        path = ROOT / entry["file"]
        if path not in games:
            games[path] = read_pdn_file(path)[0]
        game = next(g for g in games[path] if g.line == entry["line"])
        variant = game_variant(game)
        assert variant is not None
        position = start_position(game, variant)
        for raw, child in ProofSearch(variant).expand(root_node(variant, position.state())):
            if move_notation(position, to_move(raw)) == entry["move"]:
                found.append((f"{path.name}:{entry['line']} {entry['move']}", variant, child))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5_000_000)
    parser.add_argument(
        "--weights", default="0,16", help="comma-separated; e, q, w: see above (0,16)"
    )
    parser.add_argument("--every", type=int, default=1, help="every Nth position only")
    parser.add_argument(
        "--only", action="append", default=[], help='a position\'s name ("Cat.B1.pdn:17 42-37")'
    )
    add_cache_argument(parser)
    args = parser.parse_args()
    use_cache_argument(args)
    positions = json.loads(DATA.read_text())["positions"][:: max(1, args.every)]
    nodes_of = [found for found in key_nodes(positions) if not args.only or found[0] in args.only]
    sample = f" (every {args.every}th)" if args.every > 1 else ""
    where = f"{DATA.relative_to(ROOT)}{sample}"
    print(f"# {len(nodes_of)} positions of {where}, {args.nodes:,} nodes each")
    with tempfile.TemporaryDirectory() as folder:
        for weight in args.weights.split(","):
            program = compiled(weight, Path(folder))
            counts = {"proved": 0, "refuted": 0, "undecided": 0}
            nodes = trees = 0
            started = time.perf_counter()
            for name, variant, (state, clocks) in nodes_of:
                tables = checker_tables(variant)
                tables.prover()  # checks the table files first
                prover = binaries.NativeProver(
                    program, tables.pure.folder(), tables.rules.folder(), variant=variant
                )
                answer = prover.solve(state, clocks, seconds=10_000, node_limit=args.nodes)
                counts[answer.verdict] += 1
                nodes += answer.nodes
                trees += answer.tree
                tree = f", tree {answer.tree:,}" if answer.tree else ""
                print(f"weight {weight}: {name}: {answer.verdict} ({answer.nodes:,} nodes{tree})")
            seconds = time.perf_counter() - started
            print(
                f"weight {weight}: proved {counts['proved']}, refuted {counts['refuted']}, "
                f"open {counts['undecided']}; {nodes:,} nodes in {seconds:.0f} s; "
                f"trees {trees:,} positions",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
