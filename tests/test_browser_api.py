"""rulebook_build.browser: what the "check your problem" page calls in the browser, here in
CPython (the browser test runs the same code under Pyodide)."""

from __future__ import annotations

import json
from pathlib import Path

from rulebook_build.browser import check, load, moves, pdn
from rulebook_build.cli.check import _judge, _Task
from rulebook_build.notation.pdn import read_pdn

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
    assert "<pasted>:3:10: unexpected 'zz'" in error["text"]
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
    judgement = _judge(_Task(games[0], "international", 20.0, True, False, False)).as_json()
    assert record["grade"] == judgement["grade"] == "correct"
    assert record["winning_keys"] == judgement["winning_keys"] == ["44-39"]
    assert {n: c["status"] for n, c in record["criteria"].items()} == {
        n: c["status"]
        for n, c in judgement["criteria"].items()  # type: ignore[union-attr]
    }
    # the report speaks the page's language
    assert record["report"]["rows"][0]["detail"].startswith("wit wint")


def test_check_uses_shipped_tables_when_all_are_there(tmp_path: Path) -> None:
    """The worker unpacks the site's small tables; without all of them the search goes
    without (never with some missing classes built in the browser)."""
    import shutil

    from rulebook_build.browser import _tables
    from rulebook_build.checker.tables.endgame import default_cache_dir
    from rulebook_build.rules import INTERNATIONAL
    from rulebook_build.site.checker_page import table_archive, table_sources

    assert _tables(INTERNATIONAL, tmp_path / "none") is None
    archive = tmp_path / "tables.tar.gz"
    archive.write_bytes(table_archive(table_sources("international")))
    unpacked = tmp_path / "tables"
    shutil.unpack_archive(archive, unpacked)
    tables = _tables(INTERNATIONAL, unpacked)
    assert tables is not None and tables.pure.cache_dir == unpacked
    assert default_cache_dir() != unpacked
    # one file gone: not used at all
    next(unpacked.rglob("*.bin")).unlink()
    assert _tables(INTERNATIONAL, unpacked) is None
