"""The site's tables leave the positions whose side to move must capture to the reader
(``tables/remote.py`` CAPTURES), and every reader works out the same values the compact files
hold.

The International tables of up to 4 pieces are published as the site publishes them; then, on
random positions of those classes (most of them ones that must capture), four readers must say
the same for both kinds: the tables in the cache (``checker_tables``), the Python reader of the
published files (``SiteTables``), the WebAssembly search reading them through the page's host
(``wasm_host.py``; ``resolved_code`` in ``prover.c``) and the native search reading the compact
files beside them.  The 4-piece classes bring the count rules' lone-king endings (art. 9b-c)
that a capture can start.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.search import ProofSearch, root_node
from rulebook_build.engine.tables import compact, remote
from rulebook_build.engine.tables.endgame import Outcome, outcome_of
from rulebook_build.engine.tables.index import material_name
from rulebook_build.engine.tables.kinds import CheckerTables, checker_tables
from rulebook_build.engine.tables.remote import (
    SiteCheckerTables,
    folder_fetch,
    publish,
    site_checker_tables,
)
from rulebook_build.notation.fen import parse_fen
from rulebook_build.rules import (
    FRISIAN,
    INTERNATIONAL,
    DrawClocks,
    State,
    Variant,
    fresh_plies,
    generate,
)
from rulebook_build.rules.board import BIT_OF_SQUARE
from rulebook_build.rules.drawrules import initial_clocks

from .wasm_host import WasmtimeHost, prover_wasm

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")

PIECES = 4


@dataclass
class Readers:
    local: CheckerTables
    site: SiteCheckerTables
    hosted: binaries.ProverSession
    native: binaries.ProverSession
    folder: Path


def opened(variant: Variant, pieces: int, folder: Path) -> Iterator[Readers]:
    """The tables of ``variant`` of up to ``pieces`` pieces published into ``folder`` as the
    site publishes them, and the four readers of them."""
    program = prover_wasm()
    local = checker_tables(variant)
    local.prepare_missing()
    manifest = publish(local, folder, pieces=pieces)
    assert manifest["captures"] == "search"
    site = site_checker_tables(variant, manifest, folder_fetch(folder))
    site.host = WasmtimeHost(program, site)
    hosted = site.prover()
    compiled = local.prover()
    assert hosted is not None and compiled is not None
    # the native search reads the published compact files, whose codes are the cache's
    reader = binaries.NativeProver(compiled.program, folder, folder, variant=variant)
    with reader.session(5) as native:
        hosted_session = hosted.session(5)
        try:
            yield Readers(local, site, hosted_session, native, folder)
        finally:
            hosted_session.close()


@pytest.fixture(scope="module")
def readers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Readers]:
    yield from opened(INTERNATIONAL, PIECES, tmp_path_factory.mktemp("site-international"))


def every_capture_as_stored(readers: Readers) -> int:
    """``prover.c``'s ``resolved_code`` on every position of every published class that must
    capture, against the values the compact files hold: how many positions there were."""
    total = 0
    for material in sorted(readers.site.remote):
        answer = readers.native.check_captures(material)
        last = answer.splitlines()[-2].split()
        assert last[0] == "captures" and last[2:] == ["differ", "0", "uncovered", "0"], (
            material_name(material),
            answer,
        )
        total += int(last[1])
    return total


def random_state(rng: random.Random, count: int = 0) -> State:
    """A position of ``count`` pieces (2 to 4 if 0), both sides with some, no man on its
    crowning row."""
    while True:
        pieces = [0, 0, 0, 0]  # the side to move's men and kings, the other side's
        for square in rng.sample(range(1, 51), count or rng.choice((2, 3, 4))):
            own = rng.random() < 0.5
            # the side to move plays upwards (towards squares 1-5) in this frame when White
            king = rng.random() < 0.4 or (square <= 5 if own else square >= 46)
            pieces[(0 if own else 2) + king] |= 1 << BIT_OF_SQUARE[square]
        if (pieces[0] | pieces[1]) and (pieces[2] | pieces[3]):
            return (pieces[0], pieces[1], pieces[2], pieces[3], True, (0, 0), (0, 0))


def must_capture(state: State, variant: Variant = INTERNATIONAL) -> bool:
    moves = generate(variant, state)
    return bool(moves) and bool(moves[0][2])


def stored(outcome: Outcome | None) -> int | None:
    """An outcome as the tables and the compiled search write it."""
    if outcome is None:
        return None
    return -1 if outcome.result == "draw" else outcome.plies


def test_every_reader_works_out_the_captures_the_site_leaves_out(readers: Readers) -> None:
    rng = random.Random(54)
    capturing = quiet = 0
    while capturing < 400 or quiet < 100:
        state = random_state(rng)
        captures = must_capture(state)
        if (captures and capturing >= 400) or (not captures and quiet >= 100):
            continue
        clocks: DrawClocks = initial_clocks(INTERNATIONAL, state)
        pure, rules = stored(readers.local.probe(state)), stored(readers.local.probe_rules(state))
        assert pure is not None and rules is not None, state  # every class is in the cache
        # what a compact table keeps of the two built values
        code = compact.code_of(pure, rules)
        expected = (compact.PURE_VALUE[code], compact.RULES_VALUE[code])
        found = {
            "site": (
                stored(readers.site.probe(state)),
                stored(readers.site.probe_rules(state)),
            ),
            "webassembly": readers.hosted.probe(state, clocks),
            "native": readers.native.probe(state, clocks),
        }
        for reader, values in found.items():
            assert values == expected, (reader, state, captures)
        capturing += captures
        quiet += not captures
    # a class the site does not publish is left out, though its captures lead to ones it does
    five = 0
    while five < 20:
        state = random_state(rng, 5)
        if must_capture(state):
            clocks = initial_clocks(INTERNATIONAL, state)
            assert readers.site.probe(state) is None and readers.site.probe_rules(state) is None
            assert readers.hosted.probe(state, clocks) == (None, None)
            five += 1


def test_the_published_codes_leave_the_captures_out(readers: Readers) -> None:
    """Where the side to move must capture, a published slot carries the code before it (the
    resolving readers above would pass as well on tables that kept them); elsewhere the
    compact file's code, its distance as kept."""
    material = (1, 1, 1, 0)  # a man and a king against a man: many positions that must capture
    name = material_name(material)
    published = bytes(readers.site.remote[material].codes())
    fields = readers.local.pure.compact_fields(material)
    codes = bytes(compact.CompactTable(readers.folder / f"{name}{compact.SUFFIX}", fields).codes())
    # with the count-rule distances the checker keeps (test_kept_distance.py)
    codes = codes.translate(compact.kept_codes(fresh_plies(INTERNATIONAL, material)))
    assert len(published) == len(codes)
    layout = readers.local.pure.store.layout(material)
    filled = kept = 0
    for _base, placement, own_streaks, other_streaks in layout.placements():
        state: State = (*placement[:5], own_streaks[0], other_streaks[0])
        located = readers.local.pure.locate(state)
        assert located is not None and located[0] == material
        slot = located[1]
        if must_capture(state):
            assert published[slot] == (published[slot - 1] if slot else 1), slot
            filled += codes[slot] != published[slot]
        else:
            assert published[slot] == codes[slot], slot
            kept += 1
    assert filled > 1000 and kept > 1000, (filled, kept)


def test_the_published_files_are_made_again_only_when_they_are_wrong(
    readers: Readers, tmp_path: Path
) -> None:
    folder = tmp_path / "site"
    first = publish(readers.local, folder, pieces=3)
    name = material_name((1, 1, 1, 0))
    blocks = folder / f"{name}{remote.BLOCKS}"
    made = blocks.stat().st_mtime_ns
    assert publish(readers.local, folder, pieces=3) == first
    assert blocks.stat().st_mtime_ns == made  # kept: its stamp and checksums are right
    damaged = bytearray(blocks.read_bytes())
    damaged[-1] ^= 0xFF
    blocks.write_bytes(bytes(damaged))
    assert publish(readers.local, folder, pieces=3) == first
    assert blocks.read_bytes() != bytes(damaged)  # a block failing its checksum: made again


def test_the_native_search_works_out_every_capture_of_every_class_as_stored(
    readers: Readers,
) -> None:
    """``prover.c``'s ``resolved_code`` (the browser's build runs it) on every position of every
    published class that must capture, against the values the compact files hold."""
    assert every_capture_as_stored(readers) > 1_000_000


# A position where White, to move with kings on 19, 20 and 38, must capture either Black's king
# on 32 (Black is left with a man against three kings: no lone-king count, 50 plies) or its man
# on 33 (a king against three: the count of art. 9c, 32 plies); each capture takes one piece.
CAPTURING: State = (
    0,
    (1 << BIT_OF_SQUARE[19]) | (1 << BIT_OF_SQUARE[20]) | (1 << BIT_OF_SQUARE[38]),
    1 << BIT_OF_SQUARE[33],
    1 << BIT_OF_SQUARE[32],
    True,
    (0, 0),
    (0, 0),
)
KING_TAKEN = (1, 0, 0, 3)
MAN_TAKEN = (0, 1, 0, 3)


def win(plies: int) -> int:
    return 4 + plies // 2  # compact.py: a win in `plies` (odd) with the count rules


def loss(plies: int) -> int:
    return 36 + plies // 2


# what the two captures lead to (every slot of each class the same code), and the code the
# position then has, as the builder would have made it
CASES = [
    ({MAN_TAKEN: loss(40), KING_TAKEN: 1}, 2),  # a loss past the 32 plies of art. 9c: no count
    ({MAN_TAKEN: loss(30), KING_TAKEN: 1}, win(1)),  # within them: a conversion
    ({MAN_TAKEN: 1, KING_TAKEN: loss(48)}, win(1)),  # within the 50 plies of a fresh count
    ({MAN_TAKEN: win(31), KING_TAKEN: win(41)}, loss(2)),  # every capture a conversion
    ({MAN_TAKEN: win(41), KING_TAKEN: win(31)}, 3),  # one win past its count: no count
    ({MAN_TAKEN: 1, KING_TAKEN: 3}, 2),  # a loss with no count: a win with none
    ({MAN_TAKEN: 1, KING_TAKEN: 2}, 1),  # a draw, or a win for the other side: a draw
    ({MAN_TAKEN: 2, KING_TAKEN: win(31)}, 3),  # only wins, one with no count: a loss with none
]


@pytest.mark.parametrize(("children", "expected"), CASES)
def test_a_capture_is_worked_out_as_the_builder_counts_it(
    readers: Readers, tmp_path: Path, children: dict[tuple[int, int, int, int], int], expected: int
) -> None:
    """Each rule of ``resolved_code`` and ``EndgameTables._from_captures``, on tables made up for
    it (the published classes of up to 4 pieces never meet some of them: a capture into a
    lone-king ending past its count needs five pieces)."""
    moves = generate(INTERNATIONAL, CAPTURING)
    assert len({move[2] for move in moves}) == 2 and all(move[2] for move in moves)
    # the compiled search, reading made-up compact files of the two classes
    for material, code in children.items():
        fields = readers.local.pure.compact_fields(material)
        size = readers.local.pure.size(material)
        compact.write(
            tmp_path / f"{material_name(material)}{compact.SUFFIX}", fields, [bytes([code]) * size]
        )
    compiled = readers.local.prover()
    assert compiled is not None
    made_up = binaries.NativeProver(compiled.program, tmp_path, tmp_path, variant=INTERNATIONAL)
    with made_up.session(5) as session:
        assert session.resolve(CAPTURING, initial_clocks(INTERNATIONAL, CAPTURING)) == expected
    # the Python reader, its probe of what the captures lead to made up the same way
    for semantics, values in (("pure", compact.PURE_VALUE), ("rules", compact.RULES_VALUE)):
        site = remote.SiteTables(INTERNATIONAL, semantics, {}, captures_searched=True)

        def probe(state: State, values: tuple[int, ...] = values) -> Outcome:
            material = tuple(part.bit_count() for part in state[:4])
            return outcome_of(values[children[material]])  # type: ignore[index]

        site.probe = probe  # type: ignore[method-assign]
        assert stored(outcome_of(site._from_captures(CAPTURING, moves) or 0)) == values[expected]


def test_without_a_c_compiler_the_site_publishes_the_captures_as_stored(
    readers: Readers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No program to fill the slots: the codes go out as the compact files hold them (their
    distances as kept), and the manifest says so, so that the Python reader reads every
    position from the tables."""
    monkeypatch.setattr(binaries, "executable", lambda *args, **kwargs: None)
    manifest = publish(readers.local, tmp_path, pieces=3)
    assert manifest["captures"] == "stored"
    site = site_checker_tables(INTERNATIONAL, manifest, folder_fetch(tmp_path))
    assert not site.pure.captures_searched
    material = (1, 1, 1, 0)
    fields = readers.local.pure.compact_fields(material)
    compact_file = readers.folder / f"{material_name(material)}{compact.SUFFIX}"
    assert bytes(site.remote[material].codes()) == bytes(
        compact.CompactTable(compact_file, fields).codes()
    ).translate(compact.kept_codes(fresh_plies(INTERNATIONAL, material)))


@pytest.fixture(scope="module")
def frisian(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Readers]:
    """The Fries Spel tables of up to 3 pieces as the site publishes them (the art. 17 runs of
    a side with a king and a man included), and the same readers."""
    yield from opened(FRISIAN, 3, tmp_path_factory.mktemp("site-frisian"))


def test_every_fries_spel_capture_is_worked_out_as_stored(frisian: Readers) -> None:
    """Fries Spel's captures (their values, the king's priority, the runs a capture carries,
    art. 18's count after one): ``resolved_code`` on every published class, and on capture
    positions of two classes, runs included, the Python reader and the WebAssembly search too."""
    assert every_capture_as_stored(frisian) > 100_000
    checked = 0
    # a man against two kings, whole (captures into a count-rule draw whose compact code is a
    # far loss), and a twentieth of a man and a king against a man, every run of each
    for material, every in (((1, 0, 0, 2), 1), ((1, 1, 1, 0), 20)):
        layout = frisian.local.pure.store.layout(material)
        for count, (_base, placement, owns, others) in enumerate(layout.placements()):
            if count % every:
                continue
            for own in owns:
                for other in others:
                    state: State = (*placement[:5], own, other)
                    if not must_capture(state, FRISIAN):
                        continue
                    pure = stored(frisian.local.probe(state))
                    rules = stored(frisian.local.probe_rules(state))
                    assert pure is not None and rules is not None
                    code = compact.code_of(pure, rules)
                    expected = (compact.PURE_VALUE[code], compact.RULES_VALUE[code])
                    clocks = initial_clocks(FRISIAN, state)
                    site = (
                        stored(frisian.site.probe(state)),
                        stored(frisian.site.probe_rules(state)),
                    )
                    assert site == expected, ("site", state)
                    assert frisian.hosted.probe(state, clocks) == expected, ("webassembly", state)
                    checked += 1
    assert checked > 1000, checked


def test_a_pure_win_that_art_18_stops_is_no_win_on_the_page_either(frisian: Readers) -> None:
    """A man and a king against a king that win only by promoting into two kings against one,
    which art. 18 then draws (``test_counted_tables.py``): the compact code of such a slot is
    a pure win with no count-rule win kept, which the page's readers must not take for a win
    with no count running (Fries Spel has none outside art. 18's ending)."""
    state = parse_fen("W:W23,K24:BK41", variant=FRISIAN).state()
    local = frisian.local.probe_rules(state)
    assert local is not None and local.result == "draw"
    site = frisian.site.probe_rules(state)
    assert site is not None and site.result == "draw", site
    node = root_node(FRISIAN, state)
    assert ProofSearch(FRISIAN, tables=frisian.site).lookup(node) == (1, 1)
    clocks = initial_clocks(FRISIAN, state)
    assert frisian.hosted.probe(state, clocks)[1] == -1
    assert frisian.hosted.describe(state, clocks).estimate == (1, 1)
    assert frisian.native.describe(state, clocks).estimate == (1, 1)
