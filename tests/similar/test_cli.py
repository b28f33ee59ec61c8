"""``rulebook similar``: the JSON contract of issue 39, the text a jury reads, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook_build.cachedir import ENVIRONMENT
from rulebook_build.cli import main

ROOT = Path(__file__).resolve().parents[2]
PROBLEMS = ROOT / "problems"
VAN_DIJK = f"{PROBLEMS / 'cat-b1' / 'Cat.B1.pdn'}:17"
SHIFTED = """[Event "shifted van Dijk"]
[SetUp "1"]
[FEN "W:W28,29,32,38,39,41,48:B6,7,8,9,17,18,37"]
[GameType "20"]

*

[Event "a game, not a problem"]

1. 32-28 19-23 *

[Event "kings"]
[SetUp "1"]
[FEN "W:WK1,28,K50:B23,K46"]
[GameType "20"]

*
"""
CONTRACT = {"source", "event", "matches"}
MATCH = {"source", "collection", "event", "composer", "published", "move", "score"}
MATCH |= {"transform", "reason"}


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def elsewhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shared_cache: Path) -> None:
    """Each test runs in an empty folder (no project, no problems/) with a cache of its own
    module."""
    monkeypatch.setenv(ENVIRONMENT, str(shared_cache))
    monkeypatch.chdir(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(["similar", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    query = tmp_path / "query.pdn"
    query.write_text(SHIFTED, encoding="utf-8")
    code, out, err = run(capsys, "--json", "--in", str(PROBLEMS), str(query))
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [record["source"] for record in records] == [f"{query}:1", f"{query}:12"]
    assert all(set(record) == CONTRACT for record in records)
    shifted, kings = records
    assert shifted["event"] == "shifted van Dijk"
    assert all(set(match) == MATCH for match in shifted["matches"])
    scores = [match["score"] for match in shifted["matches"]]
    assert scores == sorted(scores, reverse=True) and len(scores) > 1
    assert shifted["matches"][0] == {
        "source": VAN_DIJK,
        "collection": "Cat.B1",
        "event": "M.van Dijk",
        "composer": "M.van Dijk",
        "published": "Het Parol , 18-9-1971",
        "move": None,
        "score": 1.0,
        "transform": "shift(+0,+2)",
        "reason": "same position, shifted two columns right",
    }
    assert kings["matches"] == []


def test_limit_keeps_the_best(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    query = tmp_path / "query.pdn"
    query.write_text(SHIFTED, encoding="utf-8")
    code, out, _err = run(capsys, "--json", "--limit", "1", "--in", str(PROBLEMS), str(query))
    assert code == 0
    assert [len(json.loads(line)["matches"]) for line in out.splitlines()] == [1, 0]
    assert json.loads(out.splitlines()[0])["matches"][0]["source"] == VAN_DIJK
    with pytest.raises(SystemExit) as stop:  # argparse refuses it, naming the option
        run(capsys, "--limit", "0", "--in", str(PROBLEMS), str(query))
    assert stop.value.code == 2
    assert "argument --limit: must be a whole number from 1 to 1,000" in capsys.readouterr().err


def test_a_game_position_is_reported_with_its_move_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The position after 1. 32-28 19-23, set up as a problem, is the game's position before
    its second move."""
    games = tmp_path / "games.pdn"
    games.write_text(
        '[Event "a club game"]\n[Date "1950.03.01"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n',
        encoding="utf-8",
    )
    query = tmp_path / "query.pdn"
    query.write_text(
        '[Event "after two moves"]\n[SetUp "1"]\n'
        '[FEN "W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,28:'
        'B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23"]\n\n*\n',
        encoding="utf-8",
    )
    code, out, err = run(capsys, "--json", "--in", str(games), str(query))
    assert code == 0, err
    (match, *_rest) = json.loads(out)["matches"]
    assert (match["source"], match["move"], match["score"]) == (f"{games}:1", 2, 1.0)
    assert (match["collection"], match["composer"], match["published"]) == (
        "games.pdn",
        None,
        "1950.03.01",
    )


def test_a_problem_is_never_its_own_match_in_the_project_s_problems(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """From a folder of the project, the corpus is its problems/ (named from here), and no
    problem of Cat.B1 lists itself."""
    monkeypatch.chdir(ROOT / "guides")
    code, out, err = run(capsys, "--json", "../problems/cat-b1/Cat.B1.pdn")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 37
    for record in records:
        sources = [match["source"] for match in record["matches"]]
        assert record["source"] not in sources
        assert all(source.startswith("../problems/") for source in sources)
    assert any(record["matches"] for record in records)


def test_a_companion_file_s_copy_of_a_problem_is_the_same_problem(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PWCP-2's second file repeats A1-A51 word for word: for A1 of either file the copy in the
    other is the same entry of the same contest, not a match; the conformance set's copies of
    both files (another collection) are."""
    monkeypatch.chdir(ROOT)
    copies = "tests/data/pdn-conformance/games/succeed/PWCP_2.pdn"
    code, out, err = run(capsys, "--json", "--in", copies, "problems/pwcp-2/PWCP_2.pdn")
    assert code == 0, err
    first = json.loads(out.splitlines()[0])
    assert first["event"] == "A1"
    sources = [match["source"] for match in first["matches"]]
    assert sources[0] == f"{copies}:2"
    assert not any(source.startswith("problems/pwcp-2/") for source in sources)


def test_the_text_says_each_match_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    query = tmp_path / "query.pdn"
    query.write_text(SHIFTED, encoding="utf-8")
    code, out, _err = run(capsys, "--limit", "1", "--in", str(PROBLEMS), str(query))
    assert code == 0
    assert out.splitlines() == [
        f"{query}:1: shifted van Dijk: 1 match",
        f"  1.00  {VAN_DIJK} (Cat.B1; M.van Dijk; Het Parol , 18-9-1971): same position, "
        "shifted two columns right  possible anticipation",
        f"{query}:12: kings: nothing scoring 0.4 or more",
    ]


def test_bad_input_exits_2_with_a_located_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad FEN is located at its square; a missing file is named; the problems that could be
    read are still searched."""
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "bad"]\n[SetUp "1"]\n[FEN "W:W99:B1"]\n\n*\n', encoding="utf-8")
    good = tmp_path / "good.pdn"
    good.write_text(SHIFTED, encoding="utf-8")
    code, out, err = run(
        capsys, "--json", "--in", str(PROBLEMS), str(bad), "missing.pdn", str(good)
    )
    assert code == 2
    assert f"{bad}:3:10: square 99 does not exist" in err
    assert "missing.pdn: no such file or folder" in err
    assert [json.loads(line)["source"] for line in out.splitlines()] == [
        f"{good}:1",
        f"{good}:12",
    ]


def test_without_a_corpus_it_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    query = tmp_path / "query.pdn"
    query.write_text(SHIFTED, encoding="utf-8")
    code, _out, err = run(capsys, str(query))
    assert code == 2
    assert "no problems/ folder" in err


def test_cache_dir_keeps_the_index_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    query = tmp_path / "query.pdn"
    query.write_text(SHIFTED, encoding="utf-8")
    chosen = tmp_path / "chosen"
    code, _out, _err = run(capsys, "--cache-dir", str(chosen), "--in", str(query), str(query))
    assert code == 0
    assert len(list((chosen / "similar").glob("*.json.z"))) == 1
