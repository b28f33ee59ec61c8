"""A contest publishes what its stage allows, on every page that shows it.

One small contest of two entries (one correct, one with a cook) is built as a real site at
each stage, and its pages are read: the collection's report, each problem page, the index of
every problem and the search index. What a stage does not publish must appear on none of them.
"""

from __future__ import annotations

import json
import tempfile
from functools import cache
from pathlib import Path

import pytest

from rulebook_build.checker.judge import Judge
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.errors import RulebookError
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.site.collections import STAGES, read_collection
from rulebook_build.site.problems import ProblemSite, render_collection

from .conftest import Site, mkdocs_build, write_site

ENTRIES = """[Event "one"]
[SetUp "1"]
[FEN "W:W6,11,18,22,28:B17,32,36,37,43"]
[GameType "20"]
[Composer "Aafke Componist"]
[Source "Het Blad, 1990"]

1. 6-1 32x12 2. 1x31 36x18 3. 11x13 2-0

[Event "two"]
[SetUp "1"]
[FEN "W:W12,18:B9,25"]
[GameType "20"]
[Composer "Bauke Componist"]

1. 12-7 9-13 2. 18x9 *
"""

CONTEST = """title = "Wedstrijd"
kind = "contest"
entry = "number"
stage = "{stage}"
anonymous = true
unsound_scores_zero = true
[points]
1 = 12.5
2 = 8
[[claims]]
entry = "2"
kind = "cook"
line = "12-8"
by = "Claimant Oplosser"
[[awards]]
entry = "1"
rank = 1
award = "prize"
text = {{ nl = "Juryzin over een fraaie slotcombinatie", en = "Jury words on a fine finale" }}
"""

SOLUTION = "36x18"
"""A move of the first entry's solution: on a page only where solutions are published."""
SECRETS = {
    "composers": ["Aafke Componist", "Bauke Componist", "Het Blad, 1990"],
    "solutions": [SOLUTION, "rb-grade-incorrect", "Claimant Oplosser"],
    "awards": ["Juryzin over een fraaie slotcombinatie", 'data-points="12.5"', "0: niet correct"],
}
SHOWN = {
    "positions": set(),
    "solutions": {"solutions"},
    "preliminary": {"solutions", "composers", "awards"},
    "final": {"solutions", "composers", "awards"},
}


@cache
def judged() -> str:
    """The entries' verdicts as 'rulebook check --json' stores them: judged once a process,
    counted in work (the same on any machine), for every stage (the entries are the same)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "entries.pdn"
        path.write_text(ENTRIES, encoding="utf-8")
        games, errors = read_pdn_file(path)
    assert not errors
    judge = Judge(INTERNATIONAL, tables=checker_tables(INTERNATIONAL))
    lines = []
    for game in games:
        start = parse_fen(game.tag("FEN") or "", variant=INTERNATIONAL)
        judgement = judge.judge(game, start, seconds=20, by_work=True)
        lines.append(json.dumps(judgement.as_json()))
    records = [json.loads(line) for line in lines]
    # what stayed open, said if the grades differ: a judgement counted in work must not depend
    # on the machine's load, so a difference here is a fault to find, not a slow machine
    open_criteria = [
        {name: c["detail"] for name, c in record["criteria"].items() if c["status"] == "undecided"}
        for record in records
    ]
    assert [record["grade"] for record in records] == ["correct", "incorrect"], open_criteria
    return "\n".join(lines) + "\n"


def add_contest(root: Path, stage: str) -> None:
    folder = root / "problems" / "wedstrijd"
    folder.mkdir(parents=True)
    (folder / "collection.toml").write_text(CONTEST.format(stage=stage), encoding="utf-8")
    (folder / "entries.pdn").write_text(ENTRIES, encoding="utf-8")
    (root / "problems" / "verdicts.jsonl").write_text(judged(), encoding="utf-8")


@pytest.fixture(scope="module", params=STAGES)
def staged(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Site:
    stage: str = request.param
    root = write_site(tmp_path_factory.mktemp(f"stage-{stage}"))
    add_contest(root, stage)
    site = root / "site"
    result = mkdocs_build(root, site)
    assert result.returncode == 0, result.stderr
    return Site(root, site, result)


def pages(site: Site) -> dict[str, str]:
    """Every page that shows the contest, in Dutch and English, and the search index."""
    found = {
        path.relative_to(site.site).as_posix(): path.read_text(encoding="utf-8")
        for path in site.site.rglob("index.html")
        if "problemen" in path.parts
    }
    for index in site.site.rglob("search_index.json"):
        found[index.relative_to(site.site).as_posix()] = index.read_text(encoding="utf-8")
    assert (
        "problemen/wedstrijd/index.html" in found and "problemen/wedstrijd/01/index.html" in found
    )
    return found


def stage_of(site: Site) -> str:
    return site.root.name.split("-")[1].rstrip("0123456789")


def test_each_stage_publishes_exactly_what_it_allows(staged: Site) -> None:
    stage = stage_of(staged)
    built = pages(staged)
    for kind, texts in SECRETS.items():
        for text in texts:
            where = [name for name, page in built.items() if text in page]
            if kind in SHOWN[stage]:
                assert "problemen/wedstrijd/index.html" in where or (
                    "problemen/wedstrijd/01/index.html" in where
                ), f"{stage}: {text!r} ({kind}) missing"
            else:
                assert where == [], f"{stage}: {text!r} ({kind}) shown on {where}"


def test_the_problem_page_says_what_comes_later_or_shows_the_grade_first(staged: Site) -> None:
    stage = stage_of(staged)
    page = (staged.site / "problemen" / "wedstrijd" / "01" / "index.html").read_text("utf-8")
    if stage == "positions":
        assert "wanneer de oplostijd van de wedstrijd voorbij is" in page
        assert "anoniem tot de uitslag" in page and 'id="beoordeling"' not in page
    else:
        # the grade at the top, before the diagram; the whole verdict further down
        assert "Winnende sleutelzetten: 6-1." in page  # the verdict's keys, as text
        top = page.index('class="rb-problem-grade"')
        assert top < page.index("rb-diagram") < page.index('id="beoordeling"')
    if stage in ("preliminary", "final"):
        assert "Plaats 1, prijs; Punten: 12.5" in page


def test_an_unsound_entry_scores_zero_and_cannot_be_awarded(tmp_path: Path) -> None:
    add_contest(tmp_path, "final")
    site = ProblemSite(tmp_path / "problems")
    html = render_collection("collection: wedstrijd", lang="en", where="w.md", site=site, root="")
    assert "0: incorrect" in html and 'data-points="8"' not in html
    toml = tmp_path / "problems" / "wedstrijd" / "collection.toml"
    toml.write_text(
        toml.read_text("utf-8") + '[[awards]]\nentry = "2"\naward = "commendation"\n', "utf-8"
    )
    with pytest.raises(RulebookError, match="entry '2' is incorrect by the checker and scores 0"):
        render_collection(
            "collection: wedstrijd",
            lang="en",
            where="w.md",
            site=ProblemSite(toml.parents[1]),
            root="",
        )
    allowed = toml.read_text("utf-8") + "allowed = true\n"
    toml.write_text(allowed, "utf-8")
    html = render_collection(
        "collection: wedstrijd", lang="en", where="w.md", site=ProblemSite(toml.parents[1]), root=""
    )
    assert 'data-points="8"' in html and "allowed by the jury" in html


def test_awards_and_points_must_name_an_entry(tmp_path: Path) -> None:
    add_contest(tmp_path, "final")
    toml = tmp_path / "problems" / "wedstrijd" / "collection.toml"
    toml.write_text(toml.read_text("utf-8").replace("2 = 8", "02 = 8"), "utf-8")
    with pytest.raises(RulebookError, match=r"'02' in \[points\]: the collection has no such"):
        read_collection(toml.parent)
