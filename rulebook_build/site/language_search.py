"""A search index per language instead of one index of every language.

Material's search plugin indexes the pages of the build under way; static-i18n then merges
the languages' entries into one index, so a Dutch reader found English and Frisian pages.
The plugin keeps each language's entries before that merge (:func:`keep_search_entries`),
writes one index per language when the outermost build ends (:func:`write_search_indexes`,
``/search/``, ``/en/search/``, ``/fy/search/``, refined by :mod:`.search`), and points every
page at its language's index and at our search worker (:func:`point_search`).
"""

from __future__ import annotations

import json
import re
from copy import deepcopy
from pathlib import Path
from typing import Final

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from rulebook_build.site.search import refine_index
from rulebook_build.site.state import SiteBuild, default_language

SEARCH_LANGUAGES: Final = {"nl": ["nl"], "en": ["en"], "fy": ["nl"]}
"""lunr.js stemmers per site language (lunr has no Frisian; the untranslated text is Dutch)."""

SEARCH_WORKER: Final = "assets/javascripts/workers/rulebook-search.js"

_CONFIG_SCRIPT: Final = re.compile(
    r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL
)


def material_search_worker(files: Files) -> str | None:
    """``assets/javascripts/workers/search.<hash>.min.js`` of the Material theme, if any."""
    for file in files:
        uri = file.src_uri
        if re.fullmatch(r"assets/javascripts/workers/search\.[0-9a-f]+\.min\.js", uri):
            return uri
    return None


def point_search(site: SiteBuild, output: str, config: MkDocsConfig) -> str:
    """Point Material, in the page's settings, at our search worker and at this language's
    own index."""
    match = _CONFIG_SCRIPT.search(output)
    if match is None:
        return output
    try:
        settings = json.loads(match.group(2))
    except ValueError:
        return output
    worker = str(settings.get("search", ""))
    if site.search_worker and worker.endswith(site.search_worker):
        settings["search"] = worker[: -len(site.search_worker)] + SEARCH_WORKER
    if site.options.split_search and site.building != default_language(config):
        base_url = str(settings.get("base", "."))
        # with the trailing slash: Material resolves "search/..." against it
        settings["base"] = (
            f"{site.building}/"
            if base_url in ("", ".", "./")
            else f"{base_url.rstrip('/')}/{site.building}/"
        )
    replaced = json.dumps(settings, separators=(",", ":"))
    return output[: match.start(2)] + replaced + output[match.end(2) :]


def keep_search_entries(site: SiteBuild, config: MkDocsConfig) -> None:
    """The entries the search plugin made for the language being built."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    index = getattr(search, "search_index", None)
    entries = getattr(index, "entries", None) if index is not None else None
    if entries is None:
        return
    site.search_entries[site.building] = deepcopy(list(entries))
    site.search_config = dict(getattr(index, "config", {}) or {})


def write_search_indexes(site: SiteBuild, config: MkDocsConfig) -> None:
    """One ``search/search_index.json`` per language, in its folder of the site."""
    default = default_language(config)
    keys = ("lang", "separator", "pipeline", "fields")
    for lang, entries in sorted(site.search_entries.items()):
        prefix = "" if lang == default else f"{lang}/"
        docs = []
        for entry in entries:
            location = str(entry.get("location", ""))
            if prefix and location.startswith(prefix):
                location = location[len(prefix) :]
            docs.append({**entry, "location": location})
        settings = {k: site.search_config[k] for k in keys if k in site.search_config}
        settings["lang"] = SEARCH_LANGUAGES.get(lang, ["en"])
        index = {"config": settings, "docs": docs}
        refine_index(index, lang, site.problems.collections)
        data = json.dumps(index, separators=(",", ":"))
        target = Path(config.site_dir) / prefix / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(data, encoding="utf-8")
