"""Compose draughts problems with the project's own checker (how ``problems/`` was made).

Two steps:

``search``
    samples random men-only positions of one variant (White to move, no man on its own
    promotion row, no capture for White at the start, White never more men than Black, a
    plausible last black move), keeps those the proof search wins quickly with exactly one
    winning key, builds the whole solution tree (Black's every defence, White's unique win at
    each turn), writes it as PDN and has ``Judge`` examine every criterion.  Men found idle
    (criterion D) are taken off and the smaller position is tried again.  Each sound problem
    is printed as one JSON line (FEN, PDN, features of the idea, the checker's time).

``write``
    takes chosen JSON lines and writes ``problems/<variant>-NN.pdn``, titled from the idea in
    Dutch (or by a ``chosen_title`` added to the line).

The sampler is biased towards combinations: the men of both sides stand in one zone of the
board, the white men a little below the black ones, so that sacrifices and shots are common.

    .venv/bin/python scripts/compose_problems.py search --variant international --seed 1 \\
        --samples 20000 --out /tmp/international.jsonl
    .venv/bin/python scripts/compose_problems.py write chosen.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rulebook_build.checker.front import Checker
from rulebook_build.checker.judge import Judgement
from rulebook_build.checker.legality import check_reachable
from rulebook_build.engine.search import Node, ProofSearch, TableLike, root_node
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.errors import RulebookError
from rulebook_build.notation.fen import format_fen, parse_fen
from rulebook_build.notation.pdn import read_pdn
from rulebook_build.notation.replay import move_notation
from rulebook_build.rules import Move, Position, Variant, find_variant
from rulebook_build.rules.board import column_of, row_of, square_at
from rulebook_build.rules.position import to_move

EVENT = "Examples"
DATE = "2026.11.23"
# honest credit: a program searched these positions and people chose them; they are teaching
# examples of the site, not a composer's work, so no Composer tag names anyone
SOURCE = "Composed for this site as an example"
STIPULATION = "White to play and win"
PROBLEMS = Path(__file__).resolve().parents[1] / "problems" / "examples"

QUICK_SECONDS = 0.05  # the proof search must win the start position this fast
TRY_SECONDS = (0.1, 0.8)  # each White move of the tree: proved or refuted in these steps
KEY_TRY_SECONDS = (0.1, 0.8, 3.0)  # the first moves get more (so does the judge)
MAX_WHITE_TURNS = 60  # White turns in the whole solution tree
MAX_PLIES = 31  # length of the longest line of the solution tree


class Rejected(Exception):
    """The candidate is no problem (a reason in the message)."""


# ---------------------------------------------------------------------- sampling
@dataclass(slots=True)
class Sampler:
    variant: Variant
    rng: random.Random
    min_men: int
    max_men: int

    def position(self) -> Position:
        """A random men-only position with White to move and no white capture."""
        while True:
            white_count = self.rng.randint(self.min_men, self.max_men)
            black_count = self.rng.randint(white_count, min(white_count + 2, 9))
            row = self.rng.uniform(2.5, 6.5)
            column = self.rng.uniform(0.5, 8.5)
            spread = self.rng.uniform(1.0, 2.2)
            gap = self.rng.uniform(0.5, 2.0)
            taken: set[int] = set()
            white = self._men(white_count, row + gap / 2, column, spread, 6, 50, taken)
            black = self._men(black_count, row - gap / 2, column, spread, 1, 45, taken)
            position = Position.from_squares(white_men=white, black_men=black, variant=self.variant)
            if position.legal_moves() and not position.has_capture():
                return position

    def _men(
        self,
        count: int,
        row: float,
        column: float,
        spread: float,
        lowest: int,
        highest: int,
        taken: set[int],
    ) -> list[int]:
        men: list[int] = []
        while len(men) < count:
            r = round(self.rng.gauss(row, spread))
            c = round(self.rng.gauss(column, spread * 1.3))
            square = square_at(min(9, max(0, r)), min(9, max(0, c)))
            if square is None or square in taken or not lowest <= square <= highest:
                continue
            taken.add(square)
            men.append(square)
        return men


# ---------------------------------------------------------------------- the solution tree
@dataclass(slots=True)
class WhiteTurn:
    """White's unique winning move and what follows."""

    move: str
    after: BlackTurn


@dataclass(slots=True)
class BlackTurn:
    """Black's defences, the longest first (the main line); none when Black cannot move."""

    options: list[tuple[str, WhiteTurn]] = field(default_factory=list)
    depth: int = 0  # plies to the end of the longest line


@dataclass(slots=True)
class TreeBuilder:
    variant: Variant
    search: ProofSearch
    deadline: float
    white_turns: int = 0

    def white(self, node: Node, position: Position, ply: int) -> tuple[WhiteTurn, int]:
        """White's unique winning move at ``node``; its depth in plies to the end."""
        if time.perf_counter() > self.deadline:
            raise Rejected("time: the solution tree is too large")
        self.white_turns += 1
        if self.white_turns > MAX_WHITE_TURNS or ply > MAX_PLIES:
            raise Rejected("the solution tree is too large")
        winners = []
        for raw, child in self.search.expand(node):
            verdict = "undecided"
            for seconds in KEY_TRY_SECONDS if ply == 0 else TRY_SECONDS:
                verdict = self.search.prove(child, seconds=seconds).verdict
                if verdict != "undecided":
                    break
            if verdict == "undecided":
                raise Rejected(f"a White try is undecided: ply {ply}")
            if verdict == "proved":
                winners.append((raw, child))
                if len(winners) > 1:
                    raise Rejected(f"two winning White moves: ply {ply}")
        if not winners:
            raise Rejected("no winning White move")
        raw, child = winners[0]
        move = to_move(raw)
        after, depth = self.black(child, position.play(move), ply + 1)
        return WhiteTurn(move_notation(position, move), after), depth + 1

    def black(self, node: Node, position: Position, ply: int) -> tuple[BlackTurn, int]:
        children = self.search.expand(node)
        if not children:
            return BlackTurn(), 0
        options: list[tuple[int, str, WhiteTurn]] = []
        for raw, child in children:
            move = to_move(raw)
            turn, depth = self.white(child, position.play(move), ply + 1)
            options.append((depth, move_notation(position, move), turn))
        longest = max(depth for depth, _, _ in options)
        ordered = sorted(options, key=lambda option: -option[0])  # stable: ties keep their order
        return BlackTurn([(notation, turn) for _, notation, turn in ordered], longest + 1), (
            longest + 1
        )


def main_line(turn: WhiteTurn) -> list[str]:
    line = [turn.move]
    while turn.after.options:
        black_move, turn = turn.after.options[0]
        line += [black_move, turn.move]
    return line


def movetext(turn: WhiteTurn, number: int = 1) -> list[str]:
    """The words of the solution from ``turn`` on: the main line with Black's alternatives."""
    words = [f"{number}.", turn.move]
    if not turn.after.options:
        return words
    (black_move, next_turn), *alternatives = turn.after.options
    words.append(black_move)
    for alternative, answer in alternatives:
        inner = [f"{number}...", alternative, *movetext(answer, number + 1)]
        words.append("(" + " ".join(inner) + ")")
    return words + movetext(next_turn, number + 1)


def wrap(words: list[str], width: int = 90) -> str:
    lines: list[str] = []
    current = ""
    for word in words:
        joined = f"{current} {word}" if current else word
        if len(joined) > width and current and not current.endswith("."):
            lines.append(current)
            current = word
        else:
            current = joined
    lines.append(current)
    return "\n".join(lines)


def pdn_text(variant: Variant, position: Position, solution: WhiteTurn, title: str) -> str:
    tags = [
        ("Event", EVENT),
        ("Site", "-"),
        ("Date", DATE),
        ("Round", "-"),
        ("White", "-"),
        ("Black", "-"),
        ("Result", "2-0"),
        ("SetUp", "1"),
        ("FEN", format_fen(position)),
        ("GameType", str(variant.gametype)),
        ("Title", title),
        ("Stipulation", STIPULATION),
        ("Source", SOURCE),
    ]
    head = "\n".join(f'[{name} "{value}"]' for name, value in tags)
    return f"{head}\n\n{wrap([*movetext(solution), '2-0'])}\n"


# ---------------------------------------------------------------------- features of the idea
def _orthogonal(move: Move) -> bool:
    return any(
        row_of(a) == row_of(b) or column_of(a) == column_of(b)
        for a, b in zip(move.path, move.path[1:], strict=False)
    )


def features(position: Position, line: list[str]) -> dict[str, object]:
    """What the main line shows: sacrifices, the biggest shot, orthogonal captures, ..."""
    current = position
    sacrifices: list[int] = []
    biggest = 0
    orthogonal = 0
    black_captured = 0
    white_captures: list[str] = []
    for notation in line:
        move = next(m for m in current.legal_moves() if move_notation(current, m) == notation)
        after = current.play(move)
        if current.white_to_move:
            if move.is_capture:
                biggest = max(biggest, len(move.captured))
                white_captures.append(notation)
            elif after.has_capture():
                sacrifices.append(move.destination)
        else:
            black_captured += len(move.captured)
        if move.is_capture and _orthogonal(move):
            orthogonal += 1
        current = after
    black_left = sum(current.count(False))
    return {
        "sacrifices": sacrifices,
        "white_men_given": black_captured,
        "biggest_shot": biggest,
        "white_captures": white_captures,
        "orthogonal_captures": orthogonal,
        "black_left": black_left,
        "plies": len(line),
    }


def auto_title(position: Position, line: list[str], feats: dict[str, object]) -> str:
    """A short Dutch title naming the idea: the sacrifices or the quiet key, and a blockade."""
    sacrifices: list[int] = feats["sacrifices"]  # type: ignore[assignment]
    if sacrifices:
        squares = " en ".join(str(s) for s in dict.fromkeys(sacrifices))
        title = f"{'Offers' if len(sacrifices) > 1 else 'Offer'} op {squares}"
    else:
        title = f"Stille zet {line[0]}"
    return f"{title}, blokkade" if feats["black_left"] else title


# ---------------------------------------------------------------------- judging
@dataclass(slots=True)
class Composer:
    variant: Variant
    tables: TableLike | None
    judge_seconds: float
    tree_seconds: float
    stats: Counter[str] = field(default_factory=Counter)

    def quick_win(self, position: Position) -> bool:
        search = ProofSearch(self.variant, tables=self.tables)
        verdict = search.prove(
            root_node(self.variant, position.state()), seconds=QUICK_SECONDS
        ).verdict
        return verdict == "proved"

    def compose(self, position: Position) -> dict[str, object] | None:
        """The sound problem made from ``position`` (idle men taken off), or None."""
        for _attempt in range(6):
            if check_reachable(position).status != "pass":
                self.stats["B1 (no last move)"] += 1
                return None
            search = ProofSearch(self.variant, tables=self.tables)
            root = root_node(self.variant, position.state())
            builder = TreeBuilder(self.variant, search, time.perf_counter() + self.tree_seconds)
            try:
                solution, _depth = builder.white(root, position, 0)
            except Rejected as why:
                self.stats[f"tree: {why}"] += 1
                return None
            line = main_line(solution)
            feats = features(position, line)
            title = auto_title(position, line, feats)
            text = pdn_text(self.variant, position, solution, title)
            judgement = self.judge(text, position)
            if judgement.verdict == "sound":
                self.stats["sound"] += 1
                return {
                    "variant": self.variant.name,
                    "fen": format_fen(position),
                    "key": line[0],
                    "main_line": line,
                    "black_choices": builder.white_turns - len(line[::2]),
                    "features": feats,
                    "title": title,
                    "seconds": round(judgement.seconds, 2),
                    "pdn": text,
                }
            idle = self.idle_men(judgement)
            if not idle:
                failed = [n for n, c in judgement.criteria.items() if c.status != "pass"]
                self.stats[f"judge: {judgement.verdict} {' '.join(failed)}"] += 1
                return None
            smaller = self.without(position, idle)
            if smaller is None:
                self.stats["idle men cannot be taken off"] += 1
                return None
            self.stats["idle men taken off"] += 1
            position = smaller
        return None

    def judge(self, text: str, position: Position) -> Judgement:
        games, errors = read_pdn(text, source="<composed>")
        if errors or len(games) != 1:
            raise RuntimeError(f"the composed PDN does not read: {errors}")
        # the Python search only: the composer's runs are repeated on any machine
        opened = {self.variant.name: self.tables} if self.tables is not None else {}
        checker = Checker(tables=self.tables is not None, compiled=False, opened=opened)  # type: ignore[dict-item]
        return checker.judge(games[0], variant=self.variant, seconds=self.judge_seconds)

    @staticmethod
    def idle_men(judgement: Judgement) -> list[tuple[str, int]]:
        criterion = judgement.criteria["D"]
        if criterion.status != "fail" or criterion.message != "d_fail":
            return []
        if any(c.status == "fail" for n, c in judgement.criteria.items() if n != "D"):
            return []
        men = criterion.args["men"]
        assert isinstance(men, list)
        return [(str(colour), int(square)) for colour, square in men]

    def without(self, position: Position, idle: list[tuple[str, int]]) -> Position | None:
        white = [s for s in position.squares_of("white", "man") if ("white", s) not in idle]
        black = [s for s in position.squares_of("black", "man") if ("black", s) not in idle]
        if len(white) > len(black) or not white or not black:
            return None
        try:
            smaller = Position.from_squares(white_men=white, black_men=black, variant=self.variant)
        except RulebookError:
            return None
        if smaller.has_capture() or not smaller.legal_moves():
            return None
        return smaller


# ---------------------------------------------------------------------- commands
def search_command(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    tables: TableLike | None = None if args.no_tables else checker_tables(variant)
    sampler = Sampler(variant, random.Random(args.seed), args.min_men, args.max_men)
    composer = Composer(variant, tables, args.judge_seconds, args.tree_seconds)
    seen: set[str] = set()
    started = time.perf_counter()
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    try:
        for index in range(1, args.samples + 1):
            position = sampler.position()
            composer.stats["tried"] += 1
            if composer.quick_win(position):
                composer.stats["quick win"] += 1
                found = composer.compose(position)
                if found is not None and found["fen"] not in seen:
                    seen.add(str(found["fen"]))
                    found["seed"] = args.seed
                    line = json.dumps(found)
                    print(line, flush=True)
                    if out is not None:
                        out.write(line + "\n")
                        out.flush()
            if index % args.report == 0:
                elapsed = time.perf_counter() - started
                summary = ", ".join(f"{k} {v}" for k, v in composer.stats.most_common())
                print(f"# {index} samples, {elapsed:.0f} s: {summary}", file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    summary = ", ".join(f"{k} {v}" for k, v in composer.stats.most_common())
    print(f"# done: {summary}", file=sys.stderr, flush=True)
    return 0


def write_command(args: argparse.Namespace) -> int:
    """Write the chosen problems; a title is the one given, else made from the idea (Dutch)."""
    counters: Counter[str] = Counter()
    titles: Counter[str] = Counter()
    PROBLEMS.mkdir(exist_ok=True)
    for text in Path(args.chosen).read_text(encoding="utf-8").splitlines():
        if not text.strip():
            continue
        found = json.loads(text)
        variant = find_variant(found["variant"])
        counters[variant.name] += 1
        title = found.get("chosen_title") or auto_title(
            parse_fen(found["fen"], variant=variant), found["main_line"], found["features"]
        )
        titles[title] += 1
        if titles[title] > 1:
            title = f"{title} ({titles[title]})"
        pdn = str(found["pdn"])
        old_title = pdn.split('[Title "', 1)[1].split('"]', 1)[0]
        pdn = pdn.replace(f'[Title "{old_title}"]', f'[Title "{title}"]')
        path = PROBLEMS / f"{variant.name}-{counters[variant.name]:02d}.pdn"
        path.write_text(pdn, encoding="utf-8")
        print(path)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    search = commands.add_parser("search", help="sample positions and keep the sound problems")
    search.add_argument("--variant", default="international")
    search.add_argument("--seed", type=int, default=1)
    search.add_argument("--samples", type=int, default=1000)
    search.add_argument("--min-men", type=int, default=3)
    search.add_argument("--max-men", type=int, default=6)
    search.add_argument("--judge-seconds", type=float, default=40.0)
    search.add_argument("--tree-seconds", type=float, default=8.0)
    search.add_argument("--report", type=int, default=500, help="progress every N samples")
    search.add_argument("--out", help="append the sound problems (JSON lines) to this file")
    search.add_argument("--no-tables", action="store_true")
    write = commands.add_parser("write", help="write chosen problems to problems/")
    write.add_argument("chosen", help="JSON lines from 'search', each with its final 'title'")
    args = parser.parse_args()
    if args.command == "search":
        return search_command(args)
    return write_command(args)


if __name__ == "__main__":
    raise SystemExit(main())
