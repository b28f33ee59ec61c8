"""The plugin in a real ``mkdocs build --strict`` of a tiny two-language site."""

from __future__ import annotations

import filecmp
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rulebook_build.notation.diagram import parse_diagram
from rulebook_build.render.svg import piece_code

from .conftest import NL_INDEX, NL_RULE, Site, environment, mkdocs_build, write_site


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def player_data(html: str, element_id: str) -> dict[str, object]:
    figure = html[html.index(f'id="{element_id}"') :]
    match = re.search(
        r'<script type="application/json" class="rb-player-data">(.*?)</script>', figure
    )
    assert match is not None
    data = json.loads(match.group(1))
    assert isinstance(data, dict)
    return data


def test_build_succeeds_strictly(tiny_site: Site) -> None:
    assert tiny_site.result.returncode == 0, tiny_site.result.stderr
    for page in ("index.html", "regels/schijf/index.html", "en/index.html"):
        assert (tiny_site.site / page).is_file()
    assert (tiny_site.site / "en/regels/schijf/index.html").is_file()  # Dutch fallback
    for asset in ("assets/rulebook/draughts.css", "assets/rulebook/player.js"):
        assert (tiny_site.site / asset).is_file()


def test_diagrams_are_inline_svg_figures(tiny_site: Site) -> None:
    html = read(tiny_site.site, "index.html")
    assert html.count('<svg class="rb-board"') == 3  # a still diagram; a player's start and end
    assert '<figure class="rb-diagram" id="diagram-1">' in html
    assert "<figcaption>Afb. 1 — Beginstand</figcaption>" in html
    assert "Wit: 20 schijven op 31–50. Zwart: 20 schijven op 1–20. Wit is aan zet." in html
    assert 'href="../assets/rulebook/draughts.css"' not in html  # root page: no ../
    assert 'href="assets/rulebook/draughts.css"' in html
    assert 'src="assets/rulebook/player.js"' in html


def test_player_data_comes_from_the_engine(tiny_site: Site) -> None:
    html = read(tiny_site.site, "index.html")
    assert 'class="rb-diagram solution-player" id="diagram-2"' in html
    data = player_data(html, "diagram-2")
    steps = data["steps"]
    assert isinstance(steps, list) and len(steps) == 3
    spec = parse_diagram("position: W:W32:B18,27,28\nmoves: 32x12 27-31")
    for step, position in zip(steps, spec.positions(), strict=True):
        expected = {str(s): piece_code(p) for s, p in position.pieces().items()}
        assert step["pieces"] == expected
    assert steps[1]["path"] == [32, 23, 12] and steps[1]["captured"] == [28, 18]
    assert [s["status"] for s in steps] == ["Beginstand", "Zet 1: 32x12", "Zet 2: 27-31"]
    # without JavaScript: start diagram, move list and final diagram are in the page
    assert 'class="rb-player-frame rb-player-begin"' in html
    assert 'class="rb-player-frame rb-player-end"' in html
    assert '<span class="rb-player-move" data-ply="1">1. 32x12</span>' in html


def test_english_page_speaks_english(tiny_site: Site) -> None:
    html = read(tiny_site.site, "en/index.html")
    assert '<html lang="en"' in html
    data = player_data(html, "diagram-1")
    steps = data["steps"]
    assert isinstance(steps, list)
    assert steps[1]["status"] == "Move 1: 32x12"
    assert 'aria-label="Next move"' in html


def test_untranslated_page_shows_the_dutch_text_under_a_notice(tiny_site: Site) -> None:
    html = read(tiny_site.site, "en/regels/schijf/index.html")
    assert "This page has not been translated into English yet" in html
    assert '<h1 lang="nl"' in html and '<div lang="nl">' in html
    # the Dutch text, and Dutch words in its diagram
    assert "Een schijf gaat schuin vooruit" in html
    assert "Zet 1: 32-28" in html
    translated = read(tiny_site.site, "en/index.html")
    assert "has not been translated" not in translated
    # the language menu keeps the reader on the same page
    menu = re.findall(r'<a href="([^"]*)" hreflang="([a-z]+)" class="md-select__link"', html)
    assert menu == [("../../../regels/schijf/", "nl"), ("./", "en")]


def test_translated_and_fallback_pages_share_one_nav_section(tiny_site: Site) -> None:
    html = read(tiny_site.site, "en/index.html")
    titles = re.findall(r'<span class="md-ellipsis">\s*([^<]*?)\s*</span>', html)
    assert titles.count("Regels") == 1
    found = re.search(r">\s*Regels\s*</span>", html)
    assert found is not None
    section = html[found.end() :]
    assert section.index("The king") < section.index("De schijf")  # dam.md, schijf.md


def test_one_search_index_per_language(tiny_site: Site) -> None:
    root = json.loads(read(tiny_site.site, "search/search_index.json"))
    english = json.loads(read(tiny_site.site, "en/search/search_index.json"))
    assert root["config"]["lang"] == ["nl"] and english["config"]["lang"] == ["en"]
    assert all(not d["location"].startswith("en/") for d in root["docs"])
    assert {d["location"].split("/")[0] for d in english["docs"]} >= {"", "regels"}
    text = re.sub(r"<[^>]+>", " ", " ".join(d["text"] for d in root["docs"]))
    # split as lunr.js does with the site's separator, then trim as its trimmer does
    words = re.split(root["config"]["separator"], text.lower())
    tokens = {re.sub(r"^\W+|\W+$", "", word) for word in words}
    assert "32-28" in tokens and "27-31" in tokens and "meerslag" in tokens
    assert "Wit: 20 schijven" not in text  # the boards' descriptions are not indexed
    # English pages look for their index under /en/
    page = read(tiny_site.site, "en/index.html")
    found = re.search(r'<script id="__config" type="application/json">(.*?)</script>', page)
    assert found is not None
    config = json.loads(found.group(1))
    assert config["base"] == "../en/"


def test_material_speaks_no_sitemap_less_alternates(tiny_site: Site) -> None:
    html = read(tiny_site.site, "index.html")
    assert '<link rel="alternate"' not in html
    assert 'class="md-select__link"' in html  # the language menu is still there
    assert (tiny_site.site / "sitemap.xml.gz").is_file()


def test_rebuild_is_byte_identical_and_uses_the_cache(tiny_site: Site, tmp_path: Path) -> None:
    cache = tiny_site.root / ".cache" / "rulebook" / "diagrams"
    entries = sorted(p.name for p in cache.iterdir())
    assert len(entries) == 4  # nl: start, player, rule page player; en: player
    again = tmp_path / "again"
    result = mkdocs_build(tiny_site.root, again, SITE_URL="https://dammen.example/")
    assert result.returncode == 0, result.stderr
    compared = filecmp.dircmp(tiny_site.site, again)
    differing: list[str] = []

    def walk(node: filecmp.dircmp[str], prefix: str) -> None:
        _, mismatch, errors = filecmp.cmpfiles(
            node.left, node.right, node.common_files, shallow=False
        )
        differing.extend(prefix + name for name in mismatch + errors)
        differing.extend(prefix + name for name in node.left_only + node.right_only)
        for name, sub in node.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(compared, "")
    assert differing == []
    assert sorted(p.name for p in cache.iterdir()) == entries


def test_cache_off_gives_the_same_pages(tiny_site: Site, tmp_path: Path) -> None:
    root = tmp_path / "nocache"
    shutil.copytree(tiny_site.root / "docs", root / "docs")
    config = read(tiny_site.root, "mkdocs.yml").replace(
        "  - rulebook\n", "  - rulebook:\n      cache: false\n"
    )
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    epoch = str(int((tiny_site.root / "docs").stat().st_mtime))
    result = mkdocs_build(root, root / "site", SOURCE_DATE_EPOCH=epoch)
    assert result.returncode == 0, result.stderr
    assert not (root / ".cache" / "rulebook" / "diagrams").exists()
    assert read(root / "site", "index.html").count("rb-board") == read(
        tiny_site.site, "index.html"
    ).count("rb-board")


def test_bad_diagram_and_broken_link_fail_with_file_and_line(tmp_path: Path) -> None:
    # front matter moves the Markdown down: lines must still be the file's lines
    broken = "---\ntitle: Kapot\n---\n\n" + NL_INDEX.replace(
        "moves: 32x12 27-31", "moves: 32x12 27-22"
    ).replace("schijf.md#art-1", "schijf.md#art-9")
    # a Dutch page that English falls back to: built twice, reported once
    rule = NL_RULE.replace("moves: 32-28", "moves: 32-29")
    root = write_site(tmp_path / "bad", nl_index=broken, nl_rule=rule)
    result = mkdocs_build(root, root / "site")
    assert result.returncode != 0
    line = broken.splitlines().index("moves: 32x12 27-22") + 1
    assert f"docs/nl/index.md:{line}:14: illegal move 27-22" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("illegal move 32-29") == 1
    assert "docs/nl/regels/schijf.md:9:8: illegal move 32-29" in result.stderr
    cli = subprocess.run(
        [sys.executable, "-m", "rulebook_build.cli", "build", "--out", str(tmp_path / "out")],
        cwd=root,
        capture_output=True,
        text=True,
        env=environment(),
        check=False,
        timeout=120,
    )
    assert cli.returncode == 1
    lines = cli.stderr.splitlines()
    assert any(x.startswith(f"docs/nl/index.md:{line}:14: illegal move 27-22") for x in lines)
    assert (
        "docs/nl/index.md:7: Doc file 'nl/index.md' contains a link 'regels/schijf.md#art-9'"
        in cli.stderr
    )
    assert "Traceback" not in cli.stderr
    assert not (tmp_path / "out").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out-")]
