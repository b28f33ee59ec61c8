"""The site's search: Material's lunr.js search, tuned to find what readers type.

Material's search plugin writes each page's sections into ``search_index.json``; the rulebook
plugin gives every language its own index and hands it to :func:`refine_index` before writing
it, and serves Material's search worker through :data:`SEARCH_WORKER_SOURCE`.  What readers
type and what each part does:

- ``art. 17``, ``artikel 17``, ``Article 17``, ``kêst 17``: an article's section gets a field
  ``keys`` (indexed with the title's weight, never shown) with the words for "article" in the
  site's languages and its number, taken from its anchor (``#art-17``, ``#h-art-2``,
  ``#art-22a``; guides/webmasters.md), so every spelling finds it in every language;
- ``32-28``, ``26x37``, ``2.1``: one word each, in the index and in the query.  The separator
  (``mkdocs.yml``) splits at spaces and punctuation, at ``.`` unless a digit follows
  (``art.``, ``J.Scheijen``, ``Cat.B1``), never at ``-``; the pipeline has no trimmer (lunr's
  Dutch trimmer removes digits: every number and move vanished from the Dutch index);
- ``Scheijen``: a problem's composer, where its page shows one, goes into ``keys``;
- ``PWCP-2 A4``, ``Cat.B1 17``: the problem's title; the worker counts a word typed whole
  three times as much as a longer word it begins (Material makes every word a prefix, and
  ``A4`` found A40-A49 as much as A4).

Lighter: a problem page is one entry (its collection and number, its composer and source where
shown, its moves) instead of the page with its solution and the checker's whole report, and a
collection page, or a section listing most problems (the index of every problem), keeps its
paragraphs, not the text of its tables and lists (every problem has its own entry).  Text
taken from ``problems/`` is escaped here; the rest is Material's, already escaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any, Final

from rulebook_build.site.collections import Collection, Entry, localized

_WORKER_TEMPLATE: Final = """/* Written by the rulebook plugin (rulebook_build/site/search.py):
 * Material's search worker, with two changes to how lunr reads a query.
 * - lunr's query lexer splits a query only at spaces.  Material has split each word with
 *   the site's separator already (which keeps "32-28" and "2.1" whole); the lexer, which
 *   tests one character at a time, split "32-28" at "-" and "2.1" at ".".
 * - A word typed whole counts three times as much as a longer word it begins (Material
 *   makes every word a prefix: "A4" found A40-A49 as much as A4). */
importScripts("{worker}");
(function () {{
  var lunr = self.lunr;
  if (!lunr || !lunr.QueryLexer || !lunr.Index || !lunr.Query) {{
    return;
  }}
  Object.defineProperty(lunr.QueryLexer, "termSeparator", {{
    configurable: true,
    value: /\\s/,
  }});
  var query = lunr.Index.prototype.query;
  lunr.Index.prototype.query = function (build) {{
    return query.call(this, function (built) {{
      build.call(built, built);
      var clauses = built.clauses.slice();
      for (var i = 0; i < clauses.length; i++) {{
        var clause = clauses[i];
        if (
          clause.presence !== lunr.Query.presence.PROHIBITED &&
          /^[^*]+[*]$/.test(clause.term)
        ) {{
          built.clause({{
            term: clause.term.slice(0, -1),
            fields: clause.fields,
            boost: {whole} * (clause.boost || 1),
            usePipeline: false,
            presence: lunr.Query.presence.OPTIONAL,
          }});
        }}
      }}
    }});
  }};
}})();
"""

WHOLE_WORD_BOOST: Final = 2
"""What a word typed whole adds to its weight as a prefix (1): three times the weight."""

SEARCH_WORKER_SOURCE: Final = _WORKER_TEMPLATE.replace("{whole}", str(WHOLE_WORD_BOOST))
"""The worker the pages load, to be formatted with ``worker``: the file name of Material's
own worker, beside it."""

KEYS: Final = "keys"
"""The index field of words readers type that the entry does not show."""
KEYS_BOOST: Final = 1000.0
"""The weight of :data:`KEYS`: Material's weight for a title."""

ARTICLE_WORDS: Final = ("art", "artikel", "article", "kêst")
""""Article" as the rulebooks write it, in Dutch, English and Frisian."""
ARTICLE_ANCHOR: Final = re.compile(r"(?:[a-z]-|bijlage-\d+-)?art-(?P<number>\d+[a-z]?)")
"""An article's anchor (``art-17``, ``h-art-2``, ``bijlage-2-art-1``), not a sub-article's
(``art-6-3``, found by its heading ``6.3``)."""

LISTED: Final = 3
"""An entry naming at least this many problems, and most of them, lists them."""
PROBLEMS: Final = "problemen"
"""The folder of the generated problem pages (``problemen/<collection>/<entry>/``)."""

_PARAGRAPH: Final = re.compile(r"<p>(.*?)</p>", re.DOTALL)
_MOVE: Final = re.compile(r"(?<![\w-])\d{1,2}(?:[-x]\d{1,2})+(?![\w-])")
"""A move (as ``plugin.MOVE``, which imports this module)."""


def refine_index(index: dict[str, Any], lang: str, collections: Iterable[Collection]) -> None:
    """Refine one language's index (``{"config": .., "docs": [..]}``, its locations relative
    to the language's root) in place: keys for articles and problems, lighter problem pages."""
    fields = dict(index["config"].get("fields") or {})
    index["config"]["fields"] = {KEYS: {"boost": KEYS_BOOST}, **fields}
    problems: dict[str, Entry] = {}
    listings: set[str] = set()
    for collection in collections:
        listings.add(f"{PROBLEMS}/{collection.slug}")
        for one in collection.entries:
            problems[f"{PROBLEMS}/{collection.slug}/{one.slug}"] = one
    titles = {html.escape(one.title, quote=False) for one in problems.values()}
    docs: list[dict[str, Any]] = []
    for doc in index["docs"]:
        location = str(doc.get("location", ""))
        page, _, anchor = location.partition("#")
        path = _page_path(page)
        entry = problems.get(path)
        if entry is not None:
            if not anchor:  # the page's sections say nothing more that readers search for
                docs.append(_problem(doc, entry, lang))
            continue
        text = str(doc.get("text", ""))
        if path in listings or _lists(text, titles):
            doc = {**doc, "text": "".join(_paragraphs(text))}
        article = ARTICLE_ANCHOR.fullmatch(anchor)
        if article is not None:
            doc = {**doc, KEYS: " ".join((*ARTICLE_WORDS, article["number"]))}
        docs.append(doc)
    index["docs"] = docs


def _page_path(page: str) -> str:
    """``problemen/x/a1/``, ``problemen/x/a1.html``, ``problemen/x/`` -> ``problemen/x/a1``."""
    path = page.removesuffix("index.html").removesuffix(".html")
    return path.strip("/")


def _lists(text: str, titles: set[str]) -> bool:
    """Whether ``text`` lists the problems (names most of them, as the index of every problem
    does): each has an entry of its own."""
    named = sum(1 for title in titles if title in text)
    return named >= LISTED and 2 * named > len(titles)


def _paragraphs(text: str) -> list[str]:
    """The non-empty paragraphs of an entry's text (Material's, escaped), each with its tags:
    what a page's tables and lists gave (glued cells) stands outside them."""
    return [match.group(0) for match in _PARAGRAPH.finditer(text) if match.group(1).strip()]


def _problem(doc: dict[str, Any], entry: Entry, lang: str) -> dict[str, Any]:
    """A problem page's one entry: its title, its collection and number, the composer and
    source where the page shows them, and the paragraphs of its moves (what the page shows:
    none before a contest publishes its solutions)."""
    text = str(doc.get("text", ""))
    composer, source = (html.escape(v, quote=False) for v in (entry.composer, entry.publication))
    shown = [value for value in (composer, source) if value and value in text]
    name = html.escape(f"{localized(entry.collection.title, lang)}, {entry.name}", quote=False)
    parts = [f"<p>{name}</p>"]
    if shown:
        parts.append(f"<p>{' · '.join(shown)}</p>")
    parts += [paragraph for paragraph in _paragraphs(text) if _MOVE.search(paragraph)]
    refined = {"location": doc["location"], "title": doc.get("title", ""), "text": "".join(parts)}
    if composer and composer in shown:
        refined[KEYS] = composer
    return refined
