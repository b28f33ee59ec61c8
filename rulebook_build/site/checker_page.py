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

import hashlib
import importlib.util
import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any, Final

import rulebook_build
from rulebook_build.browser import DEFAULT_SECONDS
from rulebook_build.checker import opinion_words
from rulebook_build.notation import GRAMMAR_DIR
from rulebook_build.site.problems import LABELS as PROBLEM_LABELS
from rulebook_build.site.problems import home
from rulebook_build.site.templating import TEMPLATES

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
    "browser.py",
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
)
"""The package's files the browser needs (no site, command line, compiled search or raster).
The C sources come along only because the tables' rules fingerprint covers them."""

LABELS: Final[dict[str, dict[str, str]]] = {
    "nl": {
        "similar": "Zoek voorgangers",
        "similar_title": "Gepubliceerde problemen die erop lijken",
        "similar_running": "Bezig met zoeken in de gepubliceerde problemen…",
        "similar_none": "Geen gepubliceerd probleem van deze site lijkt er genoeg op.",
        "similar_found": "{count} gepubliceerde problemen lijken erop, het meest gelijkende eerst.",
        "similar_note": "Gezocht in uw browser, in de gepubliceerde problemen van deze site. Een "
        "mogelijke voorganger heeft dezelfde stand (op een stuk of twee na) of dezelfde "
        "slotcombinatie; of het er een is, beslist de jury.",
        "possible_anticipation": "mogelijke voorganger",
        "likeness": "gelijkenis",
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
        "note_compiled": "De controle loopt in uw browser met hetzelfde zoekprogramma en "
        "dezelfde eindspeldatabases (tot {pieces} stukken) als 'rulebook check', en de tijd "
        "wordt in werk geteld: dezelfde opgave krijgt hier en op de opdrachtregel hetzelfde "
        "oordeel. Wat de tijd niet beslist, heet 'niet beslist'.",
        "note_python": "Deze site is gebouwd zonder het gecompileerde zoekprogramma: de "
        "controle zoekt in Python (eindspeldatabases tot {pieces} stukken) en beslist minder "
        "dan 'rulebook check' op de opdrachtregel. Wat de tijd niet beslist, heet 'niet "
        "beslist'.",
        "same_command": "Dezelfde controle op de opdrachtregel:",
        "still_open": "nog open (tijdslimiet): {criteria}",
        "empty_board": "Zet eerst stukken op het bord: wit en zwart hebben er elk minstens "
        "één nodig.",
        "stage_key": "A: sleutelzet {move} wordt onderzocht",
        "stage_walk": "C: de oplossingsboom wordt doorlopen",
        "stage_men": "D: elke schijf wordt weggenomen",
        "stage_again": "tijd over ({seconds} s): opnieuw beoordeeld",
        "tables_error": "De eindspeldatabases van de site konden niet worden gelezen ({error}); "
        "de controle gaat zonder hen verder.",
        "table_faults": "Eindspeldatabases die deze controle heeft moeten missen: {tables}. "
        "Een ontbrekende database kan onbeslist laten wat 'rulebook check' beslist, maar maakt "
        "een probleem nooit correct of incorrect. Na het herladen van de pagina worden ze opnieuw "
        "opgehaald.",
        "fault_fetch": "niet van de site op te halen",
        "fault_checksum": "controlesom klopt niet",
        "fetching_of": "Eindspeldatabases ophalen: {done} van {total} MB.",
        "fetching": "Eindspeldatabases ophalen ({table}): {done} MB tot nu toe.",
        "kept": "Deze browser bewaart {size} MB van de eindspeldatabases van de site, zodat een "
        "controle ze niet opnieuw hoeft op te halen.",
        "kept_none": "Deze browser bewaart nog geen eindspeldatabases van de site.",
        "forget": "Bewaarde databases wissen",
        "needs_webassembly": "Deze browser kan de controle niet uitvoeren: hij heeft geen "
        "WebAssembly (te oud, of uitgeschakeld door een instelling of een extensie), en de "
        "controle is Python, gecompileerd tot WebAssembly. Gebruik een recente browser, of "
        "'rulebook check' op de opdrachtregel.",
        "needs_worker": "Deze browser kan de controle niet uitvoeren: hij heeft geen Web Workers "
        "(te oud, of uitgeschakeld), waarmee een probleem wordt beoordeeld zonder dat de pagina "
        "vastloopt. Gebruik een recente browser, of 'rulebook check' op de opdrachtregel.",
    },
    "en": {
        "similar": "Look for anticipations",
        "similar_title": "Published problems like it",
        "similar_running": "Searching the published problems…",
        "similar_none": "No published problem of this site is like it enough.",
        "similar_found": "{count} published problems are like it, the most alike first.",
        "similar_note": "Searched in your browser, among this site's published problems. A "
        "possible anticipation has the same position (but for a piece or two) or the same final "
        "combination; whether it anticipates yours is the jury's to say.",
        "possible_anticipation": "possible anticipation",
        "likeness": "likeness",
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
        "note_compiled": "The check runs in your browser with the same search and the same "
        "endgame tables (up to {pieces} pieces) as 'rulebook check', its time counted in "
        "work: a problem gets the same verdict here as on the command line. What the time "
        "does not settle is called undecided.",
        "note_python": "This site was built without the compiled search: the check searches "
        "in Python (endgame tables up to {pieces} pieces) and settles less than 'rulebook "
        "check' on the command line. What the time does not settle is called undecided.",
        "same_command": "The same check on the command line:",
        "still_open": "still open (time limit): {criteria}",
        "empty_board": "Put pieces on the board first: White and Black need at least one each.",
        "stage_key": "A: searching key {move}",
        "stage_walk": "C: walking the solution tree",
        "stage_men": "D: removing each man",
        "stage_again": "time left ({seconds} s): judging again",
        "tables_error": "The site's endgame tables could not be read ({error}); the check "
        "goes on without them.",
        "table_faults": "Endgame tables this check had to do without: {tables}. A table left "
        "out can leave undecided what 'rulebook check' decides, but never makes a problem "
        "correct or incorrect. Reloading the page fetches them again.",
        "fault_fetch": "could not be fetched from the site",
        "fault_checksum": "failed its checksum",
        "fetching_of": "Fetching endgame tables: {done} of {total} MB.",
        "fetching": "Fetching endgame tables ({table}): {done} MB so far.",
        "kept": "This browser keeps {size} MB of the site's endgame tables, so that a check "
        "need not fetch them again.",
        "kept_none": "This browser keeps none of the site's endgame tables yet.",
        "forget": "Forget the kept tables",
        "needs_webassembly": "This browser cannot run the checker: it has no WebAssembly (too "
        "old, or switched off by a setting or an extension), and the checker is Python compiled "
        "to WebAssembly. Use a current browser, or 'rulebook check' on the command line.",
        "needs_worker": "This browser cannot run the checker: it has no Web Workers (too old, or "
        "switched off), which judge a problem without freezing the page. Use a current "
        "browser, or 'rulebook check' on the command line.",
    },
    "fy": {
        "similar": "Sykje foargongers",
        "similar_title": "Publisearre problemen dy't derop lykje",
        "similar_running": "Dwaande mei sykjen yn de publisearre problemen…",
        "similar_none": "Gjin publisearre probleem fan dizze side liket der genôch op.",
        "similar_found": "{count} publisearre problemen lykje derop, it meast gelikense earst.",
        "similar_note": "Socht yn jo browser, yn de publisearre problemen fan dizze side. In "
        "mooglike foargonger hat deselde stân (op in stik of twa nei) of deselde "
        "slotkombinaasje; oft it ien is, beslút de sjuery.",
        "possible_anticipation": "mooglike foargonger",
        "likeness": "oerienkomst",
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
        "note_compiled": "De kontrôle rint yn jo browser mei itselde sykprogramma en deselde "
        "einspuldatabanken (oant {pieces} stikken) as 'rulebook check', en de tiid wurdt yn "
        "wurk teld: deselde opjefte kriget hjir en op de kommandorigel itselde oardiel. Wat "
        "de tiid net beslist, hjit 'net besletten'.",
        "note_python": "Dizze side is boud sûnder it kompilearre sykprogramma: de kontrôle "
        "siket yn Python (einspuldatabanken oant {pieces} stikken) en beslist minder as "
        "'rulebook check' op de kommandorigel. Wat de tiid net beslist, hjit 'net "
        "besletten'.",
        "same_command": "Deselde kontrôle op de kommandorigel:",
        "still_open": "noch iepen (tiidslimyt): {criteria}",
        "empty_board": "Set earst stikken op it boerd: wyt en swart hawwe elk op syn minst "
        "ien nedich.",
        "stage_key": "A: kaaiset {move} wurdt ûndersocht",
        "stage_walk": "C: de oplossingsbeam wurdt trochrûn",
        "stage_men": "D: elke skiif wurdt weinommen",
        "stage_again": "tiid oer ({seconds} s): op 'e nij beoardiele",
        "tables_error": "De einspuldatabanken fan de side koene net lêzen wurde ({error}); de "
        "kontrôle giet sûnder har fierder.",
        "table_faults": "Einspuldatabanken dy't dizze kontrôle misse moast: {tables}. In "
        "ûntbrekkende databank kin net besletten litte wat 'rulebook check' beslút, mar makket "
        "in probleem nea korrekt of ynkorrekt. Nei it op 'e nij laden fan de side wurde se op 'e "
        "nij ophelle.",
        "fault_fetch": "net fan de side op te heljen",
        "fault_checksum": "kontrôlesom klopt net",
        "fetching_of": "Einspuldatabanken ophelje: {done} fan {total} MB.",
        "fetching": "Einspuldatabanken ophelje ({table}): {done} MB oant no ta.",
        "kept": "Dizze browser bewarret {size} MB fan de einspuldatabanken fan de side, sadat in "
        "kontrôle se net op 'e nij ophelje hoecht.",
        "kept_none": "Dizze browser bewarret noch gjin einspuldatabanken fan de side.",
        "forget": "Bewarre databanken wiskje",
        "needs_webassembly": "Dizze browser kin de kontrôle net útfiere: hy hat gjin "
        "WebAssembly (te âld, of útskeakele troch in ynstelling of in útwreiding), en de "
        "kontrôle is Python, kompilearre ta WebAssembly. Brûk in resinte browser, of "
        "'rulebook check' op de kommandorigel.",
        "needs_worker": "Dizze browser kin de kontrôle net útfiere: hy hat gjin Web Workers (te "
        "âld, of útskeakele), dêr't in probleem mei beoardiele wurdt sûnder dat de side "
        "fêstrint. Brûk in resinte browser, of 'rulebook check' op de kommandorigel.",
    },
}

_TEMPLATES: Final = TEMPLATES


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
    native = package / "engine" / "native"
    files += [
        (f"rulebook_build/engine/native/{p.name}", p)
        for p in sorted(native.iterdir())
        if p.suffix in (".c", ".h")
    ]
    # the engine opinions' measured agreement with the proofs, which the page states
    calibration = package / "checker" / "calibration.json"
    if calibration.is_file():
        files.append(("rulebook_build/checker/calibration.json", calibration))
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
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, path in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, path.read_bytes())
    return buffer.getvalue()


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


def render_checker(
    *,
    lang: str,
    root: str,
    available: bool,
    address: str,
    tables: dict[str, dict[str, Any]] | None = None,
    compiled: bool = False,
    pyodide: str = "unknown",
) -> str:
    """The page's application (or, without Pyodide, the notice saying what is missing).
    ``tables``: per variant the ``digest`` of its manifest and its ``pieces``; ``compiled``:
    whether the WebAssembly search is in the site; ``pyodide``: the version of Pyodide in the
    site, which names its folder (:data:`PYODIDE_DEST`)."""
    labels = LABELS.get(lang, LABELS["en"])
    tables = tables or {}
    pieces = max((entry["pieces"] for entry in tables.values()), default=0)
    note = labels["note_compiled" if compiled else "note_python"].format(pieces=pieces)
    grades = PROBLEM_LABELS.get(lang, PROBLEM_LABELS["en"])
    strings = {
        **labels,
        "tables": tables,
        "compiled": compiled,
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
        opinions_heading=opinion_words.heading(lang),
        variants=[("international", grades["international"]), ("frisian", grades["frisian"])],
        base=f"{root}assets/",
        pyodide=PYODIDE_DEST.format(version=pyodide).removeprefix("assets/") + "/",
        home=home(root, lang),
        lang=lang,
        address=address,
        strings=json.dumps(strings, ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e"),
        rows=range(10),
        note=note,
        seconds=DEFAULT_SECONDS,
    )
