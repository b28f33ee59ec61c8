"""The compiled table builder makes the same tables as the Python builder, in both variants.

Every International class of up to 3 pieces (captures of one and two pieces by men and kings,
promotions, blocked men) is built both ways into separate temporary caches and compared slot for
slot; with the count rules, the classes where a count rule can end the game (International art.
9, Fries Spel art. 18 and 21) and the 2-piece ones, in both variants (``benchmarks/builders.py``
compares them all, both kinds, the Fries Spel pure 3-piece classes too).  Those Fries Spel pure
classes, with the art. 17 runs of a side with a king and a man, are checked here on 3,000
random positions each against the Python engine's moves: their Python build was the suite's
slowest test; of them, only the pair 1m1k v 1k is compared slot for slot.  (All International
4-piece classes were compared once by hand: 0 slots differ; in Python they take half an
hour.)  The Frisian 4-piece class of two kings and a man against a king, where a run belongs to
one of two kings, is checked on a sample against the Python engine's moves
(``first_inconsistency`` checked all of it once: benchmarks/README.md).  The tests of
``test_endgame.py`` check the tables against the rules themselves (a value is the minimax of
its children's values).
"""

from __future__ import annotations

import os
import platform
import random
import sys
from pathlib import Path
from typing import Final

import pytest

from rulebook_build.cachedir import ENVIRONMENT
from rulebook_build.engine import binaries
from rulebook_build.engine.tables.endgame import EndgameTables, Semantics
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Variant
from rulebook_build.rules.drawrules import lone_king_ending
from tests.checker.test_endgame import random_state

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")


def pair(
    factory: pytest.TempPathFactory, semantics: Semantics, variant: Variant = INTERNATIONAL
) -> tuple[EndgameTables, EndgameTables]:
    compiled = EndgameTables(variant, cache_dir=factory.mktemp("c"), semantics=semantics)
    python = EndgameTables(
        variant, cache_dir=factory.mktemp("py"), builder="python", semantics=semantics
    )
    return compiled, python


@pytest.fixture(
    scope="module",
    params=[(v, s) for v in (INTERNATIONAL, FRISIAN) for s in ("pure", "rules")],
    ids=lambda p: f"{p[0].name}-{p[1]}",
)
def both(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[EndgameTables, EndgameTables]:
    variant, semantics = request.param
    return pair(tmp_path_factory, semantics, variant)


def test_the_compiled_builder_is_used_for_both_variants(
    both: tuple[EndgameTables, EndgameTables],
) -> None:
    compiled, python = both
    compiled.prepare((0, 1, 0, 1))
    python.prepare((0, 1, 0, 1))
    assert compiled.build_seconds and python.build_seconds
    assert list(compiled.cache_dir.rglob("bin/tablebuild-*")), "the program is kept in the cache"
    assert not list(python.cache_dir.rglob("bin/tablebuild-*"))


def counted(variant: Variant, material: tuple[int, int, int, int]) -> bool:
    """Whether a count rule can end a game of this material: kings only (International art. 9d,
    Fries Spel art. 18 and 21) or, in International, one king against a king and at most two
    more pieces (art. 9b-c)."""
    kings_only = material[0] == material[2] == 0
    if variant is FRISIAN:
        return kings_only
    return kings_only or lone_king_ending(material) is not None


@pytest.fixture(
    scope="module",
    params=[(INTERNATIONAL, "pure"), (INTERNATIONAL, "rules"), (FRISIAN, "rules")],
    ids=lambda p: f"{p[0].name}-{p[1]}",
)
def compared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[EndgameTables, EndgameTables]:
    """The builders compared slot for slot here.  Fries Spel's pure 3-piece classes take the
    Python builder a minute and a half in a busy suite (their art. 17 runs multiply the
    positions), more than any other test: benchmarks/builders.py compares them slot for slot
    (every class, both kinds, both variants), and the suite checks a sample of each of them
    against the rules (``test_every_frisian_3_piece_table_follows_the_rules_on_a_sample``)."""
    variant, semantics = request.param
    return pair(tmp_path_factory, semantics, variant)


def test_both_builders_give_every_slot_the_same_value(
    compared: tuple[EndgameTables, EndgameTables],
) -> None:
    # pure: every class of up to 3 pieces; with the count rules: the 2-piece classes and those
    # where a count rule can end the game (the others are the pure tables again, the Python
    # builder takes a minute a variant for them; benchmarks/builders.py compares them all)
    compiled, python = compared
    classes = compiled.material_classes()
    assert len(classes) == 16
    if compiled.semantics == "rules":
        classes = [m for m in classes if sum(m) == 2 or counted(compiled.variant, m)]
        assert len(classes) == (6 if compiled.variant is FRISIAN else 8)
    for material in classes:
        ours, reference = compiled.table(material), python.table(material)
        assert len(ours) == len(reference) == compiled.size(material)
        differences = [i for i in range(len(ours)) if ours[i] != reference[i]]
        assert not differences, f"{material}: {len(differences)} slots differ"
        stats = compiled.stats(material)
        assert stats["win"] + stats["loss"] > 0


def test_a_frisian_class_with_runs_is_built_as_the_python_builder_builds_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # one man and a king against a king, pure, slot for slot: the Fries Spel 3-piece pair with
    # the art. 17 runs of a side (the compiled builder works a placement's moves out once a
    # run, and a blocked king's quiet moves are taken off its side's run of three), with
    # orthogonal captures by the man and by both kings, and promotions; the other Fries Spel
    # pure classes are compared in benchmarks/builders.py (the Python builder's time)
    compiled, python = pair(tmp_path_factory, "pure", FRISIAN)
    material = (1, 1, 0, 1)
    for member in (material, (0, 1, 1, 1)):
        ours, reference = compiled.table(member), python.table(member)
        assert len(ours) == len(reference) == compiled.size(member)
        differences = [i for i in range(len(ours)) if ours[i] != reference[i]]
        assert not differences, f"{member}: {len(differences)} slots differ"
    stats = compiled.stats(material)
    assert stats["win"] > 0 and stats["loss"] > 0 and stats["draw"] > 0


def test_the_checker_builds_4_pieces_itself_only_with_the_compiled_builder(
    tmp_path: Path,
) -> None:
    for variant in (INTERNATIONAL, FRISIAN):
        tables = checker_tables(variant, cache_dir=tmp_path)
        assert tables.pure.max_pieces == tables.rules.max_pieces == 4


def test_every_frisian_3_piece_table_follows_the_rules_on_a_sample() -> None:
    # the compiled builder's pure Fries Spel tables of up to 3 pieces (compared slot for slot
    # with the Python builder's in benchmarks/builders.py): in each class, random positions
    # with either side to move and random art. 17 runs of both sides, each value what its
    # moves make it (one retrograde step, by the Python engine's moves)
    tables = checker_tables(FRISIAN).pure
    classes = [m for m in tables.material_classes() if sum(m) <= 3]
    assert len(classes) == 16
    rng = random.Random(20261126)
    with_run = decided = 0
    for material in classes:
        tables.prepare(material)
        for _ in range(3000):
            state = random_state(rng, FRISIAN, material)
            stored = tables.probe(state)
            assert stored is not None
            assert stored == tables._from_successors(state), (material, state)
            with_run += bool(state[5][0] or state[6][0])
            decided += stored.result != "draw"
    assert with_run >= 8000 and decided >= 30000  # of 48,000 (8,914 and 37,124)


def test_a_frisian_4_piece_table_follows_the_rules_on_a_sample() -> None:
    # two kings and a man against a king: the run of art. 17 belongs to one of two kings, which
    # no 3-piece class has; each sampled value must be what its moves make it (one retrograde
    # step, by the Python engine's moves and the tables of the classes they lead to)
    tables = checker_tables(FRISIAN).pure
    material = (1, 2, 0, 1)
    tables.prepare(material)
    rng = random.Random(17)
    checked = with_run = decided = 0
    for _ in range(1500):
        state = random_state(rng, FRISIAN, material)  # either side to move
        stored = tables.probe(state)
        assert stored is not None
        assert stored == tables._from_successors(state), state
        checked += 1
        with_run += bool(state[5][0])
        decided += stored.result != "draw"
    assert checked == 1500 and with_run >= 300 and decided >= 300


def test_a_missing_input_table_is_an_error_not_a_guess(tmp_path: Path) -> None:
    tables = EndgameTables(INTERNATIONAL, max_pieces=3, cache_dir=tmp_path)
    program = tables.native_program()
    assert program is not None
    folder = tmp_path / "empty"
    folder.mkdir()
    from rulebook_build.errors import RulebookError

    with pytest.raises(RulebookError, match="build the smaller classes first"):
        binaries.build_pair(program, folder, (1, 1, 0, 1))
    assert not list(folder.glob("*.body"))


def asymmetric_pairs(materials: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Each pair of classes (a class and its partner) once, leaving out classes that are their
    own partner (built whole only)."""
    found: list[tuple[int, int, int, int]] = []
    for a, b, c, d in materials:
        if (a, b) != (c, d) and (c, d, a, b) not in found:
            found.append((a, b, c, d))
    return found


FRISIAN_SLICED: Final = ((1, 0, 2, 1),)
"""The Frisian 4-piece pair the suite builds by slices too (10 s a kind; all eleven take some
140 s a kind and were compared once: the same bytes, both kinds): a side of two men and a king
has art. 17 runs, which a man's move of the other side carries into the slice it leads to."""


@pytest.mark.parametrize(
    ("variant", "semantics", "jobs"),
    [
        (INTERNATIONAL, "pure", 1),
        (INTERNATIONAL, "rules", 3),
        (FRISIAN, "pure", 1),
        (FRISIAN, "rules", 2),
    ],
    ids=lambda p: getattr(p, "name", str(p)),
)
def test_a_pair_built_by_slices_is_the_pair_built_whole(
    variant: Variant, semantics: Semantics, jobs: int, tmp_path: Path
) -> None:
    # every 4-piece pair (men of both sides, kings, promotions): one configuration of the men
    # at a time, each man's move looked up in a slice built before, must give the same bytes;
    # with jobs, the slices of each level shared out to processes that write the same files.
    # Fries Spel: every 3-piece pair and FRISIAN_SLICED, the runs of art. 17 in each slice
    tables = checker_tables(variant)
    tables.prepare_missing()
    whole = tables.pure if semantics == "pure" else tables.rules
    program = whole.native_program()
    assert program is not None
    for table in whole.folder().glob("*.bin"):
        (tmp_path / table.name).symlink_to(table.resolve())
    if variant is FRISIAN:
        pairs = asymmetric_pairs([m for m in whole.material_classes() if sum(m) == 3])
        pairs += list(FRISIAN_SLICED)
        assert any(whole.layout(m).other_counters > 1 for m in pairs)  # runs in the slices
    else:
        pairs = asymmetric_pairs([m for m in whole.material_classes() if sum(m) == 4])
        assert len(pairs) >= 10 and any(m[0] and m[2] for m in pairs)
    for material in pairs:
        binaries.build_pair(
            program,
            tmp_path,
            material,
            rules=semantics == "rules",
            frisian=variant is FRISIAN,
            slices=True,
            jobs=jobs,
        )
        a, b, c, d = material
        for name in (f"m{a}k{b}-m{c}k{d}", f"m{c}k{d}-m{a}k{b}"):
            built = (tmp_path / f"{name}.body").read_bytes()
            stored = (whole.folder() / f"{name}.bin").read_bytes()
            header_end = stored.index(b"\n", stored.index(b"\n") + 1) + 1
            assert built == stored[header_end:], f"{name}: the slices differ from the whole"
    assert not list(tmp_path.glob("*.part"))


def test_a_class_that_is_its_own_partner_is_not_built_by_slices(tmp_path: Path) -> None:
    tables = EndgameTables(INTERNATIONAL, max_pieces=2, cache_dir=tmp_path)
    tables.build_all()
    program = tables.native_program()
    assert program is not None
    from rulebook_build.errors import RulebookError

    with pytest.raises(RulebookError, match="its own partner"):
        binaries.build_pair(program, tables.folder(), (0, 1, 0, 1), slices=True)
    assert not list(tables.folder().glob("*.body*"))


def test_a_pair_built_by_slices_is_installed_as_the_whole_build_would_store_it(
    tmp_path: Path,
) -> None:
    # a man with two kings against a king: promotions into 3 kings v 1, captures into 3 pieces
    material, partner = (1, 2, 0, 1), (0, 1, 1, 2)
    sliced = EndgameTables(INTERNATIONAL, max_pieces=4, cache_dir=tmp_path / "s", semantics="rules")
    whole = EndgameTables(
        INTERNATIONAL,
        max_pieces=4,
        max_pair_slots=None,
        cache_dir=tmp_path / "w",
        semantics="rules",
    )
    for smaller in [m for m in sliced.material_classes() if sum(m) <= 3] + [(0, 3, 0, 1)]:
        sliced.table(smaller)  # what the pair's captures and promotions lead to
    lines: list[str] = []
    sliced.build_by_slices(material, lines.append)
    whole.table(material)
    for member in (material, partner):
        # the same file, header and all, and nothing else left in the folder
        assert sliced.path(member).read_bytes() == whole.path(member).read_bytes()
    assert lines and lines[-1].startswith("tablebuild: ") and "slices done" in lines[-1]
    leftovers = [p.name for p in sliced.folder().iterdir() if p.suffix != ".bin"]
    assert not leftovers
    fresh = EndgameTables(
        INTERNATIONAL, max_pieces=3, cached_pieces=4, cache_dir=tmp_path / "s", semantics="rules"
    )
    assert fresh.supports(material) and fresh._load(material) is not None


def test_a_pair_by_slices_without_its_smaller_classes_is_refused_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    from rulebook_build.errors import RulebookError

    tables = EndgameTables(INTERNATIONAL, max_pieces=3, cache_dir=tmp_path, semantics="rules")
    tables.build_all()
    before = sorted(p.name for p in tables.folder().iterdir())
    # 1 man 2 kings v 1 king promotes into 3 kings v 1, which is not built
    with pytest.raises(RulebookError, match="build m0k1-m0k3 first"):
        tables.build_by_slices((1, 2, 0, 1))
    with pytest.raises(RulebookError, match="its own partner"):
        tables.build_by_slices((0, 2, 0, 2))
    assert sorted(p.name for p in tables.folder().iterdir()) == before


def test_a_pair_too_large_to_build_whole_is_built_by_slices_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the two largest Fries Spel 5-piece pairs are built by slices when a build reaches them;
    # here the bound is lowered so that the 3-piece pairs with art. 17 runs take that path
    from rulebook_build.engine.tables import retrograde

    whole = EndgameTables(FRISIAN, cache_dir=tmp_path / "w", semantics="rules")
    sliced = EndgameTables(FRISIAN, cache_dir=tmp_path / "s", semantics="rules")
    whole.build_all()
    monkeypatch.setattr(retrograde, "WHOLE_PAIR_SLOTS", 100_000)
    monkeypatch.setattr(retrograde, "PROGRESS_SECONDS", 0)
    material = (1, 1, 0, 1)  # a man and a king against a king: the runs of the side with both
    assert sliced.pair_slots(material) > 100_000
    assert sliced.prepare(material) and material in sliced.build_seconds
    assert "m1k1-m0k1: " in capsys.readouterr().err  # the builder's slices, named
    for member in (material, (0, 1, 1, 1)):
        assert sliced.path(member).read_bytes() == whole.path(member).read_bytes()
    rng = random.Random(17)
    for _ in range(300):
        state = random_state(rng, FRISIAN, material)
        assert sliced.probe(state) == whole.probe(state)


@pytest.mark.parametrize(
    ("flags", "wanted"), [("fpu sse2 popcnt lahf_lm", ("-mpopcnt",)), ("fpu sse2 lahf_lm", ())]
)
def test_the_bit_count_instruction_is_asked_for_only_where_the_processor_has_it(
    tmp_path: Path, flags: str, wanted: tuple[str, ...]
) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n", encoding="utf-8")
    if platform.machine().lower() not in ("x86_64", "amd64"):
        wanted = ()  # other processors are compiled for as they are
    assert binaries.machine_flags(cpuinfo) == wanted
    assert binaries.machine_flags(tmp_path / "missing") == ()


def test_a_compiler_that_refuses_the_machine_flags_still_gives_a_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a flag no compiler knows: the program is compiled without it, not left to Python
    monkeypatch.setattr(binaries, "machine_flags", lambda: ("-mno-such-flag-anywhere",))
    program = binaries.executable(tmp_path, binaries.PACK_SOURCE)
    assert program is not None and program.is_file()
    assert len(list((tmp_path / "bin").glob("*.failed"))) == 1  # tried once, remembered
    assert binaries.executable(tmp_path, binaries.PACK_SOURCE) == program


def test_a_cache_of_its_own_takes_the_program_the_users_cache_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path / "user"))
    compiled = binaries.executable(tmp_path / "user" / "endgame", binaries.PACK_SOURCE)
    assert compiled is not None
    monkeypatch.setattr(binaries, "compiler", lambda: None)  # nothing is compiled from now on
    taken = binaries.executable(tmp_path / "own", binaries.PACK_SOURCE)
    assert taken == tmp_path / "own" / "bin" / compiled.name
    assert taken.read_bytes() == compiled.read_bytes() and os.access(taken, os.X_OK)
    assert [p.name for p in taken.parent.iterdir()] == [compiled.name]  # no temporary left
    # a program the user's cache does not hold is not to be had without a compiler
    assert binaries.executable(tmp_path / "other", binaries.SOURCE) is None


def build_codes_of(table: bytes, *, rules: bool) -> bytes:
    """The build codes of a built table file's values (``compact.build_code``)."""
    from array import array

    from rulebook_build.engine.tables.compact import build_code

    values = array("h")
    values.frombytes(table[table.index(b"\n", table.index(b"\n") + 1) + 1 :])
    if sys.byteorder != "little":
        values.byteswap()
    codes = {v: build_code(v, rules=rules) for v in set(values)}
    return bytes(codes[v] for v in values)


def test_a_frisian_build_in_codes_from_codes_gives_the_codes_and_packs_of_the_int16_build(
    tmp_path: Path,
) -> None:
    # every Frisian pair of up to 3 pieces and FRISIAN_SLICED (by slices, art. 17 runs carried
    # into the slices built before), each built with "codes" from the codes of the classes it
    # leads to alone (no int16 table in the folder): its codes are those of the int16 tables
    # the suite builds, the count-rule distances within the cap exactly (Fries Spel art. 18's
    # 13 plies among them) and the results of both kinds, and a pure build's results alone
    # are those of its codes; the compact file packed from the two kinds' codes holds the codes
    # packed from the int16 tables, filled (compact.FILLED), and so does the one packed from
    # the pure results and the count rules' kept codes, where no count runs
    from rulebook_build.engine.tables import compact
    from rulebook_build.engine.tables.kinds import build_levels
    from rulebook_build.engine.tables.retrograde import members_of, needed_for
    from rulebook_build.rules import fresh_plies

    from . import packs

    tables = checker_tables(FRISIAN)
    tables.prepare_missing()
    program = tables.pure.native_program()
    assert program is not None
    size_of = tables.pure.size
    wanted = {m for m in tables.pure.material_classes() if sum(m) <= 3}
    wanted |= needed_for(FRISIAN_SLICED)
    assert any(sum(m) == 4 for m in wanted - set(FRISIAN_SLICED))  # a promotion's 4-piece class
    for whole in (tables.pure, tables.rules):
        rules = whole is tables.rules
        folder = tmp_path / whole.semantics
        folder.mkdir()
        for level in build_levels(sorted(wanted)):
            for material in level:
                slices = material in FRISIAN_SLICED
                built_by = {"rules": rules, "frisian": True, "codes": True, "slices": slices}
                # with the count rules, the positions that must capture marked (bit 7)
                binaries.build_pair(program, folder, material, marked=rules, **built_by)
                for member in members_of(material):
                    name = "m{}k{}-m{}k{}".format(*member)
                    built = (folder / f"{name}.body").read_bytes()
                    stored = (whole.folder() / f"{name}.bin").read_bytes()
                    marks = bytes(c & 0x80 for c in built)
                    assert any(marks) == rules, name
                    built = bytes(c & 0x7F for c in built)
                    assert built == build_codes_of(stored, rules=rules), name
                    (folder / f"{name}.body").rename(folder / f"{name}.code")
                if rules:
                    continue
                # a pure build's results alone, two bits a slot (jobs by slices or together)
                jobs = 2 if slices else 1
                binaries.build_pair(program, folder, material, results=True, jobs=jobs, **built_by)
                for member in members_of(material):
                    name = "m{}k{}-m{}k{}".format(*member)
                    codes = (folder / f"{name}.code").read_bytes()
                    results = (folder / f"{name}.body").read_bytes()
                    assert results == packs.results_of(codes), name
                    (folder / f"{name}.body").unlink()
        assert len(list(folder.glob("*.code"))) == len(wanted) and not list(folder.glob("*.bin"))
    packing = checker_tables(FRISIAN, cache_dir=tmp_path / "cache")
    keeping = checker_tables(FRISIAN, cache_dir=tmp_path / "kept")
    pack = binaries.executable(tables.pure.cache_dir, binaries.PACK_SOURCE)
    assert pack is not None
    for material in sorted(wanted):
        name = "m{}k{}-m{}k{}".format(*material)
        codes = [tmp_path / kind / f"{name}.code" for kind in ("pure", "rules")]
        # filled by the positions' captures generated again, then by the build's marks
        generated = packing.pure.compact_path(material).with_suffix(".generated")
        packing.pack_build_codes(material, *codes)
        packing.pure.compact_path(material).replace(generated)
        size = packing.pack_build_codes(material, *codes, marked=True)
        assert packing.pure.compact_path(material).read_bytes() == generated.read_bytes(), name
        plain = tmp_path / f"{name}.pack"
        tables.pack(material, target=plain)
        packed = packing.pure.compact_path(material)
        assert packed.stat().st_size == size, name
        # the codes packed from the int16 tables, filled as a filled file holds them
        codes = packs.codes_in(tables, plain)
        assert packs.codes_in(tables, packed) == packs.filled(pack, material, codes), name
        if fresh_plies(FRISIAN, material) is not None:
            continue  # a count runs there (art. 18): kept codes keep too little
        # the same file from the pure kind's results and the count rules' kept codes
        results, kept = tmp_path / f"{name}.wdl", tmp_path / f"{name}.kept"
        compact.write_results(pack, tmp_path / "pure" / f"{name}.code", results, size_of(material))
        kept.write_bytes((tmp_path / "rules" / f"{name}.code").read_bytes())
        compact.write_kept(pack, kept, size_of(material))
        assert kept.stat().st_size == -(-size_of(material) // 2)
        keeping.pack_build_codes(material, results, kept, marked=True)
        assert keeping.pure.compact_path(material).read_bytes() == packed.read_bytes(), name
    # a class's codes of another class, or of the wrong kind, are refused, not packed
    from rulebook_build.errors import RulebookError

    with pytest.raises(RulebookError, match="not the build codes of m1k1-m0k1"):
        packing.pack_build_codes(
            (1, 1, 0, 1), *(tmp_path / k / "m1k0-m0k1.code" for k in ("pure", "rules"))
        )
    with pytest.raises(RulebookError, match="disagree"):
        packing.pack_build_codes(
            (1, 1, 0, 1), *(tmp_path / k / "m1k1-m0k1.code" for k in ("rules", "rules"))
        )
