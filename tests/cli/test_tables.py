"""``rulebook tables``: lists and builds the endgame tables, refuses what it cannot do."""

from __future__ import annotations

import re
from array import array
from pathlib import Path

import pytest

from rulebook_build.cli import main
from rulebook_build.engine.tables import endgame, kinds, retrograde, tablefile
from rulebook_build.rules import find_variant


def test_list_names_every_class_and_whether_it_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    assert main(["tables", "--pieces", "2", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4  # king or man against king or man
    assert all(line.endswith("pure not built, rules not built") for line in lines)
    assert main(["tables", "--pieces", "2"]) == 0
    last = capsys.readouterr().err.splitlines()[-1]
    assert "every class of up to 2 pieces" in last
    assert re.search(r"\(\d+ s, \d+ s of CPU\)$", last), last  # wall time and work done
    assert main(["tables", "--pieces", "2", "--list"]) == 0
    assert all(
        line.endswith("pure cached, rules cached") for line in capsys.readouterr().out.splitlines()
    )


def test_an_impossible_piece_count_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["tables", "--pieces", "7"])
    assert stop.value.code == 2
    assert "argument --pieces: must be a whole number from 2 to 6, not '7'" in (
        capsys.readouterr().err
    )


def test_six_piece_frisian_tables_are_refused_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    assert main(["tables", "--variant", "frisian", "--pieces", "6"]) == 2
    error = capsys.readouterr().err
    assert "6-piece tables for frisian are not built" in error
    assert "'--pieces 5' builds every Frisian class of up to 5 pieces" in error
    assert not list(tmp_path.rglob("*.bin"))


def test_five_piece_frisian_tables_list_the_two_pairs_built_by_slices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the art. 17 run digits make 1m1k v 2m1k and 1m1k v 1m2k too large to build whole
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    assert main(["tables", "--variant", "frisian", "--pieces", "5", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    sliced = sorted(line.split("  ")[0].strip() for line in lines if line.endswith("by slices"))
    assert sliced == [
        "1 man 1 king v 1 man 2 kings",
        "1 man 1 king v 2 men 1 king",
        "1 man 2 kings v 1 man 1 king",
        "2 men 1 king v 1 man 1 king",
    ]
    assert sum("6,945,750,000 slots" in line for line in lines) == 2
    assert len(lines) > 40 and not list(tmp_path.rglob("*.bin"))


def test_six_pieces_lists_the_pairs_built_by_slices_with_count_rules_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(["tables", "--pieces", "6", "--jobs", "0"])
    assert stop.value.code == 2
    assert "argument --jobs: must be a whole number from 1 to 1,024, not '0'" in (
        capsys.readouterr().err
    )
    assert main(["tables", "--pieces", "6", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    sliced = [line for line in lines if "by slices" in line]
    assert len(sliced) == len(kinds.SLICED_PAIRS) == 8
    assert sliced[0].startswith("4 kings v 2 kings ")
    assert sliced[-1].startswith("3 men 1 king v 1 man 1 king ")
    assert all("rules not built" in line for line in sliced)
    # the 5-piece classes come first, as with --pieces 5
    assert len(lines) - len(sliced) == sum(
        1 for line in lines if line.endswith("pure not built, rules not built")
    )


# every class of up to 2 pieces: the check of every entry runs in Python, the same code for any
# number of pieces (up to 3 took a minute); the command's contract does not depend on the size
@pytest.mark.parametrize(("variant", "pieces"), [("international", 2), ("frisian", 2)])
def test_verify_passes_on_built_tables_and_fails_on_a_broken_one(
    variant: str,
    pieces: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    arguments = ["tables", "--variant", variant, "--pieces", str(pieces)]
    assert main(arguments) == 0
    assert main([*arguments, "--verify"]) == 0
    out = capsys.readouterr().out
    assert "every entry of" in out and "agrees with its successors" in out

    # one value changed and the checksum made to fit: only the check of the entries sees it
    tables = endgame.EndgameTables(find_variant(variant), max_pieces=pieces)
    material = (0, 1, 0, 1)
    path = tables.folder() / "m0k1-m0k1.bin"
    values = array("h")
    with path.open("rb") as stream:
        found = tablefile.read_header(stream)
        assert found is not None
        fields, offset = found
        stream.seek(offset)
        values.frombytes(stream.read())
    index = next(i for i, v in enumerate(values) if v not in (retrograde.UNUSED, retrograde.DRAW))
    values[index] = retrograde.DRAW
    del fields["checksum"]
    tablefile.write(path, fields, values.tobytes())
    assert main([*arguments, "--verify"]) == 1
    assert "inconsistent: m0k1-m0k1:" in capsys.readouterr().err
    assert tables.size(material) == len(values)

    # a byte flipped behind the checksum's back: refused, moved aside, and named
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01
    path.write_bytes(bytes(data))
    assert main([*arguments, "--verify"]) == 1
    assert f"damaged: {path}" in capsys.readouterr().err
    assert not path.exists()


def test_export_then_install_elsewhere_checks_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    federation, composer, shipped = tmp_path / "built", tmp_path / "mine", tmp_path / "shipped"
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", federation)
    assert main(["tables", "--pieces", "2"]) == 0
    assert main(["tables", "--pieces", "2", "--export", str(shipped)]) == 0
    exported = sorted(shipped.rglob("*.bin"))
    assert len(exported) == 8  # four classes, pure and with count rules

    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", composer)
    flip = exported[0]
    data = bytearray(flip.read_bytes())
    data[-1] ^= 0x01  # damaged on the way
    flip.write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["tables", "--pieces", "2", "--install", str(shipped)]) == 1
    err = capsys.readouterr().err
    assert f"refused: {flip}: its values do not match its checksum" in err
    installed = sorted(p.name for p in composer.rglob("*.bin"))
    assert len(installed) == 7 and flip.name in installed  # its twin of the other kind came
    assert main(["tables", "--pieces", "2", "--verify"]) == 0  # what was installed is sound

    # tables of other rules (here: none of this variant) are not installed
    assert main(["tables", "--variant", "frisian", "--pieces", "2", "--install", str(shipped)]) == 2
    assert "no tables of these rules here" in capsys.readouterr().err


def test_a_terminal_gets_a_progress_bar_over_the_slots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code = main(
        ["tables", "--variant", "international", "--pieces", "2", "--cache-dir", str(tmp_path)]
    )
    assert code == 0
    err = capsys.readouterr().err
    assert "built 1 king v 1 king with its partner, pure" in err  # the line per class
    assert "slots/s" in err or " slots]" in err  # tqdm's bar, counting slots


def table_folders(cache: Path) -> list[str]:
    pattern = re.compile(r"international(-rules)?-v\d+-[0-9a-f]{16}")
    return sorted(p.name for p in cache.iterdir() if pattern.fullmatch(p.name))


def test_prune_deletes_only_tables_built_for_other_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    assert main(["tables", "--pieces", "2"]) == 0
    cache = tmp_path  # the cache's endgame folder
    in_use = table_folders(cache)
    assert len(in_use) == 2  # pure and with count rules
    stale = [
        cache / "international-v1-0123456789abcdef",
        cache / "international-rules-v2-fedcba9876543210",
    ]
    for folder in stale:
        folder.mkdir()
        (folder / "m0k1-m0k1.bin").write_bytes(b"\0" * 1000)
        folder.with_name(folder.name + ".lock").touch()
        (folder.with_name(folder.name + ".locks")).mkdir()
    kept = [cache / "frisian-v1-0123456789abcdef", cache / "international-notes"]
    for folder in kept:
        folder.mkdir()
    capsys.readouterr()
    assert main(["tables", "--prune"]) == 0
    out = capsys.readouterr().out
    assert all(f"deleted {folder} (0.00 GB)" in out for folder in stale)
    assert not any(
        p.name.startswith(("international-v1", "international-rules-v2-fed"))
        for p in cache.iterdir()
    )
    assert all(folder.is_dir() for folder in kept)  # another variant's, and no table folder
    assert table_folders(cache) == in_use
    assert main(["tables", "--pieces", "2", "--list"]) == 0
    assert "not built" not in capsys.readouterr().out


def test_pack_then_export_and_install_the_compact_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulebook_build.cli import tables as tables_command

    monkeypatch.setattr(tables_command, "PACKED_FROM", 3)  # 3-piece classes stand for 5-piece
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path / "federation")
    assert main(["tables", "--pieces", "3", "--pack", "--jobs", "2"]) == 0
    err = capsys.readouterr().err
    # the 3-piece classes, each once a level no longer needed it; those of 2 pieces stay built
    assert err.count("  packed ") == 12 and "GB of built tables -> " in err
    pure, rules = (
        endgame.EndgameTables(find_variant("international"), semantics=s) for s in ("pure", "rules")
    )
    assert len(list(pure.folder().glob("*.pack"))) == 12
    assert len(list(pure.folder().glob("*.bin"))) == len(list(rules.folder().glob("*.bin"))) == 4
    assert main(["tables", "--pieces", "3", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert sum(line.endswith("pure and rules compact") for line in listed) == 12
    assert main(["tables", "--pieces", "3", "--verify"]) == 0  # checksums; built entries
    assert main(["tables", "--pieces", "3", "--export", str(tmp_path / "out")]) == 0
    assert "4 tables and 12 compact ones" in capsys.readouterr().out
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path / "composer")
    assert main(["tables", "--install", str(tmp_path / "out")]) == 0
    international = find_variant("international")
    composer = kinds.checker_tables(international, cache_dir=tmp_path / "composer")
    assert len(list(composer.pure.compact_folder().glob("*.pack"))) == 12
    # one king and one man against one king, probed from the compact file as from the built one
    state = (1 << 20, 1 << 30, 0, 1 << 45, True)
    federation = kinds.checker_tables(international, cache_dir=tmp_path / "federation")
    assert composer.pure._load((1, 1, 0, 1)) is not None
    assert federation.probe(state) is not None
    assert composer.probe(state) == federation.probe(state)
    assert composer.probe_rules(state) == federation.probe_rules(state)


def test_two_commands_packing_one_cache_pack_each_class_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two checks started at once on a cache without the 5-piece tables both build and pack
    # them: the one that came second to a class found its built files gone and stopped with a
    # traceback (FileNotFoundError), until packing took the pair's lock.  Here two threads pack
    # the same 3-piece classes (standing for 5-piece ones), each packing slowed down so that
    # both have chosen every class before either is done.
    import threading
    import time

    from rulebook_build.cli import tables as tables_command

    monkeypatch.setattr(tables_command, "PACKED_FROM", 3)
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    assert main(["tables", "--pieces", "3"]) == 0
    both = kinds.checker_tables(find_variant("international"), cache_dir=tmp_path)
    classes = [m for m in both.pure.material_classes() if sum(m) <= 3]
    built = sum(
        kind.path(m).stat().st_size
        for kind in (both.pure, both.rules)
        for m in classes
        if sum(m) == 3
    )
    real_pack = kinds.CheckerTables.pack

    def slow_pack(
        self: kinds.CheckerTables, material: endgame.Material, target: Path | None = None
    ) -> int:
        time.sleep(0.2)
        return real_pack(self, material, target)

    monkeypatch.setattr(kinds.CheckerTables, "pack", slow_pack)
    results: list[tuple[float, int, int]] = []
    failures: list[BaseException] = []

    def pack() -> None:
        try:
            results.append(tables_command._pack(both, classes, 2))
        except BaseException as failure:  # reported by the assertion below
            failures.append(failure)

    threads = [threading.Thread(target=pack) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert sum(before for _, before, _ in results) == built  # each class packed once
    assert len(list(both.pure.compact_folder().glob("*.pack"))) == 12
    assert not [m for m in classes if sum(m) == 3 and both.pure.path(m).is_file()]
    assert both.probe((1 << 20, 1 << 30, 0, 1 << 45, True)) is not None


def test_frisian_five_pieces_packed_are_built_through_build_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # as int16 tables the Fries Spel 5-piece classes need some 60 GB of disk while they build:
    # with --pack every one of them goes through engine/tables/coded.py, and nothing else does
    from rulebook_build.checker.front import FIVE_PIECE_CLASSES
    from rulebook_build.cli import tables as command

    built = kinds.checker_tables(find_variant("frisian"))
    built.prepare_missing()
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    mine = kinds.checker_tables(find_variant("frisian"), cache_dir=tmp_path)
    for kind, theirs in ((mine.pure, built.pure), (mine.rules, built.rules)):
        kind.folder().mkdir(parents=True)
        for table in theirs.folder().glob("*.bin"):  # every class of up to 4 pieces
            (kind.folder() / table.name).symlink_to(table.resolve())
    calls: list[list[tuple[int, int, int, int]]] = []

    def through_codes(tables: kinds.CheckerTables, materials: list, **_: object) -> float:
        calls.append(sorted(materials))
        for material in materials:  # stands for the compact file the build would write
            tables.pure.compact_path(material).write_bytes(b"")
            _["on_packed"](material, 1_000_000)  # type: ignore[operator]
        return 0.0

    monkeypatch.setattr(command, "build_packed", through_codes)
    assert main(["tables", "--variant", "frisian", "--pieces", "5", "--pack"]) == 0
    assert calls == [sorted(FIVE_PIECE_CLASSES)]
    err = capsys.readouterr().err
    assert "packed 44 classes straight from their build codes: 0.044 GB" in err
    assert "nothing to pack" not in err
    assert not [p for p in tmp_path.rglob("*") if p.suffix in (".code", ".wdl", ".body")]
