"""A PDF per rulebook and language, printed by WeasyPrint from the page's own article.

A page is a rulebook when its front matter names what it is::

    ---
    rulebook:
      edition: per 2 juni 2018
      source: Koninklijke Nederlandse Dambond (KNDB)
    ---

The plugin keeps the HTML of each such page as MkDocs made it from the Markdown (the
article, diagrams included), and after the site is written prints it through
``templates/print.html`` and ``templates/print.css``: a title page with the edition, the source
and the translation notice, a table of contents with page numbers (``target-counter()``), the
article with a bookmark per heading (``bookmark-level``) and every ``id`` as a named
destination, running headers (``string-set``) and page numbers.  The diagrams stay inline SVG,
so WeasyPrint draws them as vector paths, in the grey print palette of :mod:`render.style`.

WeasyPrint and Pango are optional (the ``pdf`` extra and the system's Pango): only
:func:`write_pdf` imports WeasyPrint, and :func:`unavailable` says what is missing.

The article is the project's own text (the pages of ``docs/``), made into HTML by Markdown; the
front matter's ``edition`` and ``source`` and the headings of the table of contents are text,
escaped by the template.  WeasyPrint fetches nothing but files inside the built site
(:class:`_SiteFetcher`): a page cannot make the build read another file or the network.
"""

from __future__ import annotations

import html
import io
import logging
import os
import posixpath
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Final
from urllib.parse import urljoin, urlsplit

import jinja2
import markupsafe

from rulebook_build.errors import SiteError
from rulebook_build.render import NUMBER_FONT, PRINT, standalone_style
from rulebook_build.site.templating import TEMPLATES
from rulebook_build.words import LANGUAGES, Message, define
from rulebook_build.words import text as said

__all__ = [
    "PDF_WORDS",
    "PdfError",
    "PrintPage",
    "Rulebook",
    "link_html",
    "pdf_uri",
    "prepare_article",
    "print_html",
    "rulebook_of",
    "unavailable",
    "write_pdf",
    "write_pdfs",
]

_PDF_WORDS_IDS: Final[dict[str, str]] = {
    "download": define("pdf.download", "Download as PDF (A4)"),
    "download_dutch": define("pdf.download_dutch", "Download the Dutch text as PDF (A4)"),
    "contents": define("pdf.contents", "Contents"),
    "edition": define("pdf.edition", "Edition"),
    "source": define("pdf.source", "Source"),
    "address": define("pdf.address", "On the website"),
    "version": define("pdf.version", "Version of"),
    "page": define("pdf.page", "Page"),
    "of": define("pdf.of", "of"),
}
PDF_WORDS: Final[dict[str, dict[str, str]]] = {
    lang: {key: said(message, lang) for key, message in _PDF_WORDS_IDS.items()}
    for lang in LANGUAGES
}
"""The words of the PDF link and of the PDF's own pages, per language, from the catalogs."""
"""The words of the PDF link and of the PDF's own pages, per language (English for one not
listed)."""

INSTALL: Final = (
    "pip install -e '.[pdf]' (WeasyPrint), and Pango: "
    "apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core"
)
"""What to install for PDFs, as the messages say it."""

TOC_LEVELS: Final = (2, 3)
"""The headings the table of contents lists: parts and articles (every heading is a
bookmark)."""

_NUMBER_ONLY: Final = re.compile(r"\d+(?:\.\d+)*\.?")
"""A sub-article's heading that is only its number (``2.1``): a bookmark, not a contents line."""


def unavailable() -> str | None:
    """Why PDFs cannot be made here (WeasyPrint or Pango missing), or ``None`` when they can."""
    try:
        # WeasyPrint prints its own notice when it finds no Pango: this message replaces it
        with redirect_stdout(io.StringIO()):
            import weasyprint  # noqa: F401
    except ImportError:
        return f"PDFs need WeasyPrint, which is not installed: {INSTALL}"
    except OSError as error:  # WeasyPrint found no Pango (or no library it needs)
        return f"PDFs need Pango, which WeasyPrint could not load ({error}): {INSTALL}"
    return None


# ---------------------------------------------------------------------------- what a page is


@dataclass(frozen=True, slots=True)
class Rulebook:
    """What the front matter says of a rulebook page."""

    edition: str
    source: str


# the faults of a page's front matter, said to whoever builds the site
define("pdf.rulebook_map", "front matter: 'rulebook' must map 'edition' and 'source'")
define("pdf.rulebook_needs", "front matter: 'rulebook' needs a text '{key}'")
define("pdf.rulebook_unknown", "front matter: 'rulebook' has unknown keys {keys}")


def rulebook_of(meta: Mapping[str, Any], where: str) -> Rulebook | None:
    """The ``rulebook`` entry of a page's front matter, or ``None`` on a page without one."""
    entry = meta.get("rulebook")
    if entry is None:
        return None
    if not isinstance(entry, Mapping):
        raise SiteError(Message.of("pdf.rulebook_map"), source=where)
    values: dict[str, str] = {}
    for key in ("edition", "source"):
        value = entry.get(key)
        if not isinstance(value, str | int) or not str(value).strip():
            raise SiteError(Message.of("pdf.rulebook_needs", key=key), source=where)
        values[key] = " ".join(str(value).split())
    unknown = sorted(set(entry) - {"edition", "source"})
    if unknown:
        raise SiteError(Message.of("pdf.rulebook_unknown", keys=str(unknown)), source=where)
    return Rulebook(values["edition"], values["source"])


def pdf_uri(dest_uri: str, src_uri: str, lang: str) -> str:
    """Where a page's PDF goes in the site: beside the page's ``index.html``, named after the
    page and the language (``regels/kndb-2018/index.html`` ->
    ``regels/kndb-2018/kndb-2018-nl.pdf``), so that a downloaded file says what it is."""
    stem = posixpath.splitext(posixpath.basename(src_uri))[0]
    return posixpath.join(posixpath.dirname(dest_uri), f"{stem}-{lang}.pdf")


_LINK_TEMPLATE: Final = jinja2.Environment(autoescape=True).from_string(
    '<p class="rb-pdf-link" data-search-exclude>'
    '<a href="{{ href }}" type="application/pdf" download="{{ name }}"'
    '{% if hreflang %} hreflang="{{ hreflang }}"{% endif %}>{{ label }}</a></p>'
)


def link_html(href: str, lang: str, *, dutch_text: bool = False) -> str:
    """The link to a PDF, in the page's language; ``dutch_text`` on a page shown in Dutch
    because it is not translated (the PDF is the Dutch one, and the link says so)."""
    words = PDF_WORDS.get(lang, PDF_WORDS["en"])
    label = words["download_dutch" if dutch_text else "download"]
    return _LINK_TEMPLATE.render(
        href=href,
        name=posixpath.basename(href),
        hreflang="nl" if dutch_text else "",
        label=label,
    )


# ---------------------------------------------------------------------------- the article


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    id: str
    text: str


@dataclass(frozen=True, slots=True)
class Article:
    """A page's article taken apart for print: the title (HTML, the ``h1``'s content), its
    ``id``, the translation notice that stood under it (HTML, or empty), the rest (HTML) and
    its headings."""

    title: str
    title_id: str
    notice: str
    body: str
    headings: tuple[Heading, ...]


_H1: Final = re.compile(r"<h1\b(?P<attributes>[^>]*)>(?P<title>.*?)</h1>\s*", re.DOTALL)
_ID: Final = re.compile(r'\bid="(?P<id>[^"]*)"')
_HEADERLINK: Final = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.DOTALL)
_NOTICE: Final = re.compile(r'<div class="admonition note">.*?</div>\s*', re.DOTALL)
_HREF: Final = re.compile(r'(?P<before><a\b[^>]*?)\s+href="(?P<href>[^"]*)"')
_BOARD: Final = re.compile(r'(<svg\b[^>]*\bclass="rb-board"[^>]*>)')
_NUMBERS: Final = re.compile(r'<g class="rb-numbers">.*?</g>', re.DOTALL)
_NUMBER: Final = re.compile(r'<text x="(?P<x>[\d.]+)" y="(?P<y>[\d.]+)">(?P<n>\d+)</text>')
DIGIT_WIDTH: Final = 0.696 * NUMBER_FONT
"""A digit of DejaVu Sans Bold (1425 of 2048 units an em), the font of the numbers in print."""


def prepare_article(
    content: str, *, page_url: str, site_url: str | None, lift_notice: bool
) -> Article:
    """The article of a page (``page.content``) made ready for print.

    - The permanent links (``¶``) of the headings go: they would be in every bookmark.
    - The ``h1`` becomes the title page's title, and with ``lift_notice`` an
      ``admonition note`` right under it (the translation notice) goes to the title page too.
    - A link to another page of the site is made absolute with ``site_url`` (its address in the
      PDF is the public one), or, without a public address, stays text; a link to the page
      itself becomes a link inside the PDF.
    - Each board gets the print palette as its own ``<style>``: WeasyPrint draws an inline SVG
      with the SVG's own styles, not the page's custom properties.
    """
    text = _HEADERLINK.sub("", content)
    title, title_id, notice = "", "", ""
    found = _H1.search(text)
    if found is not None:
        title = found["title"].strip()
        ident = _ID.search(found["attributes"])
        title_id = html.unescape(ident["id"]) if ident else ""
        text = text[: found.start()] + text[found.end() :]
        if lift_notice:
            after = _NOTICE.match(text, found.start())
            if after is not None:
                notice = after.group().strip()
                text = text[: after.start()] + text[after.end() :]
    text = _HREF.sub(lambda m: _rewrite_link(m, page_url, site_url), text)
    style = f"<style>{board_style()}</style>"
    text = _BOARD.sub(lambda m: m.group(1) + style, text)
    text = _NUMBERS.sub(_numbers_from_the_left, text)
    return Article(title, title_id, notice, text, tuple(_headings(text)))


def board_style() -> str:
    """The boards' style in the PDF: the print palette of the standalone SVG, with the see-through
    rings and last-move marks painted in the grey they show on paper, and the square numbers
    without their halo and set from their left end (:func:`_numbers_from_the_left`).
    WeasyPrint makes a transparency group of every shape drawn with an opacity and of every
    centred text: the rings and numbers made the PDFs many times as large, and transparency is
    what a printer's software flattens, and prints worst."""
    ring = _mix(PRINT.white_edge, PRINT.white_piece, 0.45)
    last = _mix(PRINT.last_move, PRINT.dark_square, 0.65)  # marks are on playing squares
    return (
        standalone_style(PRINT)
        + f".rb-w .rb-ring{{stroke:{ring};opacity:1}}"
        + f".rb-last{{fill:{last};opacity:1}}"
        + ".rb-arrows{opacity:1}"
        + ".rb-numbers{stroke:none;paint-order:normal;text-anchor:start;"
        + 'font-family:"DejaVu Sans",sans-serif}'
    )


def _numbers_from_the_left(numbers: re.Match[str]) -> str:
    """A board's square numbers, each moved left by half its width, for ``text-anchor:
    start``: the same place as centred, without a group per number."""

    def moved(number: re.Match[str]) -> str:
        x = float(number["x"]) - len(number["n"]) * DIGIT_WIDTH / 2
        return f'<text x="{x:.1f}" y="{number["y"]}">{number["n"]}</text>'

    return _NUMBER.sub(moved, numbers.group())


def _mix(colour: str, under: str, alpha: float) -> str:
    """``colour`` at ``alpha`` over ``under`` (both ``#rrggbb``), as one colour."""
    top = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    bottom = [int(under[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(alpha * a + (1 - alpha) * b) for a, b in zip(top, bottom, strict=True)]
    return "#" + "".join(f"{value:02x}" for value in mixed)


def _rewrite_link(match: re.Match[str], page_url: str, site_url: str | None) -> str:
    before, href = match["before"], html.unescape(match["href"])
    parts = urlsplit(href)
    if parts.scheme or href.startswith("#") or href.startswith("//"):
        return match.group()
    here = "/" + page_url.lstrip("/")
    target = urlsplit(urljoin(here, href))
    if target.path == urlsplit(here).path and target.fragment:
        return f'{before} href="#{html.escape(target.fragment)}"'
    if not site_url:
        return before  # no public address: the link's words stay, as text
    absolute = urljoin(site_url.rstrip("/") + "/", target.path.lstrip("/"))
    if target.fragment:
        absolute += "#" + target.fragment
    return f'{before} href="{html.escape(absolute)}"'


class _HeadingParser(HTMLParser):
    """The ``h2``-``h6`` with an ``id`` of an article, with their text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Heading] = []
        self._open: tuple[int, str, list[str]] | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[2-6]", tag):
            ident = dict(attrs).get("id")
            if ident:
                self._open = (int(tag[1]), ident, [])
        elif self._open is not None and tag in ("script", "style", "svg"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if self._open is not None and tag in ("script", "style", "svg") and self._skip:
            self._skip -= 1
        elif self._open is not None and tag == f"h{self._open[0]}":
            level, ident, parts = self._open
            self.found.append(Heading(level, ident, " ".join("".join(parts).split())))
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None and not self._skip:
            self._open[2].append(data)


def _headings(body: str) -> list[Heading]:
    parser = _HeadingParser()
    parser.feed(body)
    parser.close()
    return parser.found


# ---------------------------------------------------------------------------- the document


@dataclass(frozen=True, slots=True)
class PrintPage:
    """Everything the PDF of one page is made of."""

    lang: str
    """The language of the text (and of the PDF's own words)."""
    rulebook: Rulebook
    article: Article
    site_name: str
    address: str
    """The page's public address, or empty without ``site_url``."""
    made: str
    """The day of the sources (``SOURCE_DATE_EPOCH``: the plugin sets it to the newest source
    file's time unless it is given), as ``YYYY-MM-DD``."""
    source: str
    """The page's Markdown file, for messages."""
    uri: str
    """Where the PDF goes in the site."""
    page_dir: str
    """The page's folder in the site (``regels/kndb-2018``): images resolve from there."""


_TEMPLATES: Final = TEMPLATES
"""The print document: autoescaped; the article's own HTML enters as ``Markup``."""


def build_day(epoch: str | None) -> str:
    """``SOURCE_DATE_EPOCH`` (seconds) as a day, ``YYYY-MM-DD`` in UTC (today without it)."""
    try:
        seconds = float(epoch) if epoch else time.time()
    except ValueError:
        seconds = time.time()
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def toc_entries(headings: tuple[Heading, ...]) -> list[Heading]:
    """The headings the table of contents lists: parts and articles, not bare numbers."""
    return [
        h
        for h in headings
        if h.level in TOC_LEVELS and h.text and not _NUMBER_ONLY.fullmatch(h.text)
    ]


def print_html(page: PrintPage) -> str:
    """The whole document WeasyPrint prints, as HTML."""
    words = PDF_WORDS.get(page.lang, PDF_WORDS["en"])
    article = page.article
    return _TEMPLATES.get_template("print.html").render(
        lang=page.lang,
        words=words,
        title=markupsafe.Markup(article.title),
        title_text=markupsafe.Markup(article.title).striptags(),
        title_id=article.title_id,
        notice=markupsafe.Markup(article.notice),
        body=markupsafe.Markup(article.body),
        toc=toc_entries(article.headings),
        edition=page.rulebook.edition,
        source=page.rulebook.source,
        site_name=page.site_name,
        address=page.address,
        made=page.made,
    )


def page_css(lang: str) -> str:
    """``print.css`` with the page-number words of ``lang``."""
    words = PDF_WORDS.get(lang, PDF_WORDS["en"])
    stylesheet = (Path(__file__).resolve().parent / "templates" / "print.css").read_text(
        encoding="utf-8"
    )
    return stylesheet.replace("PAGE_WORD", _css_string(words["page"])).replace(
        "OF_WORD", _css_string(words["of"])
    )


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal."""
    escaped = "".join(c if c.isalnum() or c in " .,:;-()" else f"\\{ord(c):x} " for c in text)
    return f'"{escaped}"'


_MACHINE_NOTICE = "Using fontTools instead of HarfBuzz-Subset"
"""How WeasyPrint begins its notice that the machine lacks HarfBuzz's subsetter: it says so for
every font of every page, and the PDF it makes is right all the same (fontTools subsets the
fonts instead), so it is no complaint about a page.  ``scripts/setup.sh`` installs the library."""


@contextmanager
def _collected(records: list[logging.LogRecord]) -> Iterator[None]:
    """WeasyPrint's warnings and errors (a bad style, a missing image) while it prints."""

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if not record.getMessage().startswith(_MACHINE_NOTICE):
                records.append(record)

    logger = logging.getLogger("weasyprint")
    handler = Keep(logging.WARNING)
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


class PdfError(SiteError):
    """WeasyPrint could not print a page (the page is named in the message)."""


def write_pdfs(
    pages: Sequence[PrintPage], site_dir: Path, *, jobs: int | None = None
) -> list[tuple[PrintPage, tuple[int, list[str]]]]:
    """Print ``pages`` into ``site_dir``, one process a core (``jobs``, default: the cores
    this process may use): each page's number of pages and WeasyPrint's complaints, in the
    order of ``pages``."""
    workers = min(len(pages), jobs or _cores())
    if workers <= 1:
        return [(page, _print_one(page, site_dir)) for page in pages]
    # the longest first, so that no process is left with a long one at the end
    order = sorted(range(len(pages)), key=lambda i: -len(pages[i].article.body))
    results: dict[int, tuple[int, list[str]]] = {}
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {i: pool.submit(_print_one, pages[i], site_dir) for i in order}
            for i, future in futures.items():
                results[i] = future.result()
    except BrokenProcessPool as error:
        raise PdfError(f"a process printing the PDFs ended: {error}") from None
    return [(page, results[i]) for i, page in enumerate(pages)]


def _cores() -> int:
    """The cores this process may use (all of the machine's where the system cannot say)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _print_one(page: PrintPage, site_dir: Path) -> tuple[int, list[str]]:
    try:
        return write_pdf(page, site_dir)
    except Exception as error:  # WeasyPrint's own, of any kind: name the page
        # the page in the message: an error crosses from a process as its message only
        raise PdfError(f"{page.source}: its PDF was not made: {error}") from None


def write_pdf(page: PrintPage, site_dir: Path) -> tuple[int, list[str]]:
    """Print ``page`` into ``site_dir``: its number of pages, and WeasyPrint's complaints."""
    import weasyprint

    site = site_dir.resolve()
    target = site / page.uri
    base = (site / page.page_dir).as_uri() + "/"
    records: list[logging.LogRecord] = []
    with _collected(records):
        document = weasyprint.HTML(
            string=print_html(page), base_url=base, url_fetcher=_site_fetcher(site)
        ).render(stylesheets=[weasyprint.CSS(string=page_css(page.lang))])
        target.parent.mkdir(parents=True, exist_ok=True)
        document.write_pdf(target, pdf_tags=True)
    return len(document.pages), [record.getMessage() for record in records]


def _site_fetcher(site: Path) -> Any:
    """A WeasyPrint URL fetcher that reads only files inside ``site`` (and ``data:`` URLs)."""
    import weasyprint

    class SiteFetcher(weasyprint.URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            scheme = urlsplit(url).scheme.lower()
            if scheme == "file":
                path = Path(_file_path(url)).resolve()
                if path != site and site not in path.parents:
                    raise ValueError(f"outside the site: {url}")
            elif scheme != "data":
                raise ValueError(f"not fetched for a PDF: {url}")
            return super().fetch(url, headers)

    return SiteFetcher()


def _file_path(url: str) -> str:
    from urllib.request import url2pathname

    return url2pathname(urlsplit(url).path)
