"""Classes built straight into compact files through build codes (``engine/tables/coded.py``),
as ``rulebook tables --variant frisian --pieces 5 --pack`` builds the Fries Spel 5-piece set:
here on Fries Spel 4-piece classes (the 5-piece ones take some 26 minutes), whose compact files
must hold the codes packed from the int16 tables the suite builds, filled (``compact.FILLED``),
and answer every probe as those do."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import coded, compact, retrograde
from rulebook_build.engine.tables.coded import build_packed
from rulebook_build.engine.tables.endgame import EndgameTables
from rulebook_build.engine.tables.index import Material, material_name
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.errors import RulebookError
from rulebook_build.rules import FRISIAN, INTERNATIONAL, generate
from rulebook_build.rules.drawrules import initial_clocks

from . import packs
from .test_endgame import random_state

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")

PAIRS = ((1, 0, 2, 1), (1, 1, 1, 1))
"""1m v 2m1k (the runs of a side with two men and a king, carried by a man's move into the
slice it leads to) and 1m1k v 1m1k (runs on both sides), with what they lead to."""


def closure(pairs: tuple[Material, ...]) -> list[Material]:
    """The 4-piece classes of ``pairs`` and of every 4-piece class they lead to."""
    return sorted(m for m in retrograde.needed_for(pairs) if sum(m) == 4)


def fresh(tmp_path: Path, built: CheckerTables) -> CheckerTables:
    """A cache of its own with the suite's int16 tables of up to 3 pieces, both kinds."""
    tables = checker_tables(FRISIAN, cache_dir=tmp_path)
    for mine, theirs in ((tables.pure, built.pure), (tables.rules, built.rules)):
        mine.folder().mkdir(parents=True, exist_ok=True)
        for table in theirs.folder().glob("*.bin"):
            if sum(int(n) for n in table.stem.replace("m", "").replace("k", "-").split("-")) <= 3:
                (mine.folder() / table.name).symlink_to(table.resolve())
    return tables


def test_classes_built_through_codes_are_packed_as_from_their_int16_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = checker_tables(FRISIAN)
    built.prepare_missing()
    classes = closure(PAIRS)
    assert len(classes) >= 6
    tables = fresh(tmp_path / "cache", built)
    # 1m v 2m1k is built by slices here, as the larger 5-piece pairs with men are
    monkeypatch.setattr(coded, "SLICE_FROM", 100)
    lines: list[str] = []
    sizes: dict[Material, int] = {}
    sliced: list[str] = []
    build_pair = binaries.build_pair

    def watched(*args: object, **options: object) -> None:
        if options.get("slices"):
            sliced.append(material_name(args[2]))  # type: ignore[arg-type]
        build_pair(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(binaries, "build_pair", watched)

    def on_built(material: Material, seconds: float, kind: EndgameTables) -> None:
        lines.append(f"{material_name(material)} {kind.semantics}")
        if len(lines) == 3:  # a run stopped midway
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_packed(tables, classes, jobs=2, on_built=on_built, on_packed=sizes.__setitem__)
    assert any(tables.pure.folder().glob("*.wdl")), "a pure build's codes kept as results"
    # run again: the pairs built are not built again, and every class is packed
    build_packed(tables, classes, jobs=2, on_built=on_built, on_packed=sizes.__setitem__)
    assert len(lines) == len(set(lines)), "no pair built twice"
    assert {"m1k0-m2k1", "m2k1-m1k0"} & set(sliced), sliced
    assert "m1k1-m1k1" not in sliced  # its own partner: built whole
    assert sorted(sizes) == classes
    # the codes packed from the int16 tables, filled: the unused slots and the positions that
    # must capture hold the code before them (pack fill, as the site fills its tables)
    plain = fresh(tmp_path / "plain", built)
    program = binaries.executable(tables.pure.cache_dir, binaries.PACK_SOURCE)
    assert program is not None
    for material in classes:
        built.pack(material, target=plain.pure.compact_path(material))
        codes = packs.codes_in(plain, plain.pure.compact_path(material))
        packed = opened(tables, material)
        assert packed.filled and packed.span == compact.FILLED_BLOCK
        expected = packs.filled(program, material, codes)
        assert bytes(packed.codes()) == expected, material_name(material)
        assert sizes[material] == tables.pure.compact_path(material).stat().st_size
    leftovers = [p.name for k in (tables.pure, tables.rules) for p in k.folder().iterdir()]
    assert not [n for n in leftovers if not n.endswith((".bin", ".pack"))], leftovers
    # the checker reads them as it reads the classes packed from int16 tables
    assert all(tables.pure.in_cache(m) and tables.rules.in_cache(m) for m in classes)
    same_answers(plain, tables, classes)


def opened(tables: CheckerTables, material: Material) -> compact.CompactTable:
    """A class's compact file in the cache of ``tables``."""
    return compact.CompactTable(
        tables.pure.compact_path(material), tables.pure.compact_fields(material)
    )


def same_answers(plain: CheckerTables, filled: CheckerTables, classes: list[Material]) -> None:
    """The filled files answer every probe as the plain ones do, positions that must capture
    (worked out from what their captures lead to) and the others alike: in Python and in the
    compiled search."""
    rng = random.Random(55)
    compiled = plain.prover()
    assert compiled is not None
    readers = [
        binaries.NativeProver(compiled.program, t.pure.folder(), t.rules.folder(), variant=FRISIAN)
        for t in (plain, filled)
    ]
    sessions = [reader.session(1) for reader in readers]
    try:
        capturing = 0
        for material in classes:
            for _ in range(60):
                state = random_state(rng, FRISIAN, material)
                moves = generate(FRISIAN, state)
                capturing += bool(moves) and bool(moves[0][2])
                clocks = initial_clocks(FRISIAN, state)
                python = [(t.probe(state), t.probe_rules(state)) for t in (plain, filled)]
                assert python[0] == python[1], (material_name(material), state)
                assert python[0][0] is not None
                native = [session.probe(state, clocks) for session in sessions]
                assert native[0] == native[1], (material_name(material), state)
        assert capturing > 100, capturing
    finally:
        for session in sessions:
            session.close()


def test_results_only_are_refused_where_the_count_rules_need_distances(tmp_path: Path) -> None:
    # International count rules carry a count into a promotion's class: a child's results
    # alone would be a guess, and the builder says so instead of building on it
    tables = EndgameTables(INTERNATIONAL, max_pieces=3, cache_dir=tmp_path, semantics="rules")
    tables.build_all()
    program = tables.native_program()
    assert program is not None
    folder = tables.folder()
    (folder / "m0k1-m0k2.wdl").write_bytes(bytes(-(-tables.size((0, 1, 0, 2)) // 4)))
    with pytest.raises(RulebookError, match="results only, where the count rules need distances"):
        binaries.build_pair(program, folder, (1, 1, 0, 1), rules=True, codes=True)
    assert not list(folder.glob("*.body*"))


def test_a_full_disk_is_said_with_the_room_left_and_keeps_what_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = checker_tables(FRISIAN)
    built.prepare_missing()
    tables = fresh(tmp_path / "cache", built)

    def full(*args: object, **options: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(compact, "write", full)
    with pytest.raises(
        RulebookError,
        match=r"cannot write m0k1-m0k3\.pack: No space left on device; [\d.]+ GB free there",
    ):
        build_packed(
            tables,
            [(0, 1, 0, 3), (0, 3, 0, 1)],
            jobs=1,
            on_built=lambda *a: None,
            on_packed=lambda *a: None,
        )
    # what is built is kept, as the builds left it, and nothing half-written: the next run
    # packs it
    names = sorted(p.name for k in (tables.pure, tables.rules) for p in k.folder().iterdir())
    assert [n for n in names if not n.endswith(".bin")] == [
        "m0k1-m0k3.kept",
        "m0k1-m0k3.wdl",
        "m0k3-m0k1.kept",
        "m0k3-m0k1.wdl",
    ], names
