"""Problem collections and the pages made from them while the site builds.

The collections are data (``problems/<collection>/collection.toml`` and the PDN files as
published); the site plugin makes a page per collection and per problem in every language,
and nothing is written to ``docs/``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from rulebook_build.errors import RulebookError
from rulebook_build.notation.pdn import read_pdn
from rulebook_build.notation.replay import line_text, replay
from rulebook_build.site.collections import read_collection, read_collections
from rulebook_build.site.problems import ProblemSite

from .conftest import REPOSITORY, Site

PROBLEMS = REPOSITORY / "problems"

PROBLEM = """[SetUp "1"]
[FEN "W:W26,31,36:B6,17,39"]
[GameType "40"]

1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 (3... 11-16 4. 26x6) 4. 34-29 17-22
(4... 17-21 5. 26x17) 5. 26-21 22-27 (5... 22-28 6. 29x27) 6. 21x32 2-0
"""


def test_variations_keep_the_move_numbers_of_the_main_line() -> None:
    games, errors = read_pdn(PROBLEM, source="<test>")
    assert not errors
    text = line_text(replay(games[0]).main, 0)
    assert text == (
        "1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 (3... 11-16 4. 26x6) 4. 34-29 17-22 "
        "(4... 17-21 5. 26x17) 5. 26-21 22-27 (5... 22-28 6. 29x27) 6. 21x32"
    )


def test_a_black_move_after_a_variation_of_a_white_move_gets_its_number() -> None:
    games, errors = read_pdn(
        '[SetUp "1"]\n[FEN "W:W26,31,36:B6,17,39"]\n[GameType "40"]\n\n'
        "1. 31-27 (1. 26-21 17x46) 17x37 *\n",
        source="<test>",
    )
    assert not errors
    assert line_text(replay(games[0]).main, 0) == "1. 31-27 (1. 26-21 17x46) 1... 17x37"


def test_the_collections_of_the_repository() -> None:
    found = {c.slug: c for c in read_collections(PROBLEMS)}
    assert set(found) >= {"pwcp-2", "cat-b1", "cat-d1", "examples"}
    pwcp = found["pwcp-2"]
    # the companion file repeats A1-A51 word for word: each problem once, A52-A59 added
    assert [e.name for e in pwcp.entries] == [f"A{n}" for n in range(1, 60)]
    assert pwcp.kind == "contest" and pwcp.stage == "solutions"
    assert len(found["cat-b1"].entries) == 37 and len(found["cat-d1"].entries) == 19
    first = found["cat-b1"].entries[0]
    assert (first.composer, first.publication) == ("M. Fedorov", "conc. FMJD, 1998, A58")
    assert {e.variant for e in found["examples"].entries} == {"international", "frisian"}


def test_no_problem_credits_the_program() -> None:
    for collection in read_collections(PROBLEMS):
        for entry in collection.entries:
            for tag in ("Composer", "Source", "Event", "Annotator"):
                value = (entry.game.tag(tag) or "").lower()
                assert "rulebook" not in value, (entry.title, tag, value)


def test_every_problem_has_a_current_stored_verdict() -> None:
    site = ProblemSite(PROBLEMS)
    for collection in site.collections:
        for entry in collection.entries:
            assert site.record(entry) is not None, f"{entry.title}: run the refresh command"


def write(folder: Path, metadata: str, pdn: str = PROBLEM) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "collection.toml").write_text(metadata, encoding="utf-8")
    (folder / "p.pdn").write_text(pdn, encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ('title = "T"\ncolour = "red"\n', "unknown key 'colour'"),
        ('kind = "contest"\n', "needs a 'title'"),
        ('title = "T"\nkind = "tournament"\n', "'kind' at the top level must be one of"),
        ('title = "T"\nfiles = ["missing.pdn"]\n', "'files' at the top level names 'missing.pdn'"),
        ('title = "T"\n[points]\nA1 = "many"\n', "'A1' in [points] must be a number"),
        ('title = "T\n', "collection.toml"),
    ],
)
def test_a_bad_collection_file_is_a_located_error(
    tmp_path: Path, metadata: str, expected: str
) -> None:
    folder = write(tmp_path / "c", metadata)
    with pytest.raises(RulebookError) as caught:
        read_collection(folder)
    assert expected in str(caught.value)
    assert "collection.toml" in str(caught.value)


def test_texts_may_be_given_per_language(tmp_path: Path) -> None:
    folder = write(tmp_path / "c", 'title = { nl = "Voorbeelden", en = "Examples" }\n')
    collection = read_collection(folder)
    assert collection.entries[0].slug == "p"  # named after its file by default
    from rulebook_build.site.collections import localized

    assert localized(collection.title, "en") == "Examples"
    assert localized(collection.title, "fy") == "Voorbeelden"  # the Dutch one stands in


# ---------------------------------------------------------------------- the built site


def pages_of(site: Site) -> list[Path]:
    return sorted((site.site).rglob("problemen/*/*/index.html"))


def test_every_problem_has_its_page_in_every_language(real_site: Site) -> None:
    assert real_site.result.returncode == 0, real_site.result.stderr
    for collection in read_collections(PROBLEMS):
        for prefix in ("", "en/", "fy/"):
            assert (real_site.site / f"{prefix}problemen/{collection.slug}/index.html").is_file()
            for entry in collection.entries:
                page = real_site.site / f"{prefix}problemen/{collection.slug}/{entry.slug}"
                assert (page / "index.html").is_file(), page
    # nothing generated was written to docs/
    assert not list((REPOSITORY / "docs" / "nl" / "problemen").glob("*/"))


def test_the_contest_page_agrees_with_the_stored_verdicts(real_site: Site) -> None:
    site = ProblemSite(PROBLEMS)
    pwcp = site.collection("pwcp-2", where="test")
    page = (real_site.site / "en" / "problemen" / "pwcp-2" / "index.html").read_text("utf-8")
    rows = re.findall(
        r'<tr data-number="(\d+)" data-title="([^"]*)"[^>]*data-grade="([^"]*)"', page
    )
    assert len(rows) == len(pwcp.entries) == 59
    for (number, name, grade), entry in zip(rows, pwcp.entries, strict=True):
        record = site.record(entry)
        assert record is not None
        assert (int(number), html.unescape(name), grade) == (
            entry.number,
            entry.name,
            record.grade,
        )


def test_no_page_credits_the_program_as_composer_or_source(real_site: Site) -> None:
    for path in real_site.site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "rulebook_build team" not in text, path
        assert "rulebook_build problems" not in text, path


def test_stored_verdicts_are_what_rulebook_check_says_now() -> None:
    """Two quick contest problems (settled in about a second) judged again as ``rulebook
    check --json --deterministic`` judges them: the same grade, keys and criteria as the stored
    verdicts the contest page shows (all 59 take up to 20 s each: ``benchmarks/checker.py``)."""
    wanted = {"A2", "A3"}
    site = ProblemSite(PROBLEMS)
    entries = [e for e in site.collection("pwcp-2", where="t").entries if e.name in wanted]
    from rulebook_build.cli.check import _judge, _Task

    for entry in entries:
        judgement = _judge(_Task(entry.problem, 20.0, True, True, True, by_work=True))
        judged = site.record(entry)
        assert judged is not None
        stored = judged.as_json()
        now = judgement.as_json()
        assert now["grade"] == stored["grade"], entry.name
        assert now["winning_keys"] == stored["winning_keys"], entry.name
        statuses = {n: c["status"] for n, c in now["criteria"].items()}  # type: ignore[union-attr]
        assert statuses == {n: c["status"] for n, c in stored["criteria"].items()}, entry.name
