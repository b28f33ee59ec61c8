"""The change history of the rule pages (``editions/history.toml``, ``site/history.py``):
every rule page of the project has one, its latest entry holds the page's current hash, a page
changed without an entry is caught with what to do, and the built page shows its last change.
The last test builds a small site with the real ``mkdocs build --strict``, the comparison of
two editions (``test_editions.py``) in it."""

from __future__ import annotations

import datetime
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from rulebook_build.errors import SiteError
from rulebook_build.site.history import (
    Change,
    digest,
    history_notice,
    read_history,
    rule_pages,
    stale,
)

from .conftest import REPOSITORY, mkdocs_build, write_site
from .test_editions import small_project

HISTORY = "editions/history.toml"


def history_of(project: Path) -> list[str]:
    return stale(read_history(project / HISTORY, project=project), project)


def test_every_rule_page_matches_its_latest_history_entry() -> None:
    history = read_history(REPOSITORY / HISTORY, project=REPOSITORY)
    assert history.path == HISTORY
    assert stale(history, REPOSITORY) == []
    pages = rule_pages(history, REPOSITORY)
    assert "docs/nl/regels/kndb-2009.md" in pages and "docs/fy/regels/fries-spel.md" in pages
    assert "docs/nl/regels/kndb-2009-2018.md" not in pages  # made from the two editions
    for page in pages:
        latest = history.of(page)[-1]
        text = re.sub(
            r"\A---\n.*?\n---\n\n*", "", (REPOSITORY / page).read_text("utf-8"), flags=re.S
        )
        data = text.encode("utf-8")
        # and the page's shared diagrams (site/shared_diagrams.py), which every language shows
        shared = REPOSITORY / "diagrams" / Path(*Path(page).parts[2:]).with_suffix(".toml")
        if shared.is_file():
            data += b"\0diagrams\0" + shared.read_bytes()
        assert latest.sha256 == hashlib.sha256(data).hexdigest()


def test_the_front_matter_is_not_the_text(tmp_path: Path) -> None:
    """The edition and source for the PDF describe the text: changing them needs no entry,
    changing a word of the text does."""
    page = tmp_path / "spel.md"
    page.write_text("# Spel\n\nArtikel 1.\n", encoding="utf-8")
    before = digest(page)
    page.write_text("---\nrulebook:\n  edition: 2024\n---\n\n# Spel\n\nArtikel 1.\n", "utf-8")
    assert digest(page) == before
    page.write_text("---\nrulebook:\n  edition: 2025\n---\n# Spel\n\nArtikel 1.\n", "utf-8")
    assert digest(page) == before
    page.write_text("---\nrulebook:\n  edition: 2025\n---\n# Spel\n\nArtikel 2.\n", "utf-8")
    assert digest(page) != before


ENTRY = """\
[[change]]
file = "{file}"
date = {date}
sha256 = "{sha256}"
nl = "{nl}"
en = "first published on this site."
"""


def project_with_history(root: Path, *, derived: str = "") -> Path:
    page = root / "docs" / "nl" / "regels" / "spel.md"
    page.parent.mkdir(parents=True)
    page.write_text("# Spel\n\n## Artikel 1 {#art-1}\n\nTekst.\n", encoding="utf-8")
    (root / "editions").mkdir()
    entry = ENTRY.format(
        file="docs/nl/regels/spel.md",
        date="2024-05-01",
        sha256=digest(page),
        nl="voor het eerst op deze site gepubliceerd.",
    )
    (root / HISTORY).write_text(f"derived = [{derived}]\n\n{entry}", encoding="utf-8")
    return root


def test_a_rule_page_changed_without_an_entry_is_caught(tmp_path: Path) -> None:
    project = project_with_history(tmp_path)
    assert history_of(project) == []
    page = project / "docs" / "nl" / "regels" / "spel.md"
    page.write_text(page.read_text() + "\nEen verbetering.\n")
    (problem,) = history_of(project)
    assert problem.startswith("docs/nl/regels/spel.md changed after its latest entry")
    assert "editions/history.toml (line 3, 2024-05-01)" in problem
    assert "'python scripts/history_entry.py docs/nl/regels/spel.md' prints one" in problem
    # the entry that records it
    entry = ENTRY.format(
        file="docs/nl/regels/spel.md", date="2024-06-01", sha256=digest(page), nl="verbeterd."
    )
    with (project / HISTORY).open("a") as handle:
        handle.write("\n" + entry)
    assert history_of(project) == []


def test_a_shared_diagram_changed_without_an_entry_is_caught(tmp_path: Path) -> None:
    """A diagram corrected in ``diagrams/<page>.toml`` changes the page readers see: its hash
    covers the shared file, as it covered the diagram when the page held it."""
    project = project_with_history(tmp_path)
    shared = project / "diagrams" / "regels" / "spel.toml"
    shared.parent.mkdir(parents=True)
    shared.write_text('[art-1]\nposition = "start"\n', encoding="utf-8")
    (problem,) = history_of(project)
    assert problem.startswith("docs/nl/regels/spel.md changed after its latest entry")


def test_a_change_not_shown_keeps_the_line_the_page_shows(tmp_path: Path) -> None:
    """``shown = false``: the sources rearranged, nothing a reader sees changed; the entry
    records the new hash and the page keeps showing its latest shown change."""
    project = project_with_history(tmp_path)
    page = project / "docs" / "nl" / "regels" / "spel.md"
    page.write_text(page.read_text() + "\n<!-- a comment -->\n")
    entry = ENTRY.format(
        file="docs/nl/regels/spel.md", date="2024-06-01", sha256=digest(page), nl="herschikt."
    ).replace("nl = ", "shown = false\nnl = ")
    path = project / HISTORY
    path.write_text(path.read_text() + "\n" + entry)
    history = read_history(path, project=project)
    assert history_of(project) == []
    changes = history.of("docs/nl/regels/spel.md")
    assert [change.shown for change in changes] == [True, False]
    notice = history_notice(changes, lang="en")
    assert notice == history_notice(changes[:1], lang="en")
    assert "1 May 2024" in notice and "herschikt" not in notice and "<details" not in notice
    assert history_notice(changes[1:], lang="en") == ""  # nothing to show: no line
    path.write_text(path.read_text().replace("shown = false", 'shown = "no"'))
    with pytest.raises(SiteError, match="'shown' must be true or false"):
        read_history(path, project=project)


def test_a_rule_page_without_any_entry_is_caught_unless_derived(tmp_path: Path) -> None:
    project = project_with_history(tmp_path)
    other = project / "docs" / "en" / "regels" / "vergelijking.md"
    other.parent.mkdir(parents=True)
    other.write_text("# Side by side\n")
    (problem,) = history_of(project)
    assert problem.startswith("docs/en/regels/vergelijking.md has no entry in")
    text = (project / HISTORY).read_text().replace("derived = []", 'derived = ["vergelijking.md"]')
    (project / HISTORY).write_text(text)
    assert history_of(project) == []


@pytest.mark.parametrize(
    ("wrong", "message"),
    [
        ("date = 2024-05-01", "'date' must be a date without quotes"),
        ("date = 2024-05-01", "a change dated 2024-04-01 after one dated 2024-05-01"),
        ('nl = "voor', "the change needs a text in nl"),
        ("sha256", "'sha256' must be 64 hexadecimal digits"),
    ],
)
def test_a_fault_of_the_history_file_is_located(tmp_path: Path, wrong: str, message: str) -> None:
    project = project_with_history(tmp_path)
    path = project / HISTORY
    text = path.read_text()
    if message.startswith("'date'"):
        text = text.replace(wrong, 'date = "2024-05-01"')
    elif message.startswith("a change dated"):
        text += "\n" + text.split("\n\n", 1)[1].replace(wrong, "date = 2024-04-01")
    elif wrong == "sha256":
        text = text.replace('sha256 = "', 'sha256 = "x')
    else:
        text = text.replace(wrong, 'fy = "voor')
    path.write_text(text)
    with pytest.raises(SiteError) as raised:
        read_history(path, project=project)
    starts = [n for n, row in enumerate(text.splitlines(), start=1) if row == "[[change]]"]
    line = starts[-1] if message.startswith("a change dated") else starts[0]
    assert str(raised.value).startswith(f"editions/history.toml:{line}: ")
    assert message in str(raised.value)


def test_the_notice_shows_the_latest_change_in_the_pages_language() -> None:
    changes = [
        Change("docs/fy/x.md", datetime.date(2024, 5, 1), "0" * 64, {"nl": "eerst"}, 1),
        Change(
            "docs/fy/x.md",
            datetime.date(2025, 3, 9),
            "1" * 64,
            {"nl": "nl", "en": "en", "fy": "<script>x</script> & <b>fy</b>"},
            7,
        ),
    ]
    tree = LexborHTMLParser(history_notice(changes, lang="fy"))
    first = tree.css_first(".rb-history p")
    assert first is not None
    assert first.text() == "Lêste feroaring 9 maart 2025: <script>x</script> & <b>fy</b>"
    assert first.css_first("time").attributes["datetime"] == "2025-03-09"
    assert not tree.css("script, b")
    earlier = tree.css(".rb-history details li")
    assert [li.text() for li in earlier] == ["1 maaie 2024: eerst"]
    english = LexborHTMLParser(history_notice(changes[:1], lang="en"))
    assert english.css_first(".rb-history p").text() == "Last changed 1 May 2024: eerst"
    assert not english.css("details")


def test_the_helper_prints_an_entry_with_the_current_hash() -> None:
    page = "docs/nl/regels/kndb-2018.md"
    done = subprocess.run(
        [sys.executable, str(REPOSITORY / "scripts" / "history_entry.py"), page],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert f'file = "{page}"' in done.stdout
    assert f'sha256 = "{digest(REPOSITORY / page)}"' in done.stdout
    assert "date = 2" in done.stdout and 'nl = "..."' in done.stdout


COMPARISON = """\
# Vergelijking

```edition-comparison
table: editions/small.toml
```
"""


def test_a_built_site_shows_the_history_and_the_comparison(tmp_path: Path) -> None:
    """One strict build that passes, then one with a stale page and a missing anchor."""
    root = write_site(tmp_path / "project")
    small_project(root)
    for lang in ("nl", "en"):
        (root / "docs" / lang / "regels" / "kndb-2009-2018.md").write_text(COMPARISON)
    english_rules = root / "docs" / "en" / "regels" / "kndb-2018.md"
    english_rules.write_text(english_rules.read_text().replace(" well.", " well in English."))
    entries = [
        ENTRY.format(file=f"docs/{page}", date="2024-05-01", sha256=digest(root / "docs" / page),
                     nl="eerste versie.")
        for page in ("nl/regels/schijf.md", "nl/regels/kndb-2009.md", "nl/regels/kndb-2018.md",
                     "en/regels/kndb-2009.md", "en/regels/kndb-2018.md", "en/regels/dam.md")
    ]  # fmt: skip
    history = 'derived = ["kndb-2009-2018.md"]\n\n' + "\n".join(entries)
    (root / HISTORY).write_text(history)
    built = mkdocs_build(root, root / "site")
    assert built.returncode == 0, built.stderr
    page = LexborHTMLParser((root / "site" / "regels" / "kndb-2009" / "index.html").read_text())
    notice = page.css_first("article h1 + .rb-history p")
    assert notice is not None and notice.text() == "Laatste wijziging 1 mei 2024: eerste versie."
    english = LexborHTMLParser(
        (root / "site" / "en" / "regels" / "kndb-2009" / "index.html").read_text()
    ).css_first("article h1 + .rb-history p")
    assert english is not None
    assert english.text() == "Last changed 1 May 2024: first published on this site."
    comparison = LexborHTMLParser(
        (root / "site" / "en" / "regels" / "kndb-2009-2018" / "index.html").read_text()
    )
    inserted = [node.text() for node in comparison.css(".rb-diff ins")]
    # the English page compares the English texts
    assert inserted[:2] == ["[new in 2018: : The players]", "[new in 2018:  well in English]"]
    link = comparison.css_first(".rb-edition-meta a").attributes["href"]
    assert link == "../kndb-2009/#art-1"
    assert not comparison.css(".rb-history")  # derived: no history of its own

    stale_page = root / "docs" / "en" / "regels" / "dam.md"
    stale_page.write_text(stale_page.read_text() + "\nA correction.\n")
    table = root / "editions" / "small.toml"
    table.write_text(table.read_text().replace('"art-2-2"', '"art-7"'))
    failed = mkdocs_build(root, root / "site")
    assert failed.returncode != 0
    assert "docs/en/regels/dam.md changed after its latest entry in editions/history.toml" in (
        failed.stderr
    )
    line = table.read_text().splitlines().index('old = ["art-2-1", "art-7"]') + 1
    assert f"editions/small.toml:{line}: old anchor 'art-7' is not an article of " in failed.stderr
