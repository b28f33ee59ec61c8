"""The "check your problem" page (``controleren/``): a ```` ```draughts-checker ```` block.

The block becomes the page's application: a board editor, the solution typed and checked move
by move, the site's solution player, the checker's verdict and the PDN to download.  The
checking runs in the reader's browser: ``site/assets/checker-worker.js`` loads Pyodide (copied
from ``node_modules/pyodide`` into the built site, so nothing is fetched from another host)
and the project's own Python code (:func:`python_bundle`: the rules, notation, checker and
renderer, with Lark), and calls :mod:`rulebook_build.browser`.

A build without Pyodide (``npm ci`` not run) still builds: the page then says what is missing
instead of offering a checker that cannot start.
"""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import zipfile
from pathlib import Path
from typing import Final

import jinja2

import rulebook_build
from rulebook_build.browser import shipped_tables
from rulebook_build.site.problems import LABELS as PROBLEM_LABELS

PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What the worker loads of the Pyodide distribution (the npm package ``pyodide``)."""
PYODIDE_DEST: Final = "assets/pyodide"
BUNDLE_DEST: Final = "assets/rulebook/rulebook-python.zip"
BUNDLE_PARTS: Final = (
    "__init__.py",
    "errors.py",
    "cachedir.py",
    "browser.py",
    "rules",
    "notation",
    "checker",
    "render/__init__.py",
    "render/animation.py",
    "render/html.py",
    "render/strings.py",
    "render/style.py",
    "render/svg.py",
)
"""The package's files the browser needs (no site, command line, compiled search or raster).
The C sources come along only because the tables' rules fingerprint covers them."""
TABLES_DEST: Final = "assets/rulebook/tables-{variant}.tar.gz"

LABELS: Final[dict[str, dict[str, str]]] = {
    "nl": {
        "missing": "De controle in de browser hoort niet bij deze bouw van de site: Pyodide "
        "ontbreekt. Voer 'npm ci' uit in de map van het project en bouw de site opnieuw "
        "('rulebook build'). Tot dan: 'rulebook check' op de opdrachtregel.",
        "noscript": "Deze pagina heeft JavaScript nodig: de controle loopt in uw browser.",
        "board": "Stand",
        "board_help": "Klik of tik op een veld: leeg, witte schijf, zwarte schijf, witte dam, "
        "zwarte dam. Pijltjestoetsen verplaatsen de focus over het bord.",
        "variant": "Spelvorm",
        "to_move": "Aan zet",
        "white": "Wit",
        "black": "Zwart",
        "clear_board": "Bord leegmaken",
        "paste": "Plak een FEN of een heel PDN-probleem",
        "load": "Laden",
        "title": "Titel",
        "composer": "Componist",
        "solution": "Oplossing (bijvoorbeeld 1. 32-28 19x37 2. 41x32)",
        "seconds": "Tijdslimiet (seconden)",
        "check": "Controleren",
        "cancel": "Afbreken",
        "download": "PDN downloaden",
        "send": "Stuur het PDN-bestand naar",
        "no_address": "Deze site heeft nog geen adres voor inzendingen ingesteld.",
        "loading": "De controle wordt geladen (Python in de browser)…",
        "ready": "Klaar om te controleren.",
        "running": "Bezig: {seconds} s, {nodes} knopen. {stage}",
        "cancelled": "Afgebroken.",
        "empty_square": "leeg",
        "square": "Veld {square}: {piece}",
        "w": "witte schijf",
        "b": "zwarte schijf",
        "W": "witte dam",
        "B": "zwarte dam",
        "illegal": "Onreglementaire zet",
        "report": "Oordeel",
        "keys": "Winnende sleutelzetten",
        "criterion": "Criterium",
        "status": "Uitslag",
        "detail": "Toelichting",
        "done": "Gecontroleerd in {seconds} s ({nodes} knopen).",
        "unchecked_note": "In de browser zoekt de controle in Python en zonder eindspeldatabases: "
        "wat de tijd niet beslist, heet 'niet beslist'. 'rulebook check' op de opdrachtregel "
        "is sneller.",
    },
    "en": {
        "missing": "The in-browser checker is not part of this build of the site: Pyodide is "
        "missing. Run 'npm ci' in the project's folder and build the site again ('rulebook "
        "build'). Until then: 'rulebook check' on the command line.",
        "noscript": "This page needs JavaScript: the check runs in your browser.",
        "board": "Position",
        "board_help": "Click or tap a square: empty, white man, black man, white king, black "
        "king. The arrow keys move the focus over the board.",
        "variant": "Variant",
        "to_move": "To move",
        "white": "White",
        "black": "Black",
        "clear_board": "Clear the board",
        "paste": "Paste a FEN or a whole PDN problem",
        "load": "Load",
        "title": "Title",
        "composer": "Composer",
        "solution": "Solution (for example 1. 32-28 19x37 2. 41x32)",
        "seconds": "Time limit (seconds)",
        "check": "Check",
        "cancel": "Cancel",
        "download": "Download PDN",
        "send": "Send the PDN file to",
        "no_address": "This site has not set an address for submissions yet.",
        "loading": "Loading the checker (Python in the browser)…",
        "ready": "Ready to check.",
        "running": "Running: {seconds} s, {nodes} nodes. {stage}",
        "cancelled": "Cancelled.",
        "empty_square": "empty",
        "square": "Square {square}: {piece}",
        "w": "white man",
        "b": "black man",
        "W": "white king",
        "B": "black king",
        "illegal": "Illegal move",
        "report": "Verdict",
        "keys": "Winning keys",
        "criterion": "Criterion",
        "status": "Result",
        "detail": "Detail",
        "done": "Checked in {seconds} s ({nodes} nodes).",
        "unchecked_note": "In the browser the checker searches in Python and without endgame "
        "tables: what the time does not settle is called undecided. 'rulebook check' on the "
        "command line is faster.",
    },
    "fy": {
        "missing": "De kontrôle yn de browser heart net by dizze bou fan de side: Pyodide "
        "ûntbrekt. Fier 'npm ci' út yn de map fan it projekt en bou de side op 'e nij "
        "('rulebook build'). Oant dan: 'rulebook check' op de kommandorigel.",
        "noscript": "Dizze side hat JavaScript nedich: de kontrôle rint yn jo browser.",
        "board": "Stân",
        "board_help": "Klik of tik op in fjild: leech, wite skiif, swarte skiif, wite dam, "
        "swarte dam. De pylktoetsen ferpleatse de fokus oer it boerd.",
        "variant": "Spulfoarm",
        "to_move": "Oan set",
        "white": "Wyt",
        "black": "Swart",
        "clear_board": "Boerd leechmeitsje",
        "paste": "Plak in FEN of in hiel PDN-probleem",
        "load": "Lade",
        "title": "Titel",
        "composer": "Komponist",
        "solution": "Oplossing (bygelyks 1. 32-28 19x37 2. 41x32)",
        "seconds": "Tiidslimyt (sekonden)",
        "check": "Kontrolearje",
        "cancel": "Ôfbrekke",
        "download": "PDN downloade",
        "send": "Stjoer it PDN-bestân nei",
        "no_address": "Dizze side hat noch gjin adres foar ynstjoeringen ynsteld.",
        "loading": "De kontrôle wurdt laden (Python yn de browser)…",
        "ready": "Klear om te kontrolearjen.",
        "running": "Dwaande: {seconds} s, {nodes} knopen. {stage}",
        "cancelled": "Ôfbrutsen.",
        "empty_square": "leech",
        "square": "Fjild {square}: {piece}",
        "w": "wite skiif",
        "b": "swarte skiif",
        "W": "wite dam",
        "B": "swarte dam",
        "illegal": "Net reglemintêre set",
        "report": "Oardiel",
        "keys": "Winnende kaaizetten",
        "criterion": "Kritearium",
        "status": "Útslach",
        "detail": "Taljochting",
        "done": "Kontrolearre yn {seconds} s ({nodes} knopen).",
        "unchecked_note": "Yn de browser siket de kontrôle yn Python en sûnder "
        "einspuldatabanken: wat de tiid net beslist, hjit 'net besletten'. 'rulebook check' "
        "op de kommandorigel is flugger.",
    },
}

_TEMPLATES: Final = jinja2.Environment(
    loader=jinja2.PackageLoader("rulebook_build.site", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)


def pyodide_folder(project: Path) -> Path | None:
    """Pyodide's files as ``npm ci`` installs them, or None when they are not all there."""
    folder = project / "node_modules" / "pyodide"
    return folder if all((folder / name).is_file() for name in PYODIDE_FILES) else None


def python_bundle() -> bytes:
    """A zip of the Python the browser runs: the package's parts in :data:`BUNDLE_PARTS`, the
    grammars, and Lark (pure Python), laid out as on disk so imports and grammar paths hold.
    Entries are sorted and dated 1980 so the same sources give the same bytes."""
    import lark

    package = Path(rulebook_build.__file__).resolve().parent
    import platformdirs

    files: list[tuple[str, Path]] = []
    for part in BUNDLE_PARTS:
        path = package / part
        found = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        files += [(f"rulebook_build/{p.relative_to(package).as_posix()}", p) for p in found]
    native = package / "checker" / "native"
    files += [
        (f"rulebook_build/checker/native/{p.name}", p)
        for p in sorted(native.iterdir())
        if p.suffix in (".c", ".h")
    ]
    grammar = package.parent / "grammar"
    files += [(f"grammar/{p.name}", p) for p in sorted(grammar.glob("*.lark"))]
    for module in (lark, platformdirs):  # pure Python, needed by the notation and tables
        folder = Path(module.__file__ or "").resolve().parent
        files += [
            (f"{folder.name}/{p.relative_to(folder).as_posix()}", p)
            for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix in (".py", ".lark") and "__pycache__" not in p.parts
        ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, path in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, path.read_bytes())
    return buffer.getvalue()


def table_sources(variant_name: str) -> list[tuple[str, Path]]:
    """The files of the endgame tables the page ships for a variant (see
    :func:`rulebook_build.browser.shipped_tables`), each with its name in the archive,
    ``<folder>/<class>.bin`` as in the cache.  Built here on first use, as ``rulebook check``
    builds them."""
    from rulebook_build.rules import find_variant

    tables = shipped_tables(find_variant(variant_name))
    tables.prepare_missing()
    return [
        (f"{kind.folder().name}/{kind.path(material).name}", kind.path(material))
        for kind in (tables.pure, tables.rules)
        for material in kind.material_classes()
    ]


def table_key(sources: list[tuple[str, Path]]) -> str:
    """What an archive of ``sources`` was made of (names, sizes, times): while it is the same,
    an archive made by an earlier build serves again."""
    return json.dumps(
        [(name, path.stat().st_size, path.stat().st_mtime_ns) for name, path in sources]
    )


def table_archive(sources: list[tuple[str, Path]]) -> bytes:
    """The table files as a gzip-compressed tar (each file carries its checksum and rules
    fingerprint: the browser refuses a damaged one as the command line does), the same bytes
    for the same files."""
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as packed,
        tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as archive,
    ):
        for name, path in sources:
            data = path.read_bytes()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def render_checker(*, lang: str, root: str, available: bool, address: str) -> str:
    """The page's application (or, without Pyodide, the notice saying what is missing)."""
    labels = LABELS.get(lang, LABELS["en"])
    grades = PROBLEM_LABELS.get(lang, PROBLEM_LABELS["en"])
    strings = {
        **labels,
        **{key: grades[key] for key in ("pass", "fail", "remark", "undecided")},
        **{
            key: grades[key]
            for key in ("correct", "correct with remarks", "incorrect", "international")
        },
        "frisian": grades["frisian"],
    }
    return _TEMPLATES.get_template("checker.html").render(
        available=available,
        labels=labels,
        variants=[("international", grades["international"]), ("frisian", grades["frisian"])],
        base=f"{root}assets/",
        lang=lang,
        address=address,
        strings=json.dumps(strings, ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e"),
        rows=range(10),
    )
