"""Diagrams written once and captioned per language (``site/shared_diagrams.py``,
``diagrams/<page>.toml``): a block naming a shared diagram is the block written out in full,
every fault of one is located, and the rulebooks' languages name the same diagrams in the
same order."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_build.errors import RulebookError
from rulebook_build.site.blocks import BlockRenderer
from rulebook_build.site.diagrams import DiagramCache, render_block
from rulebook_build.site.shared_diagrams import parse_shared
from rulebook_build.site.state import PageState, SiteBuild

from .conftest import REPOSITORY

SHARED = """\
# the diagrams of regels/boek.md

[art-1]
position = "W:W33:B3"
variant = "international"
numbers = true
moves = "33-28"
highlight = "28 29"

[art-2]
position = "start"
moves = "32-28 19-23 28x19"
"""

FULL = """\
position: W:W33:B3
variant: international
numbers: yes
moves: 33-28
highlight: 28 29
caption: Wit speelt 33-28"""


def renderer(project: Path, *, lang: str = "nl", uri: str = "regels/boek.md") -> BlockRenderer:
    build = SiteBuild()
    build.project_dir = project
    build.page = PageState(f"docs/{lang}/{uri}", 10, lang, uri=uri)
    return BlockRenderer(build)


def project_with(tmp_path: Path, shared: str = SHARED) -> Path:
    (tmp_path / "diagrams" / "regels").mkdir(parents=True)
    (tmp_path / "diagrams" / "regels" / "boek.toml").write_text(shared, encoding="utf-8")
    return tmp_path


def failure(block: BlockRenderer, text: str) -> str:
    """The error the block gives (the page shows it in a red box, the strict build fails)."""
    html = block.render_block(text, 5, 0)
    assert "rb-diagram-error" in html, html
    assert len(block.site.reported) == 1
    return next(iter(block.site.reported))


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_a_shared_diagram_renders_the_block_written_out_in_full(tmp_path: Path, lang: str) -> None:
    block = renderer(project_with(tmp_path), lang=lang)
    shared = block.render_block("diagram: art-1\ncaption: Wit speelt 33-28", 5, 0)
    full = render_block(
        FULL, lang=lang, source="x", first_line=1, indent=0, element_id="diagram-1",
        cache=DiagramCache(None),
    )  # fmt: skip
    assert shared == full
    assert "Wit speelt 33-28" in shared and 'class="rb-player' in shared
    assert not block.site.reported
    # its own caption, not another language's: the caption is the block's
    other = block.render_block("diagram: art-1\ncaption: White plays 33-28", 20, 0)
    assert "White plays 33-28" in other and "Wit speelt" not in other


def test_a_shared_diagram_without_a_caption_has_none(tmp_path: Path) -> None:
    block = renderer(project_with(tmp_path))
    shared = block.render_block("diagram: art-2", 5, 0)
    full = render_block(
        "position: start\nmoves: 32-28 19-23 28x19", lang="nl", source="x", first_line=1,
        indent=0, element_id="diagram-1", cache=DiagramCache(None),
    )  # fmt: skip
    assert shared == full and "<figcaption" not in shared


def test_an_unknown_id_is_located_at_the_block(tmp_path: Path) -> None:
    error = failure(renderer(project_with(tmp_path)), "caption: x\ndiagram: art-9")
    # the block's second line is line 5 + 1 of the Markdown, plus the front matter's 10
    assert error.startswith("docs/nl/regels/boek.md:16:10: no diagram 'art-9' in ")
    assert "diagrams/regels/boek.toml" in error and "expected: one of art-1, art-2" in error


def test_a_missing_file_is_located_at_the_block(tmp_path: Path) -> None:
    error = failure(renderer(tmp_path), "diagram: art-1\ncaption: x")
    assert error.startswith("docs/nl/regels/boek.md:15:10: no shared diagrams for this page: ")
    assert "diagrams/regels/boek.toml does not exist" in error


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("diagram: art-1\nmoves: 33-29\ncaption: x", "16:1: 'moves' beside 'diagram'"),
        ("diagram: art-1\ncaption: x\ncaption: y", "17:1: 'caption' is given twice"),
        ("diagram: art-1\ndiagram: art-2", "16:1: 'diagram' is given twice"),
        ("diagram:\ncaption: x", "15:9: 'diagram' needs the id of a shared diagram"),
    ],
)
def test_another_key_beside_diagram_is_located(tmp_path: Path, text: str, message: str) -> None:
    error = failure(renderer(project_with(tmp_path)), text)
    assert error.startswith(f"docs/nl/regels/boek.md:{message}"), error


def test_a_file_that_is_not_toml_is_located(tmp_path: Path) -> None:
    project = project_with(tmp_path, SHARED + "\n[art-3\nposition = 'start'\n")
    error = failure(renderer(project), "diagram: art-1")
    assert error.startswith("diagrams/regels/boek.toml:14: not TOML"), error


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('caption = "Afb. 1"', "16: diagram 'art-3': unknown key 'caption' (the caption is "),
        ('colour = "red"', "16: diagram 'art-3': unknown key 'colour'"),
        ("moves = 3", "16: diagram 'art-3': 'moves' must be a string on one line"),
    ],
)
def test_a_fault_of_the_shared_file_is_located(tmp_path: Path, extra: str, message: str) -> None:
    project = project_with(tmp_path, SHARED + f'\n[art-3]\nposition = "start"\n{extra}\n')
    error = failure(renderer(project), "diagram: art-1")
    assert error.startswith(f"diagrams/regels/boek.toml:{message}"), error


def test_an_illegal_move_of_a_shared_diagram_is_located_in_the_shared_file(
    tmp_path: Path,
) -> None:
    project = project_with(tmp_path, SHARED.replace('"33-28"', '"33-27"'))
    error = failure(renderer(project), "diagram: art-1\ncaption: x")
    assert error.startswith("diagrams/regels/boek.toml:7:10: diagram 'art-1': "), error
    assert '\n    moves = "33-27"\n             ^' in error


def test_a_fault_of_the_caption_is_located_in_the_page(tmp_path: Path) -> None:
    with pytest.raises(RulebookError):  # an empty caption is no fault; a bad line is
        render_block(
            "position: start\ncaption", lang="nl", source="x", first_line=1, indent=0,
            element_id="d", cache=DiagramCache(None),
        )  # fmt: skip
    error = failure(renderer(project_with(tmp_path)), "diagram: art-1\ncaption")
    assert error.startswith("docs/nl/regels/boek.md:16:8: unexpected end of input"), error


def test_the_shared_file_parses_to_the_diagrams_keys() -> None:
    diagrams = parse_shared(SHARED, shown="boek.toml")
    assert list(diagrams) == ["art-1", "art-2"]
    assert diagrams["art-1"].keys[2] == ("numbers", "yes")
    assert diagrams["art-2"].line == 10


DOCS = REPOSITORY / "docs"


def _named(path: Path) -> list[str | None]:
    """The id each ```draughts block of a page names (``None`` for one written out)."""
    blocks = re.findall(r"^```draughts\n(.*?)^```", path.read_text(encoding="utf-8"), re.M | re.S)
    return [next(iter(re.findall(r"^diagram: (\S+)$", block, re.M)), None) for block in blocks]


def test_the_rulebooks_languages_name_the_same_diagrams_in_the_same_order() -> None:
    shared = sorted((REPOSITORY / "diagrams" / "regels").glob("*.toml"))
    assert [path.stem for path in shared] == ["fries-spel", "kndb-2009", "kndb-2018", "speldoos"]
    for path in shared:
        ids = parse_shared(path.read_text(encoding="utf-8"), shown=path.name)
        pages = [DOCS / lang / "regels" / f"{path.stem}.md" for lang in ("nl", "en", "fy")]
        named = [_named(page) for page in pages if page.is_file()]
        assert len(named) >= 2
        assert all(names == named[0] for names in named), path.stem
        assert {name for name in named[0] if name} == set(ids), path.stem
    # the two blocks the languages write differently stay written out (scripts/share_diagrams.py)
    assert _named(DOCS / "nl" / "regels" / "kndb-2009.md").count(None) == 2


def test_sharing_the_rulebooks_again_changes_nothing() -> None:
    """``scripts/share_diagrams.py`` run again finds every shared block already shared, and
    lists the two blocks of kndb-2009.md the languages write differently."""
    done = subprocess.run(
        [sys.executable, str(REPOSITORY / "scripts" / "share_diagrams.py"), "--dry-run"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[-1] == "71 diagrams shared in all"
    assert all(line.endswith("(unchanged)") for line in lines if line.startswith("regels/"))
    left = [line for line in lines if line.startswith("  left: ")]
    assert len(left) == 2 and all("kndb-2009.md" in line and "variant" in line for line in left)
