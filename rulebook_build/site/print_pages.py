"""Handing the rulebook pages to the PDF printer, and linking each page to its PDF.

With the option ``pdf``, every rulebook page (front matter ``rulebook:``) is kept as it is
rendered, in every language (:func:`keep_print_page`, which returns the link to put under the
page's title), and all of them are printed by :mod:`.pdf` when the last language is built
(:func:`print_kept_pages`): printing needs every page of every language, which only the end of
the outermost build has.  How a page is printed is :mod:`.pdf`'s job; this module is the
plugin's side of it.
"""

from __future__ import annotations

import os
import posixpath
import time
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from rulebook_build.errors import RulebookError
from rulebook_build.site.pdf import (
    PdfError,
    PrintPage,
    build_day,
    link_html,
    pdf_uri,
    prepare_article,
    rulebook_of,
    write_pdfs,
)
from rulebook_build.site.state import SiteBuild, default_language, log


def keep_print_page(site: SiteBuild, html: str, page: Page, config: MkDocsConfig, lang: str) -> str:
    """Keep a rulebook page for its PDF; the link to the PDF (empty on another page).

    A page shown in Dutch because it is not translated links the Dutch PDF."""
    where = site.page.source if site.page else page.file.src_uri
    try:
        rulebook = rulebook_of(page.meta, where)
    except RulebookError as error:
        site.report(str(error))
        return ""
    if rulebook is None:
        return ""
    dest = page.file.dest_uri
    folder = posixpath.dirname(dest)
    if lang == site.building:
        uri = pdf_uri(dest, page.file.src_uri, lang)
        site_url = config.site_url or None
        article = prepare_article(
            html,
            page_url=page.url,
            site_url=site_url,
            lift_notice=lang != default_language(config),
        )
        site.print_pages.append(
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
    prefix = f"{site.building}/"
    dutch = dest.removeprefix(prefix) if dest.startswith(prefix) else dest
    uri = pdf_uri(dutch, page.file.src_uri, lang)
    return link_html(posixpath.relpath(uri, folder or "."), site.building, dutch_text=True)


def print_kept_pages(site: SiteBuild, config: MkDocsConfig) -> None:
    """Print every rulebook page kept in this build (every language) into the site."""
    started = time.monotonic()
    try:
        done = write_pdfs(site.print_pages, Path(config.site_dir))
    except PdfError as error:
        raise PluginError(f"rulebook: {error.message}") from None
    for printed, (pages, complaints) in done:
        for complaint in complaints:
            log.warning(f"{printed.source}: PDF {printed.uri}: {complaint}")
        log.info(f"PDF {printed.uri}: {pages} pages")
    log.info(f"{len(done)} PDFs made in {time.monotonic() - started:.1f} s")
