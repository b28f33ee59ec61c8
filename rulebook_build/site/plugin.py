"""The ``rulebook`` MkDocs plugin: diagrams, solution players, Frisian fallback pages, search.

Declared in ``pyproject.toml`` as the ``rulebook`` entry point; ``mkdocs.yml`` lists it under
``plugins`` and needs nothing else:

- ``on_config`` injects the Markdown extension for ```` ```draughts ```` blocks
  (:mod:`.fences`), our stylesheet and script, and a Frisian language file for Material
  (which has none: its strings stay Dutch, the page says ``lang="fy"``);
- every block is rendered by :mod:`rulebook_build.render` (cached, :mod:`.diagrams`); a bad
  block is logged under this plugin's logger as ``file:line:column: message`` (so
  ``mkdocs build --strict`` fails) and shows as an error box in ``mkdocs serve``;
- a page that static-i18n fills in from Dutch (no translation yet) gets a visible notice in
  the reader's language, and its text is marked ``lang="nl"``;
- each language gets its own search index (``/search/``, ``/en/search/``, ``/fy/search/``)
  instead of one index of all languages;
- a rule page gets the date and nature of its last change under its title, from
  ``editions/history.toml`` (:mod:`.history`); the strict build fails while a rule page
  differs from its latest entry;
- move notation in running text (``46-41``, ``26x37``) is wrapped in
  ``<span class="rb-move">`` so that a line never breaks at its hyphen (:class:`MoveExtension`);
- link warnings of MkDocs get the file and line of the link;
- with the option ``pdf`` (``rulebook build --pdf``), every rulebook page (front matter
  ``rulebook:``) is printed to a PDF beside it when the last language is built, and linked
  under its title (:mod:`.pdf`);
- ``SOURCE_DATE_EPOCH`` is set (newest source file) unless given, for reproducible builds.

static-i18n builds the site once per language, each build nested in the first one's
``on_post_build``; the plugin keeps a stack of the languages being built and resets its
per-page state for every page.

This module is only the entry point: MkDocs' hooks, each handing its work, with the build's
shared state (:class:`.state.SiteBuild`, which also holds the options), to the module of its
job:

- :mod:`.generated`: the files added to the site that are not pages (our scripts and styles,
  the theme's Frisian file, the checker's bundle, tables and WebAssembly, the search worker);
- :mod:`.problem_pages`: a page per collection and per problem, in every language;
- :mod:`.blocks`: the ``draughts`` blocks of a page (found by :mod:`.fences`);
- :mod:`.moves`: move notation in running text;
- :mod:`.page_html`: the finishing of a page (its last change, the untranslated notice, the
  Content-Security-Policy, the theme's ``striptags``);
- :mod:`.language_search`: a search index per language;
- :mod:`.print_pages`: the rulebook pages handed to :mod:`.pdf`;
- :mod:`.navigation` and :mod:`.link_locator`: the merged sections, the located link warnings.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from rulebook_build.errors import RulebookError
from rulebook_build.site import generated, language_search, page_html, print_pages
from rulebook_build.site.blocks import BlockRenderer
from rulebook_build.site.diagrams import DiagramCache
from rulebook_build.site.fences import DraughtsExtension
from rulebook_build.site.history import read_history, stale
from rulebook_build.site.link_locator import install_link_locator
from rulebook_build.site.moves import MoveExtension
from rulebook_build.site.navigation import merge_sections
from rulebook_build.site.pdf import unavailable
from rulebook_build.site.problem_pages import add_problem_pages
from rulebook_build.site.state import RulebookConfig, SiteBuild, default_language, log

__all__ = ["RulebookConfig", "RulebookPlugin"]


class RulebookPlugin(BasePlugin[RulebookConfig]):  # type: ignore[no-untyped-call]
    """MkDocs' hooks, each handing its work to the job's module with the build's state
    (:class:`~.state.SiteBuild`)."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        super().__init__()
        self.site = SiteBuild()
        self.blocks = BlockRenderer(self.site)

    # ------------------------------------------------------------------ config
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        site = self.site
        site.options = self.config
        if config.config_file_path:
            site.project_dir = Path(config.config_file_path).resolve().parent
        i18n = config.plugins.get("i18n")
        current = getattr(i18n, "current_language", None) if i18n is not None else None
        if not site.languages:
            site.start_site()
            self._read_history()
            if self.config.pdf:
                missing = unavailable()
                if missing is not None:
                    raise PluginError(f"rulebook: {missing}")
        site.docs_dir = Path(config.docs_dir)
        site.directory_urls = bool(config.use_directory_urls)
        site.default_language = default_language(config)
        site.languages.append(str(current or default_language(config)))

        if not any(isinstance(e, DraughtsExtension) for e in config.markdown_extensions):
            extension = self.blocks.extension()
            config.markdown_extensions.append(extension)  # type: ignore[arg-type]
        if not any(isinstance(e, MoveExtension) for e in config.markdown_extensions):
            config.markdown_extensions.append(MoveExtension())  # type: ignore[arg-type]
        generated.link_page_assets(config)

        cache_root = site.project_dir / self.config.cache_dir
        site.cache = DiagramCache(cache_root / "diagrams" if self.config.cache else None)
        theme_dir = generated.frisian_theme(cache_root)
        if str(theme_dir) not in config.theme.dirs:
            config.theme.dirs.insert(0, str(theme_dir))

        if not config.site_url and "sitemap.xml" in config.theme.static_templates:
            # a sitemap needs absolute addresses: without site_url it would be wrong
            config.theme.static_templates.discard("sitemap.xml")
            log.info("no site_url: the sitemap is not written")
        if self.config.reproducible and "SOURCE_DATE_EPOCH" not in os.environ:
            os.environ["SOURCE_DATE_EPOCH"] = str(_newest_source(config))
        install_link_locator(Path(config.docs_dir), site.project_dir)
        return config

    def _read_history(self) -> None:
        site = self.site
        path = site.project_dir / self.config.history
        try:
            site.history = read_history(path, project=site.project_dir)
        except RulebookError as error:
            raise PluginError(f"rulebook: {error}") from error
        for problem in stale(site.history, site.project_dir):
            log.error(problem)

    def on_env(self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files) -> Any:
        """Make the theme's ``striptags`` give escaped text.

        MkDocs renders the theme with autoescaping off, and a page title is HTML (MkDocs takes
        it from the rendered heading, entities and all: a problem's title ``</title>`` arrives
        as ``&lt;/title&gt;``).  Material writes ``{{ page.title | striptags }}`` into the
        ``<title>`` of every page; Jinja's ``striptags`` removes tags *and unescapes
        entities*, so the escaped title came out as markup in the page head, where a
        ``<meta http-equiv="refresh">`` sends the reader away (CSP cannot stop that).
        :func:`.page_html.escaped_striptags` returns the same text escaped again, as
        :class:`markupsafe.Markup`, so a following ``| e`` leaves it as it is.  Every use in the
        theme (the head's title, the table of contents' labels) is text in HTML, so this is
        right for all of them."""
        env.filters["striptags"] = page_html.escaped_striptags
        return env

    # ------------------------------------------------------------------ files
    def _add_assets(self, files: Files, *, config: MkDocsConfig) -> Files:
        return generated.add_assets(self.site, files, config)

    @event_priority(-110)
    def _add_problem_pages(self, files: Files, *, config: MkDocsConfig) -> Files:
        """After static-i18n has chosen this language's files (:mod:`.problem_pages`)."""
        return add_problem_pages(self.site, files, config)

    on_files = CombinedEvent(_add_assets, _add_problem_pages)

    # ------------------------------------------------------------------ navigation
    @event_priority(-110)
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        """One section per folder: static-i18n gives a translated folder (``fy/regels/``)
        and its Dutch fallback pages (``nl/regels/``) a section each, with the same title."""
        nav.items = merge_sections(nav.items)
        return nav

    # ------------------------------------------------------------------ pages
    @event_priority(-100)
    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        """Note where the page's Markdown comes from, for the blocks' error locations."""
        self.site.locate_page(markdown, page, config)
        return markdown

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        site = self.site
        made = site.made_pages.get(page.file.src_uri)
        if made is not None:  # a page of problems/: its title, then the page from the object
            html = f"{html}\n{self.blocks.made_page(made)}"
        if site.page is not None:
            html = page_html.with_history(html, site.history, site.page.source, site.page.lang)
        lang = site.content_language(page)
        link = (
            print_pages.keep_print_page(site, html, page, config, lang) if self.config.pdf else ""
        )
        if self.config.fallback_notice and lang != site.building:
            html = page_html.with_untranslated_notice(html, lang=lang, building=site.building)
        if link:
            # right under the title, in the reader's language (before a notice)
            html = page_html.under_title(html, link)
        return html

    def on_post_template(
        self, output_content: str, *, template_name: str, config: MkDocsConfig
    ) -> str:
        output = page_html.drop_alternate_links(output_content)
        if template_name == "404.html" and self.site.building == default_language(config):
            # every language build writes /404.html; the default language's is kept
            self.site.not_found_page = output
        return output

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Give the page its Content-Security-Policy; point Material at our search worker and
        at this language's own index."""
        output = page_html.content_security_policy(page_html.drop_alternate_links(output))
        return language_search.point_search(self.site, output, config)

    # ------------------------------------------------------------------ search
    @event_priority(-50)
    def _keep_search_entries(self, *, config: MkDocsConfig) -> None:
        """After the search plugin, before static-i18n merges the languages' entries."""
        language_search.keep_search_entries(self.site, config)

    @event_priority(-110)
    def _finish_build(self, *, config: MkDocsConfig) -> None:
        """After static-i18n: when the outermost build ends, write one index per language."""
        site = self.site
        if site.languages:
            site.languages.pop()
        if site.languages:
            return
        if self.config.split_search and site.search_entries:
            language_search.write_search_indexes(site, config)
        if site.not_found_page is not None:
            (Path(config.site_dir) / "404.html").write_text(site.not_found_page, encoding="utf-8")
        if self.config.pdf and site.print_pages:
            print_pages.print_kept_pages(site, config)
        site.search_entries = {}
        site.not_found_page = None
        site.print_pages = []
        log.debug(f"diagrams: {site.cache.hits} from the cache, {site.cache.misses} rendered")

    on_post_build = CombinedEvent(_keep_search_entries, _finish_build)

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.site.languages = []

    def on_build_error(self, *, error: Exception) -> None:
        self.site.languages = []
        self.site.search_entries = {}
        self.site.print_pages = []


def _newest_source(config: MkDocsConfig) -> int:
    """The time of the newest source file, for ``SOURCE_DATE_EPOCH`` (reproducible builds)."""
    newest = 0.0
    candidates = [Path(config.config_file_path)] if config.config_file_path else []
    candidates += [p for p in Path(config.docs_dir).rglob("*") if p.is_file()]
    for path in candidates:
        try:
            newest = max(newest, path.stat().st_mtime)
        except OSError:
            continue
    return int(newest)
