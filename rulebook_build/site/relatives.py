"""The problems of the site most like each problem: its relatives, and possible anticipations.

Every problem of ``problems/`` is looked for among all the others with the anticipation search
(:mod:`rulebook_build.similar`), once per build. A problem page lists the closest, each with a
link and the reason in the reader's language; the contest page shows them beside each entry,
for the jury (a claim of anticipation stays the jury's, in ``collection.toml``).

A relative is called a *possible anticipation* only when both hold: its score says the same
position (but for a piece or two) or the same final combination
(:data:`~rulebook_build.similar.search.POSSIBLE_ANTICIPATION`), and it was published earlier: its
year (the first year in its publication tag, else its ``Date`` tag, else its collection's
date) is before the problem's. Without a year on both sides, nobody can say which came first,
and it is only a relative.
"""

from __future__ import annotations

import base64
import json
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from rulebook_build.similar import (
    Index,
    Match,
    build_index,
    cache,
    collection_of,
    describe,
    queries,
    record_of,
)
from rulebook_build.similar import search_similar as search
from rulebook_build.site.collections import Collection, Entry, localized

SHOWN: Final = 5
"""The relatives a problem page lists, best first."""
_YEAR: Final = re.compile(r"(?<!\d)(1[6-9]\d\d|20\d\d)(?!\d)")


def year_of(entry: Entry) -> int | None:
    """When the problem was published, as far as its tags or its collection say."""
    for text in (entry.publication, entry.game.tag("Date") or "", entry.collection.date):
        found = _YEAR.search(text)
        if found:
            return int(found.group(1))
    return None


@dataclass(frozen=True, slots=True)
class Relative:
    """A problem like another: the match the search found and the entry it is."""

    entry: Entry
    match: Match
    anticipation: bool
    """The same position or final combination, published earlier."""

    def reason(self, lang: str) -> str:
        return describe(self.match.about, lang)


class Relatives:
    """The relatives of every problem of a site's collections, found on first use."""

    def __init__(self, entries: list[Entry], limit: int = SHOWN) -> None:
        self.entries = entries
        self.limit = limit
        self._found: dict[int, list[Relative]] | None = None

    def of(self, entry: Entry) -> list[Relative]:
        if self._found is None:
            self._found = self._search()
        return self._found.get(id(entry), [])

    def _search(self) -> dict[int, list[Relative]]:
        by_place = {
            (_resolved(entry.game.source), entry.game.line): entry for entry in self.entries
        }
        files = sorted({_resolved(entry.game.source) for entry in self.entries})
        index: Index = build_index([(path, Path(path)) for path in files])
        found: dict[int, list[Relative]] = {}
        for file in index.files:  # each file as the index read it: its record and collection
            for query in queries(index, file.source, file.record, file.collection):
                source, _colon, line = query.source.rpartition(":")
                entry = by_place.get((source, int(line)))
                if entry is None:
                    continue
                relatives = []
                for match in search(index, query, self.limit):
                    where, _colon, at = match.source.rpartition(":")
                    other = by_place.get((_resolved(where), int(at)))
                    if other is None or other is entry:
                        continue
                    mine, theirs = year_of(entry), year_of(other)
                    earlier = mine is not None and theirs is not None and theirs < mine
                    relatives.append(Relative(other, match, match.anticipation and earlier))
                found[id(entry)] = relatives
        return found


def _resolved(source: str) -> str:
    return os.path.realpath(source)


SHIPPED_DEST: Final = "assets/rulebook/similar-index.json"
"""The index the check page searches in the browser (``browser.similar``)."""
SHIPPED_FORMAT: Final = 1
LANGUAGES: Final = ("nl", "en", "fy")


def shipped_index(collections: list[Collection]) -> bytes:
    """The published problems as the check page's anticipation search reads them: per PDN
    file its record and bitsets (``similar.cache.encode``), its collection, and the page and
    title of each problem.

    Only what the pages publish goes in: a collection whose stage keeps its solutions back is
    left out (its records hold every position of each solution), and the composer and
    publication tags are dropped where the composers are not published."""
    files = []
    for collection in collections:
        if not collection.publishes("solutions"):
            continue
        names = collection.publishes("composers") and collection.kind != "examples"
        for path in sorted({entry.game.source for entry in collection.entries}):
            found = collection_of(Path(path))
            record, bits = record_of(Path(path), found)
            hidden = set() if names else {found.composer_tag, found.publication_tag}
            items = tuple(
                replace(item, tags=tuple((k, v) for k, v in item.tags if k not in hidden))
                for item in record.items
            )
            data = cache.encode(replace(record, items=items), bits, {"shipped": SHIPPED_FORMAT})
            pages = {
                str(entry.game.line): [
                    f"problemen/{collection.slug}/{entry.slug}/",
                    (entry.game.tag("Title") or "").strip(),
                    entry.name,
                ]
                for entry in collection.entries
                if entry.game.source == path
            }
            files.append(
                {
                    "source": f"{collection.slug}/{Path(path).name}",
                    "collection": {
                        "title": {lang: localized(collection.title, lang) for lang in LANGUAGES},
                        "composer_tag": found.composer_tag,
                        "publication_tag": found.publication_tag,
                        "date": found.date,
                        "variant": found.variant.name if found.variant else None,
                    },
                    "data": base64.b64encode(data).decode("ascii"),
                    "pages": pages,
                }
            )
    document = {"format": SHIPPED_FORMAT, "files": files}
    return json.dumps(document, separators=(",", ":"), sort_keys=True).encode("utf-8")
