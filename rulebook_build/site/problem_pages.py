"""The problem pages: a page per collection and per problem, added to every language's build.

The collections live in ``problems/``, not in ``docs/``: their pages are made while the site
builds, in the language being built, after static-i18n has chosen that language's files, and
given what static-i18n gives the files it chose so that the language switcher links them.
Each problem also gets a small diagram for the lists, drawn once for every language.  A page's
Markdown is its title only; the plugin adds the rest from the entry or collection object itself
(``SiteBuild.made_pages``, :meth:`.blocks.BlockRenderer.made_page`), with no block of text to
find it again by.  What a page says is :mod:`.problems`' job; this module only puts the pages
into MkDocs' files.
"""

from __future__ import annotations

from dataclasses import dataclass

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from rulebook_build.errors import RulebookError
from rulebook_build.render import board_svg
from rulebook_build.site.problems import collection_markdown, problem_markdown, thumbnail_path
from rulebook_build.site.state import SiteBuild, build_languages, default_language


@dataclass(frozen=True, slots=True)
class _Alternate:
    """A generated page in another language, as the language switcher needs it."""

    url: str


def page_dest(uri: str, directory_urls: bool) -> str:
    """``problemen/x/a1.md`` -> ``problemen/x/a1/index.html`` (``index.md`` -> ``index.html``)."""
    stem = uri.removesuffix(".md")
    if stem.endswith("/index") or stem == "index":
        return f"{stem}.html"
    return f"{stem}/index.html" if directory_urls else f"{stem}.html"


def page_url(uri: str, directory_urls: bool) -> str:
    dest = page_dest(uri, directory_urls)
    return dest.removesuffix("index.html") if directory_urls else dest


def add_problem_pages(site: SiteBuild, files: Files, config: MkDocsConfig) -> Files:
    """A page per collection and per problem, in the language being built, made from
    ``problems/`` (nothing in ``docs/``), and a small diagram per problem for the lists."""
    lang = site.building
    default = default_language(config)
    prefix = "" if lang == default else f"{lang}/"
    try:
        collections = site.problems.collections
    except RulebookError as error:
        raise PluginError(f"rulebook: {error}") from error
    pages: dict[str, str] = {}
    for collection in collections:
        folder = f"problemen/{collection.slug}"
        pages[f"{folder}/index.md"] = collection_markdown(collection, lang)
        site.made_pages[f"{lang}/{folder}/index.md"] = collection
        for entry in collection.entries:
            pages[f"{folder}/{entry.slug}.md"] = problem_markdown(entry)
            site.made_pages[f"{lang}/{folder}/{entry.slug}.md"] = entry
            uri = thumbnail_path(entry)
            if files.get_file_from_path(uri) is None:
                if uri not in site.thumbnails:  # once per build, for every language
                    site.thumbnails[uri] = board_svg(
                        entry.start, lang="en", id_prefix="t", standalone=True, size=150
                    )
                files.append(File.generated(config, uri, content=site.thumbnails[uri]))
    for uri, markdown in pages.items():
        page = File(
            f"{lang}/{uri}",
            src_dir=None,
            dest_dir=config.site_dir,
            use_directory_urls=config.use_directory_urls,
            dest_uri=prefix + page_dest(uri, config.use_directory_urls),
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
                ("" if other == default else f"{other}/") + page_url(uri, config.use_directory_urls)
            )
            for other in build_languages(config, site.building)
        }
        files.append(page)
    return files
