"""``rulebook build --out DIR`` on the project's own docs (a few seconds)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import REPOSITORY, Site

pytestmark = pytest.mark.site_build

DOCS = REPOSITORY / "docs"


def output_of(page: Path) -> str:
    """``docs/nl/regels/x.md`` -> ``regels/x/index.html`` (and ``en/...``, ``fy/...``)."""
    lang, *rest = page.relative_to(DOCS).parts
    stem = Path(*rest).with_suffix("")
    folder = stem.parent if stem.name == "index" else stem
    folder_text = "" if folder == Path(".") else f"{folder.as_posix()}/"
    prefix = "" if lang == "nl" else f"{lang}/"
    return f"{prefix}{folder_text}index.html"


def test_the_whole_site_builds_strictly(real_site: Site) -> None:
    assert real_site.result.returncode == 0, real_site.result.stderr
    assert re.search(r"built \d+ pages into .* in [\d.]+ s", real_site.result.stderr)
    for home in ("index.html", "en/index.html", "fy/index.html"):
        assert (real_site.site / home).is_file()


def test_every_diagram_block_became_a_figure(real_site: Site) -> None:
    for source in sorted(DOCS.rglob("*.md")):
        # a diagram fence, a scored game and a problem (its solution player) each give one
        # figure; a comparison table and a list of problems none
        text = source.read_text(encoding="utf-8")
        fence = r"^```draughts(?:-score|-problem)?[ \t]*$"
        blocks = len(re.findall(fence, text, flags=re.MULTILINE))
        html = (real_site.site / output_of(source)).read_text(encoding="utf-8")
        assert html.count('class="rb-diagram') == blocks, source
        assert "rb-diagram-error" not in html


def test_frisian_site_falls_back_to_dutch_with_a_notice(real_site: Site) -> None:
    translated = {p.relative_to(DOCS / "fy") for p in (DOCS / "fy").rglob("*.md")}
    for dutch in (DOCS / "nl").rglob("*.md"):
        page = dutch.relative_to(DOCS / "nl")
        html = (real_site.site / output_of(DOCS / "fy" / page)).read_text(encoding="utf-8")
        assert '<html lang="fy"' in html
        notice = "Dizze side is noch net yn it Frysk oerset; hjirûnder stiet de Nederlânske tekst."
        assert (notice in html) == (page not in translated), page


def test_search_finds_moves_and_dutch_words(real_site: Site) -> None:
    index = json.loads((real_site.site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "32-28" in text and "meerslag" in text
    assert "-" not in re.sub(r"\\[sS]|\\u200b", "", index["config"]["separator"])
