"""The files the plugin adds to the site that are not pages: scripts, styles, the checker's.

The site needs files that ``docs/`` does not hold: the plugin's stylesheet and scripts
(``assets/``, and the check page's from its room, ``checkpage/assets/``), the Frisian language
file for the theme, and for the check page the Python bundle, the published problems
(anticipation search), Pyodide, the endgame tables and the compiled search as WebAssembly, and
our search worker.  This module adds them to MkDocs'
files, making each one once a build (every language shares it) and writing a file only when
its bytes changed, so that ``mkdocs serve`` does not rebuild for nothing.  The problem pages
are added by :mod:`.problem_pages`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Final

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from rulebook_build.checkpage import ASSETS as CHECK_PAGE_ASSETS
from rulebook_build.checkpage import (
    BUNDLE_DEST,
    COMPILER,
    PAGE_SCRIPT,
    PYODIDE_DEST,
    PYODIDE_FILES,
    TABLES_DEST,
    WASM_DEST,
    WORKER_FILES,
    compiled_bundle,
    published_tables,
    pyodide_folder,
    pyodide_version,
    python_bundle,
)
from rulebook_build.engine import BLOCKS, PAGES, default_cache_dir, wasm_build
from rulebook_build.errors import OutputError, RulebookError
from rulebook_build.site.language_search import SEARCH_WORKER, material_search_worker
from rulebook_build.site.relatives import SHIPPED_DEST, shipped_index
from rulebook_build.site.search import SEARCH_WORKER_SOURCE
from rulebook_build.site.state import SiteBuild, log

ASSETS: Final = Path(__file__).resolve().parent / "assets"
PAGE_ASSETS: Final = (
    ASSETS / "draughts.css",
    ASSETS / "player.js",
    ASSETS / "tables.js",
    CHECK_PAGE_ASSETS / PAGE_SCRIPT,
    ASSETS / "scroll-regions.js",
)
"""The stylesheet and scripts on every page: the site's own, and the check page's script, which
its room keeps (``checkpage/assets/``) and starts the page's application where there is one."""
WORKER_ASSETS: Final = tuple(CHECK_PAGE_ASSETS / name for name in WORKER_FILES)
"""Assets that are not page scripts: the check page's worker, started by its script, and what
it imports (the host of the WebAssembly search, the table reader)."""
ASSET_DEST: Final = "assets/rulebook"
"""Where every one of them goes in the site, whichever room keeps it."""

FRISIAN_THEME_LANGUAGE: Final = """{#- Frisian for Material, written by the rulebook plugin.
  Material has no Frisian strings: the page says lang="fy", the theme's words are Dutch. -#}
{% import "partials/languages/nl.html" as dutch %}
{% macro t(key) %}{{ {"language": "fy"}[key] or dutch.t(key) }}{% endmacro %}
"""


def write_if_changed(path: Path, text: str) -> None:
    write_bytes_if_changed(path, text.encode("utf-8"))


def write_bytes_if_changed(path: Path, data: bytes) -> None:
    """Write ``path`` whole (a temporary file, then a rename) unless it holds ``data``; a folder
    that cannot be written (a full disk, a read-only cache) raises ``OutputError``, which stops
    the build with exit 2, and leaves no temporary file."""
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    temporary = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise OutputError(
            f"cannot write {error.filename or path}: {error.strerror or error}", source=str(path)
        ) from None


def link_page_assets(config: MkDocsConfig) -> None:
    """Our stylesheet and scripts on every page."""
    for asset in PAGE_ASSETS:
        target = config.extra_css if asset.suffix == ".css" else config.extra_javascript
        path = f"{ASSET_DEST}/{asset.name}"
        if path not in [str(entry) for entry in target]:
            target.append(path)


def frisian_theme(cache_root: Path) -> Path:
    """A theme folder with Material's missing Frisian language file (the Dutch words)."""
    theme_dir = cache_root / "theme"
    write_if_changed(theme_dir / "partials" / "languages" / "fy.html", FRISIAN_THEME_LANGUAGE)
    return theme_dir


def add_assets(site: SiteBuild, files: Files, config: MkDocsConfig) -> Files:
    """Add every generated file (not the problem pages) to the language being built."""
    if not config.site_url:
        # without site_url the sitemap template is not rendered: do not copy it raw
        for file in list(files):
            if (
                file.src_uri in ("sitemap.xml", "sitemap.xml.gz")
                and not file.is_documentation_page()
            ):
                files.remove(file)
    for asset in (*PAGE_ASSETS, *WORKER_ASSETS):
        uri = f"{ASSET_DEST}/{asset.name}"
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(asset)))
    pyodide = pyodide_folder(site.project_dir)
    if pyodide is not None:
        dest = PYODIDE_DEST.format(version=pyodide_version(pyodide))
        for name in PYODIDE_FILES:
            uri = f"{dest}/{name}"
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(pyodide / name)))
        _add_generated(
            site, files, config, BUNDLE_DEST, functools.partial(_write_bundle, pyodide=pyodide)
        )
        _add_generated(
            site, files, config, SHIPPED_DEST, functools.partial(_write_similar_index, site)
        )
        _add_checker_files(site, files, config)
    site.search_worker = material_search_worker(files)
    if site.search_worker:
        source = SEARCH_WORKER_SOURCE.format(worker=site.search_worker.rsplit("/", 1)[-1])
        _add_generated(
            site, files, config, SEARCH_WORKER, functools.partial(write_if_changed, text=source)
        )
    return files


def _add_generated(
    site: SiteBuild, files: Files, config: MkDocsConfig, uri: str, write: Callable[[Path], None]
) -> None:
    """Add the file ``uri`` of the built site, made by ``write`` into the cache folder
    once per build (a real file: static-i18n looks at every file's source path)."""
    if files.get_file_from_path(uri) is not None:
        return
    path = site.project_dir / site.options.cache_dir / "generated" / uri.rsplit("/", 1)[-1]
    if uri not in site.generated:
        site.generated.add(uri)
        write(path)
    files.append(File.generated(config, uri, abs_src_path=str(path)))


def _write_bundle(path: Path, pyodide: Path) -> None:
    """The check page's Python, compiled by its Pyodide (``checkpage.compiled_bundle``) where
    Node.js can run it, else its sources, which the browser then compiles each visit.  The
    compilation takes seconds, so it is done again only when the sources or Pyodide changed:
    ``path`` with the suffix ``.key`` holds the SHA-256 of what it was made from."""
    source = python_bundle()
    key_path = path.with_suffix(".key")
    key = hashlib.sha256(
        source + pyodide_version(pyodide).encode() + COMPILER.read_bytes()
    ).hexdigest()
    with contextlib.suppress(OSError):
        if path.is_file() and key_path.read_text(encoding="utf-8") == key:
            return
    try:
        bundle = compiled_bundle(source, pyodide)
    except RulebookError as error:
        log.warning("%s; the check page ships its Python as sources", error)
        write_bytes_if_changed(path, source)
        with contextlib.suppress(OSError):
            key_path.unlink()
        return
    write_bytes_if_changed(path, bundle)
    write_if_changed(key_path, key)


def _write_similar_index(site: SiteBuild, path: Path) -> None:
    """The published problems for the check page's anticipation search."""
    write_bytes_if_changed(path, shipped_index(site.problems.collections))


def _add_checker_files(site: SiteBuild, files: Files, config: MkDocsConfig) -> None:
    """The check page's tables, published block by checked block (``remote.py``), and its
    compiled search as WebAssembly (``engine/wasm.py``), made once a build and taken from
    where they are made (the tables are large: they are not copied twice)."""
    if site.site_tables is None:
        site.site_tables = {}
        for variant in ("international", "frisian"):
            log.info("publishing the %s endgame tables for the check page", variant)
            site.site_tables[variant] = published_tables(variant)
        try:
            site.wasm = wasm_build(default_cache_dir())
        except RulebookError as error:
            log.warning("%s; the check page runs the Python search", error)
            site.wasm = None
        if site.wasm is None:
            log.info(
                "no Zig (pip install -e '.[wasm]'): the check page runs the Python search "
                "without the compiled one"
            )
    for variant, (folder, manifest) in site.site_tables.items():
        dest = TABLES_DEST.format(variant=variant)
        names = [f"tables-{variant}.json"]
        for name in manifest["classes"]:
            names += [f"{name}{BLOCKS}", f"{name}{PAGES}"]
        for name in names:
            uri = f"{dest}/{name}"
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(folder / name)))
    if site.wasm is not None and files.get_file_from_path(WASM_DEST) is None:
        files.append(File.generated(config, WASM_DEST, abs_src_path=str(site.wasm)))
