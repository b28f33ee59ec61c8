"""The engine room: what the judging stands on, below the checker.

* ``search``: the proof search (df-pn) in Python, the walk that re-checks every tree the
  compiled search prints, and the proofs' acceptance;
* ``binaries``: the compiled programs' Python side (the C sources in ``native/``: the proof
  search with its evaluating engine, the table builder, the packer), built on first use;
* ``wasm``: the same proof search compiled to WebAssembly for the check page;
* ``budget``: a time limit counted in wall time or in work (``--deterministic``);
* ``tables``: the endgame tables: format, checks, building, probing, publishing.

The checker (``rulebook_build.checker``) asks questions of this room and decides what the
answers mean for a problem; nothing here knows the contest's criteria.
"""

from typing import TYPE_CHECKING

from rulebook_build import face

# The face: what the other rooms use, each loaded from its module on first use.
if TYPE_CHECKING:
    from rulebook_build.engine import binaries, wasm
    from rulebook_build.engine.binaries import (
        WIN_SCORE,
        EngineAnswer,
        NativeProver,
        Pieces,
        ProverSession,
        machine_cores,
    )
    from rulebook_build.engine.budget import WALL, Timer, Work
    from rulebook_build.engine.search import (
        NATIVE_FROM_SECONDS,
        Node,
        ProofSearch,
        ProverLike,
        TableLike,
        root_node,
    )
    from rulebook_build.engine.tables import compact, tablefile
    from rulebook_build.engine.tables.coded import build_packed
    from rulebook_build.engine.tables.endgame import (
        EndgameTables,
        Material,
        Semantics,
        default_cache_dir,
        pair_name,
        successor_classes,
    )
    from rulebook_build.engine.tables.kinds import (
        CACHED_RULES_PIECES,
        DEFAULT_TABLE_PIECES,
        SLICED_PAIRS,
        CheckerTables,
        build_class,
        build_levels,
        checker_tables,
    )
    from rulebook_build.engine.tables.remote import (
        BLOCKS,
        PAGES,
        FetchFailed,
        SiteCheckerTables,
        publish,
        site_checker_tables,
    )
    from rulebook_build.engine.tables.retrograde import WHOLE_PAIR_SLOTS
    from rulebook_build.engine.wasm import wasm_build

__getattr__ = face(
    __name__,
    {
        "BLOCKS": ("rulebook_build.engine.tables.remote", "BLOCKS"),
        "CACHED_RULES_PIECES": ("rulebook_build.engine.tables.kinds", "CACHED_RULES_PIECES"),
        "CheckerTables": ("rulebook_build.engine.tables.kinds", "CheckerTables"),
        "DEFAULT_TABLE_PIECES": ("rulebook_build.engine.tables.kinds", "DEFAULT_TABLE_PIECES"),
        "EndgameTables": ("rulebook_build.engine.tables.endgame", "EndgameTables"),
        "EngineAnswer": ("rulebook_build.engine.binaries", "EngineAnswer"),
        "FetchFailed": ("rulebook_build.engine.tables.remote", "FetchFailed"),
        "Material": ("rulebook_build.engine.tables.endgame", "Material"),
        "NATIVE_FROM_SECONDS": ("rulebook_build.engine.search", "NATIVE_FROM_SECONDS"),
        "NativeProver": ("rulebook_build.engine.binaries", "NativeProver"),
        "Node": ("rulebook_build.engine.search", "Node"),
        "PAGES": ("rulebook_build.engine.tables.remote", "PAGES"),
        "Pieces": ("rulebook_build.engine.binaries", "Pieces"),
        "ProofSearch": ("rulebook_build.engine.search", "ProofSearch"),
        "ProverLike": ("rulebook_build.engine.search", "ProverLike"),
        "ProverSession": ("rulebook_build.engine.binaries", "ProverSession"),
        "SLICED_PAIRS": ("rulebook_build.engine.tables.kinds", "SLICED_PAIRS"),
        "Semantics": ("rulebook_build.engine.tables.endgame", "Semantics"),
        "SiteCheckerTables": ("rulebook_build.engine.tables.remote", "SiteCheckerTables"),
        "TableLike": ("rulebook_build.engine.search", "TableLike"),
        "Timer": ("rulebook_build.engine.budget", "Timer"),
        "WALL": ("rulebook_build.engine.budget", "WALL"),
        "WHOLE_PAIR_SLOTS": ("rulebook_build.engine.tables.retrograde", "WHOLE_PAIR_SLOTS"),
        "WIN_SCORE": ("rulebook_build.engine.binaries", "WIN_SCORE"),
        "Work": ("rulebook_build.engine.budget", "Work"),
        "binaries": ("rulebook_build.engine.binaries", None),
        "build_class": ("rulebook_build.engine.tables.kinds", "build_class"),
        "build_levels": ("rulebook_build.engine.tables.kinds", "build_levels"),
        "build_packed": ("rulebook_build.engine.tables.coded", "build_packed"),
        "checker_tables": ("rulebook_build.engine.tables.kinds", "checker_tables"),
        "compact": ("rulebook_build.engine.tables.compact", None),
        "default_cache_dir": ("rulebook_build.engine.tables.endgame", "default_cache_dir"),
        "machine_cores": ("rulebook_build.engine.binaries", "machine_cores"),
        "pair_name": ("rulebook_build.engine.tables.endgame", "pair_name"),
        "publish": ("rulebook_build.engine.tables.remote", "publish"),
        "root_node": ("rulebook_build.engine.search", "root_node"),
        "site_checker_tables": ("rulebook_build.engine.tables.remote", "site_checker_tables"),
        "successor_classes": ("rulebook_build.engine.tables.endgame", "successor_classes"),
        "tablefile": ("rulebook_build.engine.tables.tablefile", None),
        "wasm": ("rulebook_build.engine.wasm", None),
        "wasm_build": ("rulebook_build.engine.wasm", "wasm_build"),
    },
)

__all__ = [
    "BLOCKS",
    "CACHED_RULES_PIECES",
    "DEFAULT_TABLE_PIECES",
    "NATIVE_FROM_SECONDS",
    "PAGES",
    "SLICED_PAIRS",
    "WALL",
    "WHOLE_PAIR_SLOTS",
    "WIN_SCORE",
    "CheckerTables",
    "EndgameTables",
    "EngineAnswer",
    "FetchFailed",
    "Material",
    "NativeProver",
    "Node",
    "Pieces",
    "ProofSearch",
    "ProverLike",
    "ProverSession",
    "Semantics",
    "SiteCheckerTables",
    "TableLike",
    "Timer",
    "Work",
    "binaries",
    "build_class",
    "build_levels",
    "build_packed",
    "checker_tables",
    "compact",
    "default_cache_dir",
    "machine_cores",
    "pair_name",
    "publish",
    "root_node",
    "site_checker_tables",
    "successor_classes",
    "tablefile",
    "wasm",
    "wasm_build",
]
