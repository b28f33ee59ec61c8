"""Classes built straight into compact files through build codes (``engine/tables/coded.py``),
as ``rulebook tables --variant frisian --pieces 5 --pack`` builds the Fries Spel 5-piece set:
here on Fries Spel 4-piece classes (the 5-piece ones take half an hour), whose compact files
must be those packed from the int16 tables the suite builds, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import coded, retrograde
from rulebook_build.engine.tables.coded import build_packed
from rulebook_build.engine.tables.endgame import EndgameTables
from rulebook_build.engine.tables.index import Material, material_name
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.errors import RulebookError
from rulebook_build.rules import FRISIAN, INTERNATIONAL

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
    for material in classes:
        target = tmp_path / f"{material_name(material)}.pack"
        built.pack(material, target=target)
        packed = tables.pure.compact_path(material).read_bytes()
        assert packed == target.read_bytes(), material_name(material)
        assert sizes[material] == len(packed)
    leftovers = [p.name for k in (tables.pure, tables.rules) for p in k.folder().iterdir()]
    assert not [n for n in leftovers if not n.endswith((".bin", ".pack"))], leftovers
    # the checker reads them as it reads the classes packed from int16 tables
    assert all(tables.pure.in_cache(m) and tables.rules.in_cache(m) for m in classes)


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

    monkeypatch.setattr(coded.compact, "write_results", full)
    with pytest.raises(
        RulebookError,
        match=r"cannot write m0k1-m0k3\.wdl: No space left on device; [\d.]+ GB free there",
    ):
        build_packed(
            tables,
            [(0, 1, 0, 3), (0, 3, 0, 1)],
            jobs=1,
            on_built=lambda *a: None,
            on_packed=lambda *a: None,
        )
    # the pure build's codes are kept, not half-written results: the next run goes on from there
    assert (tables.pure.folder() / "m0k1-m0k3.code").is_file()
    assert not list(tables.pure.folder().glob("*.wdl")) and not list(
        tables.pure.folder().glob("*.tmp")
    )
