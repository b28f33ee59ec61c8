"""``rulebook check --update``: judge some folders into the stored verdicts file.

The file it leaves must be the file a full run writes (``seconds`` aside): the records of the
folders given replaced or added, every other record kept, in the full run's order.  Tiny
problems, a short limit counted in work: the same records on any machine.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rulebook_build.cli import main
from tests.cli.test_check import COOKED, COOKED_LATER, SOUND

OPTIONS = ["--deterministic", "--time-limit", "5", "--table-pieces", "4", "--opinion-nodes", "0"]


def without_seconds(text: str) -> list[dict[str, object]]:
    records = [json.loads(line) for line in text.splitlines()]
    for record in records:
        del record["seconds"]
    return records


@pytest.fixture
def problems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three collections, run from their parent folder (as the guide's refresh is): one
    problem in a/, two in b/, and in c/ a new problem and a repeat of a/'s."""
    monkeypatch.chdir(tmp_path)
    for name, text in {
        "a/one.pdn": SOUND,
        "b/two.pdn": COOKED + "\n" + COOKED_LATER,
        "c/three.pdn": COOKED_LATER + "\n" + SOUND,
    }.items():
        path = tmp_path / "problems" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Path("problems")


def full_run(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["check", "--json", *OPTIONS, "problems/"]) == 1  # a cook: not all sound
    return capsys.readouterr().out


def test_update_adds_the_folders_records_and_keeps_the_others_in_full_run_order(
    problems: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = full_run(capsys)
    assert len(full.splitlines()) == 5
    verdicts = problems / "verdicts.jsonl"
    # the file before the contests b/ and c/ were added, with a stale record of c/ at the end
    kept = [line for line in full.splitlines() if "problems/a/" in line]
    stale = json.dumps({**json.loads(kept[0]), "source": "problems/c/three.pdn:30"})
    verdicts.write_text(kept[0] + "\n" + stale + "\n", encoding="utf-8")

    assert main(["check", *OPTIONS, "--update", str(verdicts), "problems/c/", "problems/b"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # the records go into the file, not to standard output
    assert f"{verdicts}: 4 records of the files judged (they had 1), 1 other kept" in captured.err
    assert "note:" not in captured.err  # every record kept names a file that is there
    updated = verdicts.read_text(encoding="utf-8")
    assert without_seconds(updated) == without_seconds(full)
    assert updated.splitlines()[0] == kept[0]  # a record kept is kept as it was written

    # judged again, the file does not change (seconds aside)
    assert main(["check", *OPTIONS, "--update", str(verdicts), "problems/b/two.pdn"]) == 1
    assert without_seconds(verdicts.read_text(encoding="utf-8")) == without_seconds(full)

    # a collection removed: its record is kept, and said to be one a full run would not write
    (problems / "a" / "one.pdn").unlink()
    assert main(["check", *OPTIONS, "--update", str(verdicts), "problems/b/two.pdn"]) == 1
    assert "note: 1 of the records kept name a file that does not exist from this folder" in (
        capsys.readouterr().err
    )
    assert verdicts.read_text(encoding="utf-8").splitlines()[0] == kept[0]


def test_a_damaged_verdicts_file_is_refused_before_any_judging(
    problems: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    verdicts = problems / "verdicts.jsonl"
    damaged = '{"source": "problems/a/one.pdn:1"}\n{"source": "probl'
    verdicts.write_text(damaged, encoding="utf-8")
    assert main(["check", *OPTIONS, "--update", str(verdicts), "problems/b"]) == 2
    captured = capsys.readouterr()
    assert f"{verdicts}:2: not a JSON line" in captured.err and "Traceback" not in captured.err
    assert verdicts.read_text(encoding="utf-8") == damaged
    missing = Path("nowhere") / "verdicts.jsonl"
    assert main(["check", *OPTIONS, "--update", str(missing), "problems/b"]) == 2
    assert f"{missing}: --update: its folder does not exist" in capsys.readouterr().err


def test_a_write_that_fails_leaves_the_old_file_whole(
    problems: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    verdicts = problems / "verdicts.jsonl"
    old = full_run(capsys)
    verdicts.write_text(old, encoding="utf-8")

    def fail(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    assert main(["check", *OPTIONS, "--update", str(verdicts), "problems/b"]) == 2
    message = f"{verdicts}: not written (No space left on device): the file is as it was"
    assert message in capsys.readouterr().err
    assert verdicts.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in problems.iterdir()) == ["a", "b", "c", "verdicts.jsonl"]


SLIP = """[Event "A2"]
[SetUp "1"]
[FEN "W:W42,43,48:B27,31,33"]
[GameType "20"]

1. 42-37 31x42 2. 48x37 27-31 (2... 33-39 3. 43x34 27-31 (3... 27-32 4. 37x28) 4. 37x26)
(2... 33-38 3. 43x21) (2... 27-32 3. 37x39) 3. 37x26 33-38 (3... 33-39 4. 43x34) 4. 43x32
2-0
"""
"""A sound problem (the contests guide's A2); the tests write 37x27 for its 37x26."""


def test_an_illegal_move_is_bad_input_named_by_its_number_and_gets_no_grade(
    problems: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = problems / "d" / "entry.pdn"
    entry.parent.mkdir()
    entry.write_text(SLIP, encoding="utf-8")
    verdicts = problems / "verdicts.jsonl"
    assert main(["check", *OPTIONS, "--update", str(verdicts), str(entry)]) == 0
    capsys.readouterr()
    assert json.loads(verdicts.read_text(encoding="utf-8"))["grade"] == "correct"

    entry.write_text(SLIP.replace("3. 37x26 33-38", "3. 37x27 33-38"), encoding="utf-8")
    assert main(["check", *OPTIONS, str(entry)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no report: a slip in the text is not a verdict
    assert (
        f"{entry}:7:48: not judged: the solution cannot be played as written: move 3. 37x27: "
        "illegal move 37x27 for White" in captured.err
    )
    assert "expected: one of the legal moves: 37x26" in captured.err
    # a Black move, and a move in a variation, are named as such
    entry.write_text(SLIP.replace("4. 43x34) 4. 43x32", "4. 43x35) 4. 43x32"), encoding="utf-8")
    assert main(["check", *OPTIONS, "--json", str(entry)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "move 4. 43x35 (in a variation): illegal" in captured.err
    entry.write_text(SLIP.replace("1. 42-37 31x42", "1. 42-37 31x41"), encoding="utf-8")
    assert main(["check", *OPTIONS, "--update", str(verdicts), str(entry)]) == 2
    assert "move 1... 31x41: illegal move 31x41 for Black" in capsys.readouterr().err
    assert verdicts.read_text(encoding="utf-8") == ""  # its old grade is gone, none written
