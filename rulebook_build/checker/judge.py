"""Judge a problem by the criteria of the Problemistenwedstrijd (Fries Spel, section H, art. 2).

A  White begins and wins (proved by exhaustive search, ``search.py``).
B1 the start position is reachable by legal play (necessary conditions, ``legality.py``).
B2 no material advantage for White.  B3 no kings.  B4 no black man en prise.
C  no second solution: one winning key, and at every White turn of the solution tree exactly
   one winning move (a second key is a cook, a second move later a dual).
D  every man has a purpose: a man whose removal leaves the composer's solution legal and the
   key still winning is idle.
E  no interchangeable moves: two White moves of the main line that can be played in the other
   order and still win.
F  the men are brought to the final combination: the composer's line is carried through to
   the end of the game or to an ending the checker proves won.
G  the final phase (from Black's last capture of the main line) wins in one clear way: every
   Black defence there has exactly one winning White reply.

Every status is "pass", "fail" or "undecided"; the verdict is "sound" only when the win is
proved and every criterion passes, "unsound" when one fails, "undecided" otherwise.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rulebook_build.checker.legality import check_reachable
from rulebook_build.checker.messages import Argument, render
from rulebook_build.checker.search import Node, ProofSearch, ProverLike, TableLike, root_node
from rulebook_build.errors import RulebookError
from rulebook_build.notation.fen import format_fen
from rulebook_build.notation.pdn import PdnGame, write_game
from rulebook_build.notation.replay import ReplayedGame, ReplayedMove, move_notation, replay
from rulebook_build.rules import Move, Position, Variant
from rulebook_build.rules.movegen import RawMove
from rulebook_build.rules.position import to_move

Status = Literal["pass", "fail", "undecided"]
CRITERIA = ("A", "B1", "B2", "B3", "B4", "C", "D", "E", "F", "G")
ALTERNATIVE_SECONDS = 0.05
# The part of the time a full judgement gives the composer's key first.  Every other criterion
# waits on it, and a compiled search cut short starts again from nothing in the next round.
KEY_SHARE = 0.6
# A judgement that is still undecided is made again with the time it left unused (the search
# keeps what it settled): at most MAX_ROUNDS rounds, a new one only with at least
# MIN_ROUND_SECONDS and MIN_ROUND_SHARE of the time limit left.
MAX_ROUNDS = 6
MIN_ROUND_SECONDS = 0.5
MIN_ROUND_SHARE = 0.05
# The least time one search is given while any is left (_Clock.budget).
MIN_SEARCH_SECONDS = 0.05
# What the searches leave of the limit for the end of a judgement: WRAP_UP_SHARE of it, at
# most WRAP_UP_SECONDS.
WRAP_UP_SECONDS = 0.25
WRAP_UP_SHARE = 0.02
COOK_PLIES = 9
"""How much of a cook's winning line the detail of criterion C shows."""


@dataclass(slots=True)
class Criterion:
    status: Status
    detail: str
    message: str = ""
    """The id of the detail in ``messages.py`` (for the site's translations)."""
    args: dict[str, Argument] = field(default_factory=dict)

    @classmethod
    def say(cls, status: Status, message: str, **args: Argument) -> Criterion:
        detail = render(message, args)
        assert detail is not None, message
        return cls(status, detail, message, args)

    def as_json(self) -> dict[str, object]:
        found: dict[str, object] = {"status": self.status, "detail": self.detail}
        if self.message:
            found["message"] = self.message
            found["args"] = self.args
        return found


@dataclass(slots=True)
class SolutionCheck:
    legal: bool
    key: str | None
    key_wins: bool | None
    error: str | None

    def as_json(self) -> dict[str, object]:
        return {
            "legal": self.legal,
            "key": self.key,
            "key_wins": self.key_wins,
            "error": self.error,
        }


@dataclass(slots=True)
class Judgement:
    source: str
    event: str | None
    variant: str
    fen: str
    verdict: Literal["sound", "unsound", "undecided"] = "undecided"
    white_wins: Literal["proved", "refuted", "undecided"] = "undecided"
    winning_keys: list[str] = field(default_factory=list)
    solution: SolutionCheck = field(default_factory=lambda: SolutionCheck(False, None, None, None))
    criteria: dict[str, Criterion] = field(default_factory=dict)
    proof_line: list[str] = field(default_factory=list)
    seconds: float = 0.0
    nodes: int = 0
    digest: str = ""
    duals: list[tuple[list[str], list[str]]] = field(default_factory=list)
    """Every later White turn of the solution tree with more than one winning move (criterion
    C shows the first three): the moves that lead there, and the winning moves."""

    def as_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "event": self.event,
            "variant": self.variant,
            "verdict": self.verdict,
            "white_wins": self.white_wins,
            "winning_keys": self.winning_keys,
            "solution": self.solution.as_json(),
            "criteria": {name: self.criteria[name].as_json() for name in CRITERIA},
            "seconds": round(self.seconds, 3),
            # extensions
            "fen": self.fen,
            "proof_line": self.proof_line,
            "nodes": self.nodes,
            "digest": self.digest,
            "duals": [{"after": " ".join(line), "moves": moves} for line, moves in self.duals],
        }


def problem_digest(game: PdnGame, variant: Variant) -> str:
    """A fingerprint of what was judged: the variant and the game in strict PDN.

    The website shows a stored verdict only while the problem still has this fingerprint.
    """
    text = f"{variant.name}\n{write_game(game)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class _Clock:
    def __init__(self, seconds: float) -> None:
        self.end = time.perf_counter() + seconds

    def left(self) -> float:
        return max(0.0, self.end - time.perf_counter())

    def share(self, fraction: float) -> float:
        return self.left() * fraction

    def budget(self, fraction: float) -> float:
        """A search's seconds: ``fraction`` of what is left, at least MIN_SEARCH_SECONDS so a
        short search can settle something, but never past the end of the time limit."""
        left = self.left()
        return min(left, max(MIN_SEARCH_SECONDS, left * fraction))


@dataclass(slots=True)
class _Walk:
    """What the walk over the solution tree found (criterion C, G)."""

    duals: list[tuple[list[str], list[str]]] = field(default_factory=list)
    undecided: int = 0
    complete: bool = True
    nodes_walked: int = 0


class Judge:
    """Judges problems of one variant; the proof search's table is shared between criteria."""

    def __init__(
        self,
        variant: Variant,
        *,
        tables: TableLike | None = None,
        progress: Callable[[str], None] | None = None,
        prover: ProverLike | None = None,
    ) -> None:
        self.variant = variant
        self.tables = tables
        self.progress = progress
        self.prover = prover
        self.alternative_seconds: float | None = None
        # criterion D's problems without one man (by square): verdicts and searches, kept
        # from round to round of one judgement
        self._removals: dict[int, str] = {}
        self._removal_searches: dict[int, ProofSearch] = {}

    def _say(self, message: str) -> None:
        if self.progress is not None:
            self.progress(message)

    def judge(
        self, game: PdnGame, position: Position, *, seconds: float, full: bool = True
    ) -> Judgement:
        """Judge one problem within ``seconds``; ``full=False`` settles only A and the keys.

        With ``full=False`` each first move other than the composer's key gets at most
        ``ALTERNATIVE_SECONDS`` once a key is proved: a try not proved by then is simply not
        listed as winning.  While no key is proved the win rests on the other first moves, and
        they share all the time that is left.
        """
        self.alternative_seconds = None if full else ALTERNATIVE_SECONDS
        started = time.perf_counter()
        # the searches stop a little before the limit: starting and ending a compiled search,
        # the last batch of Python nodes and the report itself take the rest
        clock = _Clock(seconds - min(WRAP_UP_SECONDS, seconds * WRAP_UP_SHARE))
        judgement = Judgement(
            source=f"{game.source}:{game.line}",
            event=game.tag("Event"),
            variant=self.variant.name,
            fen=format_fen(position),
            digest=problem_digest(game, self.variant),
        )
        search = ProofSearch(self.variant, tables=self.tables, prover=self.prover)
        root = root_node(self.variant, position.state())
        self._removals = {}
        self._removal_searches = {}
        self._static_criteria(position, judgement)
        static = dict(judgement.criteria)
        for round_number in range(1, MAX_ROUNDS + 1):
            if round_number > 1:
                self._say(f"time left ({clock.left():.1f} s): judging again with it")
                judgement.criteria = dict(static)
                judgement.winning_keys = []
                judgement.proof_line = []
                judgement.duals = []
            self._judge_round(game, position, search, root, judgement, clock, full)
            judgement.criteria = {n: judgement.criteria[n] for n in CRITERIA}
            judgement.nodes = search.nodes + search.native_nodes
            judgement.seconds = time.perf_counter() - started
            # what a round left open may be settled with the time the round left unused: the
            # search keeps what it settled, so a new round redoes only what was open
            still_open = (
                judgement.verdict == "undecided" if full else (judgement.white_wins == "undecided")
            )
            if not still_open or clock.left() < max(MIN_ROUND_SECONDS, seconds * MIN_ROUND_SHARE):
                break
        return judgement

    def _judge_round(
        self,
        game: PdnGame,
        position: Position,
        search: ProofSearch,
        root: Node,
        judgement: Judgement,
        clock: _Clock,
        full: bool,
    ) -> None:
        replayed = self._check_solution_legality(game, judgement)

        # --- A and the winning keys
        keys = self._winning_keys(search, position, root, replayed, judgement, clock)

        # --- the composer's solution
        self._check_solution_wins(search, replayed, judgement, clock)

        if not full:
            for name in CRITERIA:
                judgement.criteria.setdefault(name, Criterion.say("undecided", "not_examined"))
            judgement.verdict = self._verdict(judgement)
            return

        # --- C, G: walk the solution tree
        walk = _Walk()
        if judgement.white_wins == "proved":
            self._walk_tree(search, root, position, replayed, walk, clock, [], 0)
        judgement.duals = [(line, moves) for line, moves in walk.duals if line]
        self._criterion_c(judgement, keys, walk, search, root, position)
        self._criterion_d(position, replayed, judgement, clock)
        self._criterion_e(search, replayed, judgement, clock)
        self._criterion_f(search, replayed, judgement, clock)
        self._criterion_g(replayed, judgement, walk)
        judgement.proof_line = self._proof_line(search, root, position, replayed)
        judgement.verdict = self._verdict(judgement)

    # ------------------------------------------------------------------ A
    def _winning_keys(
        self,
        search: ProofSearch,
        position: Position,
        root: Node,
        replayed: ReplayedGame | None,
        judgement: Judgement,
        clock: _Clock,
    ) -> dict[str, str]:
        """Search every first move; returns notation -> "proved"/"refuted"/"undecided"."""
        legal = position.legal_moves()
        raw_by_move = {to_move(raw): (raw, child) for raw, child in search.expand(root)}
        composer_key = replayed.main.moves[0].move if replayed and replayed.main.moves else None
        order = sorted(legal, key=lambda m: m != composer_key)
        results: dict[str, str] = {}
        for index, move in enumerate(order):
            _raw, child = raw_by_move[move]
            # the moves still open share the time: settled ones (a transposition, an earlier
            # round) cost nothing
            remaining = max(
                1, sum(not self._settled(search, raw_by_move[m][1]) for m in order[index:])
            )
            if index == 0 and composer_key is not None:
                if self.alternative_seconds is not None:
                    # only the win is asked: the key may use all but what the others are owed
                    owed = self.alternative_seconds * (len(order) - 1)
                    budget = max(self.alternative_seconds, clock.left() - owed)
                else:
                    budget = clock.share(KEY_SHARE)
            elif self.alternative_seconds is not None and "proved" in results.values():
                budget = min(self.alternative_seconds, clock.share(1 / remaining))
            elif self.alternative_seconds is not None:
                # no key proved yet: the win rests on the other moves, which share what is left
                budget = clock.share(1 / remaining)
            else:
                budget = clock.share(0.6 / remaining)
            self._say(f"A: searching key {move_notation(position, move)}")
            results[move_notation(position, move)] = search.prove(child, seconds=budget).verdict
        proved = [key for key, verdict in results.items() if verdict == "proved"]
        judgement.winning_keys = proved
        if not legal:
            judgement.white_wins = "refuted"
        elif proved:
            judgement.white_wins = "proved"
        elif all(verdict == "refuted" for verdict in results.values()):
            judgement.white_wins = "refuted"
        else:
            judgement.white_wins = "undecided"
        if judgement.white_wins == "proved":
            judgement.criteria["A"] = Criterion.say("pass", "a_pass", keys=" / ".join(proved))
        elif judgement.white_wins == "refuted":
            judgement.criteria["A"] = Criterion.say("fail", "a_fail")
        else:
            open_keys = [k for k, v in results.items() if v == "undecided"]
            # where the search of the first open key stopped: the line to look at
            first_open = next(
                m for m in order if results[move_notation(position, m)] == "undecided"
            )
            line = self._open_line(search, raw_by_move[first_open][1], position.play(first_open))
            if line:
                judgement.criteria["A"] = Criterion.say(
                    "undecided",
                    "a_undecided_line",
                    keys=", ".join(open_keys),
                    line=" ".join([move_notation(position, first_open), *line]),
                )
            else:
                judgement.criteria["A"] = Criterion.say(
                    "undecided", "a_undecided", keys=", ".join(open_keys)
                )
        return results

    @staticmethod
    def _open_line(search: ProofSearch, node: Node, position: Position) -> list[str]:
        """The moves, in notation, of the line where the search of ``node`` stopped."""
        line: list[str] = []
        for raw in search.open_line(node):
            move = to_move(raw)
            line.append(move_notation(position, move))
            position = position.play(move)
        return line

    @staticmethod
    def _settled(search: ProofSearch, node: Node) -> bool:
        return search.is_proved(node) or search.is_refuted(node)

    # ------------------------------------------------------------------ B
    def _static_criteria(self, position: Position, judgement: Judgement) -> None:
        report = check_reachable(position)
        judgement.criteria["B1"] = Criterion.say(
            report.status,  # type: ignore[arg-type]
            report.message,
            **report.args,
        )
        white_men, white_kings = position.count(True)
        black_men, black_kings = position.count(False)
        white_material = white_men + 2 * white_kings
        black_material = black_men + 2 * black_kings
        if white_material > black_material:
            judgement.criteria["B2"] = Criterion.say(
                "fail",
                "b2_fail",
                white_men=white_men,
                white_kings=white_kings,
                black_men=black_men,
                black_kings=black_kings,
            )
        else:
            judgement.criteria["B2"] = Criterion.say(
                "pass", "b2_pass", white=white_men + white_kings, black=black_men + black_kings
            )
        kings = position.squares_of("white", "king") + position.squares_of("black", "king")
        judgement.criteria["B3"] = (
            Criterion.say("fail", "b3_fail", squares=", ".join(map(str, sorted(kings))))
            if kings
            else Criterion.say("pass", "b3_pass")
        )
        if position.white_to_move and position.has_capture():
            captures = ", ".join(move_notation(position, m) for m in position.legal_moves())
            judgement.criteria["B4"] = Criterion.say("fail", "b4_fail", captures=captures)
        else:
            judgement.criteria["B4"] = Criterion.say("pass", "b4_pass")

    # ------------------------------------------------------------------ the solution
    def _check_solution_legality(self, game: PdnGame, judgement: Judgement) -> ReplayedGame | None:
        if not game.main_line():
            judgement.solution = SolutionCheck(False, None, None, "no solution given")
            return None
        try:
            replayed = replay(game, variant=self.variant)
        except RulebookError as error:
            written_key = game.main_line()[0].notation
            judgement.solution = SolutionCheck(False, written_key, None, error.one_line())
            return None
        key = replayed.main.moves[0].notation if replayed.main.moves else None
        judgement.solution = SolutionCheck(True, key, None, None)
        return replayed

    def _check_solution_wins(
        self,
        search: ProofSearch,
        replayed: ReplayedGame | None,
        judgement: Judgement,
        clock: _Clock,
    ) -> None:
        if replayed is None or not replayed.main.moves:
            return
        key_step = replayed.main.moves[0]
        judgement.solution.key = key_step.notation
        # every White move of the main line must win
        steps = replayed.main.moves
        node = root_node(self.variant, replayed.start.state())
        for index, step in enumerate(steps):
            _raw, child = self._child(search, node, step.move)
            if step.white:
                verdict = search.prove(child, seconds=clock.budget(0.1)).verdict
                if step is key_step:
                    judgement.solution.key_wins = {"proved": True, "refuted": False}.get(verdict)
                if verdict == "refuted":
                    judgement.solution.error = self._false_solution(
                        search, steps, index, child, clock
                    )
                    return
                if verdict == "undecided" and judgement.solution.error is None:
                    judgement.solution.error = (
                        f"undecided (time limit): could not prove that {step.notation} wins"
                    )
            node = child

    def _false_solution(
        self,
        search: ProofSearch,
        steps: Sequence[ReplayedMove],
        index: int,
        after_white: Node,
        clock: _Clock,
    ) -> str:
        """What to say of a White move of the solution (``steps[index]``, leading to
        ``after_white``) that does not win.

        Black's refutation is looked for where the solution goes wrong: as long as the reply
        the solution gives is itself proved to keep White from winning, the solution is
        followed (every White move after such a reply loses the win too), so the composer sees
        the first Black move of the line that should have been another one, or that the line
        ends in a position White does not win."""
        said = f"false solution: {steps[index].notation} does not win"
        white_at, node = index, after_white
        while white_at + 1 < len(steps):
            reply = steps[white_at + 1]
            _raw, after_reply = self._child(search, node, reply.move)
            verdict = search.prove(after_reply, seconds=clock.budget(0.1)).verdict
            if verdict == "undecided":
                break
            if verdict == "proved":  # the solution's reply loses: Black had a better one
                refutation = self._refutation(search, node, steps[white_at].after, clock)
                if refutation is None:
                    break
                return (
                    f"{said}; Black refutes with {refutation}{self._after(steps, index, white_at)}"
                    f" (the solution plays {reply.notation})"
                )
            if white_at + 2 >= len(steps):  # the reply holds and the solution ends there
                line = " ".join(step.notation for step in steps[: white_at + 2])
                return f"{said}; the solution ends after {line}, a position White does not win"
            white_at += 2
            _raw, node = self._child(search, after_reply, steps[white_at].move)
        refutation = self._refutation(search, node, steps[white_at].after, clock)
        if refutation is None:
            return said
        return f"{said}; Black refutes with {refutation}{self._after(steps, index, white_at)}"

    @staticmethod
    def _after(steps: Sequence[ReplayedMove], index: int, white_at: int) -> str:
        """ " after <the solution up to steps[white_at]>", or "" when that is the move itself."""
        if white_at == index:
            return ""
        return " after " + " ".join(step.notation for step in steps[: white_at + 1])

    def _refutation(
        self, search: ProofSearch, node: Node, position: Position, clock: _Clock
    ) -> str | None:
        """Black's reply that keeps White from winning in ``node`` (itself refuted): one the
        search has already shown, else the first that a short search shows."""
        children = search.expand(node)
        for raw, child in children:
            if search.is_refuted(child):
                return move_notation(position, to_move(raw))
        for raw, child in children:
            if search.is_proved(child):
                continue
            if search.prove(child, seconds=clock.budget(0.1)).verdict == "refuted":
                return move_notation(position, to_move(raw))
        return None

    def _child(self, search: ProofSearch, node: Node, move: Move) -> tuple[RawMove, Node]:
        for raw, child in search.expand(node):
            if to_move(raw) == move:
                return raw, child
        raise AssertionError(f"{move} is not a move of the node")  # replay checked legality

    # ------------------------------------------------------------------ C and G
    def _walk_tree(
        self,
        search: ProofSearch,
        node: Node,
        position: Position,
        replayed: ReplayedGame | None,
        walk: _Walk,
        clock: _Clock,
        line: list[str],
        main_index: int | None,
    ) -> None:
        """Visit the solution tree; at each White turn count the winning moves."""
        if clock.left() <= 0.05:
            walk.complete = False
            return
        walk.nodes_walked += 1
        children = search.expand(node)
        if not children or (search.tables is not None and search.tables.probe(node[0])):
            return  # the game is over, or an exact table decides the ending
        main_move = None
        if (
            replayed is not None
            and main_index is not None
            and main_index < len(replayed.main.moves)
        ):
            main_move = replayed.main.moves[main_index].move
        if position.white_to_move:
            winners: list[tuple[RawMove, Node]] = []
            for raw, child in children:
                verdict = search.prove(child, seconds=min(clock.left(), 1.0)).verdict
                if verdict == "proved":
                    winners.append((raw, child))
                elif verdict == "undecided":
                    walk.undecided += 1
            if len(winners) > 1:
                walk.duals.append(
                    (list(line), [move_notation(position, to_move(raw)) for raw, _ in winners])
                )
            if not winners:
                return
            chosen = next(
                ((raw, child) for raw, child in winners if to_move(raw) == main_move), winners[0]
            )
            on_main = main_move is not None and to_move(chosen[0]) == main_move
            move = to_move(chosen[0])
            self._walk_tree(
                search,
                chosen[1],
                position.play(move),
                replayed,
                walk,
                clock,
                [*line, move_notation(position, move)],
                main_index + 1 if on_main and main_index is not None else None,
            )
            return
        for raw, child in children:
            move = to_move(raw)
            on_main = main_move is not None and move == main_move
            self._walk_tree(
                search,
                child,
                position.play(move),
                replayed,
                walk,
                clock,
                [*line, move_notation(position, move)],
                main_index + 1 if on_main and main_index is not None else None,
            )

    def _criterion_c(
        self,
        judgement: Judgement,
        keys: dict[str, str],
        walk: _Walk,
        search: ProofSearch,
        root: Node,
        position: Position,
    ) -> None:
        if judgement.white_wins != "proved":
            judgement.criteria["C"] = Criterion.say("undecided", "not_proved")
            return
        if len(judgement.winning_keys) > 1:
            cooks = [k for k in judgement.winning_keys if k != judgement.solution.key]
            lines = "; ".join(
                f"{' '.join(self._line(search, root, position, [], first=key)[:COOK_PLIES])} ..."
                for key in cooks[:3]
            )
            judgement.criteria["C"] = Criterion.say(
                "fail", "c_cook", keys=", ".join(judgement.winning_keys), lines=lines
            )
            return
        later = [(line, moves) for line, moves in walk.duals if line]
        if later:
            duals: list[list[str | int]] = [
                [" ".join(line), " / ".join(moves)] for line, moves in later[:3]
            ]
            judgement.criteria["C"] = (
                Criterion.say("fail", "c_dual_more", duals=duals, count=len(later) - 3)
                if len(later) > 3
                else Criterion.say("fail", "c_dual", duals=duals)
            )
            return
        open_keys = [k for k, v in keys.items() if v == "undecided"]
        if open_keys or walk.undecided or not walk.complete:
            if open_keys:
                judgement.criteria["C"] = Criterion.say(
                    "undecided", "c_undecided_keys", keys=", ".join(open_keys), later=walk.undecided
                )
            else:
                message = "c_undecided" if walk.complete else "c_undecided_cut"
                judgement.criteria["C"] = Criterion.say("undecided", message, later=walk.undecided)
            return
        judgement.criteria["C"] = Criterion.say("pass", "c_pass", count=walk.nodes_walked)

    def _criterion_g(
        self, replayed: ReplayedGame | None, judgement: Judgement, walk: _Walk
    ) -> None:
        if replayed is None or judgement.white_wins != "proved":
            judgement.criteria["G"] = Criterion.say("undecided", "no_solution")
            return
        notations = [step.notation for step in replayed.main.moves]
        last_black_capture = max(
            (
                i
                for i, step in enumerate(replayed.main.moves)
                if not step.white and step.move.is_capture
            ),
            default=-1,
        )
        final_prefix = notations[: last_black_capture + 1]
        in_final = [
            (line, moves)
            for line, moves in walk.duals
            if line  # two winning keys are a cook (criterion C), not a dual of the final phase
            and line[: len(final_prefix)] == final_prefix
            and len(line) >= len(final_prefix)
        ]
        if in_final:
            line, moves = in_final[0]
            judgement.criteria["G"] = Criterion.say(
                "fail", "g_fail", line=" ".join(line), moves=" / ".join(moves)
            )
        elif walk.undecided or not walk.complete:
            judgement.criteria["G"] = Criterion.say("undecided", "g_undecided")
        else:
            judgement.criteria["G"] = Criterion.say("pass", "g_pass")

    # ------------------------------------------------------------------ D
    def _criterion_d(
        self,
        position: Position,
        replayed: ReplayedGame | None,
        judgement: Judgement,
        clock: _Clock,
    ) -> None:
        if replayed is None or judgement.solution.key_wins is not True:
            judgement.criteria["D"] = Criterion.say("undecided", "d_needs_key")
            return
        pieces = position.pieces()
        idle: list[list[str | int]] = []
        open_: list[list[str | int]] = []
        men = [(square, piece) for square, piece in pieces.items() if not piece.is_king]
        for index, (square, piece) in enumerate(men):
            budget = clock.budget(0.5 / max(1, len(men) - index))
            colour = "white" if piece.is_white else "black"

            def without(colour: str, kind: str, square: int = square) -> list[int]:
                return [s for s in position.squares_of(colour, kind) if s != square]

            try:
                smaller = Position.from_squares(
                    white_men=without("white", "man"),
                    white_kings=without("white", "king"),
                    black_men=without("black", "man"),
                    black_kings=without("black", "king"),
                    white_to_move=True,
                    variant=self.variant,
                )
            except RulebookError:
                continue
            verdict = self._removals.get(square, "undecided")
            if verdict == "undecided":  # not settled in an earlier round
                verdict = self._same_solution(smaller, square, replayed, budget)
                self._removals[square] = verdict
            if verdict == "same":
                idle.append([colour, square])
            elif verdict == "undecided":
                open_.append([colour, square])
        if idle:
            judgement.criteria["D"] = Criterion.say("fail", "d_fail", men=idle)
        elif open_:
            judgement.criteria["D"] = Criterion.say("undecided", "d_undecided", men=open_)
        else:
            judgement.criteria["D"] = Criterion.say("pass", "d_pass", count=len(men))

    def _same_solution(
        self, position: Position, removed: int, replayed: ReplayedGame, seconds: float
    ) -> str:
        """ "same" if the composer's main line is legal here (the problem without the man on
        ``removed``) and its key still wins."""
        current = position
        for step in replayed.main.moves:
            if step.move not in current.legal_moves():
                return "different"
            current = current.play(step.move)
        search = self._removal_searches.setdefault(
            removed, ProofSearch(self.variant, tables=self.tables, prover=self.prover)
        )
        key_child = root_node(self.variant, position.play(replayed.main.moves[0].move).state())
        verdict = search.prove(key_child, seconds=seconds).verdict
        return {"proved": "same", "refuted": "different"}.get(verdict, "undecided")

    # ------------------------------------------------------------------ E, F
    def _criterion_e(
        self,
        search: ProofSearch,
        replayed: ReplayedGame | None,
        judgement: Judgement,
        clock: _Clock,
    ) -> None:
        if replayed is None or judgement.white_wins != "proved":
            judgement.criteria["E"] = Criterion.say("undecided", "no_solution")
            return
        white_steps = [step for step in replayed.main.moves if step.white]
        swapped: list[list[str | int]] = []
        undecided = False
        for first, second in itertools.pairwise(white_steps):
            if second.move not in first.before.legal_moves():
                continue
            child = root_node(self.variant, first.before.play(second.move).state())
            verdict = search.prove(child, seconds=clock.budget(0.2)).verdict
            if verdict == "proved":
                swapped.append([first.notation, second.notation])
            elif verdict == "undecided":
                undecided = True
        if swapped:
            judgement.criteria["E"] = Criterion.say("fail", "e_fail", pairs=swapped)
        elif undecided:
            judgement.criteria["E"] = Criterion.say("undecided", "e_undecided")
        else:
            judgement.criteria["E"] = Criterion.say("pass", "e_pass")

    def _criterion_f(
        self,
        search: ProofSearch,
        replayed: ReplayedGame | None,
        judgement: Judgement,
        clock: _Clock,
    ) -> None:
        """The composer's line is carried through to the final win (or a proved won ending)."""
        if replayed is None or not replayed.main.moves:
            judgement.criteria["F"] = Criterion.say("undecided", "f_no_solution")
            return
        end = replayed.end
        if not end.legal_moves():
            white_won = not end.white_to_move
            judgement.criteria["F"] = (
                Criterion.say("pass", "f_white_wins")
                if white_won
                else Criterion.say("fail", "f_black_wins")
            )
            return
        node = root_node(self.variant, end.state())
        verdict = search.prove(node, seconds=clock.budget(0.3)).verdict
        if verdict == "proved":
            judgement.criteria["F"] = Criterion.say("pass", "f_pass")
        elif verdict == "refuted":
            judgement.criteria["F"] = Criterion.say("fail", "f_fail", fen=format_fen(end))
        else:
            judgement.criteria["F"] = Criterion.say("undecided", "f_undecided")

    # ------------------------------------------------------------------ report
    def _proof_line(
        self, search: ProofSearch, root: Node, position: Position, replayed: ReplayedGame | None
    ) -> list[str]:
        if not search.is_proved(root) and not any(
            search.is_proved(child) for _raw, child in search.expand(root)
        ):
            return []
        main = list(replayed.main.engine_moves()) if replayed else []
        return self._line(search, root, position, main)

    @staticmethod
    def _line(
        search: ProofSearch,
        root: Node,
        position: Position,
        main: list[Move],
        *,
        first: str | None = None,
    ) -> list[str]:
        """A line of the proof from ``root``: White plays a proved move (``first``, given in
        notation, to begin with, else the main line's where it is proved), Black the main line's
        move or its first legal one."""
        line: list[str] = []
        node, current = root, position
        for ply in range(200):
            children = search.expand(node)
            if not children:
                break
            wanted = main[ply] if ply < len(main) else None
            if current.white_to_move:
                options = [(r, c) for r, c in children if search.is_proved(c)]
            else:
                options = list(children)
            if not options:
                break
            if ply == 0 and first is not None:
                options = [o for o in options if move_notation(current, to_move(o[0])) == first]
                if not options:
                    break
            raw, child = next(((r, c) for r, c in options if to_move(r) == wanted), options[0])
            move = to_move(raw)
            line.append(move_notation(current, move))
            node, current = child, current.play(move)
        return line

    @staticmethod
    def _verdict(judgement: Judgement) -> Literal["sound", "unsound", "undecided"]:
        statuses = [c.status for c in judgement.criteria.values()]
        solution = judgement.solution
        if "fail" in statuses or solution.key_wins is False or not solution.legal:
            return "unsound"
        if "undecided" in statuses or solution.key_wins is not True:
            return "undecided"
        return "sound"
