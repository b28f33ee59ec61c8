"""rulebook_build.checkpage.entry: what the "check your problem" page calls in the browser, here in
CPython (the browser test runs the same code under Pyodide)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook_build.checkpage import entry
from rulebook_build.checkpage.entry import check, load, moves, pdn
from rulebook_build.cli.check import _judge, _Task
from rulebook_build.engine.tables.remote import folder_fetch
from rulebook_build.notation.pdn import read_pdn
from rulebook_build.notation.replay import replay_problem
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.similar import Index

REPOSITORY = Path(__file__).resolve().parents[1]

PROBLEM = """[Event "Examples"]
[Title "Offer op 14"]
[SetUp "1"]
[FEN "W:W19,25,30:B9,15,24"]
[GameType "20"]

1. 19-14 24x35 (1... 9x20 2. 30x19 20-24 3. 19x30 15-20 4. 25x14) 2. 14x3 15-20
3. 25x14 35-40 4. 3-17 40-44 5. 17x50 2-0
"""


def test_load_reads_a_pdn_problem_and_a_fen() -> None:
    loaded = json.loads(load(PROBLEM))
    assert loaded["fen"] == "W:W19,25,30:B9,15,24" and loaded["variant"] == "international"
    assert loaded["solution"].startswith(
        "1. 19-14 24x35 (1... 9x20 2. 30x19 20-24 3. 19x30 15-20 4. 25x14) 2. 14x3 15-20 3. 25x14"
    )
    assert loaded["tags"] == {"Event": "Examples", "Title": "Offer op 14"}
    assert json.loads(load("B:W31,K32:B18"))["fen"] == "B:W31,K32:B18"


def test_load_locates_what_is_wrong() -> None:
    error = json.loads(load('[FEN "W:W31:B18"]\n\n1. 31-26 zz'))["error"]
    assert (error["line"], error["column"]) == (3, 10)
    assert "line 3, column 10: unexpected 'zz'" in error["text"]
    dutch = json.loads(load('[FEN "W:W31:B18"]\n\n1. 31-26 zz', "nl"))["error"]["text"]
    assert dutch.startswith("regel 3, kolom 10: onverwacht 'zz'")
    assert dutch.endswith(
        "verwacht: een zet, een commentaar, een variant of een uitslag (2-0, 1-1, 0-2, 0-0) of '*'"
    )
    illegal = PROBLEM.replace("2. 14x3", "2. 14-10")
    frisian = json.loads(load(illegal, "fy"))["error"]["text"]
    assert frisian.startswith("set 2 (7:"), frisian
    assert "net reglemintêre set 14-10 foar wyt" in frisian
    assert "ien fan de reglemintêre setten: 14x3" in frisian
    assert "no problem here" in json.loads(load('[Event "a game"]\n\n1. 32-28 *'))["error"]["text"]
    assert "characters long" in json.loads(load("x" * 1_000_001))["error"]["text"]


def test_moves_checks_each_typed_move_and_makes_the_player() -> None:
    answer = json.loads(
        moves("W:W19,25,30:B9,15,24", "international", "1. 19-14 24x35 2. 14-9", "en")
    )
    found = [(m["text"], m["legal"]) for m in answer["moves"]]
    assert found == [("19-14", True), ("24x35", True), ("14-9", False)]
    # variations and comments are not part of the main line
    typed = "1. 19-14 {a comment 12-17} 24x35 (1... 9x20 2. 30x19) 2. 14x3"
    answer_2 = json.loads(moves("W:W19,25,30:B9,15,24", "international", typed, "en"))
    assert [m["text"] for m in answer_2["moves"]] == ["19-14", "24x35", "14x3"]
    assert "14-9" in answer["moves"][2]["reason"]
    assert 'class="rb-diagram solution-player"' in answer["player"]
    # after an illegal move the rest is not checked
    later = json.loads(moves("W:W19:B9", "international", "19-99 9-14", "en"))["moves"]
    assert [m["legal"] for m in later] == [False, None]


def test_pdn_writes_the_tags_a_contest_needs_and_escapes_quotes() -> None:
    problem = {
        "fen": "W:W19,25,30:B9,15,24",
        "variant": "international",
        "solution": "1. 19-14 24x35 2. 14x3",
        "tags": {"Title": 'Say "hi" \\ there', "Composer": "A. Composer"},
    }
    text = json.loads(pdn(json.dumps(problem)))["pdn"]
    games, errors = read_pdn(text)
    assert not errors
    assert games[0].tag("Title") == 'Say "hi" \\ there'
    assert games[0].tag("GameType") == "20" and games[0].tag("FEN") == problem["fen"]


def test_check_gives_what_the_command_line_gives() -> None:
    # a problem both settle in well under a second (the page without tables, the command with
    # them), so that every criterion is compared, not left undecided by a wall clock
    text = (REPOSITORY / "problems/examples/international-08.pdn").read_text(encoding="utf-8")
    loaded = json.loads(load(text))
    record = json.loads(check(json.dumps(loaded), 20, "nl"))
    games, _ = read_pdn(json.loads(pdn(json.dumps(loaded)))["pdn"])
    read = replay_problem(games[0], INTERNATIONAL)
    judgement = _judge(_Task(read, 20.0, True, False, False)).as_json()
    assert record["grade"] == judgement["grade"] == "correct"
    assert record["winning_keys"] == judgement["winning_keys"] == ["44-39"]
    assert {n: c["status"] for n, c in record["criteria"].items()} == {
        n: c["status"]
        for n, c in judgement["criteria"].items()  # type: ignore[union-attr]
    }
    # the report speaks the page's language
    assert record["report"]["rows"][0]["detail"].startswith("wit wint")


def published(folder: Path, pieces: int = 3) -> str:
    """The site's International tables of up to ``pieces`` pieces, as the build publishes them;
    the manifest's text."""
    from rulebook_build.engine.tables.kinds import checker_tables
    from rulebook_build.engine.tables.remote import publish
    from rulebook_build.rules import INTERNATIONAL

    tables = checker_tables(INTERNATIONAL)
    tables.prepare_missing()
    publish(tables, folder, pieces=pieces)
    return (folder / "tables-international.json").read_text(encoding="utf-8")


def test_check_reads_the_site_tables_a_block_at_a_time(tmp_path: Path) -> None:
    """The page opens the tables the site publishes and fetches only the blocks a search
    touches; what it judges is what the command line judges with the same tables."""
    from rulebook_build.checkpage import entry as browser

    fetched: list[tuple[str, int, int]] = []
    said = json.loads(
        browser.open_tables("international", published(tmp_path), folder_fetch(tmp_path, fetched))
    )
    assert said["pieces"] == 3 and said["classes"] > 10 and said["compiled"] is False
    try:
        problem = {"fen": "W:W33,K47:B18,K4", "variant": "international", "solution": ""}
        record = json.loads(check(json.dumps({**problem, "tags": {}}), 5, "en"))
        assert record["report"]["tables"] == 3
        total = sum(path.stat().st_size for path in tmp_path.glob("*.blocks"))
        got = sum(end - start for name, start, end in fetched if name.endswith(".blocks"))
        assert 0 < got < total / 4  # pages, not files
        assert any(name.endswith(".pages") for name, _, _ in fetched)  # every page checked
    finally:
        browser._OPEN.clear()


def test_a_damaged_block_is_refused_and_the_class_done_without(tmp_path: Path) -> None:
    from rulebook_build.checkpage import entry as browser
    from rulebook_build.engine.tables import compact
    from rulebook_build.engine.tables.remote import DIGEST, PAGE

    browser.open_tables("international", published(tmp_path), folder_fetch(tmp_path))
    try:
        tables = browser._OPEN["international"]
        material = (1, 1, 0, 1)  # one man and a king against a king
        table = tables.remote[material]
        assert table.blocks > 1
        blocks = tmp_path / "m1k1-m0k1.blocks"
        data = bytearray(blocks.read_bytes())
        first = min(PAGE, table.blocks) * DIGEST  # published block 0's stream, after the sums
        data[first + 3] ^= 0xFF
        blocks.write_bytes(bytes(data))
        per = table.span // compact.BLOCK  # the search's blocks in a published one
        # the host gets nothing for the search's blocks in it, and the others still serve
        assert all(tables.codes(material, n) is None for n in range(per))
        assert tables.codes(material, per) is not None
    finally:
        browser._OPEN.clear()


def test_tables_of_other_rules_or_a_changed_manifest_are_refused(tmp_path: Path) -> None:
    from rulebook_build.checkpage import entry as browser

    manifest = json.loads(published(tmp_path))
    manifest["rules"] = "0" * 16
    said = json.loads(
        browser.open_tables("international", json.dumps(manifest), folder_fetch(tmp_path))
    )
    assert "other rules" in said["error"] and "international" not in browser._OPEN
    assert "error" in json.loads(browser.open_tables("international", "{", folder_fetch(tmp_path)))


def test_an_illegal_move_is_named_by_its_move_number_in_the_page_language() -> None:
    problem = {
        "fen": "W:W19,25,30:B9,15,24",
        "variant": "international",
        "solution": "1. 19-14 24x35 2. 14-9 9x20",
        "tags": {},
    }
    said = json.loads(check(json.dumps(problem), 2, "nl"))
    # not judged, as rulebook check refuses it (exit 2): a slip in the text is no verdict
    assert set(said) == {"error"}
    assert said["error"]["text"].startswith(
        "Niet te beoordelen zoals geschreven: de oplossing kan niet worden nagespeeld: "
        "zet 2: onreglementaire zet 14-9 voor wit"
    )
    english = json.loads(check(json.dumps(problem), 2, "en"))["error"]["text"]
    assert english.startswith(
        "Could not be judged as written: the solution cannot be played: move 2"
    )


def test_a_pasted_fen_gets_its_messages_in_the_page_language() -> None:
    """The notation layer's messages, raised with their ids and said in the page's language
    from the catalogs (an untranslated one is refused by tests/words/test_catalogs.py)."""
    said = json.loads(load("W:W3:B18", "nl"))["error"]["text"]
    assert said.startswith("regel 1, kolom 4: een witte schijf kan niet op 3 staan")
    assert said.endswith("verwacht: een dam (K3) of een schijf buiten 1-5")
    said = json.loads(load("W:W99:B1", "fy"))["error"]["text"]
    assert said.startswith("rigel 1, kolom 4: fjild 99 bestiet net")
    assert said.endswith("ferwachte: in fjildnûmer 1-50")
    said = json.loads(load('[SetUp "1"]\n[FEN "W:W31:B1"]\n1. 31-27 $ *', "nl"))["error"]["text"]
    assert said.startswith("regel 3, kolom 10: onverwacht '$'")
    assert said.endswith(
        "verwacht: een zet, een commentaar, een variant of een uitslag (2-0, 1-1, 0-2, 0-0) of '*'"
    )
    english = json.loads(load('[SetUp "1"]\n[FEN "W:W31:B1"]\n1. 31-27 $ *', "en"))["error"]
    assert english["expected"] == (
        "a move, a comment, a variation, or a result (2-0, 1-1, 0-2, 0-0) or '*'"
    )


def test_the_fen_readers_own_faults_are_said_in_the_page_language() -> None:
    """The FEN reader's messages that were English on every page (a missing side, an
    alphanumeric square, an empty range, the list of what it expected) have ids too."""
    said = json.loads(load(":W31:B1", "nl"))["error"]["text"]
    assert said.startswith("regel 1, kolom 1: wie aan zet is ontbreekt: een FEN begint met W of B")
    assert said.endswith("verwacht: W of B, dan ':'")
    said = json.loads(load("W:Wa1:B1", "fy"))["error"]["text"]
    assert said.startswith("rigel 1, kolom 4: alfanumeryk fjild 'a1' is gjin fjild fan it 10x10")
    said = json.loads(load("W:W35-31:B1", "nl"))["error"]["text"]
    assert said.startswith("regel 1, kolom 7: reeks 35-31 is leeg")
    assert said.endswith("verwacht: een veld van 35 tot en met 50")
    # a list of what was expected, joined in the page's language (English keeps its commas)
    said = json.loads(load("W:X31", "fy"))["error"]["text"]
    assert said.endswith("ferwachte: '+', H of F of W of B")
    assert json.loads(load("W:X31", "en"))["error"]["expected"] == "'+', H or F, W or B"


def test_a_typed_moves_fault_is_said_in_the_page_language() -> None:
    """The reason beside each illegal move of the typed solution: said from its id, not the
    English of the command line."""
    found = json.loads(moves("W:W31-50:B1-20", "international", "19-23", "nl"))["moves"]
    assert found[0]["reason"].startswith("onreglementaire zet 19-23 voor wit in W:W31,32")
    english = json.loads(moves("W:W31-50:B1-20", "international", "19-23", "en"))["moves"]
    assert english[0]["reason"].startswith("illegal move 19-23 for White")
    board = json.loads(moves("W:W31:B1:+1", "frisian", "31-27", "fy"))["error"]["text"]
    assert board.startswith("rigel 1, kolom 12: de FEN hâldt te betiid op")


def test_the_similar_search_says_a_fault_in_the_page_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A solution the PDN reader refuses, named by its move, in the page's language."""
    monkeypatch.setitem(entry._SIMILAR, "index", Index())
    problem = {"fen": "W:W19:B9", "variant": "international", "solution": "1. 19-14 zz"}
    said = json.loads(entry.similar(json.dumps(problem), "nl"))["error"]["text"]
    assert said.startswith("zet 1: onverwacht 'zz'")


def test_publishing_again_keeps_what_is_right_and_removes_what_is_stale(tmp_path: Path) -> None:
    published(tmp_path)
    pages = tmp_path / "m1k0-m0k1.pages"
    written = pages.stat().st_mtime_ns
    (tmp_path / "m1k0-m0k1.sums").write_bytes(b"an older layout")
    (tmp_path / "m3k0-m1k0.blocks").write_bytes(b"a class not published now")
    published(tmp_path)
    assert pages.stat().st_mtime_ns == written  # right already: not written again
    assert not (tmp_path / "m1k0-m0k1.sums").exists()
    assert not (tmp_path / "m3k0-m1k0.blocks").exists()
    assert (tmp_path / "tables-international.json").is_file()
