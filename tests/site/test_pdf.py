"""``rulebook build --pdf``: a PDF per rulebook and language, linked from its page.

A small project in three languages is built once with ``--pdf`` (a few seconds): a rulebook
translated into English and Frisian with two diagrams, a rulebook only in Dutch (the other
languages show the Dutch page, and link the Dutch PDF), and a page that is no rulebook. The
PDFs are read with pypdf: their text, bookmarks, named destinations, links and drawing
operators. Without WeasyPrint or Pango these tests skip, except under CI, where they fail
(``scripts/test.sh`` installs both).
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from contextlib import redirect_stderr
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulebook_build.cli import main
from rulebook_build.errors import SiteError
from rulebook_build.site import pdf

from .conftest import MKDOCS_YML, REPOSITORY, Site, environment

try:
    import pypdf
except ImportError:  # the test extra pins it; under CI its absence fails the run
    if os.environ.get("CI"):
        raise
    pytest.skip("pypdf is not installed (pip install -e '.[test]')", allow_module_level=True)

MKDOCS_3 = MKDOCS_YML.replace(
    "        - {locale: en, name: English, build: true}\n",
    "        - {locale: en, name: English, build: true, site_name: Test rules}\n"
    "        - {locale: fy, name: Frysk, build: true, site_name: Testregels FY}\n",
)

TITLE_NL = "Zetten < slagen & dammen"
EDITION_NL = '<b>per 2 juni 2018</b> & "later"'
SOURCE_NL = "Testbond </dd><dt>vals"

RULEBOOK_NL = f"""\
---
rulebook:
  edition: '{EDITION_NL}'
  source: '{SOURCE_NL}'
---

# Zetten &lt; slagen &amp; dammen

- [Artikel 1](#art-1)

## Artikel 1: De spelers {{#art-1}}

Het spel wordt gespeeld door twee spelers.

### 1.1 {{#art-1-1}}

Wit begint.

## Artikel 2: Het dambord {{#art-2}}

Zie [artikel 1](#art-1), [de dam](dam.md#art-1) en [de site](https://example.org/).

```draughts
position: start
numbers: yes
caption: Afb. 1 — Beginstand
```

## Artikel 3: Slaan {{#art-3}}

```draughts
position: W:W32:B18,27,28
moves: 32x12
caption: Afb. 2 — Meerslag
```
"""

RULEBOOK_EN = """\
---
rulebook:
  edition: as of 2 June 2018
  source: Test federation
---

# Moves & captures

!!! note "Translation"
    This is a translation. In case of doubt the Dutch text prevails.

## Article 1: The players {#art-1}

The game is played by two players.

### 1.1 {#art-1-1}

White begins.

## Article 2: The draughtboard {#art-2}

```draughts
position: start
numbers: yes
caption: Fig. 1 — Starting position
```

## Article 3: Capturing {#art-3}

```draughts
position: W:W32:B18,27,28
moves: 32x12
caption: Fig. 2 — Majority capture
```
"""

RULEBOOK_FY = """\
---
rulebook:
  edition: per 2 juny 2018
  source: Testbûn
---

# Setten en slaan

!!! note "Oersetting"
    Dit is in oersetting. By twifel jildt de Nederlânske tekst.

## Kêst 1: De spilers {#art-1}

It spul wurdt spile troch twa spilers.

### 1.1 {#art-1-1}

Wyt begjint.

## Kêst 2: It damboerd {#art-2}

```draughts
position: start
numbers: yes
caption: Ôfb. 1 — Begjinstân
```

## Kêst 3: Slaan {#art-3}

```draughts
position: W:W32:B18,27,28
moves: 32x12
caption: Ôfb. 2 — Mearslach
```
"""

DAM_NL = """\
---
rulebook:
  edition: mei 2020
  source: Testbond
---

# De dam

## Artikel 1: De dam {#art-1}

Een dam gaat over de lijn.
"""

OVER_NL = """\
# Over deze site

Geen reglement: zonder PDF.
"""

HOME = "# Testregels\n\n[Regels](regels/spel.md), [dam](regels/dam.md), [over](regels/over.md)\n"

SITE_URL = "https://dammen.example/"

PDFS = {
    "nl": "regels/spel/spel-nl.pdf",
    "en": "en/regels/spel/spel-en.pdf",
    "fy": "fy/regels/spel/spel-fy.pdf",
}
PAGES = {
    "nl": "regels/spel/index.html",
    "en": "en/regels/spel/index.html",
    "fy": "fy/regels/spel/index.html",
}


@dataclass(frozen=True)
class Printed:
    site: Path
    result: subprocess.CompletedProcess[str]

    def read(self, lang: str) -> Any:
        return pypdf.PdfReader(self.site / PDFS[lang])

    def html(self, path: str) -> str:
        return (self.site / path).read_text(encoding="utf-8")


def write_project(root: Path) -> Path:
    files = {
        "mkdocs.yml": MKDOCS_3,
        "docs/nl/index.md": HOME,
        "docs/nl/regels/spel.md": RULEBOOK_NL,
        "docs/nl/regels/dam.md": DAM_NL,
        "docs/nl/regels/over.md": OVER_NL,
        "docs/en/index.md": HOME,
        "docs/en/regels/spel.md": RULEBOOK_EN,
        "docs/fy/index.md": HOME,
        "docs/fy/regels/spel.md": RULEBOOK_FY,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def require_weasyprint() -> None:
    missing = pdf.unavailable()
    if missing is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI: the PDF tests cannot run: {missing}")
    pytest.skip(missing)


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Printed:
    require_weasyprint()
    root = write_project(tmp_path_factory.mktemp("pdf"))
    site = root / "out"
    result = subprocess.run(
        [sys.executable, "-m", "rulebook_build.cli", "build", "--pdf", "--out", str(site)],
        cwd=root,
        capture_output=True,
        text=True,
        env=environment(SITE_URL=SITE_URL, SOURCE_DATE_EPOCH="1700000000"),
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return Printed(site, result)


def headings(html: str) -> list[tuple[str, str]]:
    """The ``id`` and text of each h2-h6 of a built page's article."""
    article = html[html.index("<article") : html.index("</article>")]
    found = []
    for match in re.finditer(r'<h([2-6]) id="([^"]+)">(.*?)</h\1>', article, re.DOTALL):
        text = re.sub(r'<a class="headerlink".*?</a>', "", match.group(3))
        found.append((match.group(2), re.sub(r"<[^>]+>", "", text).strip()))
    return found


def outline_titles(reader: Any) -> list[str]:
    titles: list[str] = []

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(str(item.title))

    walk(reader.outline)
    return titles


def text_of(reader: Any) -> str:
    return "\n".join(page.extract_text() for page in reader.pages)


def destination_page(reader: Any, name: str) -> int:
    """The page (from 1) a named destination (an element's ``id``) points at."""
    return int(reader.get_destination_page_number(reader.named_destinations[name])) + 1


def forms(reader: Any) -> list[Any]:
    """Every form XObject of the document's pages."""
    found = []
    for page in reader.pages:
        for form in page.get("/Resources", {}).get("/XObject", {}).values():
            if form.get_object().get("/Subtype") == "/Form":
                found.append(form.get_object())
    return found


def operations(reader: Any, page: Any) -> list[tuple[list[Any], bytes]]:
    """The drawing operations of a page, and of the forms it draws."""
    found: list[tuple[list[Any], bytes]] = []
    contents = page.get_contents()
    if contents is not None:
        found += pypdf.generic.ContentStream(contents, reader).operations
    for form in page.get("/Resources", {}).get("/XObject", {}).values():
        if form.get_object().get("/Subtype") == "/Form":
            found += pypdf.generic.ContentStream(form.get_object(), reader).operations
    return found


def placed_text(page: Any) -> list[tuple[str, float, float]]:
    """Each piece of a page's text with where it begins (points from the left and the bottom)."""
    found: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: object) -> None:
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((text.strip(), x, y))

    page.extract_text(visitor_text=visit)
    return found


def number_positions(page: Any) -> dict[str, float]:
    """Where on the page (points from the left) each number of a page's text begins."""
    found: dict[str, float] = {}
    for text, x, _y in placed_text(page):
        if text.isdigit():
            found.setdefault(text, x)
    return found


def curves(reader: Any, page: Any) -> int:
    """The Bézier curves a page draws (a piece is two circles of four)."""
    return sum(operator == b"c" for _operands, operator in operations(reader, page))


# ---------------------------------------------------------------------------- the build


def test_one_pdf_per_rulebook_and_language(printed: Printed) -> None:
    made = {p.relative_to(printed.site).as_posix() for p in printed.site.rglob("*.pdf")}
    # the Dutch-only rulebook has one PDF, in Dutch; the page that is no rulebook none
    assert made == {*PDFS.values(), "regels/dam/dam-nl.pdf"}
    for path in made:
        assert (printed.site / path).read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("lang", ["nl", "en", "fy"])
def test_every_article_is_text_a_bookmark_and_a_destination(printed: Printed, lang: str) -> None:
    found = headings(printed.html(PAGES[lang]))
    assert len(found) == 4, found  # three articles and a sub-article
    reader = printed.read(lang)
    text = text_of(reader)
    bookmarks = outline_titles(reader)
    for ident, title in found:
        assert title in text, title
        assert title in bookmarks, (title, bookmarks)
        assert ident in reader.named_destinations, ident
    # the articles nest: 1.1 is a bookmark under article 1
    assert [len(item) if isinstance(item, list) else 0 for item in reader.outline].count(1) == 1


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("nl", [TITLE_NL, "Uitgave", EDITION_NL, "Bron", SOURCE_NL, "Versie van", "2023-11-14"]),
        ("en", ["Moves & captures", "Edition", "as of 2 June 2018", "Source", "Test federation"]),
        ("fy", ["Setten en slaan", "Útjefte", "per 2 juny 2018", "Boarne", "Testbûn"]),
    ],
)
def test_the_title_page(printed: Printed, lang: str, words: list[str]) -> None:
    reader = printed.read(lang)
    cover = reader.pages[0].extract_text()
    for word in words:
        assert word in cover, (word, cover)
    address = SITE_URL + PAGES[lang].removesuffix("index.html")
    assert address in cover
    notices = {
        "nl": None,
        "en": "This is a translation. In case of doubt the Dutch text prevails.",
        "fy": "Dit is in oersetting. By twifel jildt de Nederlânske tekst.",
    }
    notice = notices[lang]
    if notice is None:
        assert "Vertaling" not in cover and "translation" not in cover
    else:
        assert notice in cover
        # lifted from the article onto the title page: said once
        assert text_of(reader).count(notice) == 1
    assert reader.metadata.title == words[0]
    # tagged, in its language, for screen readers
    root = reader.trailer["/Root"]
    assert root["/Lang"] == lang and root["/MarkInfo"]["/Marked"] and "/StructTreeRoot" in root


@pytest.mark.parametrize(
    ("lang", "contents", "entries"),
    [
        ("nl", "Inhoud", ["Artikel 1: De spelers", "Artikel 2: Het dambord", "Artikel 3: Slaan"]),
        ("en", "Contents", ["Article 1: The players", "Article 2: The draughtboard"]),
        ("fy", "Ynhâld", ["Kêst 1: De spilers", "Kêst 2: It damboerd", "Kêst 3: Slaan"]),
    ],
)
def test_the_contents_give_each_article_its_page(
    printed: Printed, lang: str, contents: str, entries: list[str]
) -> None:
    reader = printed.read(lang)
    toc = reader.pages[1].extract_text()
    assert contents in toc
    pieces = placed_text(reader.pages[1])
    for number, title in enumerate(entries, start=1):
        line = [(x, text) for text, x, y in pieces if text.startswith(title)]
        assert len(line) == 1, (title, pieces)
        at = next(y for text, x, y in pieces if text.startswith(title))
        # the number on the same line, to its right
        numbers = [text for text, x, y in pieces if abs(y - at) < 1 and text.isdigit()]
        page = destination_page(reader, f"art-{number}")
        assert page >= 3
        assert numbers == [str(page)], (title, numbers, page)
    assert "1.1" not in toc  # a sub-article that is only a number: a bookmark, not a line
    # the contents are a bookmark too, and link to the articles
    assert outline_titles(reader)[0] == contents


@pytest.mark.parametrize(
    ("lang", "header", "footer"),
    [("nl", TITLE_NL, "Pagina 3 van"), ("en", "Moves & captures", "Page 3 of")],
)
def test_running_headers_and_page_numbers(
    printed: Printed, lang: str, header: str, footer: str
) -> None:
    reader = printed.read(lang)
    third = reader.pages[2].extract_text()
    assert header in third
    assert f"{footer} {len(reader.pages)}" in third
    assert footer.split()[0] not in reader.pages[0].extract_text()  # the title page has none


@pytest.mark.parametrize("lang", ["nl", "en", "fy"])
def test_diagrams_are_vector_drawings(printed: Printed, lang: str) -> None:
    reader = printed.read(lang)
    assert all(not page.images for page in reader.pages)  # nothing rasterised
    start = destination_page(reader, "diagram-1")
    page = reader.pages[start - 1]
    text = page.extract_text()
    # the numbered start position: its square numbers are text, its 40 men drawn as curves
    for square in ("21", "25", "26", "30"):
        assert re.search(rf"(?<!\d){square}(?!\d)", text), (square, text)
    assert curves(reader, page) >= 40 * 4
    assert curves(reader, reader.pages[0]) == 0
    # in the print palette (the dark squares' grey, site/pdf.py's board style), and without
    # the transparency groups of see-through or centred shapes, which printers flatten
    greys = {
        tuple(round(float(v), 3) for v in operands)
        for operands, op in operations(reader, page)
        if op == b"rg"
    }
    assert (0.769, 0.769, 0.769) in greys, greys
    assert not any("/Group" in form.get_object() for form in forms(reader))
    # each number centred on its square (set from its left end, moved by half its width)
    left = number_positions(page)
    assert 1.5 < left["5"] - left["15"] < 3.5, left  # one digit against two, one column
    assert abs(left["15"] - left["25"]) < 0.01
    # the player: its start and its end position, and the moves
    player = reader.pages[destination_page(reader, "diagram-2") - 1]
    assert "32x12" in player.extract_text()


def test_links_in_the_pdf_are_public_addresses_or_inside_it(printed: Printed) -> None:
    reader = printed.read("nl")
    uris = []
    for page in reader.pages:
        for annotation in page.get("/Annots", []) or []:
            action = annotation.get_object().get("/A", {})
            if "/URI" in action:
                uris.append(str(action["/URI"]))
    assert f"{SITE_URL}regels/dam/#art-1" in uris
    assert "https://example.org/" in uris
    assert all(uri.startswith("https://") for uri in uris), uris  # no file: or relative one


# ---------------------------------------------------------------------------- the pages


@pytest.mark.parametrize(
    ("path", "href", "label", "hreflang"),
    [
        ("regels/spel/index.html", "spel-nl.pdf", "Download als PDF (A4)", None),
        ("en/regels/spel/index.html", "spel-en.pdf", "Download as PDF (A4)", None),
        ("fy/regels/spel/index.html", "spel-fy.pdf", "Downloade as PDF (A4)", None),
        ("regels/dam/index.html", "dam-nl.pdf", "Download als PDF (A4)", None),
        (
            "en/regels/dam/index.html",
            "../../../regels/dam/dam-nl.pdf",
            "Download the Dutch text as PDF (A4)",
            "nl",
        ),
        (
            "fy/regels/dam/index.html",
            "../../../regels/dam/dam-nl.pdf",
            "Downloade de Nederlânske tekst as PDF (A4)",
            "nl",
        ),
    ],
)
def test_each_rulebook_page_links_its_pdf_under_its_title(
    printed: Printed, path: str, href: str, label: str, hreflang: str | None
) -> None:
    html = printed.html(path)
    title_end = html.index("</h1>")
    link = re.search(r'<p class="rb-pdf-link"[^>]*>(<a [^>]*>)(.*?)</a></p>', html)
    assert link is not None
    assert link.start() - title_end < 20  # right under the title
    assert link.group(2) == label
    attributes = dict(re.findall(r'(\w+)="([^"]*)"', link.group(1)))
    assert attributes["href"] == href
    assert attributes["type"] == "application/pdf"
    assert attributes["download"] == href.rsplit("/", 1)[-1]
    assert attributes.get("hreflang") == hreflang
    assert (printed.site / path).parent.joinpath(href).resolve().is_file()


def test_a_page_that_is_no_rulebook_links_no_pdf(printed: Printed) -> None:
    for path in ("regels/over/index.html", "index.html", "en/index.html"):
        assert "rb-pdf-link" not in printed.html(path)
        assert ".pdf" not in printed.html(path)


def test_every_pdf_link_of_the_site_resolves(printed: Printed) -> None:
    for page in printed.site.rglob("*.html"):
        for href in re.findall(r'href="([^"]+\.pdf)"', page.read_text(encoding="utf-8")):
            assert (page.parent / href).resolve().is_file(), (page, href)


# ---------------------------------------------------------------------------- outside text


def test_outside_text_on_the_title_page_stays_text(printed: Printed) -> None:
    """The front matter's edition and source are text: their tags show as written and make no
    element (the source's ``</dd><dt>`` would have made a fact of its own)."""
    reader = printed.read("nl")
    cover = reader.pages[0].extract_text()
    assert EDITION_NL in cover and SOURCE_NL in cover
    assert "vals" not in cover.replace(SOURCE_NL, "")
    assert TITLE_NL in outline_titles(reader) or reader.metadata.title == TITLE_NL


def test_the_print_document_escapes_what_it_is_given() -> None:
    article = pdf.prepare_article(
        '<h1 id="t">A &lt; B &amp; C</h1>\n<h2 id="art-1">Art. 1 &lt;i&gt;</h2><p>x</p>',
        page_url="regels/x/",
        site_url=None,
        lift_notice=False,
    )
    page = pdf.PrintPage(
        lang="nl",
        rulebook=pdf.Rulebook(edition=EDITION_NL, source=SOURCE_NL),
        article=article,
        site_name="<script>",
        address="",
        made="2024-01-01",
        source="x.md",
        uri="regels/x/x-nl.pdf",
        page_dir="regels/x",
    )
    document = pdf.print_html(page)
    assert "&lt;b&gt;per 2 juni 2018&lt;/b&gt; &amp; &#34;later&#34;" in document
    assert "Testbond &lt;/dd&gt;&lt;dt&gt;vals" in document
    assert "<script>" not in document and "&lt;script&gt;" in document
    assert "<title>A &lt; B &amp; C</title>" in document
    assert '<a href="#art-1">Art. 1 &lt;i&gt;</a>' in document  # the contents' line: text


def test_links_to_other_pages_without_a_public_address_stay_text() -> None:
    content = (
        '<h1 id="t">T</h1><p><a href="#art-1">a</a> <a href="../dam/#art-2">b</a> '
        '<a href="../x/#art-3">c</a> <a href="https://example.org/">d</a></p>'
    )
    local = pdf.prepare_article(content, page_url="regels/x/", site_url=None, lift_notice=False)
    assert '<a href="#art-1">a</a> <a>b</a> <a href="#art-3">c</a>' in local.body
    public = pdf.prepare_article(
        content, page_url="regels/x/", site_url="https://d.example/sub/", lift_notice=False
    )
    assert '<a href="https://d.example/sub/regels/dam/#art-2">b</a>' in public.body
    assert '<a href="https://example.org/">d</a>' in public.body


# ---------------------------------------------------------------------------- switched off


def test_pdf_without_weasyprint_exits_2_and_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint: ImportError
    config = write_project(tmp_path) / "mkdocs.yml"
    errors = io.StringIO()
    with redirect_stderr(errors):
        code = main(["build", "--pdf", "--config", str(config), "--out", str(tmp_path / "site")])
    said = errors.getvalue()
    assert code == 2, said
    assert "WeasyPrint" in said and "pip install -e '.[pdf]'" in said
    assert "apt-get install libpango-1.0-0" in said
    assert "Traceback" not in said
    assert not (tmp_path / "site").exists()


def test_a_missing_pango_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoPango:
        def find_spec(self, name: str, *args: object) -> None:
            if name == "weasyprint":
                raise OSError("cannot load library 'libpango-1.0-0'")

    monkeypatch.delitem(sys.modules, "weasyprint", raising=False)
    monkeypatch.setattr(sys, "meta_path", [NoPango(), *sys.meta_path])
    missing = pdf.unavailable()
    assert missing is not None and "Pango" in missing and "libpango-1.0-0" in missing


def test_the_site_built_without_pdf_links_none(real_site: Site) -> None:
    assert real_site.result.returncode == 0, real_site.result.stderr
    assert not list(real_site.site.rglob("*.pdf"))
    for page in (real_site.site / "regels").rglob("index.html"):
        assert "rb-pdf-link" not in page.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- the sources


def test_every_rulebook_page_says_what_it_is_in_every_language() -> None:
    """The Dutch rulebooks and each of their translations carry the front matter that makes
    their PDF; the comparison, generated from the engine, is no rulebook."""
    docs = REPOSITORY / "docs"
    rulebooks = {"kndb-2009", "kndb-2018", "fries-spel", "dampromotie"}
    rulebooks |= {"dampromotie-voorbeelden", "speldoos"}
    for page in sorted(docs.glob("*/regels/*.md")):
        text = page.read_text(encoding="utf-8")
        meta = {}
        if text.startswith("---\n"):
            meta = yaml.safe_load(text.split("---\n", 2)[1])
        facts = pdf.rulebook_of(meta, str(page))
        assert (facts is not None) == (page.stem in rulebooks), page


@pytest.mark.parametrize(
    "entry",
    [
        "a text",
        {"edition": "x"},
        {"edition": "", "source": "y"},
        {"edition": "x", "source": "y", "z": 1},
    ],
)
def test_bad_front_matter_is_refused(entry: object) -> None:
    with pytest.raises(SiteError, match="front matter"):
        pdf.rulebook_of({"rulebook": entry}, "docs/nl/regels/x.md")


def test_weasyprint_reads_only_the_built_site(tmp_path: Path) -> None:
    """An image of the page's folder is read; a file outside the site and an address on the
    network are not, and each refusal is a complaint (a warning, which fails the build)."""
    require_weasyprint()
    site = tmp_path / "site"
    (site / "regels" / "x").mkdir(parents=True)
    drawing = '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9"/></svg>'
    for path in (tmp_path / "secret.svg", tmp_path / "other.svg", site / "regels/x/here.svg"):
        path.write_text(drawing, encoding="utf-8")
    secret = tmp_path / "secret.svg"
    body = (
        '<h2 id="art-1">Art. 1</h2><p><img src="here.svg" alt="here">'
        f'<img src="{secret.as_uri()}" alt="outside"><img src="../../../other.svg" alt="up">'
        '<img src="https://example.org/x.svg" alt="network"></p>'
    )
    article = pdf.prepare_article(
        f'<h1 id="x">X</h1>{body}', page_url="regels/x/", site_url=None, lift_notice=False
    )
    page = pdf.PrintPage(
        lang="nl",
        rulebook=pdf.Rulebook("e", "s"),
        article=article,
        site_name="s",
        address="",
        made="2024-01-01",
        source="x.md",
        uri="regels/x/x-nl.pdf",
        page_dir="regels/x",
    )
    pages, complaints = pdf.write_pdf(page, site)
    assert pages == 3 and (site / "regels/x/x-nl.pdf").is_file()
    said = "\n".join(complaints)
    assert "secret.svg" in said and "other.svg" in said and "example.org" in said, said
    assert "here.svg" not in said, said
    assert len(complaints) == 3, complaints


def test_a_page_weasyprint_cannot_print_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def fails(page: pdf.PrintPage, site_dir: Path) -> tuple[int, list[str]]:
        raise RuntimeError("no room on the page")

    monkeypatch.setattr(pdf, "write_pdf", fails)
    article = pdf.prepare_article("<h1>X</h1>", page_url="x/", site_url=None, lift_notice=False)
    page = pdf.PrintPage(
        lang="nl",
        rulebook=pdf.Rulebook("e", "s"),
        article=article,
        site_name="s",
        address="",
        made="2024-01-01",
        source="docs/nl/regels/x.md",
        uri="x/x-nl.pdf",
        page_dir="x",
    )
    with pytest.raises(pdf.PdfError) as raised:
        pdf.write_pdfs([page], tmp_path, jobs=1)
    assert raised.value.message == (
        "docs/nl/regels/x.md: its PDF was not made: no room on the page"
    )


def test_the_machine_notice_is_no_complaint_about_a_page() -> None:
    """WeasyPrint's notice that the machine lacks HarfBuzz's subsetter comes for every font of
    every page of a machine without it, and the PDF is right all the same: it is not taken for
    a complaint (which would stop the strict build); a real warning still is."""
    import logging

    records: list[logging.LogRecord] = []
    logger = logging.getLogger("weasyprint")
    with pdf._collected(records):
        logger.warning(
            'Using fontTools instead of HarfBuzz-Subset for font "DejaVu Serif". This will be '
            "unsupported in future versions of WeasyPrint."
        )
        logger.warning("Ignored `colour: red` at 3:1, unknown property.")
    assert [record.getMessage() for record in records] == [
        "Ignored `colour: red` at 3:1, unknown property."
    ]
