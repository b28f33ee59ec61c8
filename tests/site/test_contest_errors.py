"""What an organiser meets: an entry that cannot be played as written, and the messages of
``collection.toml``.

The contest of ``test_contest_stages`` is read straight from its folder, with its verdicts
judged by ``rulebook check`` (tiny problems, a limit counted in work).
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_build.cli import main
from rulebook_build.errors import SiteError
from rulebook_build.site.collections import read_collection
from rulebook_build.site.problems import ProblemSite, render_collection, render_problem_page

from .conftest import environment, write_site
from .test_contest_stages import CONTEST, ENTRIES

SLIP = ("2. 1x31 36x18", "2. 1x30 36x18")
"""The first entry's solution with a transcription slip at White's second move."""
UNPLAYABLE = {
    # the grade's words; the row's words; the page's sentence
    "en": (
        "could not be judged as written",
        "Solution: move 2. 1x30 is not legal there",
        "The solution cannot be played as written: move 2. 1x30 is not legal there",
    ),
    "nl": (
        "niet te beoordelen zoals geschreven",
        "Oplossing: zet 2. 1x30 is daar niet toegestaan",
        "De oplossing kan niet worden nagespeeld zoals ze geschreven is: zet 2. 1x30 is daar "
        "niet toegestaan",
    ),
    "fy": (
        "net te beoardieljen sa&#39;t it skreaun is",
        "Oplossing: set 2. 1x30 is dêr net tastien",
        "De oplossing kin net neispile wurde sa&#39;t se skreaun is: set 2. 1x30 is dêr net "
        "tastien",
    ),
}


def slipped(root: Path, capsys: pytest.CaptureFixture[str]) -> ProblemSite:
    """The contest at its final stage, its first entry written with the slip, and the stored
    verdicts as ``rulebook check --update`` leaves them: none for the slip (bad input, exit 2),
    one for the other entry; and an older checker's grade for the slip, which must not show."""
    folder = root / "problems" / "wedstrijd"
    folder.mkdir(parents=True)
    (folder / "collection.toml").write_text(CONTEST.format(stage="final"), encoding="utf-8")
    (folder / "entries.pdn").write_text(ENTRIES.replace(*SLIP), encoding="utf-8")
    verdicts = root / "problems" / "verdicts.jsonl"
    options = ["--deterministic", "--time-limit", "5", "--table-pieces", "4"]
    assert main(["check", *options, "--update", str(verdicts), str(folder)]) == 2
    assert "move 2. 1x30: illegal move" in capsys.readouterr().err
    (record,) = [json.loads(line) for line in verdicts.read_text(encoding="utf-8").splitlines()]
    assert record["event"] == "two"
    site = ProblemSite(root / "problems")
    older = {**record, "digest": site.collections[0].entries[0].digest, "grade": "incorrect"}
    with verdicts.open("a", encoding="utf-8") as stream:
        stream.write(json.dumps(older) + "\n")
    return ProblemSite(root / "problems")


@pytest.mark.parametrize("lang", sorted(UNPLAYABLE))
def test_the_jury_page_says_an_unplayable_entry_could_not_be_judged_as_written(
    tmp_path: Path, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    site = slipped(tmp_path, capsys)
    html = render_collection("collection: wedstrijd", lang=lang, where="w.md", site=site, root="")
    grade, short, detail = UNPLAYABLE[lang]
    first = re.search(r'<tr data-number="1".*?</tr>', html, re.DOTALL)
    assert first is not None
    row = first.group(0)
    assert 'data-grade="unplayable"' in row
    assert f'<span class="rb-grade rb-grade-unplayable">{grade}</span>' in row
    assert short in row and "rb-grade-incorrect" not in row  # no grade of its own
    assert f'<span class="rb-grade rb-grade-unplayable">{grade}: 1</span>' in html  # counted
    entry = site.collections[0].entries[0]
    page = render_problem_page(
        entry, lang=lang, where="w.md", site=site, diagram=lambda spec, lines: "", root=""
    )
    assert f'rb-grade-unplayable">{grade}</span>' in page and detail in page
    assert 'id="beoordeling"' not in page  # no verdict shown
    assert "2. 1x30 36x18" in page  # the solution as written


# ---------------------------------------------------------------- collection.toml's messages

MISTAKES = [
    # (the slip in CONTEST, its line, the message after "collection.toml:<line>: ")
    ("stage =", "stgae =", 4, "unknown key 'stgae' at the top level (did you mean 'stage'?)"),
    ("by =", "bij =", 14, "unknown key 'bij' in [[claims]] 1 (did you mean 'by'?)"),
    ("rank =", "rnak =", 17, "unknown key 'rnak' in [[awards]] 1 (did you mean 'rank'?)"),
    (
        "2 = 8",
        "4 = 8",
        9,
        "'4' in [points]: the collection has no such entry (its entries: 1, 2)",
    ),
    (
        'entry = "2"',
        'entry = "3"',
        11,
        "'entry' in [[claims]] 1 names entry '3': the collection has no such entry "
        "(its entries: 1, 2)",
    ),
    (
        'kind = "cook"',
        'kind = "cok"',
        12,
        "'kind' in [[claims]] 1 must be one of cook, anticipation, other, not 'cok' "
        "(did you mean 'cook'?)",
    ),
    ('by = "Claimant', 'by = 7\n#"', 14, "'by' in [[claims]] 1 must be a text or a table"),
    # a claim or an award that names no entry: said at its table's header
    ('entry = "2"\n', "", 10, "[[claims]] 1 needs an 'entry'"),
    ('entry = "1"\n', "", 15, "[[awards]] 1 needs an 'entry'"),
]


def contest(root: Path, old: str = "", new: str = "") -> Path:
    folder = root / "problems" / "wedstrijd"
    folder.mkdir(parents=True)
    toml = CONTEST.format(stage="final")
    assert old in toml
    (folder / "collection.toml").write_text(toml.replace(old, new, 1), encoding="utf-8")
    (folder / "entries.pdn").write_text(ENTRIES, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("old", "new", "line", "message"), MISTAKES)
def test_each_collection_toml_error_names_the_file_line_table_and_key(
    tmp_path: Path, old: str, new: str, line: int, message: str
) -> None:
    folder = contest(tmp_path, old, new)
    with pytest.raises(SiteError) as caught:
        read_collection(folder)
    assert str(caught.value).startswith(f"{folder / 'collection.toml'}:{line}: {message}")


def rulebook_build(root: Path) -> subprocess.CompletedProcess[str]:
    """``rulebook build``, as an organiser runs it in the project's folder."""
    return subprocess.run(
        [sys.executable, "-m", "rulebook_build.cli", "build", "--out", str(root / "out")],
        cwd=root,
        capture_output=True,
        text=True,
        env=environment(),
        check=False,
    )


@pytest.mark.parametrize(("old", "new", "line", "message"), [MISTAKES[i] for i in (0, 1, 3)])
def test_a_misspelt_key_or_a_missing_entry_stops_the_build_with_one_message(
    tmp_path: Path, old: str, new: str, line: int, message: str
) -> None:
    root = write_site(tmp_path)
    contest(root, old, new)
    result = rulebook_build(root)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{root / 'problems' / 'wedstrijd' / 'collection.toml'}:{line}: {message}",
        "rulebook build: the site was not built (1 problem above): Aborted with a BuildError!",
    ]


def test_entries_without_verdicts_are_named_once_each_and_counted_as_printed(
    tmp_path: Path,
) -> None:
    root = write_site(tmp_path)
    folder = contest(root)
    result = rulebook_build(root)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    command = (
        "run 'rulebook check --json --deterministic --time-limit 20 "
        "--update problems/verdicts.jsonl problems/wedstrijd/'"
    )
    assert lines[:-1] == [
        f"{folder / 'entries.pdn'}:1: entry 1 of wedstrijd/ has no stored verdict for its "
        f"current text: {command}",
        f"{folder / 'entries.pdn'}:10: entry 2 of wedstrijd/ has no stored verdict for its "
        f"current text: {command}",
    ]
    assert lines[-1].startswith("rulebook build: the site was not built (2 problems above)")


def test_a_fault_past_the_plugin_is_printed_located_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulebook_build.site import builder

    def fails(config: object) -> None:
        raise SiteError("unknown key 'x'", source="problems/c/collection.toml", line=3)

    root = write_site(tmp_path)
    monkeypatch.setattr(builder, "build", fails)
    stream = io.StringIO()
    with pytest.raises(SiteError, match=r"the site was not built \(1 problem above\)"):
        builder.build_site(root / "mkdocs.yml", root / "out", stream=stream)
    assert stream.getvalue() == "problems/c/collection.toml:3: unknown key 'x'\n"
