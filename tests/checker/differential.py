"""The compiled programs against the Python engine on random nodes (issue 20's differential test).

A node is a random position with random game state: for International the clocks of KNDB
art. 9b-d, for Fries Spel each side's run of non-capturing moves with one king (art. 17: a king
that has moved once, twice or three times, or none) and, in two kings against one, the moves the
strong side has made (art. 18).  For each node the compiled proof search (``prover moves``) and
the Python engine must agree on every child with its state, on whether a count rule ends the game
there, and on the values of both kinds of endgame table, which checks the compiled programs'
reading of the tables' index (the Frisian one includes the art. 17 digits).

Used by ``test_native_differential.py`` (a short run) and ``benchmarks/differential.py`` (a long
one).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from rulebook_build.engine import binaries
from rulebook_build.engine.tables.endgame import Outcome, outcome_of
from rulebook_build.engine.tables.kinds import CheckerTables
from rulebook_build.rules.board import BIT_OF_SQUARE
from rulebook_build.rules.drawrules import (
    DrawClocks,
    advance,
    draw_by_count,
    lone_king_ending,
    material,
    two_kings_against_one,
)
from rulebook_build.rules.movegen import NO_STREAK, State, Streak, generate, make
from rulebook_build.rules.variants import Variant

PIECE_COUNTS = (2, 3, 3, 4, 4, 5, 6, 8, 12, 16, 20, 26)
"""How many pieces a random node has: small ones are covered by the tables, large ones have
long captures."""
KINGS_ONLY = 0.15
"""The share of nodes that are kings only, one against one or two."""


def random_node(variant: Variant, rng: random.Random) -> tuple[State, DrawClocks]:
    """A position where both sides have pieces, with random game state of ``variant``."""
    while True:
        pieces = [0, 0, 0, 0]  # white men, white kings, black men, black kings
        if rng.random() < KINGS_ONLY:
            # one king against one or two: the endings of the count rules (art. 9b, 18, 21)
            sides = rng.choice(((True, False), (True, False, False), (True, True, False)))
            for square, white in zip(rng.sample(range(1, 51), len(sides)), sides, strict=True):
                pieces[1 if white else 3] |= 1 << BIT_OF_SQUARE[square]
            break
        for square in rng.sample(range(1, 51), rng.choice(PIECE_COUNTS)):
            white = rng.random() < 0.5
            # a man never stands on the row where it would have been crowned
            king = rng.random() < 0.35 or (square <= 5 if white else square >= 46)
            pieces[(0 if white else 2) + king] |= 1 << BIT_OF_SQUARE[square]
        if (pieces[0] | pieces[1]) and (pieces[2] | pieces[3]):
            break
    wm, wk, bm, bk = pieces
    white_to_move = rng.random() < 0.5
    runs: tuple[Streak, Streak] = (NO_STREAK, NO_STREAK)
    if variant.max_consecutive_king_moves is not None:
        runs = (_random_run(wk, rng), _random_run(bk, rng))
    if white_to_move:
        state: State = (wm, wk, bm, bk, True, runs[0], runs[1])
    else:
        state = (bm, bk, wm, wk, False, runs[1], runs[0])
    if variant.max_consecutive_king_moves is not None:
        strong = two_kings_against_one(material(state))
        moves = rng.randint(0, 7) if strong is not None else 0
        return state, DrawClocks(None, 0, 0, strong, moves)
    ending = lone_king_ending(material(state))
    ending_plies = rng.randint(0, 10 if ending == "5" else 32) if ending else 0
    return state, DrawClocks(ending, ending_plies, rng.randint(0, 50), None, 0)


def _random_run(kings: int, rng: random.Random) -> Streak:
    if not kings or rng.random() < 0.3:
        return NO_STREAK
    bits = [bit for bit in range(64) if kings >> bit & 1]
    return (rng.randint(1, 3), rng.choice(bits))


@dataclass(frozen=True, slots=True)
class View:
    """What one side (the compiled programs or Python) makes of a node."""

    pure: Outcome | None
    rules: Outcome | None
    draw: bool
    children: list[tuple[int, ...]]


def python_view(variant: Variant, tables: CheckerTables, state: State, clocks: DrawClocks) -> View:
    moves = generate(variant, state)
    children = set()
    for move in moves:
        after = make(variant, state, move)
        clocks_after = advance(variant, clocks, state, move, after)
        fields = binaries.node_fields(variant, after, clocks_after)
        children.add((*binaries.pieces_of(after), *fields))
    draw = bool(moves) and draw_by_count(variant, clocks, state) is not None
    return View(tables.probe(state), tables.probe_rules(state), draw, sorted(children))


def compiled_view(
    prover: binaries.NativeProver | binaries.ProverSession, state: State, clocks: DrawClocks
) -> View:
    report = prover.describe(state, clocks)
    pure = None if report.pure is None else outcome_of(report.pure)
    rules = None if report.rules is None else outcome_of(report.rules)
    return View(pure, rules, report.draw, report.children)


@dataclass
class Comparison:
    nodes: int = 0
    differences: list[str] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)
    """How often each thing worth comparing came up: a table value, a run that counts, ..."""


def compare(
    variant: Variant,
    tables: CheckerTables,
    prover: binaries.NativeProver,
    rng: random.Random,
    count: int,
) -> Comparison:
    """``count`` random nodes through both; each difference as a line for people."""
    found = Comparison()
    with prover.session(0.0) as session:  # one process for every node
        for _ in range(count):
            _compare_one(variant, tables, session, rng, found)
    return found


def _compare_one(
    variant: Variant,
    tables: CheckerTables,
    session: binaries.ProverSession,
    rng: random.Random,
    found: Comparison,
) -> None:
    state, clocks = random_node(variant, rng)
    python = python_view(variant, tables, state, clocks)
    compiled = compiled_view(session, state, clocks)
    found.nodes += 1
    found.seen["table value"] += python.pure is not None
    found.seen["count rule draws"] += python.draw
    found.seen["children"] += len(python.children)
    found.seen["captures"] += bool(python.children) and bool(generate(variant, state)[0][2])
    fields = binaries.node_fields(variant, state, clocks)
    if variant.max_consecutive_king_moves is not None:
        counting = bool(fields[1] or fields[3])
        found.seen["a run counts"] += counting
        found.seen["table value with a run"] += counting and python.pure is not None
        found.seen["a king held back"] += max(fields[1], fields[3]) >= 3
        found.seen["two kings against one"] += fields[5] != 0
    if compiled != python or len(set(compiled.children)) != len(compiled.children):
        only_c = sorted(set(compiled.children) - set(python.children))
        only_py = sorted(set(python.children) - set(compiled.children))
        found.differences.append(
            f"{state} {clocks}: compiled {compiled.pure} {compiled.rules} draw "
            f"{compiled.draw}, Python {python.pure} {python.rules} draw {python.draw}; "
            f"children only compiled {only_c}, only Python {only_py}"
        )
