"""The checker's entry points for the "check your problem" page, run in the reader's browser.

The page runs this module under Pyodide in a Web Worker (``site/assets/checker-worker.js``):
the same rules, notation and checker code as ``rulebook check``, with the Python proof search
(the compiled one is not there) and the endgame tables of up to :data:`TABLE_PIECES` pieces the
site ships, so what it cannot settle in the time given it calls undecided, as the command line
does.  Every function takes and returns
JSON text, so the worker passes plain strings and nothing from a pasted problem is ever
evaluated: it is read by the notation layer and shown by the page as text only.

    load(text)                        a pasted FEN or PDN problem -> its parts, or the error
    moves(fen, variant, solution, lang)   the solution checked move by move, and its player
    check(problem, seconds, lang)     the judgement, as ``rulebook check --json`` prints it
    pdn(problem)                      the problem as a PDN file for a contest
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from rulebook_build.checker.judge import CRITERIA, Judge
from rulebook_build.checker.messages import render
from rulebook_build.checker.search import ProofSearch
from rulebook_build.errors import RulebookError
from rulebook_build.notation.diagram import DiagramSpec
from rulebook_build.notation.fen import format_fen, parse_fen
from rulebook_build.notation.pdn import MAX_GAME_CHARACTERS, read_pdn
from rulebook_build.notation.replay import game_variant, line_text, replay, start_position
from rulebook_build.notation.resolve import move_notation, resolve_move
from rulebook_build.render.html import player_html
from rulebook_build.rules import Move, Variant, find_variant

GAMETYPES: Final = {"international": 20, "frisian": 40}
MOVE: Final = re.compile(r"[0-9]+(?:\s*[-x:×]\s*[0-9]+)+")
"""A move as typed: ``32-28``, ``26x37x48``; move numbers and results around it are skipped."""
TAGS: Final = ("Event", "Site", "Date", "Composer", "Title", "Source", "Stipulation")
"""The tags the page keeps and writes (besides SetUp, FEN and GameType)."""
TABLES: Final = Path("/home/pyodide/tables")
"""Where the worker unpacks the small endgame tables the site ships."""
TABLE_PIECES: Final = 3
"""The endgame tables the site ships for this page: every class of up to this many pieces,
pure and with the count rules, per variant (International 1.7 MB and Frisian 4.2 MB a kind on
disk; 0.16 and 0.42 MB gzip-compressed).  They decide the site's small examples at once, which
the Python search alone leaves open for a minute (``benchmarks/browser_checker.py``)."""

if TYPE_CHECKING:
    from rulebook_build.checker.tables.kinds import CheckerTables


def shipped_tables(variant: Variant, cache_dir: Path | None = None) -> CheckerTables:
    """The tables of up to :data:`TABLE_PIECES` pieces, pure and with the count rules, kept in
    ``cache_dir`` (default: the user's cache, where the site build finds or makes them)."""
    from rulebook_build.checker.tables.endgame import EndgameTables
    from rulebook_build.checker.tables.kinds import CheckerTables

    def kind(semantics: str) -> EndgameTables:
        return EndgameTables(
            variant,
            max_pieces=TABLE_PIECES,
            cached_pieces=TABLE_PIECES,
            cache_dir=cache_dir,
            semantics=semantics,  # type: ignore[arg-type]
        )

    return CheckerTables(kind("pure"), kind("rules"))


def _tables(variant: Variant, folder: Path = TABLES) -> CheckerTables | None:
    """The shipped tables of ``variant`` when every one of them is there (each file is checked
    against its checksum as it is first read); else None: the search goes without."""
    if not folder.is_dir():
        return None
    tables = shipped_tables(variant, folder)
    return None if tables.missing() else tables


def _error(error: RulebookError) -> dict[str, Any]:
    return {
        "message": error.message,
        "line": error.line,
        "column": error.column,
        "expected": error.expected,
        "text": str(error),
    }


def _variant(name: str) -> Variant:
    return find_variant(name if name in GAMETYPES else "international")


def load(text: str) -> str:
    """A pasted problem: a FEN (``W:W31,32:B18``) or a PDN game with a FEN tag.  Returns
    ``{"fen", "variant", "solution", "tags"}`` or ``{"error": {...}}`` (located as on the
    command line: line, column, what was expected)."""
    text = text.strip()
    try:
        if len(text) > MAX_GAME_CHARACTERS:
            raise RulebookError(
                f"the problem is {len(text):,} characters long; at most "
                f"{MAX_GAME_CHARACTERS:,} are read",
                source="<pasted>",
            )
        if not text.startswith("[") and ":" in text and "\n" not in text:
            position = parse_fen(text, source="<pasted>")
            return json.dumps(
                {"fen": format_fen(position), "variant": "", "solution": "", "tags": {}}
            )
        games, errors = read_pdn(text, source="<pasted>")
        if errors:
            raise errors[0]
        problems = [game for game in games if game.is_problem]
        if not problems:
            raise RulebookError(
                'no problem here: a PDN problem needs [SetUp "1"] and a [FEN "..."] tag',
                source="<pasted>",
            )
        game = problems[0]
        variant = game_variant(game)
        if variant is None:
            raise RulebookError(
                f"GameType {game.gametype!r} is not International (20) or Frisian (40)",
                source="<pasted>",
                line=game.line,
            )
        position = start_position(game, variant)
        replayed = replay(game, variant=variant)
        solution = line_text(replayed.main, 0 if position.white_to_move else 1)
        tags = {name: value for name, value in game.tags if name in TAGS}
        return json.dumps(
            {
                "fen": format_fen(position),
                "variant": variant.name,
                "solution": solution,
                "tags": tags,
            }
        )
    except RulebookError as error:
        return json.dumps({"error": _error(error)})


def _main_line(solution: str) -> str:
    """The typed solution without its comments and variations (the main line, which the
    page checks move by move; the variations are read when the problem is checked).  Each
    removed character becomes a space, so positions in the text stay where they were."""
    kept = []
    depth = 0
    in_comment = False
    for character in solution:
        if in_comment:
            in_comment = character != "}"
            kept.append(" ")
        elif character == "{":
            in_comment = True
            kept.append(" ")
        elif character == "(":
            depth += 1
            kept.append(" ")
        elif character == ")":
            depth = max(0, depth - 1)
            kept.append(" ")
        else:
            kept.append(" " if depth else character)
    return "".join(kept)


def moves(fen: str, variant: str, solution: str, lang: str) -> str:
    """The typed solution, move by move: each move's text, where it stands in the typed text
    (``start``, ``end``), whether it is legal and why not; and the solution player of the legal
    moves (the site's own player, as HTML our renderer made)."""
    rules = _variant(variant)
    try:
        position = parse_fen(fen, variant=rules, source="<board>")
    except RulebookError as error:
        return json.dumps({"error": _error(error), "moves": [], "player": ""})
    start = current = position
    played: list[Move] = []
    found: list[dict[str, Any]] = []
    for match in MOVE.finditer(_main_line(solution)):
        written = re.sub(r"\s+", "", match.group(0)).replace("×", "x").replace(":", "x")
        entry: dict[str, Any] = {"text": written, "start": match.start(), "end": match.end()}
        if len(played) < len(found):  # an earlier move was illegal: the rest is not checked
            entry["legal"] = None
        else:
            try:
                move = resolve_move(current, written)
                entry["legal"] = True
                entry["notation"] = move_notation(move, current.legal_moves())
                played.append(move)
                current = current.play(move)
            except RulebookError as error:
                entry["legal"] = False
                entry["reason"] = error.message
        found.append(entry)
    spec = DiagramSpec(start, variant=rules, moves=tuple(played), numbers=True)
    figure = player_html(spec, lang=lang, id_prefix="rb-check-player") if played else ""
    return json.dumps({"moves": found, "player": figure, "fen": format_fen(start)})


def _pdn_text(problem: dict[str, Any]) -> str:
    """The problem as one PDN game: its tags, SetUp/FEN/GameType, the solution, a result."""
    rules = _variant(str(problem.get("variant", "")))
    tags = problem.get("tags") or {}
    lines = []
    for name in TAGS:
        value = str(tags.get(name, "")).replace("\\", "\\\\").replace('"', '\\"')
        value = " ".join(value.split())
        if value or name in ("Event", "Site", "Date"):
            lines.append(f'[{name} "{value or "?"}"]')
    lines += [
        '[Result "*"]',
        '[SetUp "1"]',
        f'[FEN "{problem.get("fen", "")}"]',
        f'[GameType "{GAMETYPES[rules.name]}"]',
    ]
    solution = " ".join(str(problem.get("solution", "")).split())
    return "\n".join(lines) + f"\n\n{solution} *\n"


def pdn(problem_json: str) -> str:
    """The problem as a PDN file with the tags a contest needs; ``{"pdn"}`` or an error."""
    text = _pdn_text(json.loads(problem_json))
    _games, errors = read_pdn(text, source="<problem>")
    if errors:
        return json.dumps({"error": _error(errors[0])})
    return json.dumps({"pdn": text})


class _CountingJudge(Judge):
    """A judge whose searches report their nodes, summed, to ``counted``."""

    def __init__(self, variant: Variant, counted: Callable[[int], None] | None, **options: Any):
        self._counted = counted
        self._searches: list[ProofSearch] = []
        super().__init__(variant, **options)

    def _new_search(self) -> ProofSearch:
        search = ProofSearch(self.variant, tables=self.tables, prover=None, progress=self._report)
        self._searches.append(search)
        return search

    def _report(self, _nodes: int) -> None:
        if self._counted is not None:
            self._counted(self.nodes())

    def nodes(self) -> int:
        return sum(search.nodes for search in self._searches)


def check(
    problem_json: str,
    seconds: float,
    lang: str,
    progress: Callable[[str], None] | None = None,
    counted: Callable[[int], None] | None = None,
) -> str:
    """Judge the problem as ``rulebook check --json --python-only`` does, with the endgame
    tables the site ships (up to 3 pieces) where the worker has unpacked them; the record adds
    ``report``: each criterion's status and detail in the page's language (the messages of
    ``checker/messages.py``), the nodes searched and whether the tables were used."""
    text = _pdn_text(json.loads(problem_json))
    try:
        games, errors = read_pdn(text, source="<problem>")
        if errors:
            raise errors[0]
        game = games[0]
        variant = game_variant(game)
        assert variant is not None
        position = start_position(game, variant)
    except RulebookError as error:
        return json.dumps({"error": _error(error)})
    started = time.perf_counter()
    tables = _tables(variant)
    judge = _CountingJudge(variant, counted, tables=tables, progress=progress, prover=None)
    judgement = judge.judge(game, position, seconds=float(seconds), full=True)
    judgement.seconds = time.perf_counter() - started
    record = judgement.as_json()
    rows = []
    for name in CRITERIA:
        criterion = judgement.criteria[name]
        detail = render(criterion.message, criterion.args, lang) if criterion.message else None
        rows.append(
            {"name": name, "status": criterion.status, "detail": detail or criterion.detail}
        )
    record["report"] = {"rows": rows, "nodes": judge.nodes(), "tables": tables is not None}
    return json.dumps(record)
