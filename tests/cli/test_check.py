"""``rulebook check``: the JSON contract of the checker issue, exit codes, located input errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook_build.cli import main
from rulebook_build.notation.pdn import read_pdn_file, write_game
from tests.datafiles import PWCP

SOUND = """[Event "a sound problem"]
[SetUp "1"]
[FEN "W:W26,31,36:B6,17,39"]
[GameType "40"]

1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 (3... 11-16 4. 26x6) 4. 34-29 17-22
(4... 17-21 5. 26x17) 5. 26-21 22-27 (5... 22-28 6. 29x27) 6. 21x32 *
"""
COOKED = """[Event "cook"]
[SetUp "1"]
[FEN "W:W12,18:B9,25"]
[GameType "20"]

1. 12-7 9-13 2. 18x9 *
"""
COOKED_LATER = """[Event "a second winning move inside the combination"]
[SetUp "1"]
[FEN "W:W15,38:B16,31"]
[GameType "20"]

1. 15-10 31-36 2. 10-4 *
"""
CONTRACT = {"source", "event", "variant", "verdict", "white_wins", "winning_keys", "solution"}
CONTRACT |= {"criteria", "seconds", "grade"}
CRITERIA = ["A", "B1", "B2", "B3", "B4", "C", "D", "E", "F", "G"]


def run_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> tuple[int, list[dict[str, object]]]:
    problem = tmp_path / "problem.pdn"
    problem.write_text(text, encoding="utf-8")
    code = main(["check", "--table-pieces", "4", "--json", "--time-limit", "20", str(problem)])
    lines = capsys.readouterr().out.splitlines()
    return code, [json.loads(line) for line in lines]


def test_a_sound_problem_exits_0_with_the_contract_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, (record,) = run_json(tmp_path, capsys, SOUND)
    assert code == 0
    assert set(record) >= CONTRACT
    assert record["source"] == f"{tmp_path / 'problem.pdn'}:1"
    assert record["event"] == "a sound problem"
    assert record["variant"] == "frisian"
    assert record["verdict"] == "sound"
    assert record["grade"] == "correct" and record["summary"] == "correct"
    assert record["white_wins"] == "proved"
    assert record["winning_keys"] == ["31-27"]
    assert record["solution"] == {
        "legal": True,
        "key": "31-27",
        "key_wins": True,
        "error": None,
        "refutation": None,  # an extension: the line to Black's refutation of a false solution
    }
    criteria = record["criteria"]
    assert isinstance(criteria, dict) and list(criteria) == CRITERIA
    # the contract's two fields, and the extension that lets the site translate the detail
    assert all(set(c) == {"status", "detail", "message", "args"} for c in criteria.values())
    assert all(c["status"] == "pass" for c in criteria.values())
    assert isinstance(record["seconds"], float)


def test_a_cook_exits_1_and_names_both_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, (record,) = run_json(tmp_path, capsys, COOKED)
    assert code == 1
    assert record["verdict"] == "unsound" and record["grade"] == "incorrect"
    keys = record["winning_keys"]
    assert isinstance(keys, list) and "12-7" in keys and len(keys) >= 2
    criterion = record["criteria"]["C"]  # type: ignore[index]
    assert criterion["status"] == "fail" and "cook" in criterion["detail"]


def test_input_errors_exit_2_with_a_location(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(tmp_path / "missing.pdn")]) == 2
    assert "missing.pdn: no such file or folder" in capsys.readouterr().err
    bad = tmp_path / "bad.pdn"
    bad.write_text('[SetUp "1"]\n[FEN "W:W6,11,51:B17"]\n\n1. 6-1 *\n', encoding="utf-8")
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2:15: square 51 does not exist" in err  # where the 51 stands in the file
    assert "Traceback" not in err


def test_duals_adds_every_dual_to_the_report_with_its_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problem = tmp_path / "problem.pdn"
    problem.write_text(COOKED_LATER, encoding="utf-8")
    assert (
        main(["check", "--table-pieces", "4", "--duals", "--time-limit", "10", str(problem)]) == 1
    )
    out = capsys.readouterr().out
    head, listed = out.split("  every dual (")
    count, *duals = listed.strip().splitlines()
    assert count == f"{len(duals)}):" and len(duals) >= 2  # the fault and the information
    assert "    [fail cook] after 15-10 31-36: 10-4 / 10-5" in duals
    assert any(d.startswith("    [info deviation] after 15-10 ") for d in duals)
    # the dual that G reports is among them
    g = next(line for line in head.splitlines() if line.startswith("  FAIL G "))
    assert "after 15-10 31-36: 10-4 / 10-5 all win" in g


def test_jobs_judges_in_parallel_and_prints_in_input_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    problems = Path(__file__).resolve().parents[2] / "problems" / "examples"
    files = [str(path) for path in sorted(problems.glob("*.pdn"))[:8]]

    def records(jobs: str) -> list[dict[str, object]]:
        assert (
            main(
                [
                    "check",
                    "--table-pieces",
                    "4",
                    "--json",
                    "--time-limit",
                    "20",
                    "--jobs",
                    jobs,
                    *files,
                ]
            )
            == 0
        )
        found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        for record in found:
            del record["seconds"], record["nodes"]  # the only fields that may differ
        return found

    alone, together = records("1"), records("2")
    assert [r["source"] for r in together] == [f"{f}:1" for f in files]  # input order
    assert together == alone


def refused(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What argparse says when it refuses an option's value (it exits 2)."""
    with pytest.raises(SystemExit) as stop:
        main(arguments)
    assert stop.value.code == 2
    return capsys.readouterr().err


def test_jobs_below_one_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    error = refused(["check", "--jobs", "0", "problems"], capsys)
    assert "argument --jobs: must be a whole number from 1 to 1,024, not '0'" in error


def test_a_negative_opinion_budget_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    error = refused(["check", "--opinion-nodes", "-1", "problems"], capsys)
    assert "argument --opinion-nodes: must be a whole number from 0 to 1,000,000,000" in error


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "0", "-5", "1e999", "86401", ""])
def test_a_time_limit_that_is_no_time_is_refused_before_any_work(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    error = refused(["check", f"--time-limit={seconds}", "no-such-file.pdn"], capsys)
    assert (
        "argument --time-limit: must be a number of seconds greater than 0 and at most 86400"
        in error
    )
    assert "Traceback" not in error


def test_the_text_report_lists_the_opinions_under_the_criteria(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A problem left open at a second of work: the report says each opinion as no proof, with
    the criteria it serves and the measured rate."""
    games, errors = read_pdn_file(PWCP)
    assert not errors
    path = tmp_path / "open.pdn"
    # A8: open at 20 s (criteria C and G), so surely at one second
    path.write_text(write_game(games[7]), encoding="utf-8")
    main(["check", "--deterministic", "--time-limit", "1", str(path)])
    out = capsys.readouterr().out
    assert "Engine opinions (not proofs):" in out
    said = out.split("Engine opinions (not proofs):")[1].splitlines()
    assert (
        # the criteria the opinion serves (which stay open at a second depends on the work
        # rates), then the words
        set(said[1].split()[0].rstrip(":").split(",")) <= set("ACDEG")
        and "not proved; the engine sees" in said[1]
    )
    assert "agreed with the proof" in out
    # and none at all with --opinion-nodes 0
    main(["check", "--deterministic", "--time-limit", "1", "--opinion-nodes", "0", str(path)])
    assert "Engine opinions" not in capsys.readouterr().out


def test_an_undecided_run_names_the_tables_that_settle_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulebook_build.checker.front import Checker
    from rulebook_build.cli import check as check_command
    from rulebook_build.engine.tables.kinds import checker_tables
    from rulebook_build.rules import FRISIAN, INTERNATIONAL

    # a cache without 5-piece classes: a note for each variant, check builds neither here
    opened = {v.name: checker_tables(v, cache_dir=tmp_path) for v in (INTERNATIONAL, FRISIAN)}
    monkeypatch.setitem(check_command._CHECKERS, (True, True), Checker(opened=opened))  # type: ignore[arg-type]
    check_command._suggest_tables({"international", "frisian"})
    error = capsys.readouterr().err
    assert error.count("note: the 5-piece endgame tables") == 1
    assert "'rulebook tables --pieces 5 --pack'" in error
    assert error.count("note: the frisian 5-piece endgame tables are not in the cache") == 1
    assert "'rulebook tables --variant frisian --pieces 5 --pack'" in error
    assert not list(tmp_path.rglob("*.bin"))  # a note, not a build
    check_command._suggest_tables(set())
    assert capsys.readouterr().err == ""


def test_deterministic_gives_the_same_json_with_any_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.datafiles import PWCP

    # two PWCP-2 problems that one second leaves partly open: where the searches stop shows,
    # in the criteria and in the count of nodes, which only a limit counted in work repeats
    text = PWCP.read_text(encoding="utf-8")
    start = text.index('[Event "A2"]')
    end = text.index('[Event "A4"]')
    problems = tmp_path / "a2-a3.pdn"
    problems.write_text(text[start:end], encoding="utf-8")

    def records(jobs: str) -> list[dict[str, object]]:
        arguments = [
            "check",
            "--table-pieces",
            "4",
            "--json",
            "--deterministic",
            "--time-limit",
            "1",
            "--jobs",
            jobs,
        ]
        assert main([*arguments, str(problems)]) in (0, 1)
        found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        for record in found:
            del record["seconds"]  # the only field that may differ
        return found

    alone = records("1")
    assert [r["event"] for r in alone] == ["A2", "A3"]
    assert all(isinstance(r["nodes"], int) and r["nodes"] > 0 for r in alone)
    assert records("2") == alone


@pytest.mark.parametrize("name", ["international", "frisian"])
def test_check_builds_the_5_piece_tables_once_with_the_tables_command(
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import rulebook_build.cli.tables
    from rulebook_build.checker.front import FIVE_PIECE_COST, Checker
    from rulebook_build.cli import check as check_command
    from rulebook_build.engine import binaries
    from rulebook_build.engine.tables.kinds import checker_tables
    from rulebook_build.rules import Variant, find_variant

    if binaries.compiler() is None:
        pytest.skip("no C compiler on this machine: check builds no 5-piece tables")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path))  # no 5-piece classes in it
    asked: list[tuple[str, int, bool]] = []

    def build_tables(variant: Variant, pieces: int, *, jobs: int, pack: bool) -> None:
        asked.append((variant.name, pieces, pack))  # the real build takes 9 minutes or hours
        print("built 4 kings v 1 king with its partner")

    monkeypatch.setattr(rulebook_build.cli.tables, "build_tables", build_tables)
    variant = find_variant(name)
    checker = Checker(table_pieces=5, build=check_command._build, announce=check_command._announce)
    checker._build_five(variant, checker_tables(variant))
    assert asked == [(name, 5, True)]
    out, err = capsys.readouterr()
    assert out == ""  # standard output is the report's (--json): the build speaks on stderr
    assert f"building the 5-piece endgame tables for {name}" in err
    assert "built 4 kings v 1 king" in err
    assert FIVE_PIECE_COST[name] in err and "Ctrl-C" in err

    # Ctrl-C during the build stops the command, not only the build
    def interrupted(variant: Variant, pieces: int, *, jobs: int, pack: bool) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(rulebook_build.cli.tables, "build_tables", interrupted)
    with pytest.raises(KeyboardInterrupt):
        checker._build_five(variant, checker_tables(variant))


def test_frisian_5_piece_tables_are_built_by_check_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rulebook_build.checker.front import Checker
    from rulebook_build.engine import binaries
    from rulebook_build.rules import FRISIAN, INTERNATIONAL

    if binaries.compiler() is None:
        pytest.skip("no C compiler on this machine: check builds no 5-piece tables")
    built: list[str] = []
    monkeypatch.setattr(
        Checker, "_build_five", lambda self, variant, tables: built.append(variant.name)
    )
    monkeypatch.setattr(  # what follows the choice, loading the tables, is not the point here
        "rulebook_build.checker.front.checker_tables",
        lambda variant: None,
    )
    # without --table-pieces: International's 5-piece classes (9 minutes), not Frisian's
    # (hours); with --table-pieces 5, Frisian's too
    for variant, pieces in ((INTERNATIONAL, None), (FRISIAN, None), (FRISIAN, 5)):
        checker = Checker(table_pieces=pieces, build=lambda variant, pieces: None)
        with pytest.raises(AttributeError):  # the tables (None here) are looked at next
            checker.tables_of(variant)
    assert built == ["international", "frisian"]


def test_a_5_piece_build_stopped_halfway_is_taken_up_again() -> None:
    from rulebook_build.checker import front

    class Tables:
        def __init__(self, classes: list[tuple[int, int, int, int]]) -> None:
            self._classes = classes

        def classes(self) -> list[tuple[int, int, int, int]]:
            return self._classes

    every = sorted(front.FIVE_PIECE_CLASSES)
    assert len(every) == 44 and (0, 4, 0, 1) in every and (5, 0, 0, 0) not in every
    assert front.has_five(Tables([(0, 1, 0, 1), *every]))  # type: ignore[arg-type]
    assert not front.has_five(Tables(every[:-1]))  # type: ignore[arg-type]
    assert not front.has_five(Tables([(0, 1, 0, 1)]))  # type: ignore[arg-type]
