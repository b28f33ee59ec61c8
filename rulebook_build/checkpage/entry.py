"""The checker's entry points for the "check your problem" page, run in the reader's browser.

The page runs this module under Pyodide in a Web Worker (``checkpage/assets/checker-worker.js``):
the same rules, notation and checker code as ``rulebook check``, with the same endgame tables
(those the site publishes, ``engine/tables/remote.py``: every block fetched by a Range request
and checked against its SHA-256 before use) and the same compiled proof search, built to
WebAssembly (``engine/wasm.py``) and run by the worker's host (``checkpage/assets/prover-host.js``).
Its answers are walked by the Python engine here before they count, as on the command line.
A check is counted in work (``rulebook check --deterministic``), so the page's JSON is the
command line's, ``seconds`` aside, for the same tables and limit.  Without the WebAssembly
build (no Zig when the site was built) the Python search runs alone: slower, never wrong.

Every function takes and returns JSON text or numbers, so the worker passes plain strings and
nothing from a pasted problem is ever evaluated: it is read by the notation layer and shown by
the page as text only.

    load(text)                        a pasted FEN or PDN problem -> its parts, or the error
    moves(fen, variant, solution, lang)   the solution checked move by move, and its player
    open_tables(variant, manifest, fetch, host, kept, scout)   the site's tables (and compiled
                                      search), and table_blocks, table_codes, table_request:
                                      ``checkpage/tables.py``, the worker's tables and scouts
    scout_requests(problem, seconds)  the searches a judgement starts with, for the scouts
    check(problem, seconds, lang)     the judgement, as ``rulebook check --json`` prints it
    pdn(problem)                      the problem as a PDN file for a contest
    similar_index(text), similar(problem, lang)   the published problems most like it
"""

from __future__ import annotations

import base64
import json
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from rulebook_build.checker import CRITERIA, Checker, calibration, opinion_words, render
from rulebook_build.checkpage.tables import (
    _OPEN,
    can_wait,
    open_tables,
    scout_lines,
    table_blocks,
    table_codes,
    table_request,
)
from rulebook_build.engine import wasm
from rulebook_build.errors import RulebookError, Said
from rulebook_build.notation import (
    MAX_GAME_CHARACTERS,
    DiagramSpec,
    format_fen,
    game_variant,
    line_text,
    move_notation,
    parse_fen,
    read_pdn,
    replay_problem,
    resolve_move,
    said_in,
    shown,
)
from rulebook_build.render import player_html
from rulebook_build.rules import Move, Variant, find_variant
from rulebook_build.similar import Collection as SimilarCollection
from rulebook_build.similar import Index, cache, describe, queries, read_file
from rulebook_build.similar import search_similar as search
from rulebook_build.words import LANGUAGES, Message, define
from rulebook_build.words import text as said

GAMETYPES: Final = {"international": 20, "frisian": 40}
MOVE: Final = re.compile(r"[0-9]+(?:\s*[-x:×]\s*[0-9]+)+")
"""A move as typed: ``32-28``, ``26x37x48``; move numbers and results around it are skipped."""
TAGS: Final = ("Event", "Site", "Date", "Composer", "Title", "Source", "Stipulation")
"""The tags the page keeps and writes (besides SetUp, FEN and GameType)."""
DEFAULT_SECONDS: Final = 20
"""The page's default limit: the one the stored verdicts are judged with (``site/problems.py``
``REFRESH``), so that a problem of a collection gets its published grade."""


def scout_requests(problem_json: str, seconds: float) -> str:
    """The searches the judgement of the problem starts with, as requests to the compiled
    search (:func:`scout_lines`), in JSON; ``[]`` for a problem that cannot be read (the check
    says why).  The worker runs them as scouts that never wait for a block (``prover-host.js``),
    to learn which blocks to fetch many at a time; their answers are thrown away, and the
    judgement that follows is the same with or without them."""
    try:
        problem = json.loads(problem_json)
        games, errors = read_pdn(_pdn_text(problem), source="<problem>")
        if errors or not games:
            return "[]"
        variant = game_variant(games[0])
        assert variant is not None
        read = replay_problem(games[0], variant)
    except (RulebookError, ValueError, KeyError, TypeError):
        return "[]"
    return json.dumps(scout_lines(read, float(seconds)))


__all__ = [
    "DEFAULT_SECONDS",
    "check",
    "load",
    "moves",
    "open_tables",
    "pdn",
    "scout_lines",
    "scout_requests",
    "similar",
    "similar_index",
    "table_blocks",
    "table_codes",
    "table_request",
]


def _error(error: RulebookError) -> dict[str, Any]:
    return {
        "message": error.message,
        "line": error.line,
        "column": error.column,
        "expected": error.expected,
        "text": str(error),
    }


MOVE_WORDS: Final = {lang: said(define("browser.move", "move"), lang) for lang in LANGUAGES}
NOT_JUDGED: Final = {
    lang: said(
        define(
            "browser.not_judged",
            "Could not be judged as written: the solution cannot be played",
        ),
        lang,
    )
    for lang in LANGUAGES
}
"""What the page says instead of a verdict when a move of the solution cannot be played, as
``rulebook check`` refuses such a problem as bad input (``notation.unplayable``)."""
define("browser.too_long", "the problem is {length} characters long; at most {limit} are read")
NOT_A_PROBLEM: Final = define("browser.not_a_problem", "not a problem")
define("browser.gametype", "GameType {gametype} is not International (20) or Frisian (40)")


def _located(error: RulebookError, text: str, lang: str) -> dict[str, Any]:
    """An error of the PDN the page wrote from its fields, with the text the page shows."""
    return {**_error(error), "text": shown(error, lang, place=_move_place(error, text, lang))}


_PLACE: Final = re.compile(r"^<problem>:(\d+):(\d+): (.*)$", re.DOTALL)


def _move_word(moves_before: str, black_first: bool, lang: str) -> str:
    """ "move 4": the number of the move after the moves of ``moves_before``."""
    plies = len(MOVE.findall(_main_line(moves_before)))
    return f"{MOVE_WORDS.get(lang, MOVE_WORDS['en'])} {(plies + black_first) // 2 + 1}"


def _move_place(error: RulebookError, text: str, lang: str) -> str | None:
    """Where an error of the PDN the page wrote (``_pdn_text``) lies in its solution, by move
    number: the reader never saw that PDN's lines and columns.  None outside the solution
    (the file's last line)."""
    lines = text.split("\n")
    if error.line is None or error.column is None or error.line != len(lines) - 1:
        return None
    moves = lines[error.line - 1][: error.column - 1]
    return _move_word(moves, '[FEN "B:' in text, lang)


def _pasted_place(text: str, error: RulebookError, black_first: bool, lang: str) -> str | None:
    """Where an error in the moves of a pasted PDN lies, by move number (with its line and
    column in what was pasted), or None when it is not in the moves."""
    if error.line is None or error.column is None:
        return None
    lines = text.split("\n")
    before = "\n".join([*lines[: error.line - 1], lines[error.line - 1][: error.column - 1]])
    tags_end = before.rfind("]")
    if tags_end < 0 or "[" in before[tags_end:]:
        return None
    at = _move_word(before[tags_end + 1 :], black_first, lang)
    return f"{at} ({error.line}:{error.column})"


def _solution_error(error: str | None, said: Said | None, text: str, lang: str) -> str | None:
    """The judgement's solution error (``<problem>:9:19: illegal move ...``), its place named
    by move number, its message in ``lang`` (from its id, ``said``, when it has one)."""
    match = _PLACE.match(error or "")
    if match is None:
        return error
    place = RulebookError(match.group(3), line=int(match.group(1)), column=int(match.group(2)))
    at = _move_place(place, text, lang)
    message = match.group(3) if said is None else said.said(lang)
    return f"{at}: {message}" if at else message


def _variant(name: str) -> Variant:
    return find_variant(name if name in GAMETYPES else "international")


def load(text: str, lang: str = "en") -> str:
    """A pasted problem: a FEN (``W:W31,32:B18``) or a PDN game with a FEN tag.  Returns
    ``{"fen", "variant", "solution", "tags"}`` or ``{"error": {...}}`` (located as on the
    command line: line, column, what was expected)."""
    text = text.strip()
    try:
        if len(text) > MAX_GAME_CHARACTERS:
            raise RulebookError(
                Message.of(
                    "browser.too_long", length=f"{len(text):,}", limit=f"{MAX_GAME_CHARACTERS:,}"
                ),
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
                Message.of("notation.no_problem"),
                source="<pasted>",
            )
        game = problems[0]
        variant = game_variant(game)
        if variant is None:
            raise RulebookError(
                Message.of("browser.gametype", gametype=repr(game.gametype)),
                source="<pasted>",
                line=game.line,
            )
        problem = replay_problem(game, variant)  # a bad FEN raises here, located
        position = problem.start
        if problem.unplayable is not None:  # a move of the solution: named by its number
            error = problem.unplayable.error
            at = _pasted_place(text, error, not position.white_to_move, lang)
            if at is None:
                raise error
            return json.dumps({"error": {**_error(error), "text": shown(error, lang, place=at)}})
        assert problem.replayed is not None  # playable
        solution = line_text(problem.replayed.main, 0 if position.white_to_move else 1)
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
        return json.dumps({"error": {**_error(error), "text": shown(error, lang)}})


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
        said = {**_error(error), "text": shown(error, lang)}
        return json.dumps({"error": said, "moves": [], "player": ""})
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
                entry["reason"] = said_in(error.what, lang)
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


def command_line(seconds: float) -> str:
    """The command a jury runs to get the same judgement (the page counts in work too)."""
    return f"rulebook check --json --deterministic --time-limit {seconds:g} problem.pdn"


def check(
    problem_json: str,
    seconds: float,
    lang: str,
    progress: Callable[[str], None] | None = None,
    counted: Callable[[int], None] | None = None,
) -> str:
    """Judge the problem as ``rulebook check --json --deterministic`` does, with the site's
    tables and compiled search where :func:`open_tables` opened them; the record adds
    ``report``: each criterion's status and detail in the page's language (the messages of
    ``checker/messages.py``), the nodes searched, the tables and search used, the tables left
    out (``table_faults``: could not be fetched, or failed their checksum), and the command
    that gives the same judgement."""
    problem = json.loads(problem_json)
    text = _pdn_text(problem)
    try:
        games, errors = read_pdn(text, source="<problem>")
        if errors:
            raise errors[0]
        game = games[0]
        variant = game_variant(game)
        assert variant is not None
        # the FEN read once (a bad one is said here, located in the text) and the solution
        # replayed once: the judgement is handed both
        read = replay_problem(game, variant)
    except RulebookError as error:
        return json.dumps({"error": _located(error, text, lang)})
    fault = read.unplayable
    if fault is not None:  # as on the command line: a slip in the text is no verdict
        said = _located(fault.error, text, lang)
        words = NOT_JUDGED.get(lang, NOT_JUDGED["en"])
        return json.dumps({"error": {**said, "text": f"{words}: {said['text']}"}})
    started = time.perf_counter()
    tables = _OPEN.get(variant.name)
    prover = tables.prover() if tables is not None else None
    checker = Checker(
        tables=tables is not None,
        compiled=prover is not None,
        opened={variant.name: tables} if tables is not None else {},
    )
    searched = [0]

    def heard(count: int) -> None:
        searched[0] = count
        if counted is not None:
            counted(count)

    judgement = checker.judge(
        read,
        seconds=float(seconds),
        full=True,
        by_work=True,
        progress=progress,
        nodes=heard,
    )
    judgement.seconds = time.perf_counter() - started
    record = judgement.as_json()
    rows = []
    for name in CRITERIA:
        criterion = judgement.criteria[name]
        detail = render(criterion.message, criterion.args, lang) if criterion.message else None
        rows.append(
            {"name": name, "status": criterion.status, "detail": detail or criterion.detail}
        )
    record["report"] = {
        "rows": rows,
        "nodes": searched[0],
        "tables": tables.pieces if tables else 0,
        "compiled": isinstance(prover, wasm.HostedProver),
        "command": command_line(float(seconds)),
        "solution_error": _solution_error(
            judgement.solution.error, judgement.solution.said, text, lang
        ),
        # the engine's opinions on what stayed open, in the page's language: never a proof
        "opinions": [
            {
                "criteria": ", ".join(opinion.criteria),
                "says": opinion.says,
                "text": opinion_words.describe(opinion, lang),
            }
            for opinion in judgement.opinions
        ],
        "calibration": opinion_words.calibration_text(calibration(judgement.variant), lang),
        # the site's tables left out (could not be fetched, or failed their checksum): the
        # judgement did without them, and may settle less than the command line
        "table_faults": [
            {"class": name, "kind": kind, "reason": reason}
            for name, kind, reason in (tables.faults() if tables else [])
        ],
        # pages the worker kept that failed their checksum (asked of the host instead): the
        # worker forgets what it keeps of the set
        "kept_refused": tables.kept_refused() if tables else 0,
        # whether the judgement waited for the worker's scouts before each search (JSPI)
        "scouts_waited": can_wait(),
    }
    return json.dumps(record)


# --- the anticipation search over the site's published problems ------------------------------

_SIMILAR: dict[str, Any] = {}
"""The shipped index (``site/relatives.shipped_index``), read once for the worker's life:
``index`` and, per file's source, its ``pages`` and ``titles``."""


def similar_index(text: str) -> str:
    """Read the site's shipped index; ``{"problems": n}``."""
    document = json.loads(text)
    index = Index()
    pages: dict[str, dict[str, list[str]]] = {}
    titles: dict[str, dict[str, str]] = {}
    for number, file in enumerate(document["files"]):
        kept = cache.decode(base64.b64decode(file["data"]), {"shipped": document["format"]})
        if kept is None:
            raise ValueError(f"the site's problem index is damaged (file {number + 1})")
        record, bits = kept
        about = file["collection"]
        variant = find_variant(about["variant"]) if about["variant"] else None
        collection = SimilarCollection(
            key=file["source"].rsplit("/", 1)[0],
            title=about["title"]["en"],
            composer_tag=about["composer_tag"],
            publication_tag=about["publication_tag"],
            date=about["date"],
            variant=variant,
        )
        index.add(file["source"], collection, record, bits)
        pages[file["source"]] = file["pages"]
        titles[file["source"]] = about["title"]
    _SIMILAR.update(index=index, pages=pages, titles=titles)
    return json.dumps({"problems": sum(len(p) for p in pages.values())})


def similar(problem_json: str, lang: str = "en", limit: int = 5) -> str:
    """The published problems most like the problem on the page, best first: ``{"matches":
    [{"href", "name", "title", "by", "likeness", "reason", "anticipation"}]}`` (``href``
    relative to the site's home in the page's language), or ``{"error"}``."""
    index = _SIMILAR.get("index")
    if index is None:
        raise RuntimeError("similar_index() was not called")
    text = _pdn_text(json.loads(problem_json))
    _games, errors = read_pdn(text, source="<problem>")
    if errors:
        return json.dumps({"error": _located(errors[0], text, lang)})
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "problem.pdn"
        path.write_text(text, encoding="utf-8")
        record = read_file(path)
        found = queries(index, str(path), record, SimilarCollection(str(path), "problem"))
    if record.errors or not found:
        # the index's reading keeps a fault's English only (its record is the command line's
        # cache format): a fault the page's own reading above did not meet is said in English
        fault = record.errors[0] if record.errors else None
        message = fault.message if fault is not None else said(NOT_A_PROBLEM)
        text_said = fault.message if fault is not None else said(NOT_A_PROBLEM, lang)
        return json.dumps({"error": {"message": message, "text": text_said}})
    matches = []
    for match in search(index, found[0], limit):
        source, _colon, line = match.source.rpartition(":")
        page = _SIMILAR["pages"].get(source, {}).get(line)
        if page is None:
            continue
        href, title, name = page
        collection = _SIMILAR["titles"][source].get(lang) or _SIMILAR["titles"][source]["en"]
        matches.append(
            {
                "href": href,
                "name": f"{collection}, {name}",
                "title": title,
                "by": ", ".join(t for t in (match.composer, match.published) if t),
                "likeness": f"{round(match.score * 100)}%",
                "reason": describe(match.about, lang),
                # the problem on the page is not published: whatever is, came first
                "anticipation": match.anticipation,
            }
        )
    return json.dumps({"matches": matches})
