"""The check page room: the "check your problem" page (``/controleren/``), whole.

* ``entry``: the checker's entry points the page calls under Pyodide, in its worker;
* ``tables``: the worker's tables (opened from the site's manifest, read a page at a time) and
  the scouts that fetch their pages before the search asks (``entry`` re-exports its calls);
* ``page``: the page's application as the site renders it, its words, and the files the site
  copies for it (the Python bundle, Pyodide, the published tables, the WebAssembly search);
* ``assets/``: its scripts (the page's, the worker, the WebAssembly host, the table reader);
* ``templates/``: the page's template.

A check flows page -> worker -> ``entry`` -> checker -> WebAssembly search -> table fetches
(guides/design.md, "The check page").  Below the site, which renders the page and copies the
files; above the checker, the engine, the notation, the renderer and the anticipation search,
which it uses through their faces.  The worker imports ``entry`` through this face, which loads
nothing more: the page's module (and Jinja) is never loaded in the browser.
"""

from typing import TYPE_CHECKING

from rulebook_build import face

# The face: what the other rooms use, each loaded from its module on first use.
if TYPE_CHECKING:
    from rulebook_build.checkpage import entry
    from rulebook_build.checkpage.entry import DEFAULT_SECONDS, pdn
    from rulebook_build.checkpage.page import (
        ASSETS,
        BUNDLE_DEST,
        BUNDLE_PARTS,
        COMPILER,
        EARLY_START,
        LABELS,
        PAGE_SCRIPT,
        PYODIDE_DEST,
        PYODIDE_FILES,
        SITE_WORDS,
        TABLES_DEST,
        WASM_DEST,
        WORKER_FILES,
        compiled_bundle,
        manifest_digest,
        published_tables,
        pyodide_folder,
        pyodide_version,
        python_bundle,
        render_checker,
    )

_PAGE = "rulebook_build.checkpage.page"

__getattr__ = face(
    __name__,
    {
        "entry": ("rulebook_build.checkpage.entry", None),
        "DEFAULT_SECONDS": ("rulebook_build.checkpage.entry", "DEFAULT_SECONDS"),
        "pdn": ("rulebook_build.checkpage.entry", "pdn"),
        "ASSETS": (_PAGE, "ASSETS"),
        "BUNDLE_DEST": (_PAGE, "BUNDLE_DEST"),
        "COMPILER": (_PAGE, "COMPILER"),
        "EARLY_START": (_PAGE, "EARLY_START"),
        "BUNDLE_PARTS": (_PAGE, "BUNDLE_PARTS"),
        "LABELS": (_PAGE, "LABELS"),
        "PAGE_SCRIPT": (_PAGE, "PAGE_SCRIPT"),
        "PYODIDE_DEST": (_PAGE, "PYODIDE_DEST"),
        "PYODIDE_FILES": (_PAGE, "PYODIDE_FILES"),
        "SITE_WORDS": (_PAGE, "SITE_WORDS"),
        "TABLES_DEST": (_PAGE, "TABLES_DEST"),
        "WASM_DEST": (_PAGE, "WASM_DEST"),
        "WORKER_FILES": (_PAGE, "WORKER_FILES"),
        "compiled_bundle": (_PAGE, "compiled_bundle"),
        "manifest_digest": (_PAGE, "manifest_digest"),
        "published_tables": (_PAGE, "published_tables"),
        "pyodide_folder": (_PAGE, "pyodide_folder"),
        "pyodide_version": (_PAGE, "pyodide_version"),
        "python_bundle": (_PAGE, "python_bundle"),
        "render_checker": (_PAGE, "render_checker"),
    },
)

__all__ = [
    "ASSETS",
    "BUNDLE_DEST",
    "BUNDLE_PARTS",
    "COMPILER",
    "DEFAULT_SECONDS",
    "EARLY_START",
    "LABELS",
    "PAGE_SCRIPT",
    "PYODIDE_DEST",
    "PYODIDE_FILES",
    "SITE_WORDS",
    "TABLES_DEST",
    "WASM_DEST",
    "WORKER_FILES",
    "compiled_bundle",
    "entry",
    "manifest_digest",
    "pdn",
    "published_tables",
    "pyodide_folder",
    "pyodide_version",
    "python_bundle",
    "render_checker",
]
