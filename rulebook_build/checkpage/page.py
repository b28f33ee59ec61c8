"""The "check your problem" page (``controleren/``): what a ```` ```draughts-checker ```` block
of the site becomes, and the files the site copies for it.

The block becomes the page's application: a board editor, the solution typed and checked move
by move, the site's solution player, the checker's verdict and the PDN to download.  The
checking runs in the reader's browser: ``checkpage/assets/checker-worker.js`` loads Pyodide
(copied from ``node_modules/pyodide`` into the built site, so nothing is fetched from another
host) and the project's own Python code (:func:`python_bundle`: the rules, notation, checker
and renderer, with Lark), and calls :mod:`rulebook_build.checkpage.entry`.

The site's own words the page shows (the grades, the criteria's results, the variants' names)
and the link to its language's home are the site's: :func:`render_checker` is given them, so
that this room, below the site, never imports it.

A build without Pyodide (``npm ci`` not run) still builds: the page then says what is missing
instead of offering a checker that cannot start.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import jinja2

import rulebook_build
from rulebook_build.checker import opinion_words
from rulebook_build.checkpage.entry import DEFAULT_SECONDS
from rulebook_build.errors import OutputError
from rulebook_build.notation import GRAMMAR_DIR
from rulebook_build.words import LANGUAGES, Message, define
from rulebook_build.words import text as said

ASSETS: Final = Path(__file__).resolve().parent / "assets"
"""The page's scripts, which the site copies to its ``assets/rulebook/`` (``site/generated.py``)."""
PAGE_SCRIPT: Final = "checker.js"
"""The script the page loads: it starts the worker."""
EARLY_START: Final = (ASSETS / "early-start.js").read_text(encoding="utf-8")
"""The inline script that starts the worker as the page is read (written into the page, not
copied as a file: a file would cost a round trip)."""
WORKER_FILES: Final = ("checker-worker.js", "prover-host.js", "table-fetch.js", "early-scouts.js")
"""The worker, the host of the WebAssembly search, and the table reader and the scouts before
Python that the worker imports."""

PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What the worker loads of the Pyodide distribution (the npm package ``pyodide``)."""
PYODIDE_DEST: Final = "assets/pyodide/{version}"
"""Where Pyodide's files go in the site: a folder per version, so that a browser that kept
one version's files can never mix them with another's after an upgrade, and a host may keep
them for a year (guides/webmasters.md, "Caching")."""
BUNDLE_DEST: Final = "assets/rulebook/rulebook-python.zip"
BUNDLE_PARTS: Final = (
    "__init__.py",
    "errors.py",
    "cachedir.py",
    "lifetime.py",
    "checkpage/__init__.py",
    "checkpage/entry.py",
    "checkpage/tables.py",
    "rules",
    "notation",
    "engine",
    "checker",
    "similar",
    "render/__init__.py",
    "render/animation.py",
    "render/html.py",
    "render/strings.py",
    "render/style.py",
    "render/svg.py",
    "words",
)
"""The package's files the browser needs (no site, command line, compiled search or raster; of
this room its face and its entry points, not the page, which only the site build renders).
No C source: the tables' names are written in ``store.FINGERPRINTS``, not hashed from them."""

_LABEL_IDS: Final[dict[str, str]] = {
    "similar": define("check_page.similar", "Look for anticipations"),
    "similar_title": define("check_page.similar_title", "Published problems like it"),
    "similar_running": define("check_page.similar_running", "Searching the published problems…"),
    "similar_none": define(
        "check_page.similar_none",
        "No published problem of this site is like it enough.",
    ),
    "similar_found": define(
        "check_page.similar_found",
        "{count} published problems are like it, the most alike first.",
    ),
    "similar_note": define(
        "check_page.similar_note",
        "Searched in your browser, among this site's published problems. A possible "
        "anticipation has the same position (but for a piece or two) or the same final "
        "combination; whether it anticipates yours is the jury's to say.",
    ),
    "possible_anticipation": define("check_page.possible_anticipation", "possible anticipation"),
    "likeness": define("check_page.likeness", "likeness"),
    "missing": define(
        "check_page.missing",
        "The in-browser checker is not part of this build of the site: Pyodide is missing. Run "
        "'npm ci' in the project's folder and build the site again ('rulebook build'). Until "
        "then: 'rulebook check' on the command line.",
    ),
    "noscript": define(
        "check_page.noscript",
        "This page needs JavaScript: the check runs in your browser.",
    ),
    "board": define("check_page.board", "Position"),
    "board_help": define(
        "check_page.board_help",
        "Click or tap a square: empty, white man, black man, white king, black king. The arrow "
        "keys move the focus over the board.",
    ),
    "variant": define("check_page.variant", "Variant"),
    "to_move": define("check_page.to_move", "To move"),
    "white": define("check_page.white", "White"),
    "black": define("check_page.black", "Black"),
    "clear_board": define("check_page.clear_board", "Clear the board"),
    "paste": define("check_page.paste", "Paste a FEN or a whole PDN problem"),
    "load": define("check_page.load", "Load"),
    "title": define("check_page.title", "Title"),
    "composer": define("check_page.composer", "Composer"),
    "solution": define("check_page.solution", "Solution (for example 1. 32-28 19x37 2. 41x32)"),
    "seconds": define("check_page.seconds", "Time limit (seconds)"),
    "check": define("check_page.check", "Check"),
    "cancel": define("check_page.cancel", "Cancel"),
    "download": define("check_page.download", "Download PDN"),
    "send": define("check_page.send", "Send the PDN file to"),
    "no_address": define(
        "check_page.no_address",
        "This site has not set an address for submissions yet.",
    ),
    "loading": define("check_page.loading", "Loading the checker (Python in the browser)…"),
    "ready": define("check_page.ready", "Ready to check."),
    "running": define("check_page.running", "Running: {seconds} s, {nodes} nodes. {stage}"),
    "cancelled": define("check_page.cancelled", "Cancelled."),
    "empty_square": define("check_page.empty_square", "empty"),
    "square": define("check_page.square", "Square {square}: {piece}"),
    "w": define("check_page.white_man", "white man"),
    "b": define("check_page.black_man", "black man"),
    "W": define("check_page.white_king", "white king"),
    "B": define("check_page.black_king", "black king"),
    "illegal": define("check_page.illegal", "Illegal move"),
    "report": define("check_page.report", "Verdict"),
    "keys": define("check_page.keys", "Winning keys"),
    "criterion": define("check_page.criterion", "Criterion"),
    "status": define("check_page.status", "Result"),
    "detail": define("check_page.detail", "Detail"),
    "done": define("check_page.done", "Checked in {seconds} s ({nodes} nodes)."),
    "note_compiled": define(
        "check_page.note_compiled",
        "The check runs in your browser with the same search and the same endgame tables (up to "
        "{pieces} pieces) as 'rulebook check', its time counted in work: a problem gets the "
        "same verdict here as on the command line. What the time does not settle is called "
        "undecided.",
    ),
    "note_python": define(
        "check_page.note_python",
        "This site was built without the compiled search: the check searches in Python (endgame "
        "tables up to {pieces} pieces) and settles less than 'rulebook check' on the command "
        "line. What the time does not settle is called undecided.",
    ),
    "same_command": define("check_page.same_command", "The same check on the command line:"),
    "still_open": define("check_page.still_open", "still open (time limit): {criteria}"),
    "empty_board": define(
        "check_page.empty_board",
        "Put pieces on the board first: White and Black need at least one each.",
    ),
    "stage_key": define("check_page.stage_key", "A: searching key {move}"),
    "stage_walk": define("check_page.stage_walk", "C: walking the solution tree"),
    "stage_men": define("check_page.stage_men", "D: removing each man"),
    "stage_again": define("check_page.stage_again", "time left ({seconds} s): judging again"),
    "tables_error": define(
        "check_page.tables_error",
        "The site's endgame tables could not be read ({error}); the check goes on without them.",
    ),
    "table_faults": define(
        "check_page.table_faults",
        "Endgame tables this check had to do without: {tables}. A table left out can leave "
        "undecided what 'rulebook check' decides, but never makes a problem correct or "
        "incorrect. Reloading the page fetches them again.",
    ),
    "fault_fetch": define("check_page.fault_fetch", "could not be fetched from the site"),
    "fault_checksum": define("check_page.fault_checksum", "failed its checksum"),
    "fetching_of": define(
        "check_page.fetching_of", "Fetching endgame tables: {done} of {total} MB."
    ),
    "fetching": define(
        "check_page.fetching", "Fetching endgame tables ({table}): {done} MB so far."
    ),
    "kept": define(
        "check_page.kept",
        "This browser keeps {size} MB of the site's endgame tables, so that a check need not "
        "fetch them again.",
    ),
    "kept_none": define(
        "check_page.kept_none", "This browser keeps none of the site's endgame tables yet."
    ),
    "forget": define("check_page.forget", "Forget the kept tables"),
    "needs_webassembly": define(
        "check_page.needs_webassembly",
        "This browser cannot run the checker: it has no WebAssembly (too old, or switched off "
        "by a setting or an extension), and the checker is Python compiled to WebAssembly. Use "
        "a current browser, or 'rulebook check' on the command line.",
    ),
    "needs_worker": define(
        "check_page.needs_worker",
        "This browser cannot run the checker: it has no Web Workers (too old, or switched off), "
        "which judge a problem without freezing the page. Use a current browser, or 'rulebook "
        "check' on the command line.",
    ),
}
"""The check page's words by their short name here (the page's script reads them by it):
their English here, their Dutch and Frisian in the words' catalogs."""
LABELS: Final[dict[str, dict[str, str]]] = {
    lang: {key: said(message, lang) for key, message in _LABEL_IDS.items()} for lang in LANGUAGES
}
"""Each language's words, read from the catalogs once, at build time."""

_TEMPLATES: Final = jinja2.Environment(
    loader=jinja2.PackageLoader("rulebook_build.checkpage", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)
"""The page's template (``templates/checker.html``), escaped as every page of the site
(``site/templating.py``): outside text is text, a missing value an error."""


def pyodide_folder(project: Path) -> Path | None:
    """Pyodide's files as ``npm ci`` installs them, or None when they are not all there."""
    folder = project / "node_modules" / "pyodide"
    return folder if all((folder / name).is_file() for name in PYODIDE_FILES) else None


def pyodide_version(folder: Path) -> str:
    """The version of the Pyodide in ``folder`` (its ``package.json``), as a safe folder name;
    ``unknown`` when it cannot be read."""
    try:
        version = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"
    return version if re.fullmatch(r"[0-9A-Za-z.+-]{1,40}", str(version)) else "unknown"


def python_bundle() -> bytes:
    """A zip of the Python the browser runs: the package's parts in :data:`BUNDLE_PARTS`, the
    engine's calibration, the grammars, and Lark (pure Python), laid out as on disk so imports
    and grammar paths hold.  Entries are sorted and dated 1980 so the same sources give the
    same bytes."""
    package = Path(rulebook_build.__file__).resolve().parent
    files: list[tuple[str, Path]] = []
    for part in BUNDLE_PARTS:
        path = package / part
        found = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        files += [(f"rulebook_build/{p.relative_to(package).as_posix()}", p) for p in found]
    # the engine opinions' measured agreement with the proofs, which the page states
    calibration = package / "checker" / "calibration.json"
    if calibration.is_file():
        files.append(("rulebook_build/checker/calibration.json", calibration))
    # the words' compiled catalogs: the page's messages in its language
    words = package / "words" / "locale"
    files += [
        (f"rulebook_build/{p.relative_to(package).as_posix()}", p)
        for p in sorted(words.glob("*/LC_MESSAGES/*.mo"))
    ]
    files += [(f"grammar/{p.name}", p) for p in sorted(GRAMMAR_DIR.glob("*.lark"))]
    # pure Python, needed by the notation and tables; found, not imported (only the notation
    # layer imports Lark)
    for name in ("lark", "platformdirs"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, name  # both are dependencies
        folder = Path(spec.origin).resolve().parent
        files += [
            (f"{folder.name}/{p.relative_to(folder).as_posix()}", p)
            for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix in (".py", ".lark") and "__pycache__" not in p.parts
        ]
    return _zipped((name, path.read_bytes()) for name, path in files)


def _zipped(entries: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip of ``entries`` (name, bytes), sorted and dated 1980: the same files give the
    same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, data)
    return buffer.getvalue()


define(
    "check_page.compile_no_node",
    "Node.js ('node') is not installed, so the check page's Python cannot be compiled ahead",
)
define("check_page.compile_failed", "compiling the check page's Python failed: {reason}")

COMPILER: Final = Path(__file__).resolve().parent / "compile_bundle.mjs"
"""The Node.js script that compiles the bundle with the page's own Pyodide."""


def compiled_bundle(source: bytes, pyodide: Path, *, timeout: float = 300) -> bytes:
    """The bundle ``source`` (:func:`python_bundle`) with each module compiled to bytecode by
    the Pyodide in ``pyodide``: what the page imports without compiling.  Bytecode is made by
    the Python that runs it, so Node.js runs that Pyodide (``compile_bundle.mjs``); the same
    sources and Pyodide give the same bytes.  Raises :class:`OutputError`, saying why, when
    Node.js is missing or the compilation fails (the site then ships the sources)."""
    node = shutil.which("node")
    if node is None:
        raise OutputError(Message.of("check_page.compile_no_node"))
    with tempfile.TemporaryDirectory(prefix="rulebook-bundle-") as folder:
        source_path = Path(folder) / "source.zip"
        out_path = Path(folder) / "compiled.zip"
        source_path.write_bytes(source)
        try:
            done = subprocess.run(
                [node, str(COMPILER), str(pyodide), str(source_path), str(out_path)],
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise OutputError(Message.of("check_page.compile_failed", reason=str(error))) from error
        if done.returncode != 0 or not out_path.is_file():
            told = " ".join(line.strip() for line in done.stderr.splitlines() if line.strip())
            reason = told[-1000:] or f"exit {done.returncode}"
            raise OutputError(Message.of("check_page.compile_failed", reason=reason))
        with zipfile.ZipFile(out_path) as made:
            bytecode = {name: made.read(name) for name in made.namelist()}
    # each module's bytecode in its place, the other files as they are
    with zipfile.ZipFile(io.BytesIO(source)) as sources:
        names = sources.namelist()
        others = [(name, sources.read(name)) for name in names if not name.endswith(".py")]
    modules = [name for name in names if name.endswith(".py")]
    missing = [name for name in modules if f"{name}c" not in bytecode]
    if missing:
        reason = f"no bytecode for {', '.join(missing[:5])}"
        raise OutputError(Message.of("check_page.compile_failed", reason=reason))
    return _zipped([*others, *((f"{name}c", bytecode[f"{name}c"]) for name in modules)])


TABLES_DEST: Final = "assets/rulebook/tables/{variant}"
WASM_DEST: Final = "assets/rulebook/prover.wasm"


def published_tables(variant_name: str) -> tuple[Path, dict[str, Any]]:
    """The folder with the tables the site publishes for a variant and their manifest
    (``engine/tables/remote.py``): those ``rulebook check`` uses by default
    (``DEFAULT_TABLE_PIECES``), as far as the cache has them (``rulebook tables --pieces 5
    --pack`` builds the International 5-piece classes; those of up to 4 pieces are built here).
    Kept beside the table cache, under the rules' fingerprint, so that every build on this
    machine shares them; made again only where a file changed."""
    from rulebook_build.engine import DEFAULT_TABLE_PIECES, checker_tables, publish
    from rulebook_build.rules import find_variant

    tables = checker_tables(find_variant(variant_name))
    tables.prepare_missing()
    folder = tables.pure.cache_dir / "site" / tables.pure.compact_folder().name
    return folder, publish(tables, folder, pieces=DEFAULT_TABLE_PIECES[variant_name])


def manifest_digest(folder: Path, variant_name: str) -> str:
    """The SHA-256 of a variant's manifest, which the page checks before it uses the file."""
    return hashlib.sha256((folder / f"tables-{variant_name}.json").read_bytes()).hexdigest()


SITE_WORDS: Final = (
    "pass",
    "fail",
    "remark",
    "undecided",
    "correct",
    "correct with remarks",
    "incorrect",
    "international",
    "frisian",
)
"""The site's words the page shows as its own (``site/problems.py`` ``LABELS``): a criterion's
result, a grade, a variant's name, so that the page says them as the problem pages do."""


def render_checker(
    *,
    lang: str,
    root: str,
    available: bool,
    address: str,
    home: str,
    grades: Mapping[str, str],
    tables: dict[str, dict[str, Any]] | None = None,
    compiled: bool = False,
    pyodide: str = "unknown",
) -> str:
    """The page's application (or, without Pyodide, the notice saying what is missing).
    ``home``: the link to the home of the page's language; ``grades``: the site's words, in the
    page's language, for :data:`SITE_WORDS`; ``tables``: per variant the ``digest`` of its
    manifest and its ``pieces``; ``compiled``: whether the WebAssembly search is in the site;
    ``pyodide``: the version of Pyodide in the site, which names its folder
    (:data:`PYODIDE_DEST`)."""
    labels = LABELS.get(lang, LABELS["en"])
    tables = tables or {}
    pieces = max((entry["pieces"] for entry in tables.values()), default=0)
    note = labels["note_compiled" if compiled else "note_python"].format(pieces=pieces)
    strings = {
        **labels,
        "tables": tables,
        "compiled": compiled,
        **{key: grades[key] for key in SITE_WORDS},
    }
    return _TEMPLATES.get_template("checker.html").render(
        available=available,
        labels=labels,
        opinions_heading=opinion_words.heading(lang),
        variants=[("international", grades["international"]), ("frisian", grades["frisian"])],
        base=f"{root}assets/",
        pyodide=PYODIDE_DEST.format(version=pyodide).removeprefix("assets/") + "/",
        home=home,
        lang=lang,
        address=address,
        strings=json.dumps(strings, ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e"),
        rows=range(10),
        note=note,
        seconds=DEFAULT_SECONDS,
        early_start=EARLY_START,
    )
