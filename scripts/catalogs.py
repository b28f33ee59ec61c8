"""The words' catalogs: extract the messages from the code, update the languages, compile them,
and say what is untranslated.  A thin wrapper over Babel's ``pybabel`` with the project's
settings (the keyword ``define:1c,2``, the mapping ``babel.cfg``, the domain ``rulebook``).

    python scripts/catalogs.py update         extract the template, merge it into each .po,
                                              compile
    python scripts/catalogs.py missing [LANG] each untranslated or fuzzy message (exit 1 if any)
    python scripts/catalogs.py compile        compile each .po to its .mo (what the code reads)
    python scripts/catalogs.py init LANG      start the catalog of a new language

``tests/words/test_catalogs.py`` fails when the template, the catalogs or the compiled files
are not what these commands make of the code, or when nl or fy misses a translation.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rulebook_build"
LOCALE_DIR = PACKAGE / "words" / "locale"
TEMPLATE = LOCALE_DIR / "rulebook.pot"
DOMAIN = "rulebook"
KEYWORDS = {"define": ((1, "c"), 2)}
"""``define(id, english)``: the id is the entry's context (its key), the English its msgid."""
MAPPING = ROOT / "babel.cfg"


def pybabel(*arguments: str) -> None:
    """Run ``pybabel`` from the project's folder, so that the catalogs name files by their
    path in the project."""
    os.chdir(ROOT)
    CommandLineInterface().run(["pybabel", "-q", *arguments])


def extracted(folder: Path = PACKAGE) -> set[tuple[str, str]]:
    """(id, English) of every ``define`` call in the Python of ``folder``, read from the source
    as pybabel reads it."""
    found: set[tuple[str, str]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(folder), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        assert isinstance(message, str) and context is not None, (_file, _line)
        found.add((context, message))
    return found


def entries(catalog: Catalog) -> set[tuple[str, str]]:
    """(id, English) of every entry of ``catalog`` but its header."""
    return {(str(m.context), str(m.id)) for m in catalog if m.id}


def languages() -> list[str]:
    """The languages with a catalog."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def untranslated(catalog: Catalog) -> list[str]:
    """The entries of ``catalog`` a reader would see in English: no translation, or a fuzzy one
    (a guess pybabel made from a similar message, not yet checked by a translator)."""
    return [
        f"{m.context}: {m.id}"
        for m in catalog
        if m.id and (not m.string or m.fuzzy or (isinstance(m.string, tuple) and not all(m.string)))
    ]


def update() -> None:
    pybabel(
        "extract",
        "-F",
        str(MAPPING),
        "--no-default-keywords",
        "-k",
        "define:1c,2",
        "--add-location=file",
        "--sort-by-file",
        "--project=rulebook_build",
        "--no-wrap",
        "-o",
        str(TEMPLATE.relative_to(ROOT)),
        PACKAGE.name,
    )
    for lang in languages():
        pybabel("update", "-i", str(TEMPLATE), "-o", str(po_path(lang)), "-l", lang, "--no-wrap")
    compile_all()


def compile_all() -> None:
    pybabel("compile", "-d", str(LOCALE_DIR), "-D", DOMAIN, "--statistics")


def missing(langs: list[str]) -> int:
    faults = 0
    for lang in langs or languages():
        for entry in untranslated(read(po_path(lang))):
            print(f"{lang}: {entry}")
            faults += 1
    return 1 if faults else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update", help="extract, merge into each language, compile")
    commands.add_parser("compile", help="compile each language's .po to .mo")
    said = commands.add_parser("missing", help="list untranslated or fuzzy messages")
    said.add_argument("lang", nargs="*")
    new = commands.add_parser("init", help="start the catalog of a new language")
    new.add_argument("lang")
    arguments = parser.parse_args(argv)
    if arguments.command == "update":
        update()
    elif arguments.command == "compile":
        compile_all()
    elif arguments.command == "missing":
        return missing(arguments.lang)
    elif arguments.command == "init":
        if po_path(arguments.lang).exists():
            print(f"{po_path(arguments.lang)} exists: run 'update'", file=sys.stderr)
            return 1
        pybabel(
            "init",
            "-i",
            str(TEMPLATE),
            "-o",
            str(po_path(arguments.lang)),
            "-l",
            arguments.lang,
            "--no-wrap",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
