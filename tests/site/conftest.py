"""A tiny two-language site made by the tests, built with the real ``mkdocs build --strict``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulebook_build.cachedir import exclusive
from tests.conftest import CHROMIUM

REPOSITORY = Path(__file__).resolve().parents[2]

MKDOCS_YML = """\
site_name: Testregels
docs_dir: docs
site_url: !ENV [SITE_URL, null]
theme:
  name: material
  language: nl
  font: false
markdown_extensions:
  - admonition
  - attr_list
  - toc
validation:
  omitted_files: warn
  absolute_links: warn
  unrecognized_links: warn
  anchors: warn
plugins:
  - search:
      separator: '[\\s\\u200b,;:!?()\\[\\]"]+'
  - i18n:
      docs_structure: folder
      languages:
        - {locale: nl, name: Nederlands, default: true, build: true}
        - {locale: en, name: English, build: true}
  - rulebook
"""

NL_INDEX = """\
# Testregels

Slaan is verplicht; de meerslag gaat voor. Zie [de schijf](regels/schijf.md#art-1).

```draughts
position: start
numbers: yes
caption: Afb. 1 — Beginstand
```

## Meerslag {#meerslag}

Wit slaat twee schijven met 32x12; daarna speelt zwart 27-31.

```draughts
position: W:W32:B18,27,28
numbers: yes
moves: 32x12 27-31
caption: Afb. 2 — Meerslag gaat voor
```
"""

NL_RULE = """\
# De schijf

## Artikel 1 {#art-1}

Een schijf gaat schuin vooruit, bijvoorbeeld 32-28.

```draughts
position: start
moves: 32-28
```
"""

EN_INDEX = """\
# Test rules

Capturing is compulsory; the majority capture comes first (*meerslag*).

```draughts
position: W:W32:B18,27,28
moves: 32x12
caption: Fig. 2 — Majority capture
```
"""


EN_RULE = """\
# The king

A king moves along a line, over any number of empty squares.
"""


@dataclass(frozen=True)
class Site:
    root: Path
    site: Path
    result: subprocess.CompletedProcess[str]


def write_site(root: Path, *, nl_index: str = NL_INDEX, nl_rule: str = NL_RULE) -> Path:
    (root / "docs" / "nl" / "regels").mkdir(parents=True)
    (root / "docs" / "en" / "regels").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    (root / "docs" / "nl" / "index.md").write_text(nl_index, encoding="utf-8")
    (root / "docs" / "nl" / "regels" / "schijf.md").write_text(nl_rule, encoding="utf-8")
    (root / "docs" / "en" / "index.md").write_text(EN_INDEX, encoding="utf-8")
    (root / "docs" / "en" / "regels" / "dam.md").write_text(EN_RULE, encoding="utf-8")
    return root


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SOURCE_DATE_EPOCH", "SITE_URL")}
    env.update(extra)
    return env


def mkdocs_build(root: Path, site: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=root,
        capture_output=True,
        text=True,
        env=environment(**env),
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="session")
def tiny_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    root = write_site(tmp_path_factory.mktemp("tiny"))
    site = root / "site"
    result = mkdocs_build(root, site, SITE_URL="https://dammen.example/")
    return Site(root, site, result)


def rulebook_build(root: Path, out: Path) -> Site:
    """``rulebook build --no-pdf --out`` on the project at ``root`` (the PDFs, which
    ``rulebook build`` makes by default where WeasyPrint can print, have tests of their own in
    ``test_pdf.py`` and would add a minute to every run's shared site)."""
    result = subprocess.run(
        [sys.executable, "-m", "rulebook_build.cli", "build", "--no-pdf", "--out", str(out)],
        cwd=root,
        capture_output=True,
        text=True,
        env=environment(),
        check=False,
        timeout=300,
    )
    return Site(root, out, result)


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Site:
    """The project's own docs, built by ``rulebook build --out``: once for the whole run, in
    the temporary folder that pytest-xdist's test processes share (the first one to need it
    builds it, under a lock, and the others read what it left; some 25 s of processor time,
    most of it the search index of 475 pages).  The tests only read it."""
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    out = shared / "real-site" / "site"
    record = shared / "real-site" / "result.json"
    with exclusive(shared / "real-site"):
        if not record.is_file():
            record.parent.mkdir(parents=True, exist_ok=True)
            built = rulebook_build(REPOSITORY, out)
            result = built.result
            fields = [result.args, result.returncode, result.stdout, result.stderr]
            record.write_text(json.dumps(fields), encoding="utf-8")
    command, returncode, stdout, stderr = json.loads(record.read_text(encoding="utf-8"))
    return Site(REPOSITORY, out, subprocess.CompletedProcess(command, returncode, stdout, stderr))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "site_build: builds the project's real site (a few seconds; runs by default)"
    )
    config.addinivalue_line("markers", "browser: drives Debian's Chromium through Playwright")


ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright (never Playwright's own browser downloads)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()
