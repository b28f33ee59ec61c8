"""The README and the guides: every relative link leads to a file (and heading) that exists,
and the README stays an introduction.

Each document is rendered with Python-Markdown (tables and fenced code, as GitHub shows them),
so a link inside code is not a link, and every ``href`` and ``src`` of the result is followed.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import markdown
import pytest

from rulebook_build.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted(
    [
        *(ROOT / name for name in ("README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md")),
        *(ROOT / "guides").glob("*.md"),
        ROOT / "benchmarks" / "README.md",
    ]
)
GUIDES = ("composers", "contests", "webmasters", "operators", "reference", "design")


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.targets += [value for name, value in attrs if name in ("href", "src") and value]


def links(path: Path) -> list[str]:
    html = markdown.markdown(path.read_text(encoding="utf-8"), extensions=["tables", "fenced_code"])
    parser = _Links()
    parser.feed(html)
    return parser.targets


def heading_slugs(path: Path) -> set[str]:
    """The anchors GitHub gives a document's headings: lower case, punctuation dropped,
    spaces made hyphens."""
    slugs: set[str] = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (found := re.match(r"#{1,6}\s+(.*)", line)):
            text = re.sub(r"[`*]", "", found.group(1)).strip().lower()
            slugs.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return slugs


def broken(path: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the relative links of the document at ``path`` in ``root``."""
    wrong: list[str] = []
    for target in links(path):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc:
            continue  # a web address: not checked here (no network in the tests)
        file = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        if not file.exists():
            wrong.append(f"{path.relative_to(root)}: {target}: no such file")
        elif not file.is_relative_to(root):
            wrong.append(f"{path.relative_to(root)}: {target}: outside the repository")
        elif parts.fragment and file.suffix == ".md" and parts.fragment not in heading_slugs(file):
            wrong.append(f"{path.relative_to(root)}: {target}: no such heading")
    return wrong


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_lead_somewhere(path: Path) -> None:
    assert path.is_file()
    assert broken(path) == []


def test_a_broken_link_is_reported(tmp_path: Path) -> None:
    """The check itself, on a document beside a real one."""
    (tmp_path / "there.md").write_text("# A heading\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md) [ok](there.md#a-heading) [web](https://example.org/x)\n"
        "[gone](missing.md) [no anchor](there.md#elsewhere) `[in code](nowhere.md)`\n",
        encoding="utf-8",
    )
    assert broken(page, tmp_path) == [
        "page.md: missing.md: no such file",
        "page.md: there.md#elsewhere: no such heading",
    ]


def test_the_readme_is_an_introduction_that_links_every_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    targets = set(links(ROOT / "README.md"))
    for guide in GUIDES:
        assert f"guides/{guide}.md" in targets
    for document in ("CONTRIBUTING.md", "CHANGELOG.md", "benchmarks/README.md"):
        assert document in targets


@pytest.mark.parametrize(
    "path",
    [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "guides").glob("*.md"))],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_no_dated_history_outside_the_changelog(path: Path) -> None:
    """Dates and 'until' stories belong in CHANGELOG.md and benchmarks/README.md."""
    text = path.read_text(encoding="utf-8")
    month = (
        "(January|February|March|April|May|June|July|August|September|October|November|December)"
    )
    dated = re.findall(rf"\b20\d\d-\d\d-\d\d\b|\b\d{{1,2}} {month}\b|\bstop \d+\b", text)
    assert dated == []


def test_the_readme_lists_every_command() -> None:
    """The README's table of commands is the command's own list (``cli.COMMANDS``)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `rulebook (\w+)` \|", readme, flags=re.MULTILINE)
    assert listed == list(COMMANDS)


def test_the_readme_starts_with_two_commands() -> None:
    """The quick start: one command builds the site, one runs the tests (CI runs the second)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quick start\n\n```sh\n(.*?)```", readme, flags=re.DOTALL)
    assert block is not None
    assert block.group(1).splitlines() == ["bash scripts/site.sh", "bash scripts/test.sh"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == "bash scripts/test.sh"
