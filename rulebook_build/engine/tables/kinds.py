"""The endgame tables as the checker uses them: both kinds together, and what gets built.

The proof search (``search.py``) probes pure values to refute and values with count rules to
prove (``CheckerTables``); ``checker_tables`` says which classes ``rulebook check`` builds on first
use and which it only reads from the cache; ``build_class`` and ``build_levels`` are how
``rulebook tables`` spreads a build over processes and machines.  What a value of each kind means
is ``endgame.py``'s.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact, tablefile
from rulebook_build.engine.tables.endgame import (
    DRAWN,
    MAX_PAIR_SLOTS,
    EndgameTables,
    Outcome,
    Semantics,
)
from rulebook_build.engine.tables.index import Material, material_name, pair_name
from rulebook_build.errors import RulebookError
from rulebook_build.rules import State, Variant, find_variant, fresh_plies, piece_counts

DEFAULT_TABLE_PIECES: Final = {"international": 5, "frisian": 4}
"""The tables ``rulebook check`` builds itself without ``--table-pieces``, and the check page
uses: the Frisian 5-piece classes take about 26 minutes on 2 cores (their art. 17 runs multiply
the positions: 35.5 billion slots, five times the International set's), too long for a first run
by default, and for README's first command, which builds both variants' tables within 20
minutes: the International set takes 9 of them."""
CACHED_PIECES: Final = 5
"""The checker uses classes of up to this many pieces when ``rulebook tables`` has built them."""
CACHED_RULES_PIECES: Final = 6
"""Tables with count rules may go one piece further: 6-piece classes built by slices (see
``native/tablebuild.c``) without their pure partners; they prove, and never refute."""
SLICED_PAIRS: Final[tuple[Material, ...]] = tuple(
    sorted(
        ((men, 4 - men, other_men, 2 - other_men) for men in range(4) for other_men in range(2)),
        key=lambda m: (m[0] + m[2], m),
    )
)
"""The 6-piece pairs ``rulebook tables --pieces 6`` builds by slices, with count rules only: four
pieces with at least one king against two with at least one king, the endings PWCP-2's A9, A11
and A50 run into.  In building order: a promotion leads to a pair with fewer men, built before."""


def build_class(
    variant: str,
    semantics: Semantics,
    max_pieces: int,
    cached_pieces: int,
    cache_dir: str,
    material: Material,
) -> float:
    """Build (or load) a class with its partner in ``cache_dir``: the task that ``rulebook tables
    --jobs`` gives a process and ``--cluster`` a Dask worker (the arguments are plain data, so
    that the task travels).  The seconds its build took, 0.0 if it was there already."""
    tables = EndgameTables(
        find_variant(variant),
        max_pieces=max_pieces,
        max_pair_slots=None,
        cached_pieces=cached_pieces,
        cache_dir=Path(cache_dir),
        semantics=semantics,
    )
    started = time.perf_counter()
    return time.perf_counter() - started if tables.prepare(material) else 0.0


def build_levels(materials: Sequence[Material]) -> list[list[Material]]:
    """The classes to build, one of each pair, in levels whose pairs do not need each other: a
    capture leads to fewer pieces and a promotion to fewer men, so a level is a number of
    pieces and of men, and every level needs only the levels before it."""
    levels: dict[tuple[int, int], list[Material]] = {}
    seen: set[str] = set()
    for material in materials:
        name = pair_name(material)
        if name not in seen:
            seen.add(name)
            levels.setdefault((sum(material), material[0] + material[2]), []).append(material)
    return [levels[key] for key in sorted(levels)]


class CheckerTables:
    """What the proof search probes: pure values to refute, values with count rules to prove.

    A pure loss or draw for White is no White win with the count rules either (they only ever
    turn a game into a draw), so pure tables may close a node as refuted.  A pure win may be one
    that a count rule stops on the way, so a node is closed as proved only by the tables with
    count rules, and only when their distance fits the node's own clocks (``search.py``); of
    that distance :meth:`probe_rules` keeps only whether it fits the class's fresh budget
    (``compact.kept_distance``), as the site publishes it.
    """

    def __init__(self, pure: EndgameTables, rules: EndgameTables) -> None:
        self.pure = pure
        self.rules = rules
        self.variant = pure.variant
        self.max_pieces = pure.max_pieces
        self._prover: binaries.NativeProver | None = None
        self._prover_looked_for = False

    def prover(self) -> binaries.NativeProver | None:
        """The compiled proof search reading these tables, where this variant and machine have
        one (it is compiled on first use, like the builder)."""
        if not self._prover_looked_for:
            self._prover_looked_for = True
            if self.variant.name in binaries.VARIANTS and self.pure.builder == "auto":
                # the compiled search reads the folders itself: no damaged file may be there
                for tables in (self.pure, self.rules):
                    tables.verify_files()
                program = binaries.executable(self.pure.cache_dir, binaries.PROVER_SOURCE)
                if program is not None:
                    folders = (self.pure.folder(), self.rules.folder())
                    self._prover = binaries.NativeProver(program, *folders, variant=self.variant)
        return self._prover

    def probe(self, state: State) -> Outcome | None:
        return self.pure.probe(state)

    def probe_rules(self, state: State) -> Outcome | None:
        """The value with count rules as the checker keeps it (``compact.kept_distance``):
        whether its distance fits a fresh budget, and not how far it is."""
        outcome = self.rules.probe(state)
        if outcome is None or outcome.result == "draw":
            return outcome
        kept = compact.kept_distance(outcome.plies, fresh_plies(self.variant, piece_counts(state)))
        if kept == compact.DRAW:
            return DRAWN  # no count-rule result kept: it proves nothing
        return outcome if kept == outcome.plies else Outcome(outcome.result, kept)

    def missing(self) -> list[tuple[EndgameTables, Material]]:
        """The classes built on first use that are not in the cache yet."""
        return [
            (tables, material)
            for tables in (self.pure, self.rules)
            for material in tables.material_classes()
            if tables.buildable(material) and not tables.in_cache(material)
        ]

    def prepare_missing(self) -> float:
        """Build (or load) the classes built on first use; the seconds it took.

        With the compiled builder and more than one core, the two kinds are built at once (they
        read and write separate folders, and each build is a process of its own): the Frisian
        4-piece tables took 182 s one after the other on 2 cores."""
        started = time.perf_counter()
        missing = self.missing()
        kinds = [self.pure, self.rules]

        def prepare(tables: EndgameTables) -> None:
            for owner, material in missing:
                if owner is tables:
                    tables.prepare(material)

        compiled = self.pure.native_program() is not None
        if (
            compiled
            and binaries.machine_cores() > 1
            and all(any(owner is kind for owner, _ in missing) for kind in kinds)
        ):
            with ThreadPoolExecutor(max_workers=2) as pool:
                for done in [pool.submit(prepare, kind) for kind in kinds]:
                    done.result()
        else:
            for kind in kinds:
                prepare(kind)
        return time.perf_counter() - started

    def build_all(self) -> None:
        self.pure.build_all()
        self.rules.build_all()

    def pack(self, material: Material, target: Path | None = None) -> int:
        """Write the compact file of a class from its two built tables (``compact.py``): into
        the cache, or as ``target``.  Its size in bytes.  The built files must be in the cache
        (a compact table cannot be packed again: it keeps no pure distances).

        Of a count-rule distance the file keeps what the checker reads of it
        (``compact.kept_codes``: whether it fits the class's fresh budget), as the site
        publishes it: every reader applies ``kept_distance`` to what it probes, so a file with
        exact distances (packed before) and one with kept distances give the same answers, and
        the kept ones pack to about two thirds of the bytes."""
        paths = (self.pure.path(material), self.rules.path(material))
        fields = self.pure.compact_fields(material)
        size = self.pure.size(material)
        where = []
        for kind, path in zip((self.pure, self.rules), paths, strict=True):
            with path.open("rb") as stream:
                found = tablefile.expect(stream, kind.fields(material))
                if found is None:
                    raise RulebookError("not a table of these rules", source=str(path))
                tablefile.check(path, stream, found[0], found[1], always=True)
                where.append((path, found[0]))
        program = binaries.executable(self.pure.cache_dir, binaries.PACK_SOURCE)
        if program is not None and sys.byteorder == "little":
            chunks = compact.codes_compiled(program, where[0], where[1], size)
        else:
            chunks = compact.codes_in_python(self.pure.table(material), self.rules.table(material))
        kept = compact.kept_codes(fresh_plies(self.variant, material))
        chunks = (chunk.translate(kept) for chunk in chunks)
        try:
            return compact.write(target or self.pure.compact_path(material), fields, chunks)
        except compact.Disagreement as fault:
            raise RulebookError(
                f"the two tables of {material_name(material)} disagree: {fault}",
                source=str(paths[0].parent),
            ) from None

    def pack_build_codes(
        self, material: Material, pure: Path, rules: Path, *, marked: bool = False
    ) -> int:
        """Write the compact file of a class into the cache from its two kinds' build codes
        (``compact.build_code``: what ``rulebook tables`` builds the Fries Spel 5-piece classes
        as, ``tablebuild ... codes``; of the pure kind its results will do, two bits a slot,
        ``compact.write_results``, and of the count rules' its kept codes where no count runs,
        half a byte a slot, ``compact.write_kept``), in the filled form (``compact.FILLED``):
        the codes :meth:`pack` writes from the int16 tables, but where no probe reads them, in
        a third of the bytes; ``marked``: the count rules' codes mark the positions that must
        capture (``tablebuild ... marked``), else they are generated again.  Its size in
        bytes."""
        program = binaries.executable(self.pure.cache_dir, binaries.PACK_SOURCE)
        if program is None:
            raise RulebookError("packing build codes needs the compiled pack program")
        size = self.pure.size(material)
        for path, lengths in ((pure, (size, -(-size // 4))), (rules, (size, -(-size // 2)))):
            if path.stat().st_size not in lengths:
                raise RulebookError(
                    f"not the build codes of {material_name(material)}: "
                    f"{path.stat().st_size:,} bytes for {size:,} slots",
                    source=str(path),
                )
        kept = compact.kept_codes(fresh_plies(self.variant, material))
        frisian = self.variant.max_consecutive_king_moves is not None
        fill = compact.marked_fill() if marked else compact.generated_fill(frisian, material)
        chunks = compact.codes_of_build_codes(program, pure, rules, size, fill)
        try:
            return compact.write(
                self.pure.compact_path(material),
                self.pure.compact_fields(material),
                (chunk.translate(kept) for chunk in chunks),
                filled=True,
            )
        except compact.Disagreement as fault:
            raise RulebookError(
                f"the two kinds of {material_name(material)} disagree: {fault}",
                source=str(pure.parent),
            ) from None

    def classes(self) -> list[Material]:
        """The classes with a table of both kinds."""
        proven = set(self.rules.material_classes())
        return [m for m in self.pure.material_classes() if m in proven]


def checker_tables(variant: Variant, *, cache_dir: Path | None = None) -> CheckerTables:
    """The tables ``rulebook check`` works with: what can be built in well under a minute is
    built on first use (every class of up to 4 pieces with the compiled builder, of up to 3
    without it), and larger classes are used when they are in the cache."""

    compiled = EndgameTables(variant, cache_dir=cache_dir).native_program() is not None

    def tables(semantics: Semantics) -> EndgameTables:
        return EndgameTables(
            variant,
            max_pieces=4 if compiled else 3,
            max_pair_slots=None if compiled else MAX_PAIR_SLOTS,
            cached_pieces=CACHED_PIECES if semantics == "pure" else CACHED_RULES_PIECES,
            cache_dir=cache_dir,
            semantics=semantics,
        )

    return CheckerTables(tables("pure"), tables("rules"))
