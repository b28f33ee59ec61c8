"""Finishing a page's HTML: what the plugin adds to or takes from a page once it is rendered.

A page's article gets the date of its last change (``editions/history.toml``) and, when it is
shown in Dutch because it has no translation, a notice in the reader's language; the whole
page gets its Content-Security-Policy and loses the ``hreflang`` links that made Material
fetch missing files; the theme's ``striptags`` filter is replaced by one that keeps titles
escaped.  These are functions of text alone, kept apart from the plugin so that the security
rules (``SECURITY.md``) can be read and tested in one place.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Final

import markupsafe

from rulebook_build.checkpage import EARLY_START
from rulebook_build.site.history import History, history_notice
from rulebook_build.words import LANGUAGES, define
from rulebook_build.words import text as said

_NOTICE_IDS: Final = (
    define("page.not_translated", "Not translated"),
    define(
        "page.not_translated_text",
        "This page has not been translated into English yet; the Dutch text follows.",
    ),
)
NOTICES: Final = {
    lang: (said(_NOTICE_IDS[0], lang), said(_NOTICE_IDS[1], lang)) for lang in LANGUAGES
}

_ALTERNATE_LINK: Final = re.compile(
    r'\n?[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">'
)


_INLINE_SCRIPT: Final = re.compile(r"<script>(.*?)</script>", re.DOTALL)
_ARTICLE: Final = re.compile(r"<article\b.*?</article>", re.DOTALL)


def with_history(html: str, history: History, source: str, lang: str) -> str:
    """The page's last change (``editions/history.toml``) under its title."""
    changes = history.of(source)
    if not changes:
        return html
    notice = history_notice(changes, lang=lang)
    if not notice:
        return html
    match = re.search(r"</h1>", html)
    if match is None:
        return notice + html
    return html[: match.end()] + "\n" + notice + html[match.end() :]


def with_untranslated_notice(html: str, *, lang: str, building: str) -> str:
    """A page written in ``lang`` shown in the site of ``building``: a notice in the reader's
    language under the title, and the text marked as written in ``lang``."""
    title, sentence = NOTICES.get(building, NOTICES["en"])
    notice = (
        f'<div class="admonition warning rb-untranslated"><p class="admonition-title">'
        f"{title}</p><p>{sentence}</p></div>"
    )
    match = re.search(r"</h1>", html)
    head, rest = (html[: match.end()], html[match.end() :]) if match else ("", html)
    head = head.replace("<h1", f'<h1 lang="{lang}"', 1)
    return f'{head}\n{notice}\n<div lang="{lang}">\n{rest}\n</div>'


def under_title(html: str, addition: str) -> str:
    """``addition`` right under the page's title (at the top without one)."""
    match = re.search(r"</h1>", html)
    at = match.end() if match else 0
    return f"{html[:at]}\n{addition}\n{html[at:]}"


def content_security_policy(html: str) -> str:
    """Give a page a Content-Security-Policy (a ``<meta>`` at the top of ``<head>``).

    It permits what the site itself needs and nothing else:

    * scripts from the site's own address, and the theme's few inline scripts by their
      SHA-256 (those outside the page's ``<article>``, which the theme's template wrote; in
      the article, where a page's text goes, only the check page's own script that starts its
      worker, ``checkpage.EARLY_START``, letter for letter), so a script that outside text
      smuggled into a page would not run;
    * styles from the site and inline (the theme and the diagrams set ``style``: CSS cannot run
      code), images from the site and ``data:`` URLs;
    * the search worker from the site (``worker-src 'self'``); no plugins (``object-src
      'none'``), no ``<base>`` elsewhere, no form posting elsewhere, no requests to other hosts.
    """
    article = _ARTICLE.search(html)
    outside = html if article is None else html[: article.start()] + html[article.end() :]
    inside = "" if article is None else article.group(0)
    allowed = _INLINE_SCRIPT.findall(outside) + [
        script for script in _INLINE_SCRIPT.findall(inside) if script == EARLY_START
    ]
    hashes = sorted(
        {
            "'sha256-"
            + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
            + "'"
            for script in allowed
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


def drop_alternate_links(html: str) -> str:
    """Remove the ``<link rel="alternate" hreflang>`` tags from the page head.

    Material fetches ``sitemap.xml`` next to every such link to switch languages in place;
    static-i18n points them at pages, so each page load asked for three missing files.  The
    header's language menu keeps its per-page links (static-i18n), and with a ``site_url``
    the sitemap lists every page's translations for search engines.
    """
    return _ALTERNATE_LINK.sub("", html)


def escaped_striptags(value: object) -> markupsafe.Markup:
    """``striptags`` for templates without autoescaping: the text of HTML ``value``, with its
    tags removed and whitespace collapsed as Jinja's filter does, but escaped, ready to be
    written into HTML (Jinja's own returns the unescaped text, which is markup again)."""
    text = value if isinstance(value, str) else str(value)
    return markupsafe.escape(markupsafe.Markup(text).striptags())
