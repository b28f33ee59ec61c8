"""Compact endgame tables (``compact.py``): both kinds of a class in one compressed file.

The compact file must answer every probe the checker makes as the two built tables do: the pure
result exactly, the count-rule distance as the checker keeps it (``compact.kept_distance``:
whether it fits the class's fresh budget) and otherwise a value that proves nothing; the
compiled packer must write the codes the Python mapping does, with the kept distances; a
damaged file must be refused; and the compiled proof search must read it as the Python engine
does."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact, tablefile
from rulebook_build.engine.tables.endgame import outcome_of
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.errors import RulebookError
from rulebook_build.rules import FRISIAN, INTERNATIONAL, fresh_plies
from rulebook_build.rules.drawrules import initial_clocks
from rulebook_build.rules.variants import Variant
from tests.tablecopy import copy_checker_tables

from .differential import random_node

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")


def copied(variant: Variant, target: Path) -> CheckerTables:
    """The checker's own tables (up to 4 pieces), copied into ``target`` as a cache."""
    copy_checker_tables(variant, target)
    return checker_tables(variant, cache_dir=target)


def as_counted(value: int) -> tuple[str, int | None]:
    """What the search makes of a value with count rules: a win or loss within CAP plies with
    its distance, or nothing it can prove by."""
    outcome = outcome_of(value)
    if outcome.result != "draw" and outcome.plies <= compact.CAP:
        return outcome.result, outcome.plies
    return "nothing", None


@pytest.mark.parametrize("variant", [INTERNATIONAL, FRISIAN], ids=lambda v: v.name)
def test_the_compiled_packer_writes_the_python_codes(variant: Variant, tmp_path: Path) -> None:
    tables = copied(variant, tmp_path)
    seen: set[int] = set()
    kept_elsewhere = False  # some distance is kept as another one that fits the same budget
    for material in tables.classes():
        if sum(material) > 3:
            continue
        pure, rules = tables.pure.table(material), tables.rules.table(material)
        path = tmp_path / f"{material}.pack"
        tables.pack(material, path)
        packed = compact.CompactTable(path, tables.pure.compact_fields(material))
        fresh = fresh_plies(variant, material)
        exact = b"".join(compact.codes_in_python(pure, rules))
        expected = exact.translate(compact.kept_codes(fresh))
        assert bytes(packed.codes()) == expected, material
        seen.update(expected)
        for slot, code in enumerate(expected):
            assert outcome_of(compact.PURE_VALUE[code]).result == outcome_of(pure[slot]).result
            kept = compact.kept_distance(rules[slot], fresh)
            assert as_counted(compact.RULES_VALUE[code]) == as_counted(kept)
        kept_elsewhere = kept_elsewhere or expected != exact
    assert {0, 1} <= seen  # unused slots and draws, count-rule wins and losses
    assert kept_elsewhere
    assert any(4 <= code < 36 for code in seen) and any(code >= 36 for code in seen)
    if variant is FRISIAN:  # two kings against one: won without art. 18, drawn with it
        assert 2 in seen


def test_the_codes_keep_what_the_search_reads() -> None:
    assert compact.code_of(-2, -2) == 0 and compact.code_of(-1, -1) == 1
    assert compact.RULES_VALUE[compact.code_of(7, 7)] == 7
    assert compact.RULES_VALUE[compact.code_of(8, 62)] == 62
    # a pure win that the count rules draw, or win too slowly: nothing the search proves by
    for rules in (-1, 65, 301):
        code = compact.code_of(9, rules)
        assert code == 2 and compact.RULES_VALUE[code] == compact.DRAW
        assert compact.PURE_VALUE[code] % 2  # a pure win all the same
    for pure, rules in ((-1, 3), (5, 4), (4, -2), (-2, -1)):
        with pytest.raises(compact.Disagreement):
            compact.code_of(pure, rules)


def test_a_damaged_compact_file_is_refused(tmp_path: Path) -> None:
    tables = copied(INTERNATIONAL, tmp_path)
    material = (1, 1, 0, 1)
    tables.pack(material)
    path = tables.pure.compact_path(material)
    for kind in (tables.pure, tables.rules):
        kind.path(material).unlink()
    fresh = checker_tables(INTERNATIONAL, cache_dir=tmp_path)
    assert fresh.pure.verify_files(always=True) == []
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    path.write_bytes(bytes(data))
    problems = checker_tables(INTERNATIONAL, cache_dir=tmp_path).pure.verify_files(always=True)
    assert len(problems) == 1 and "checksum" in problems[0]
    assert not path.exists() and path.with_name(path.name + tablefile.DAMAGED).exists()


def test_a_class_is_not_built_from_a_compact_one(tmp_path: Path) -> None:
    tables = copied(INTERNATIONAL, tmp_path)
    child = (0, 1, 0, 1)
    tables.pack(child)
    for kind in (tables.pure, tables.rules):
        kind.path(child).unlink()
        kind.path((1, 1, 0, 1)).unlink()  # a parent of one king against one: built again
    fresh = checker_tables(INTERNATIONAL, cache_dir=tmp_path)
    with pytest.raises(RulebookError, match="only in compact form"):
        fresh.pure.prepare((1, 1, 0, 1))


@pytest.mark.parametrize("variant", [INTERNATIONAL, FRISIAN], ids=lambda v: v.name)
def test_compact_tables_answer_as_the_built_ones(variant: Variant, tmp_path: Path) -> None:
    """Every class of up to 4 pieces (International) or 3 (Fries Spel, whose 4-piece classes
    take 0.9 GB) packed and its built files deleted: the Python probes and the compiled
    search's probes of random nodes give what the built tables gave."""
    built = copied(variant, tmp_path / "built")
    packed = copied(variant, tmp_path / "packed")
    most = 4 if variant is INTERNATIONAL else 3
    chosen = [material for material in packed.classes() if sum(material) <= most]
    for material in chosen:
        packed.pack(material)
    for material in chosen:
        for kind in (packed.pure, packed.rules):
            kind.path(material).unlink()
    packed = checker_tables(variant, cache_dir=tmp_path / "packed")
    assert len(list(packed.pure.folder().glob("*.pack"))) == len(chosen)
    assert len(list(packed.pure.folder().glob("*.bin"))) == len(built.classes()) - len(chosen)
    prover, reference = packed.prover(), built.prover()
    assert prover is not None and reference is not None
    rng = random.Random(20261125)
    covered = from_packed = 0
    # one process each for every node (prover moves, as a session's request)
    asked, answering = prover.session(0.0), reference.session(0.0)
    for _ in range(300):
        state, clocks = random_node(variant, rng)
        pure, rules = built.probe(state), built.probe_rules(state)
        assert (packed.probe(state) is None) == (pure is None)
        if pure is None:
            continue
        covered += 1
        from_packed += sum(bits.bit_count() for bits in state[:4]) <= most
        found, counted = packed.probe(state), packed.probe_rules(state)
        assert found is not None and counted is not None and rules is not None
        assert found.result == pure.result
        assert as_counted(counted.plies if counted.result != "draw" else -1) == as_counted(
            rules.plies if rules.result != "draw" else -1
        )
        report, expected = asked.describe(state, clocks), answering.describe(state, clocks)
        assert report.pure is not None and report.rules is not None
        assert expected.pure is not None and expected.rules is not None
        assert outcome_of(report.pure).result == outcome_of(expected.pure).result
        assert as_counted(report.rules) == as_counted(expected.rules)
        assert report.children == expected.children
    asked.close()
    answering.close()
    assert covered > 30 and from_packed > 10


def rewritten(path: Path, change: Callable[[bytearray, int], None]) -> None:
    """Change the body of a compact file and give it a matching checksum: a file made to
    deceive, or written by a faulty writer, that the checksum alone does not catch."""
    data = path.read_bytes()
    first = data.index(b"\n") + 1
    second = data.index(b"\n", first) + 1
    fields = json.loads(data[first:second])
    body = bytearray(data[second:])
    change(body, fields["blocks"])
    fields.pop("checksum")
    path.write_bytes(tablefile.header_line(fields, hashlib.sha256(body).hexdigest()) + body)


def test_a_compact_file_with_a_matching_checksum_but_bad_contents_is_never_trusted(
    tmp_path: Path,
) -> None:
    material = (1, 1, 0, 1)  # a man and a king against a king
    state = (1 << 20, 1 << 30, 0, 1 << 45, True)
    expected = checker_tables(INTERNATIONAL).probe(state)

    def swap_blocks(body: bytearray, blocks: int) -> None:  # two offsets out of order
        first, second = body[8:16], body[16:24]
        body[8:16], body[16:24] = second, first

    def garbage(body: bytearray, blocks: int) -> None:  # streams that do not unpack
        start = 8 * (blocks + 1)
        body[start:] = bytes(len(body) - start)

    for change in (swap_blocks, garbage):
        built = copied(INTERNATIONAL, tmp_path / change.__name__)
        built.pack(material)
        path = built.pure.compact_path(material)
        for kind in (built.pure, built.rules):
            kind.path(material).unlink()
        rewritten(path, change)
        fresh = checker_tables(INTERNATIONAL, cache_dir=tmp_path / change.__name__)
        prover = fresh.prover()
        assert prover is not None
        report = prover.describe(state, initial_clocks(INTERNATIONAL, state))
        assert report.pure is None and report.rules is None  # the compiled search: not covered
        # Python: refused and moved aside, when the file is opened (a bad index) or when a
        # block is read (streams that do not unpack: that probe is then not covered)
        assert fresh.probe(state) in (expected, None)
        assert not path.exists() and path.with_name(path.name + tablefile.DAMAGED).exists()
        # a class check builds itself is then built again, and answers
        again = checker_tables(INTERNATIONAL, cache_dir=tmp_path / change.__name__)
        assert again.probe(state) == expected is not None
        assert again.pure.path(material).is_file()


def garbage(body: bytearray, blocks: int) -> None:
    """A sound index over streams that do not unpack: refused when a block is read."""
    start = 8 * (blocks + 1)
    body[start:] = bytes(len(body) - start)


def test_a_compact_class_whose_blocks_do_not_unpack_stays_refused_for_the_run(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A compact file that passes its checksum, with a sound index over blocks that do not
    unpack, is found out only when a block is read.  The probe then answers "not covered",
    the file is moved aside with the reason in the log, and the class stays refused for the
    rest of the run: the same position probed again gets the same answer, so one search never
    sees two values for it (a later run builds the class again, as the test above shows)."""
    material = (1, 1, 0, 1)
    state = (1 << 20, 1 << 30, 0, 1 << 45, True)
    built = copied(INTERNATIONAL, tmp_path)
    built.pack(material)
    path = built.pure.compact_path(material)
    for kind in (built.pure, built.rules):
        kind.path(material).unlink()
    rewritten(path, garbage)
    fresh = checker_tables(INTERNATIONAL, cache_dir=tmp_path)
    with caplog.at_level("WARNING"):
        assert fresh.pure.probe(state) is None
    assert not path.exists() and path.with_name(path.name + tablefile.DAMAGED).exists()
    (record,) = [r for r in caplog.records if "damaged endgame table refused" in r.message]
    reason = record.message.split("refused: ", 1)[1].split("; moved aside", 1)[0]
    assert len(reason) > 10 and "None" not in reason, reason
    assert fresh.pure.supports(material) is False
    assert fresh.pure.probe(state) is None  # not built again within the run
    assert not built.pure.path(material).exists()
