"""``cli/options.py``: the kinds of option value, each refused with its range or kind named."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from rulebook_build.cli import options


def refusal(parse: object, text: str) -> str:
    assert callable(parse)
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        parse(text)
    return str(refused.value)


def test_a_whole_number_is_plain_ascii_digits_in_its_range() -> None:
    parse = options.whole_number(1, 64)
    assert parse("1") == 1 and parse(" 64 ") == 64 and parse("+7") == 7
    for text in ("0", "65", "-1", "1.0", "1e2", "1_0", "\u0661", "", "nan", "9" * 5000):
        assert "must be a whole number from 1 to 64" in refusal(parse, text)


def test_a_number_is_finite_and_in_its_range() -> None:
    parse = options.number(0, 100, above=True, unit="number of seconds")
    assert parse("0.5") == 0.5 and parse("100") == 100.0 and parse("1e1") == 10.0
    for text in ("0", "-5", "nan", "NaN", "inf", "-inf", "1e999", "100.01", "1_0", "", "\u0661"):
        message = refusal(parse, text)
        assert "must be a number of seconds greater than 0 and at most 100" in message
    assert options.number(0, 1)("0") == 0.0  # the low end is included unless ``above``


def test_paths_name_what_is_wrong(tmp_path: Path) -> None:
    file = tmp_path / "a.pdn"
    file.write_text("*")
    missing = tmp_path / "nothing"
    assert options.existing_file(str(file)) == file
    assert "no such file" in refusal(options.existing_file, str(missing))
    assert "is a folder" in refusal(options.existing_file, str(tmp_path))
    assert options.existing_folder(str(tmp_path)) == tmp_path
    assert "is a file" in refusal(options.existing_folder, str(file))
    assert "no such file or folder" in refusal(options.existing_path, str(missing))
    assert options.folder_to_write(str(missing / "deeper")) == missing / "deeper"
    assert "is a file" in refusal(options.folder_to_write, str(file / "below"))
    assert options.file_to_write(str(tmp_path / "out.svg")) == tmp_path / "out.svg"
    assert "is a folder" in refusal(options.file_to_write, str(tmp_path))
    assert "does not exist" in refusal(options.file_to_write, str(missing / "out.svg"))
    for kind in (options.existing_file, options.folder_to_write, options.file_to_write):
        assert "not an empty text" in refusal(kind, " ")
        assert "NUL" in refusal(kind, "a\0b")


def test_a_scheduler_address_is_one_ascii_word() -> None:
    assert options.scheduler_address("tcp://10.0.0.1:8786") == "tcp://10.0.0.1:8786"
    assert options.scheduler_address("[::1]:8786") == "[::1]:8786"
    for text in ("", "tcp://h\u00e9:1", "tcp://a b:1", "a\nb"):
        assert "such as tcp://HOST:PORT" in refusal(options.scheduler_address, text)


def test_the_jobs_default_is_the_cores_within_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulebook_build.engine import binaries

    monkeypatch.setattr(binaries, "machine_cores", lambda: 4096)
    assert options.jobs_default() == options.MAX_JOBS
    assert options.jobs_default(64) == 64
    monkeypatch.setattr(binaries, "machine_cores", lambda: 0)
    assert options.jobs_default() == 1
