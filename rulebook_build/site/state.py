"""What one site build shares between the rulebook plugin's jobs, as one object.

MkDocs makes one plugin object for a whole ``mkdocs build``, and static-i18n nests one build
per language inside it.  The plugin's jobs (the files it adds, the problem pages, the
``draughts`` blocks, the finishing of a page, the search indexes, the PDFs) each read and fill
a part of what that build knows: the languages under way, the page being rendered, the
problems read once for every language, the errors already reported.  :class:`SiteBuild` holds
all of it, and the plugin (``plugin.py``) hands it to every job, so that what a job depends on
is written in its arguments instead of being an attribute of the plugin that any method could
reach into.  It also holds the plugin's options (:class:`RulebookConfig`) and the few facts
about languages every job asks (:func:`default_language`, :func:`build_languages`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.pages import Page

from rulebook_build.render import language_of
from rulebook_build.site.collections import Collection, Entry
from rulebook_build.site.diagrams import DiagramCache
from rulebook_build.site.history import History
from rulebook_build.site.page_html import NOTICES
from rulebook_build.site.pdf import PrintPage
from rulebook_build.site.problems import ProblemSite

log: Final = get_plugin_logger("rulebook")
"""The plugin's logger: a bad block logged here fails ``mkdocs build --strict``."""


class RulebookConfig(base.Config):  # type: ignore[no-untyped-call]
    cache = c.Type(bool, default=True)
    """Keep rendered diagrams in ``cache_dir`` between builds."""
    cache_dir = c.Type(str, default=".cache/rulebook")
    """Cache folder, relative to ``mkdocs.yml``."""
    submissions = c.Type(str, default="")
    """The address the "check your problem" page tells composers to send their PDN file to."""
    fallback_notice = c.Type(bool, default=True)
    """Show a notice on pages shown in Dutch because their translation is missing."""
    split_search = c.Type(bool, default=True)
    """Give every language its own search index."""
    reproducible = c.Type(bool, default=True)
    """Set ``SOURCE_DATE_EPOCH`` to the newest source file's time when it is not set."""
    history = c.Type(str, default="editions/history.toml")
    """The change history of the rule pages, relative to ``mkdocs.yml``; none if missing."""
    pdf = c.Type(bool, default=False)
    """Make a PDF of every rulebook page (front matter ``rulebook:``) and link it from the page
    (:mod:`.pdf`; WeasyPrint and Pango). ``rulebook build --pdf`` turns it on."""


@dataclass
class PageState:
    """The page being rendered: where its Markdown comes from, and its blocks so far."""

    source: str
    line_offset: int
    lang: str
    count: int = 0
    root: str = ""
    """The site's root relative to the page (``../../``), for links in raw HTML."""
    uri: str = ""
    """The page's file relative to its language's folder (``regels/kndb-2018.md``)."""


class SiteBuild:
    """The state of one site build (every language), shared by the plugin's jobs.

    One object lives as long as the plugin: the Markdown extensions added once keep reading
    it, so its fields are changed in place and the object is never replaced."""

    def __init__(self) -> None:
        self.options = RulebookConfig()
        """The plugin's options (set by the plugin when MkDocs has read them)."""
        self.languages: list[str] = []
        self.page: PageState | None = None
        self.cache = DiagramCache(None)
        self.project_dir = Path.cwd()
        self.search_entries: dict[str, list[dict[str, Any]]] = {}
        self.search_config: dict[str, Any] = {}
        self.search_worker: str | None = None
        self.not_found_page: str | None = None
        self.reported: set[str] = set()
        self.problems = ProblemSite(self.project_dir / "problems")
        self.generated: set[str] = set()
        """The generated files written in this build (each once, for every language)."""
        self.site_tables: dict[str, tuple[Path, dict[str, Any]]] | None = None
        """Per variant, the folder and manifest of the tables the check page reads (made once
        a build)."""
        self.wasm: Path | None = None
        self.thumbnails: dict[str, str] = {}
        self.made_pages: dict[str, Entry | Collection] = {}
        """The pages made from ``problems/`` (by their file's source path, language first): the
        entry or collection each shows, rendered from the object itself."""
        self.history = History.empty()
        self.docs_dir = Path("docs")
        self.directory_urls = True
        self.default_language = "nl"
        self.print_pages: list[PrintPage] = []
        """The rulebook pages of this build, every language, printed when it ends."""

    @property
    def building(self) -> str:
        """The language of the build under way (static-i18n nests one build per language)."""
        return self.languages[-1] if self.languages else "nl"

    def start_site(self) -> None:
        """A new site build (not a language nested in one): forget the last one's work."""
        self.reported = set()
        # the collections and verdicts, read once for every language of this build
        self.problems = ProblemSite(self.project_dir / "problems")
        self.generated = set()
        self.site_tables = None
        self.thumbnails = {}
        self.made_pages = {}
        self.print_pages = []

    def report(self, message: str) -> None:
        """Log an error once a build (a Dutch page is rendered again for every language that
        falls back to it)."""
        if message not in self.reported:
            self.reported.add(message)
            log.error(message)

    def current_page(self) -> PageState:
        """The page being rendered, or a stand-in when a block comes from elsewhere."""
        return self.page or PageState("<page>", 0, self.building)

    def content_language(self, page: Page) -> str:
        """The language the page's text is written in (Dutch on an untranslated page)."""
        return language_of(getattr(page.file, "locale", None) or self.building)

    def locate_page(self, markdown: str, page: Page, config: MkDocsConfig) -> None:
        """Note where the page's Markdown comes from, for the blocks' error locations."""
        source_path = Path(page.file.abs_src_path or page.file.src_path)
        try:
            source = source_path.relative_to(self.project_dir).as_posix()
        except ValueError:
            source = source_path.as_posix()
        offset = 0
        try:
            raw = source_path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
            body = markdown.rstrip("\n")
            if body and raw.rstrip("\n").endswith(body):
                offset = raw[: raw.rstrip("\n").rfind(body)].count("\n")
            else:
                offset = max(0, raw.count("\n") - markdown.count("\n"))
        except OSError:
            pass
        depth = page.url.count("/") if page.url else 0
        self.page = PageState(
            source,
            offset,
            self.content_language(page),
            root="../" * depth,
            uri=self._uri_in_language(source_path, config),
        )

    def _uri_in_language(self, path: Path, config: MkDocsConfig) -> str:
        """``docs/en/regels/x.md`` -> ``regels/x.md``: the same in every language."""
        try:
            parts = path.resolve().relative_to(Path(config.docs_dir).resolve()).parts
        except ValueError:
            return path.name
        if len(parts) > 1 and parts[0] in {*build_languages(config, self.building), *NOTICES}:
            parts = parts[1:]
        return "/".join(parts)


def i18n_plugin(config: MkDocsConfig) -> Any:
    """The static-i18n plugin of the site, if it has one."""
    return config.plugins.get("i18n")


def default_language(config: MkDocsConfig) -> str:
    i18n = i18n_plugin(config)
    if i18n is not None and getattr(i18n, "default_language", None):
        return str(i18n.default_language)
    return language_of(str(config.theme.get("language") or "nl"))


def build_languages(config: MkDocsConfig, building: str) -> list[str]:
    """Every language the site is built in (only ``building`` without static-i18n)."""
    i18n = i18n_plugin(config)
    found = [str(lang) for lang in getattr(i18n, "build_languages", None) or []]
    return found or [building]
