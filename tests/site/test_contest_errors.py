"""What an organiser meets: an entry that cannot be played as written, and the messages of
``collection.toml``.

The contest of ``test_contest_stages`` is read straight from its folder, with its verdicts
judged by ``rulebook check`` (tiny problems, a limit counted in work).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulebook_build.cli import main
from rulebook_build.site.problems import ProblemSite, render_collection, render_problem_page

from .test_contest_stages import CONTEST, ENTRIES

SLIP = ("2. 1x31 36x18", "2. 1x30 36x18")
"""The first entry's solution with a transcription slip at White's second move."""
UNPLAYABLE = {
    "en": (
        "could not be judged as written",
        "the solution cannot be played as written: move 2. 1x30 is not legal there",
    ),
    "nl": (
        "niet te beoordelen zoals geschreven",
        "de oplossing kan niet worden nagespeeld zoals ze geschreven is: zet 2. 1x30 is daar "
        "niet toegestaan",
    ),
    "fy": (
        "net te beoardieljen sa&#39;t it skreaun is",
        "de oplossing kin net neispile wurde sa&#39;t se skreaun is: set 2. 1x30 is dêr net "
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
    grade, detail = UNPLAYABLE[lang]
    first = re.search(r'<tr data-number="1".*?</tr>', html, re.DOTALL)
    assert first is not None
    row = first.group(0)
    assert 'data-grade="unplayable"' in row
    assert f'<span class="rb-grade rb-grade-unplayable">{grade}</span>' in row
    assert detail in row and "rb-grade-incorrect" not in row  # no grade of its own
    assert f'<span class="rb-grade rb-grade-unplayable">{grade}: 1</span>' in html  # counted
    entry = site.collections[0].entries[0]
    page = render_problem_page(
        entry, lang=lang, where="w.md", site=site, diagram=lambda spec, lines: "", root=""
    )
    assert f'rb-grade-unplayable">{grade}</span>' in page and detail in page
    assert 'id="beoordeling"' not in page  # no verdict shown
    assert "2. 1x30 36x18" in page  # the solution as written
