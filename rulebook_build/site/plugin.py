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
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import logging
import os
import posixpath
import re
import time
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from xml.etree import ElementTree as ET

import jinja2
import markupsafe
from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

from rulebook_build.checker.tables.endgame import default_cache_dir
from rulebook_build.checker.tables.remote import BLOCKS, PAGES
from rulebook_build.checker.wasm import wasm_build
from rulebook_build.errors import RulebookError
from rulebook_build.notation.diagram import DiagramSpec
from rulebook_build.render.html import Line
from rulebook_build.render.strings import language_of
from rulebook_build.render.svg import board_svg
from rulebook_build.site.checker_page import (
    BUNDLE_DEST,
    PYODIDE_DEST,
    PYODIDE_FILES,
    TABLES_DEST,
    WASM_DEST,
    manifest_digest,
    published_tables,
    pyodide_folder,
    python_bundle,
    render_checker,
)
from rulebook_build.site.comparison import render_comparison, render_score
from rulebook_build.site.diagrams import DiagramCache, render_block, render_spec
from rulebook_build.site.editions import relative_url, render_editions
from rulebook_build.site.fences import DraughtsExtension
from rulebook_build.site.history import History, history_notice, read_history, stale
from rulebook_build.site.pdf import (
    PdfError,
    PrintPage,
    build_day,
    link_html,
    pdf_uri,
    prepare_article,
    rulebook_of,
    unavailable,
    write_pdfs,
)
from rulebook_build.site.problems import (
    ProblemSite,
    collection_markdown,
    problem_markdown,
    render_collection,
    render_index,
    render_problem,
    thumbnail_path,
)
from rulebook_build.site.relatives import SHIPPED_DEST, shipped_index
from rulebook_build.site.search import SEARCH_WORKER_SOURCE, refine_index

log = get_plugin_logger("rulebook")

ASSETS: Final = Path(__file__).resolve().parent / "assets"
ASSET_FILES: Final = ("draughts.css", "player.js", "tables.js", "checker.js", "scroll-regions.js")
WORKER_FILES: Final = ("checker-worker.js", "prover-host.js")
"""Assets that are not page scripts: the checker's worker is started by checker.js and imports
the host of the WebAssembly search."""
ASSET_DEST: Final = "assets/rulebook"

FRISIAN_THEME_LANGUAGE: Final = """{#- Frisian for Material, written by the rulebook plugin.
  Material has no Frisian strings: the page says lang="fy", the theme's words are Dutch. -#}
{% import "partials/languages/nl.html" as dutch %}
{% macro t(key) %}{{ {"language": "fy"}[key] or dutch.t(key) }}{% endmacro %}
"""

NOTICES: Final = {
    "fy": (
        "Net oerset",
        "Dizze side is noch net yn it Frysk oerset; hjirûnder stiet de Nederlânske tekst.",
    ),
    "en": (
        "Not translated",
        "This page has not been translated into English yet; the Dutch text follows.",
    ),
    "nl": (
        "Niet vertaald",
        "Deze pagina is nog niet vertaald; hieronder staat de oorspronkelijke tekst.",
    ),
}

SEARCH_LANGUAGES: Final = {"nl": ["nl"], "en": ["en"], "fy": ["nl"]}
"""lunr.js stemmers per site language (lunr has no Frisian; the untranslated text is Dutch)."""

SEARCH_WORKER: Final = "assets/javascripts/workers/rulebook-search.js"

_CONFIG_SCRIPT: Final = re.compile(
    r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL
)
_LINK_WARNING: Final = re.compile(
    r"^Doc file '(?P<file>[^']+)' contains (?:a|an \w+ \w+) link '(?P<link>[^']*)'"
)


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
class _PageState:
    source: str
    line_offset: int
    lang: str
    count: int = 0
    root: str = ""
    """The site's root relative to the page (``../../``), for links in raw HTML."""
    uri: str = ""
    """The page's file relative to its language's folder (``regels/kndb-2018.md``)."""


class RulebookPlugin(BasePlugin[RulebookConfig]):  # type: ignore[no-untyped-call]
    supports_multiple_instances = False

    def __init__(self) -> None:
        super().__init__()
        self.languages: list[str] = []
        self.page: _PageState | None = None
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
        self.history = History.empty()
        self.docs_dir = Path("docs")
        self.directory_urls = True
        self.default_language = "nl"
        self.print_pages: list[PrintPage] = []
        """The rulebook pages of this build, every language, printed when it ends."""

    # ------------------------------------------------------------------ languages
    def _i18n(self, config: MkDocsConfig) -> Any:
        return config.plugins.get("i18n")

    def _default_language(self, config: MkDocsConfig) -> str:
        i18n = self._i18n(config)
        if i18n is not None and getattr(i18n, "default_language", None):
            return str(i18n.default_language)
        return language_of(str(config.theme.get("language") or "nl"))

    @property
    def building(self) -> str:
        """The language of the build under way (static-i18n nests one build per language)."""
        return self.languages[-1] if self.languages else "nl"

    # ------------------------------------------------------------------ config
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if config.config_file_path:
            self.project_dir = Path(config.config_file_path).resolve().parent
        i18n = self._i18n(config)
        current = getattr(i18n, "current_language", None) if i18n is not None else None
        if not self.languages:
            self.reported = set()  # a new site build (not a language nested in one)
            # the collections and verdicts, read once for every language of this build
            self.problems = ProblemSite(self.project_dir / "problems")
            self.generated = set()
            self.site_tables = None
            self.thumbnails = {}
            self._read_history()
            self.print_pages = []
            if self.config.pdf:
                missing = unavailable()
                if missing is not None:
                    raise PluginError(f"rulebook: {missing}")
        self.docs_dir = Path(config.docs_dir)
        self.directory_urls = bool(config.use_directory_urls)
        self.default_language = self._default_language(config)
        self.languages.append(str(current or self._default_language(config)))

        if not any(isinstance(e, DraughtsExtension) for e in config.markdown_extensions):
            others = {
                "draughts-problem": self._render_problem,
                "draughts-problems": self._render_problem_index,
                "draughts-collection": self._render_collection,
                "draughts-checker": self._render_checker,
                "draughts-comparison": self._render_comparison,
                "draughts-score": self._render_score,
                "edition-comparison": self._render_editions,
            }
            extension = DraughtsExtension(self._render_block, others)
            config.markdown_extensions.append(extension)  # type: ignore[arg-type]
        if not any(isinstance(e, MoveExtension) for e in config.markdown_extensions):
            config.markdown_extensions.append(MoveExtension())  # type: ignore[arg-type]
        for name in ASSET_FILES:
            target = config.extra_css if name.endswith(".css") else config.extra_javascript
            path = f"{ASSET_DEST}/{name}"
            if path not in [str(entry) for entry in target]:
                target.append(path)

        cache_root = self.project_dir / self.config.cache_dir
        self.cache = DiagramCache(cache_root / "diagrams" if self.config.cache else None)
        theme_dir = cache_root / "theme"
        self._write_if_changed(
            theme_dir / "partials" / "languages" / "fy.html", FRISIAN_THEME_LANGUAGE
        )
        if str(theme_dir) not in config.theme.dirs:
            config.theme.dirs.insert(0, str(theme_dir))

        if not config.site_url and "sitemap.xml" in config.theme.static_templates:
            # a sitemap needs absolute addresses: without site_url it would be wrong
            config.theme.static_templates.discard("sitemap.xml")
            log.info("no site_url: the sitemap is not written")
        if self.config.reproducible and "SOURCE_DATE_EPOCH" not in os.environ:
            os.environ["SOURCE_DATE_EPOCH"] = str(self._newest_source(config))
        _install_link_locator(Path(config.docs_dir), self.project_dir)
        return config

    @staticmethod
    def _write_if_changed(path: Path, text: str) -> None:
        RulebookPlugin._write_bytes_if_changed(path, text.encode("utf-8"))

    @staticmethod
    def _write_bytes_if_changed(path: Path, data: bytes) -> None:
        """Write ``path`` whole (a temporary file, then a rename) unless it holds ``data``."""
        try:
            if path.read_bytes() == data:
                return
        except OSError:
            pass
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError as error:
            raise PluginError(f"rulebook: cannot write {path}: {error}") from error

    def _newest_source(self, config: MkDocsConfig) -> int:
        newest = 0.0
        candidates = [Path(config.config_file_path)] if config.config_file_path else []
        candidates += [p for p in Path(config.docs_dir).rglob("*") if p.is_file()]
        for path in candidates:
            try:
                newest = max(newest, path.stat().st_mtime)
            except OSError:
                continue
        return int(newest)

    def on_env(self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files) -> Any:
        """Make the theme's ``striptags`` give escaped text.

        MkDocs renders the theme with autoescaping off, and a page title is HTML (MkDocs takes
        it from the rendered heading, entities and all: a problem's title ``</title>`` arrives
        as ``&lt;/title&gt;``).  Material writes ``{{ page.title | striptags }}`` into the
        ``<title>`` of every page; Jinja's ``striptags`` removes tags *and unescapes
        entities*, so the escaped title came out as markup in the page head, where a
        ``<meta http-equiv="refresh">`` sends the reader away (CSP cannot stop that).
        :func:`escaped_striptags` returns the same text escaped again, as
        :class:`markupsafe.Markup`, so a following ``| e`` leaves it as it is.  Every use in the
        theme (the head's title, the table of contents' labels) is text in HTML, so this is
        right for all of them."""
        env.filters["striptags"] = escaped_striptags
        return env

    # ------------------------------------------------------------------ files
    def _add_assets(self, files: Files, *, config: MkDocsConfig) -> Files:
        if not config.site_url:
            # without site_url the sitemap template is not rendered: do not copy it raw
            for file in list(files):
                if (
                    file.src_uri in ("sitemap.xml", "sitemap.xml.gz")
                    and not file.is_documentation_page()
                ):
                    files.remove(file)
        for name in (*ASSET_FILES, *WORKER_FILES):
            uri = f"{ASSET_DEST}/{name}"
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(ASSETS / name)))
        pyodide = pyodide_folder(self.project_dir)
        if pyodide is not None:
            for name in PYODIDE_FILES:
                uri = f"{PYODIDE_DEST}/{name}"
                if files.get_file_from_path(uri) is None:
                    files.append(File.generated(config, uri, abs_src_path=str(pyodide / name)))
            self._add_generated(files, config, BUNDLE_DEST, self._write_bundle)
            self._add_generated(files, config, SHIPPED_DEST, self._write_similar_index)
            self._add_checker_files(files, config)
        self.search_worker = _material_search_worker(files)
        if self.search_worker:
            source = SEARCH_WORKER_SOURCE.format(worker=self.search_worker.rsplit("/", 1)[-1])
            self._add_generated(
                files,
                config,
                SEARCH_WORKER,
                functools.partial(self._write_if_changed, text=source),
            )
        return files

    def _add_generated(
        self, files: Files, config: MkDocsConfig, uri: str, write: Callable[[Path], None]
    ) -> None:
        """Add the file ``uri`` of the built site, made by ``write`` into the cache folder
        once per build (a real file: static-i18n looks at every file's source path)."""
        if files.get_file_from_path(uri) is not None:
            return
        path = self.project_dir / self.config.cache_dir / "generated" / uri.rsplit("/", 1)[-1]
        if uri not in self.generated:
            self.generated.add(uri)
            write(path)
        files.append(File.generated(config, uri, abs_src_path=str(path)))

    def _write_bundle(self, path: Path) -> None:
        self._write_bytes_if_changed(path, python_bundle())

    def _write_similar_index(self, path: Path) -> None:
        """The published problems for the check page's anticipation search."""
        self._write_bytes_if_changed(path, shipped_index(self.problems.collections))

    def _add_checker_files(self, files: Files, config: MkDocsConfig) -> None:
        """The check page's tables, published block by checked block (``remote.py``), and its
        compiled search as WebAssembly (``checker/wasm.py``), made once a build and taken from
        where they are made (the tables are large: they are not copied twice)."""
        if self.site_tables is None:
            self.site_tables = {}
            for variant in ("international", "frisian"):
                log.info("publishing the %s endgame tables for the check page", variant)
                self.site_tables[variant] = published_tables(variant)
            try:
                self.wasm = wasm_build(default_cache_dir())
            except RulebookError as error:
                log.warning("%s; the check page runs the Python search", error)
                self.wasm = None
            if self.wasm is None:
                log.info(
                    "no Zig (pip install -e '.[wasm]'): the check page runs the Python search "
                    "without the compiled one"
                )
        for variant, (folder, manifest) in self.site_tables.items():
            dest = TABLES_DEST.format(variant=variant)
            names = [f"tables-{variant}.json"]
            for name in manifest["classes"]:
                names += [f"{name}{BLOCKS}", f"{name}{PAGES}"]
            for name in names:
                uri = f"{dest}/{name}"
                if files.get_file_from_path(uri) is None:
                    files.append(File.generated(config, uri, abs_src_path=str(folder / name)))
        if self.wasm is not None and files.get_file_from_path(WASM_DEST) is None:
            files.append(File.generated(config, WASM_DEST, abs_src_path=str(self.wasm)))

    @event_priority(-110)
    def _add_problem_pages(self, files: Files, *, config: MkDocsConfig) -> Files:
        """After static-i18n has chosen this language's files: a page per collection and per
        problem, in the language being built, made from ``problems/`` (nothing in ``docs/``),
        and a small diagram per problem for the lists."""
        lang = self.building
        default = self._default_language(config)
        prefix = "" if lang == default else f"{lang}/"
        try:
            collections = self.problems.collections
        except RulebookError as error:
            raise PluginError(f"rulebook: {error}") from error
        pages: dict[str, str] = {}
        for collection in collections:
            folder = f"problemen/{collection.slug}"
            pages[f"{folder}/index.md"] = collection_markdown(collection, lang)
            for entry in collection.entries:
                pages[f"{folder}/{entry.slug}.md"] = problem_markdown(entry)
                uri = thumbnail_path(entry)
                if files.get_file_from_path(uri) is None:
                    if uri not in self.thumbnails:  # once per build, for every language
                        self.thumbnails[uri] = board_svg(
                            entry.start, lang="en", id_prefix="t", standalone=True, size=150
                        )
                    files.append(File.generated(config, uri, content=self.thumbnails[uri]))
        for uri, markdown in pages.items():
            page = File(
                f"{lang}/{uri}",
                src_dir=None,
                dest_dir=config.site_dir,
                use_directory_urls=config.use_directory_urls,
                dest_uri=prefix + _page_dest(uri, config.use_directory_urls),
            )
            page.generated_by = "rulebook"
            page.content_string = markdown
            # what static-i18n gives the files it chose (the language switcher reads these)
            page.locale = lang  # type: ignore[attr-defined]
            page.locale_alternate_of = lang  # type: ignore[attr-defined]
            page.localization = lang  # type: ignore[attr-defined]
            page.norm_src_uri = uri  # type: ignore[attr-defined]
            page.alternates = {  # type: ignore[attr-defined]
                other: _Alternate(
                    ("" if other == default else f"{other}/")
                    + _page_url(uri, config.use_directory_urls)
                )
                for other in self._languages(config)
            }
            files.append(page)
        return files

    on_files = CombinedEvent(_add_assets, _add_problem_pages)

    def _languages(self, config: MkDocsConfig) -> list[str]:
        i18n = self._i18n(config)
        found = [str(lang) for lang in getattr(i18n, "build_languages", None) or []]
        return found or [self.building]

    # ------------------------------------------------------------------ navigation
    @event_priority(-110)
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        """One section per folder: static-i18n gives a translated folder (``fy/regels/``)
        and its Dutch fallback pages (``nl/regels/``) a section each, with the same title."""
        nav.items = _merge_sections(nav.items)
        return nav

    # ------------------------------------------------------------------ pages
    @event_priority(-100)
    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
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
        self.page = _PageState(
            source,
            offset,
            self._content_language(page),
            root="../" * depth,
            uri=self._uri_in_language(source_path, config),
        )
        return markdown

    def _uri_in_language(self, path: Path, config: MkDocsConfig) -> str:
        """``docs/en/regels/x.md`` -> ``regels/x.md``: the same in every language."""
        try:
            parts = path.resolve().relative_to(Path(config.docs_dir).resolve()).parts
        except ValueError:
            return path.name
        if len(parts) > 1 and parts[0] in {*self._languages(config), *NOTICES}:
            parts = parts[1:]
        return "/".join(parts)

    def _content_language(self, page: Page) -> str:
        """The language the page's text is written in (Dutch on an untranslated page)."""
        return language_of(getattr(page.file, "locale", None) or self.building)

    def _render_block(self, text: str, line: int, indent: int) -> str:
        state = self.page or _PageState("<page>", 0, self.building)
        state.count += 1
        element_id = f"diagram-{state.count}"
        try:
            return render_block(
                text,
                lang=state.lang,
                source=state.source,
                first_line=line + state.line_offset,
                indent=indent,
                element_id=element_id,
                cache=self.cache,
            )
        except RulebookError as error:
            # a Dutch page is rendered again for every language that falls back to it
            if str(error) not in self.reported:
                self.reported.add(str(error))
                log.error(str(error))
            return (
                '<div class="admonition failure rb-diagram-error"><p class="admonition-title">'
                f"draughts</p><pre>{_escape(str(error))}</pre></div>"
            )

    def _extra_block(self, text: str, line: int, kind: str) -> str:
        state = self.page or _PageState("<page>", 0, self.building)
        where = f"{state.source}:{line + state.line_offset}"
        site = self.problems

        def diagram(block: str, lines: Sequence[tuple[str, str, str]] = ()) -> str:
            state.count += 1
            return render_block(
                block,
                lang=state.lang,
                source=where,
                first_line=1,
                indent=0,
                element_id=f"diagram-{state.count}",
                cache=self.cache,
                lines=lines,
            )

        def diagram_of(spec: DiagramSpec, lines: Sequence[Line] = ()) -> str:
            state.count += 1
            return render_spec(
                spec,
                lang=state.lang,
                element_id=f"diagram-{state.count}",
                cache=self.cache,
                lines=lines,
            )

        try:
            if kind == "index":
                return render_index(text, lang=state.lang, where=where, site=site, root=state.root)
            if kind == "collection":
                return render_collection(
                    text, lang=state.lang, where=where, site=site, root=state.root
                )
            if kind == "comparison":
                return render_comparison(text, lang=state.lang)
            if kind == "score":
                return render_score(text, lang=state.lang, where=where, diagram=diagram)
            if kind == "editions":
                return render_editions(
                    text,
                    lang=state.lang,
                    where=where,
                    project=self.project_dir,
                    source=functools.partial(self._rule_page, lang=state.lang),
                    link=lambda target: relative_url(
                        state.uri, target, directory_urls=self.directory_urls
                    ),
                )
            return render_problem(
                text, lang=state.lang, where=where, site=site, diagram=diagram_of, root=state.root
            )
        except RulebookError as error:
            if str(error) not in self.reported:
                self.reported.add(str(error))
                log.error(str(error))
            return f'<div class="admonition failure"><pre>{_escape(str(error))}</pre></div>'

    def _render_problem(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "problem")

    def _render_problem_index(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "index")

    def _render_checker(self, text: str, line: int, indent: int) -> str:
        state = self.page or _PageState("<page>", 0, self.building)
        available = pyodide_folder(self.project_dir) is not None
        if not available and "pyodide" not in self.reported:
            self.reported.add("pyodide")
            log.info(
                "node_modules/pyodide is missing: the check page says so instead of offering "
                "the in-browser checker ('npm ci' installs it)"
            )
        tables = {
            variant: {
                "digest": manifest_digest(folder, variant),
                "pieces": manifest["pieces"],
            }
            for variant, (folder, manifest) in (self.site_tables or {}).items()
        }
        return render_checker(
            lang=state.lang,
            root=state.root,
            available=available,
            address=self.config.submissions,
            tables=tables,
            compiled=self.wasm is not None,
        )

    def _render_collection(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "collection")

    def _render_comparison(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "comparison")

    def _render_score(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "score")

    def _render_editions(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "editions")

    def _rule_page(self, uri: str, *, lang: str) -> Path:
        """A page's Markdown in ``lang``, or in the default language (Dutch) where it has no
        translation."""
        own = self.docs_dir / lang / uri
        return own if own.is_file() else self.docs_dir / self.default_language / uri

    # ------------------------------------------------------------------ history
    def _read_history(self) -> None:
        path = self.project_dir / self.config.history
        try:
            self.history = read_history(path, project=self.project_dir)
        except RulebookError as error:
            raise PluginError(f"rulebook: {error}") from error
        for problem in stale(self.history, self.project_dir):
            log.error(problem)

    def _with_history(self, html: str) -> str:
        """The page's last change (``editions/history.toml``) under its title."""
        state = self.page
        if state is None:
            return html
        changes = self.history.of(state.source)
        if not changes:
            return html
        notice = history_notice(changes, lang=state.lang)
        match = re.search(r"</h1>", html)
        if match is None:
            return notice + html
        return html[: match.end()] + "\n" + notice + html[match.end() :]

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        html = self._with_history(html)
        lang = self._content_language(page)
        link = self._print_page(html, page, config, lang) if self.config.pdf else ""
        if self.config.fallback_notice and lang != self.building:
            title, sentence = NOTICES.get(self.building, NOTICES["en"])
            notice = (
                f'<div class="admonition warning rb-untranslated"><p class="admonition-title">'
                f"{title}</p><p>{sentence}</p></div>"
            )
            match = re.search(r"</h1>", html)
            head, rest = (html[: match.end()], html[match.end() :]) if match else ("", html)
            head = head.replace("<h1", f'<h1 lang="{lang}"', 1)
            html = f'{head}\n{notice}\n<div lang="{lang}">\n{rest}\n</div>'
        if link:
            # right under the title, in the reader's language (before a notice)
            match = re.search(r"</h1>", html)
            at = match.end() if match else 0
            html = f"{html[:at]}\n{link}\n{html[at:]}"
        return html

    def _print_page(self, html: str, page: Page, config: MkDocsConfig, lang: str) -> str:
        """Keep a rulebook page for its PDF; the link to the PDF (empty on another page).

        A page shown in Dutch because it is not translated links the Dutch PDF."""
        where = self.page.source if self.page else page.file.src_uri
        try:
            rulebook = rulebook_of(page.meta, where)
        except RulebookError as error:
            if str(error) not in self.reported:
                self.reported.add(str(error))
                log.error(str(error))
            return ""
        if rulebook is None:
            return ""
        dest = page.file.dest_uri
        folder = posixpath.dirname(dest)
        if lang == self.building:
            uri = pdf_uri(dest, page.file.src_uri, lang)
            site_url = config.site_url or None
            article = prepare_article(
                html,
                page_url=page.url,
                site_url=site_url,
                lift_notice=lang != self._default_language(config),
            )
            self.print_pages.append(
                PrintPage(
                    lang=lang,
                    rulebook=rulebook,
                    article=article,
                    site_name=str(config.site_name or ""),
                    address=f"{site_url.rstrip('/')}/{page.url}" if site_url else "",
                    made=build_day(os.environ.get("SOURCE_DATE_EPOCH")),
                    source=where,
                    uri=uri,
                    page_dir=folder,
                )
            )
            return link_html(posixpath.relpath(uri, folder or "."), lang)
        # the Dutch page in another language's site: its PDF is the default language's
        prefix = f"{self.building}/"
        dutch = dest.removeprefix(prefix) if dest.startswith(prefix) else dest
        uri = pdf_uri(dutch, page.file.src_uri, lang)
        return link_html(posixpath.relpath(uri, folder or "."), self.building, dutch_text=True)

    def _write_pdfs(self, config: MkDocsConfig) -> None:
        """Print every rulebook page kept in this build (every language) into the site."""
        started = time.monotonic()
        try:
            done = write_pdfs(self.print_pages, Path(config.site_dir))
        except PdfError as error:
            raise PluginError(f"rulebook: {error.message}") from None
        for printed, (pages, complaints) in done:
            for complaint in complaints:
                log.warning(f"{printed.source}: PDF {printed.uri}: {complaint}")
            log.info(f"PDF {printed.uri}: {pages} pages")
        log.info(f"{len(done)} PDFs made in {time.monotonic() - started:.1f} s")

    def on_post_template(
        self, output_content: str, *, template_name: str, config: MkDocsConfig
    ) -> str:
        output = _drop_alternate_links(output_content)
        if template_name == "404.html" and self.building == self._default_language(config):
            # every language build writes /404.html; the default language's is kept
            self.not_found_page = output
        return output

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Give the page its Content-Security-Policy; point Material at our search worker and
        at this language's own index."""
        output = content_security_policy(_drop_alternate_links(output))
        match = _CONFIG_SCRIPT.search(output)
        if match is None:
            return output
        try:
            settings = json.loads(match.group(2))
        except ValueError:
            return output
        worker = str(settings.get("search", ""))
        if self.search_worker and worker.endswith(self.search_worker):
            settings["search"] = worker[: -len(self.search_worker)] + SEARCH_WORKER
        if self.config.split_search and self.building != self._default_language(config):
            base_url = str(settings.get("base", "."))
            # with the trailing slash: Material resolves "search/..." against it
            settings["base"] = (
                f"{self.building}/"
                if base_url in ("", ".", "./")
                else f"{base_url.rstrip('/')}/{self.building}/"
            )
        replaced = json.dumps(settings, separators=(",", ":"))
        return output[: match.start(2)] + replaced + output[match.end(2) :]

    # ------------------------------------------------------------------ search
    @event_priority(-50)
    def _keep_search_entries(self, *, config: MkDocsConfig) -> None:
        """After the search plugin, before static-i18n merges the languages' entries."""
        search = config.plugins.get("material/search") or config.plugins.get("search")
        index = getattr(search, "search_index", None)
        entries = getattr(index, "entries", None) if index is not None else None
        if entries is None:
            return
        self.search_entries[self.building] = deepcopy(list(entries))
        self.search_config = dict(getattr(index, "config", {}) or {})

    @event_priority(-110)
    def _finish_build(self, *, config: MkDocsConfig) -> None:
        """After static-i18n: when the outermost build ends, write one index per language."""
        if self.languages:
            self.languages.pop()
        if self.languages:
            return
        if self.config.split_search and self.search_entries:
            self._write_search_indexes(config)
        if self.not_found_page is not None:
            (Path(config.site_dir) / "404.html").write_text(self.not_found_page, encoding="utf-8")
        if self.config.pdf and self.print_pages:
            self._write_pdfs(config)
        self.search_entries = {}
        self.not_found_page = None
        self.print_pages = []
        log.debug(f"diagrams: {self.cache.hits} from the cache, {self.cache.misses} rendered")

    on_post_build = CombinedEvent(_keep_search_entries, _finish_build)

    def _write_search_indexes(self, config: MkDocsConfig) -> None:
        default = self._default_language(config)
        keys = ("lang", "separator", "pipeline", "fields")
        for lang, entries in sorted(self.search_entries.items()):
            prefix = "" if lang == default else f"{lang}/"
            docs = []
            for entry in entries:
                location = str(entry.get("location", ""))
                if prefix and location.startswith(prefix):
                    location = location[len(prefix) :]
                docs.append({**entry, "location": location})
            settings = {k: self.search_config[k] for k in keys if k in self.search_config}
            settings["lang"] = SEARCH_LANGUAGES.get(lang, ["en"])
            index = {"config": settings, "docs": docs}
            refine_index(index, lang, self.problems.collections)
            data = json.dumps(index, separators=(",", ":"))
            target = Path(config.site_dir) / prefix / "search" / "search_index.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(data, encoding="utf-8")

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.languages = []

    def on_build_error(self, *, error: Exception) -> None:
        self.languages = []
        self.search_entries = {}
        self.print_pages = []


MOVE: Final = re.compile(r"(?<![\w-])\d{1,2}(?:[-x]\d{1,2})+(?![\w-])")
"""A move in running text: ``46-41``, ``26x37``, ``37x28x19`` (not ``2-6-2018``)."""

NO_MOVES_IN: Final = frozenset(
    {"code", "pre", "kbd", "samp", "script", "style", "svg", "math", "span"}
    | {f"h{level}" for level in range(1, 7)}
)
"""Elements whose text is left as it is: code, headings (their anchors and the table of
contents come from their text), and spans (ours, or someone else's inline markup)."""


class _MoveTreeprocessor(Treeprocessor):
    """Wraps each move of the running text in ``<span class="rb-move">``.

    Works on the element tree, so attributes (a link's URL, an id) are never touched, and
    runs after the inline patterns: code spans are ``<code>`` elements by then, and raw HTML
    (the diagrams, whose SVG and JSON are stashed by :mod:`.fences`) is still a placeholder
    that holds no move.  The search index reads the span's text as part of the word.
    """

    def run(self, root: ET.Element) -> None:
        self._wrap(root)

    def _wrap(self, element: ET.Element) -> None:
        if not isinstance(element.tag, str) or element.tag in NO_MOVES_IN:
            return
        children = list(element)
        for child in children:
            self._wrap(child)
        if element.text:
            head, spans = _split_moves(element.text)
            if spans:
                element.text = head
                for index, span in enumerate(spans):
                    element.insert(index, span)
        for child in children:
            if child.tail:
                head, spans = _split_moves(child.tail)
                if spans:
                    child.tail = head
                    at = list(element).index(child) + 1
                    for offset, span in enumerate(spans):
                        element.insert(at + offset, span)


def _split_moves(text: str) -> tuple[str, list[ET.Element]]:
    """``"a 32-28 b"`` -> ``"a "`` and a span ``32-28`` whose tail is ``" b"``."""
    spans: list[ET.Element] = []
    head = text
    last = 0
    for match in MOVE.finditer(text):
        span = ET.Element("span", {"class": "rb-move"})
        span.text = match.group()
        if spans:
            spans[-1].tail = text[last : match.start()]
        else:
            head = text[: match.start()]
        spans.append(span)
        last = match.end()
    if spans:
        spans[-1].tail = text[last:]
    return head, spans


class MoveExtension(Extension):
    """The Markdown extension the plugin adds: :class:`_MoveTreeprocessor`, after the table
    of contents (5) has read the headings and before escaped characters come back (0)."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.treeprocessors.register(_MoveTreeprocessor(md), "rulebook-moves", 3)


_ALTERNATE_LINK: Final = re.compile(
    r'\n?[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">'
)


_INLINE_SCRIPT: Final = re.compile(r"<script>(.*?)</script>", re.DOTALL)
_ARTICLE: Final = re.compile(r"<article\b.*?</article>", re.DOTALL)


def content_security_policy(html: str) -> str:
    """Give a page a Content-Security-Policy (a ``<meta>`` at the top of ``<head>``).

    It permits what the site itself needs and nothing else:

    * scripts from the site's own address, and the theme's few inline scripts by their
      SHA-256 (those outside the page's ``<article>``, which the theme's template wrote; the
      article, where a page's text goes, gets no script allowed), so a script that outside
      text smuggled into a page would not run;
    * styles from the site and inline (the theme and the diagrams set ``style``: CSS cannot run
      code), images from the site and ``data:`` URLs;
    * the search worker from the site (``worker-src 'self'``); no plugins (``object-src
      'none'``), no ``<base>`` elsewhere, no form posting elsewhere, no requests to other hosts.
    """
    article = _ARTICLE.search(html)
    outside = html if article is None else html[: article.start()] + html[article.end() :]
    hashes = sorted(
        {
            "'sha256-"
            + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
            + "'"
            for script in _INLINE_SCRIPT.findall(outside)
        }
    )
    policy = "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' " + " ".join(hashes) if hashes else "script-src 'self'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            "font-src 'self' data:",
            "worker-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
        ]
    )
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    head = html.find("<head>")
    if head < 0:
        return html
    at = head + len("<head>")
    return html[:at] + meta + html[at:]


def _drop_alternate_links(html: str) -> str:
    """Remove the ``<link rel="alternate" hreflang>`` tags from the page head.

    Material fetches ``sitemap.xml`` next to every such link to switch languages in place;
    static-i18n points them at pages, so each page load asked for three missing files.  The
    header's language menu keeps its per-page links (static-i18n), and with a ``site_url``
    the sitemap lists every page's translations for search engines.
    """
    return _ALTERNATE_LINK.sub("", html)


@dataclass(frozen=True, slots=True)
class _Alternate:
    """A generated page in another language, as the language switcher needs it."""

    url: str


def _page_dest(uri: str, directory_urls: bool) -> str:
    """``problemen/x/a1.md`` -> ``problemen/x/a1/index.html`` (``index.md`` -> ``index.html``)."""
    stem = uri.removesuffix(".md")
    if stem.endswith("/index") or stem == "index":
        return f"{stem}.html"
    return f"{stem}/index.html" if directory_urls else f"{stem}.html"


def _page_url(uri: str, directory_urls: bool) -> str:
    dest = _page_dest(uri, directory_urls)
    return dest.removesuffix("index.html") if directory_urls else dest


def _merge_sections(items: list[Any]) -> list[Any]:
    """Sibling sections with the same title become one, their pages in file-name order."""
    merged: list[Any] = []
    by_title: dict[str, Section] = {}
    grown: set[int] = set()
    for item in items:
        if isinstance(item, Section) and item.title in by_title:
            target = by_title[item.title]
            for child in item.children:
                child.parent = target
            target.children.extend(item.children)
            grown.add(id(target))
            continue
        if isinstance(item, Section):
            by_title[item.title] = item
        merged.append(item)
    for item in merged:
        if isinstance(item, Section):
            item.children = _merge_sections(item.children)
            if id(item) in grown:
                item.children.sort(key=_nav_order)
    return merged


def _nav_order(item: Any) -> tuple[int, str]:
    file = getattr(item, "file", None)
    if file is not None:
        return (0, str(getattr(file, "norm_src_uri", file.src_uri)))
    return (1, str(getattr(item, "title", "") or ""))


def _material_search_worker(files: Files) -> str | None:
    """``assets/javascripts/workers/search.<hash>.min.js`` of the Material theme, if any."""
    for file in files:
        uri = file.src_uri
        if re.fullmatch(r"assets/javascripts/workers/search\.[0-9a-f]+\.min\.js", uri):
            return uri
    return None


def escaped_striptags(value: object) -> markupsafe.Markup:
    """``striptags`` for templates without autoescaping: the text of HTML ``value``, with its
    tags removed and whitespace collapsed as Jinja's filter does, but escaped, ready to be
    written into HTML (Jinja's own returns the unescaped text, which is markup again)."""
    text = value if isinstance(value, str) else str(value)
    return markupsafe.escape(markupsafe.Markup(text).striptags())


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _LinkLocator(logging.Filter):
    """Adds ``file:line:`` to MkDocs' warnings about links (it names only the file)."""

    def __init__(self, docs_dir: Path, project_dir: Path) -> None:
        super().__init__("rulebook-links")
        self.docs_dir = docs_dir
        self.project_dir = project_dir

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        match = _LINK_WARNING.match(message)
        if match is None or getattr(record, "rulebook_located", False):
            return True
        path = (self.docs_dir / match["file"]).resolve()
        try:
            shown = path.relative_to(self.project_dir).as_posix()
        except ValueError:
            shown = path.as_posix()
        line = _find_line(path, match["link"])
        where = f"{shown}:{line}" if line else shown
        record.msg = f"{where}: {message}"
        record.args = ()
        record.rulebook_located = True
        return True


def _find_line(path: Path, link: str) -> int | None:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for wanted in (f"]({link})", f"({link}", link):
        for number, text in enumerate(lines, start=1):
            if wanted in text:
                return number
    return None


def _install_link_locator(docs_dir: Path, project_dir: Path) -> None:
    logger = logging.getLogger("mkdocs.structure.pages")
    for existing in list(logger.filters):
        if isinstance(existing, _LinkLocator):
            logger.removeFilter(existing)
    logger.addFilter(_LinkLocator(docs_dir.resolve(), project_dir))
