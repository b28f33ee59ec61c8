"""The words' catalogs (issue 52 point 4): the template holds every message of the code, each
language's catalog holds the template's messages, nl and fy translate every one, and the
compiled files the code reads say what the catalogs say."""

from __future__ import annotations

import ast
import gettext
import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

import rulebook_build.render.strings  # noqa: F401  (defines the render.* messages)
from rulebook_build.words import Message, define, text

ROOT = Path(__file__).resolve().parents[2]
COMPLETE = ("nl", "fy")
"""The languages every page is published in: each message translated."""


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CATALOGS = script()


def test_the_template_holds_the_codes_messages() -> None:
    template = CATALOGS.entries(CATALOGS.read(CATALOGS.TEMPLATE))
    assert CATALOGS.extracted() == template, "run: python scripts/catalogs.py update"


def test_a_new_message_in_the_code_is_caught(tmp_path: Path) -> None:
    """The check above on a copy of a module with one message more: the template misses it."""
    shutil.copy(ROOT / "rulebook_build" / "render" / "strings.py", tmp_path / "strings.py")
    with (tmp_path / "strings.py").open("a", encoding="utf-8") as module:
        module.write('\nNEW = define("render.new", "A new word")\n')
    found = CATALOGS.extracted(tmp_path)
    template = CATALOGS.entries(CATALOGS.read(CATALOGS.TEMPLATE))
    assert ("render.new", "A new word") in found - template


@pytest.mark.parametrize("lang", COMPLETE)
def test_each_catalog_holds_the_templates_messages(lang: str) -> None:
    template = CATALOGS.entries(CATALOGS.read(CATALOGS.TEMPLATE))
    assert CATALOGS.entries(CATALOGS.read(CATALOGS.po_path(lang))) == template, (
        "run: python scripts/catalogs.py update"
    )


def test_the_published_languages_have_catalogs() -> None:
    assert set(COMPLETE) <= set(CATALOGS.languages())


@pytest.mark.parametrize("lang", COMPLETE)
def test_each_message_is_translated(lang: str) -> None:
    """No empty and no fuzzy translation: what ``scripts/catalogs.py missing`` lists."""
    assert CATALOGS.untranslated(CATALOGS.read(CATALOGS.po_path(lang))) == []


def test_an_untranslated_message_is_caught(tmp_path: Path) -> None:
    """A copy of the Dutch catalog with one translation emptied and one made fuzzy."""
    lines = CATALOGS.po_path("nl").read_text(encoding="utf-8").split("\n")
    board = lines.index('msgctxt "render.board"')
    assert lines[board + 2] == 'msgstr "Dambord"'
    lines[board + 2] = 'msgstr ""'
    white = lines.index('msgctxt "render.white"')
    lines.insert(white, "#, fuzzy")
    planted = tmp_path / "rulebook.po"
    planted.write_text("\n".join(lines), encoding="utf-8")
    assert CATALOGS.untranslated(CATALOGS.read(planted)) == [
        "render.board: Draughtboard",
        "render.white: White",
    ]


@pytest.mark.parametrize("lang", COMPLETE)
def test_the_compiled_catalog_is_the_catalogs(lang: str) -> None:
    """The .mo the code reads says what the .po says (``scripts/catalogs.py compile``)."""
    with (CATALOGS.po_path(lang).with_suffix(".mo")).open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    catalog = CATALOGS.read(CATALOGS.po_path(lang))
    wrong = [
        message.context
        for message in catalog
        if message.id and compiled.pgettext(message.context, message.id) != message.string
    ]
    assert wrong == [], "run: python scripts/catalogs.py compile"


def test_a_message_is_said_in_each_language() -> None:
    assert text("render.last_move", "en", move="32-28") == "Last move: 32-28."
    assert text("render.last_move", "nl", move="32-28") == "Laatste zet: 32-28."
    assert text("render.last_move", "fy", move="32-28") == "Lêste set: 32-28."
    assert text("render.last_move", "de", move="32-28") == "Last move: 32-28."  # no catalog


def test_a_message_argument_is_said_in_the_same_language() -> None:
    side = Message.of("render.white")
    assert text("render.line_status", "nl", label=side, sentence="x") == "Lijn: Wit. x"
    assert str(Message.of("render.line_status", label=side, sentence="x")) == "Line: White. x"


def test_an_unknown_or_redefined_message_is_refused() -> None:
    with pytest.raises(KeyError, match="never defined"):
        text("render.no_such_word", "nl")
    with pytest.raises(KeyError, match="never defined"):
        Message.of("render.no_such_word")
    with pytest.raises(ValueError, match="defined twice"):
        define("render.board", "Board")


DATA_BY_LANGUAGE = {
    "site/language_search.py": "SEARCH_LANGUAGES names the search library's stemmer and stop "
    "words for each site language's index (Dutch for Frisian, which it lacks): settings of the "
    "index, never shown to a reader",
}
"""The modules that may keep a dictionary keyed by language, each with the reason it holds
data, not words a reader sees (guides/webmasters.md, "Settings by language, not words"): every
word a reader sees is a message of the catalogs, which the tests above cover."""


def dictionaries_by_language(text: str) -> int:
    """How many dict literals in a module's text have two or more of the site's languages as
    keys (``{"nl": ..., "en": ...}``): words kept outside the catalogs."""
    found = 0
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            found += len(keys & {"nl", "en", "fy"}) >= 2
    return found


def test_the_words_outside_the_catalogs_are_the_listed_ones() -> None:
    package = ROOT / "rulebook_build"
    holding = {
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if dictionaries_by_language(path.read_text(encoding="utf-8"))
    }
    assert holding == set(DATA_BY_LANGUAGE)


def test_a_dictionary_by_language_is_found() -> None:
    assert dictionaries_by_language('WORDS = {"nl": {"a": "b"}, "en": {"a": "c"}}\n') == 1
    assert dictionaries_by_language('MAP = {"nl": "x", "other": "y"}\n') == 0


SAID_WITH_IDS = (
    "rules",
    "notation",
    "checker",
    "checkpage",
    "site/editions.py",
    "site/history.py",
    "site/shared_diagrams.py",
    "site/pdf.py",
    "site/problems.py",
)
"""The rooms whose errors a page shows (the check page shows the rules' and the notation's
faults in its reader's language), and the modules of other rooms whose errors have ids too:
each raised with a message id and its arguments."""
ERRORS = {
    "RulebookError",
    "PositionError",
    "NotationError",
    "IllegalMoveError",
    "ProblemError",
    "SiteError",
    "OutputError",
}


def _words_in_code(node: ast.expr) -> bool:
    """A literal text with a letter in it, or an f-string or a sum of texts: English written
    in the code (a mark such as ``'+0'`` is written the same in every language)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _words_in_code(node.left) or _words_in_code(node.right)
    return False


def errors_in_english(text: str) -> list[int]:
    """The lines of a module that raise one of the project's errors (or make one with an
    ``error``/``token_error`` helper) with its message or what was expected in English text,
    not a message id."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        name = getattr(called, "id", None) or getattr(called, "attr", None)
        if name in ERRORS or name in ("error", "token_error"):
            written = [a for a in node.args if _words_in_code(a)] + [
                k.value for k in node.keywords if k.arg == "expected" and _words_in_code(k.value)
            ]
            if written:
                found.append(node.lineno)
    return found


def test_the_errors_a_page_shows_are_raised_with_message_ids() -> None:
    package = ROOT / "rulebook_build"
    english = {
        f"{path.relative_to(package).as_posix()}:{line}"
        for room in SAID_WITH_IDS
        for path in ([package / room] if room.endswith(".py") else (package / room).rglob("*.py"))
        for line in errors_in_english(path.read_text(encoding="utf-8"))
    }
    assert english == set()


def test_an_error_raised_in_english_is_found() -> None:
    assert errors_in_english('raise NotationError(f"square {n} is wrong", line=1)\n') == [1]
    assert errors_in_english('raise where.error(NotationError, M, 1, expected="W or B")\n') == [1]
    assert errors_in_english('e = RulebookError("too " + "long")\n') == [1]
    assert errors_in_english('raise NotationError(Message.of("x"), expected="+0")\n') == []
