"""The walk of a compiled search's claimed proof: every Black defence must be answered.

``ProofSearch._adopt`` is what stands between a fault in compiled code and a false "proved":
where Black moves, every legal reply is walked, not only the first.  These tests need no C
compiler: the "compiled search" is a made-up answer (``Claim``), given by a prover that
always says the same (``Liar``), as in ``test_native_prover.py``.

The position: a white man on 28, a black man on 19, Black to move.  Black has two replies:
19-23, after which 28x19 takes Black's last piece, and 19-24, after which White does not win
(the Python search refutes it).  A claimed proof that answers only one of them is a lie about
the other.
"""

from __future__ import annotations

import time

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.search import (
    INFINITY,
    NATIVE_FROM_SECONDS,
    Node,
    ProofSearch,
    child_node,
    root_node,
)
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Position, Variant
from rulebook_build.rules.movegen import generate
from tests.checker.test_native_prover import Claim, Liar

STUCK = "the compiled search's tree has no legal choice"


def key_of(node: Node) -> tuple[int, ...]:
    """The key ``Claim.choice`` looks a node up by."""
    state, clocks = node
    return (
        *binaries.pieces_of(state),
        int(state[4]),
        int(clocks.ending or 0),
        clocks.ending_plies,
        clocks.king_only_plies,
    )


def two_defences() -> tuple[Node, list[Node]]:
    """The root (Black to move) and its children in the order the move generator gives them."""
    state = Position.from_squares(white_men=[28], black_men=[19], white_to_move=False).state()
    root = root_node(INTERNATIONAL, state)
    children = [child_node(INTERNATIONAL, root, move) for move in generate(INTERNATIONAL, state)]
    return root, children


def winning_choice(node: Node) -> tuple[int, int, int, int]:
    """The pieces after White's move that leaves Black without a move (here: 28x19)."""
    for move in generate(INTERNATIONAL, node[0]):
        after = child_node(INTERNATIONAL, node, move)
        if not generate(INTERNATIONAL, after[0]):
            return binaries.pieces_of(after[0])
    raise AssertionError("no winning move")


def test_the_position_is_what_the_tests_say() -> None:
    root, children = two_defences()
    assert len(children) == 2
    winning_choice(children[0])  # 19-23 28x19
    with pytest.raises(AssertionError):
        winning_choice(children[1])  # 19-24: no capture, nothing won at once
    python = ProofSearch(INTERNATIONAL).prove(root, seconds=60.0, node_limit=100_000)
    assert python.verdict == "refuted"


def test_a_claimed_proof_whose_second_defence_is_unanswered_is_refused() -> None:
    root, (answered, unanswered) = two_defences()
    liar = Liar(Claim("proved", {key_of(answered): winning_choice(answered)}))
    search = ProofSearch(INTERNATIONAL, prover=liar)
    result = search.prove(root, seconds=NATIVE_FROM_SECONDS + 0.5)
    assert liar.calls == 1
    assert search.native_problems == [STUCK]
    # the Python search goes on alone: it may refute the root or run out of time, never prove it
    assert result.verdict != "proved"
    assert search.table.get(root, (1, 1))[0] != 0
    assert search.table.get(unanswered, (1, 1))[0] != 0


def test_the_walk_itself_refuses_the_tree_and_settles_only_what_it_checked() -> None:
    root, (answered, unanswered) = two_defences()
    claim = Claim("proved", {key_of(answered): winning_choice(answered)})
    search = ProofSearch(INTERNATIONAL)
    assert search._adopt(root, claim, deadline=time.perf_counter() + 600) is False
    assert search.native_problems == [STUCK]
    # the answered defence was walked to its end and passed; the root and the other did not
    assert search.table[answered] == (0, INFINITY)
    assert root not in search.table and unanswered not in search.table


def test_a_claim_that_leaves_the_first_defence_unanswered_is_refused() -> None:
    root, (first, second) = two_defences()
    some_move = child_node(INTERNATIONAL, second, generate(INTERNATIONAL, second[0])[0])
    claim = Claim("proved", {key_of(second): binaries.pieces_of(some_move[0])})
    search = ProofSearch(INTERNATIONAL)
    assert search._adopt(root, claim, deadline=time.perf_counter() + 600) is False
    assert search.native_problems == [STUCK]
    assert first not in search.table and root not in search.table


def test_a_node_the_search_refuted_is_never_taken_as_proved() -> None:
    """The walk may skip a node its own table already holds as proved, never one it holds as
    refuted: a claimed proof through 19-24, which the Python search refuted, is turned down
    there, and the refutation stays."""
    root, (answered, unanswered) = two_defences()
    search = ProofSearch(INTERNATIONAL)
    assert search.prove(unanswered, seconds=60.0, node_limit=100_000).verdict == "refuted"
    refuted = search.table[unanswered]
    assert refuted[1] == 0
    claim = Claim("proved", {key_of(answered): winning_choice(answered)})
    assert search._adopt(root, claim, deadline=time.perf_counter() + 600) is False
    assert search.table[unanswered] == refuted
    assert search.table.get(root, (1, 1))[0] != 0


CIRCLE = "the compiled search's tree goes round in a circle"


def test_a_claimed_proof_that_goes_round_in_a_circle_is_refused() -> None:
    """Fries Spel has no rule that ends a game going round in circles: three white kings
    against a black king on 50 that has one move, to 45 and back, repeat the same node.  A
    claimed proof whose choices only shuttle a king back and forth wins nothing, and the walk
    must say so instead of taking the circle as closed."""
    start = Position.from_squares(
        white_kings=[34, 39, 44], black_kings=[50], white_to_move=False, variant=FRISIAN
    )
    black = root_node(FRISIAN, start.state())
    (there,) = generate(FRISIAN, black[0])
    white = child_node(FRISIAN, black, there)
    for move in generate(FRISIAN, white[0]):
        black_again = child_node(FRISIAN, white, move)
        replies = generate(FRISIAN, black_again[0])
        if len(replies) != 1:
            continue
        white_again = child_node(FRISIAN, black_again, replies[0])
        back = [
            m
            for m in generate(FRISIAN, white_again[0])
            if child_node(FRISIAN, white_again, m) == black
        ]
        if back:
            break
    else:
        raise AssertionError("no circle from this position")
    claim = Claim(
        "proved",
        {
            key_of(white): binaries.pieces_of(black_again[0]),
            key_of(white_again): binaries.pieces_of(black[0]),
        },
    )
    search = ProofSearch(FRISIAN)
    # a short deadline: a walk blind to circles would go round until it ran out of time
    assert search._adopt(white, claim, deadline=time.perf_counter() + 10) is False
    assert search.native_problems == [CIRCLE]
    assert search.table.get(white, (1, 1))[0] != 0  # not taken as proved


WRONG_LEAF = "the compiled search's tree ends in a wrong leaf"


def test_a_claimed_proof_that_ends_where_white_has_lost_is_refused() -> None:
    """White man 38, black man 29, White to move: 38-33 is answered by 29x38, and White has
    nothing left.  A claim that 38-33 wins ends in a leaf the rules give to Black."""
    start = Position.from_squares(white_men=[38], black_men=[29], white_to_move=True)
    root = root_node(INTERNATIONAL, start.state())
    losing = next(
        child_node(INTERNATIONAL, root, move)
        for move in generate(INTERNATIONAL, root[0])
        if Position.from_state(INTERNATIONAL, child_node(INTERNATIONAL, root, move)[0])
        .legal_moves()[0]
        .is_capture
    )
    claim = Claim("proved", {key_of(root): binaries.pieces_of(losing[0])})
    search = ProofSearch(INTERNATIONAL)
    assert search._adopt(root, claim, deadline=time.perf_counter() + 600) is False
    assert search.native_problems == [WRONG_LEAF]
    assert search.table.get(root, (1, 1))[0] != 0


# ---------------------------------------------------------------- refutations and repetition cuts
def two_white_moves(variant: Variant) -> tuple[Node, list[Node]]:
    """White man 33 against a black man on 3, White to move: 33-28 and 33-29, each followed
    by a Black move (the black man is far away, so no line ends at once)."""
    start = Position.from_squares(
        white_men=[33], black_men=[3], white_to_move=True, variant=variant
    )
    root = root_node(variant, start.state())
    return root, [child_node(variant, root, move) for move in generate(variant, root[0])]


def test_a_fries_spel_refutation_is_not_trusted_unless_it_was_walked() -> None:
    """Fries Spel's search cuts lines at a repetition, so a refutation in its table may rest
    on such a cut.  A compiled refutation walked through a node held as refuted must walk it
    again, unless an earlier walk checked it: here the claim has no Black choice there, so the
    walk is refused.  International has no cuts: there the held refutation is trusted."""
    root, children = two_white_moves(FRISIAN)
    assert len(children) == 2
    claim = Claim("refuted")  # chooses no Black move anywhere
    search = ProofSearch(FRISIAN)
    assert search.cut_repetitions
    for child in children:
        search.table[child] = (INFINITY, 0)
    assert search._adopt(root, claim, deadline=time.perf_counter() + 600) is False
    assert search.native_problems == [STUCK]
    assert root not in search.table

    walked = ProofSearch(FRISIAN)
    for child in children:
        walked.table[child] = (INFINITY, 0)
        walked.checked_refutations.add(child)  # as a compiled tree's walk leaves them
    assert walked._adopt(root, claim, deadline=time.perf_counter() + 600) is True
    assert walked.native_problems == []
    assert walked.table[root] == (INFINITY, 0)

    root, children = two_white_moves(INTERNATIONAL)
    exact = ProofSearch(INTERNATIONAL)
    assert not exact.cut_repetitions
    for child in children:
        exact.table[child] = (INFINITY, 0)
    assert exact._adopt(root, claim, deadline=time.perf_counter() + 600) is True


def test_a_walked_fries_spel_refutation_is_remembered_as_checked() -> None:
    """The nodes of a compiled refutation that passed the walk are remembered as checked, so a
    later walk through them trusts them instead of walking them again."""
    root, children = two_white_moves(FRISIAN)
    search = ProofSearch(FRISIAN)
    for child in children:
        search.table[child] = (INFINITY, 0)
        search.checked_refutations.add(child)
    assert root not in search.checked_refutations
    assert search._adopt(root, Claim("refuted"), deadline=time.perf_counter() + 600) is True
    assert search.table[root] == (INFINITY, 0)
    assert root in search.checked_refutations
