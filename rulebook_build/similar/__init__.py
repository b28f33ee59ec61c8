"""Anticipation search: was this problem, or its final combination, published or played before?

A contest jury's second question, after "is it correct?", is "is it new?". This room answers it
as YACPDB and Turbo Dambase do for their boards: a problem is compared with every problem and
every game position of a corpus of PDN files under the board's near-symmetries, by its position
and by its final combination, and the closest are reported with a score and a reason a jury can
read ("same position, shifted two columns left; one black man fewer").

- ``geometry``: the shifts, mirrors and colour reversal that keep a position on the dark squares
  and legal, and their descriptions;
- ``records``: what is kept of a PDN file (its problems and games as lines of positions);
- ``combination``: a solution's final combination as a pattern of pieces and moves;
- ``index`` and ``cache``: the corpus as bitsets of (piece, square), kept per file in the cache;
- ``search``: the scores, the matches and their reasons.

It reads positions and lines from the rules and the notation, and nothing of the checker or
the site: ``rulebook similar`` (``cli/similar.py``) is its command line, and a page that lists
a problem's relatives would call ``search.search`` on an index built by ``index.build_index``.
The package itself exports nothing, so that ``similar.search`` is always the module.
"""

from typing import TYPE_CHECKING

from rulebook_build import face

# The face: what the other rooms use, each loaded from its module on first use.
if TYPE_CHECKING:
    from rulebook_build.similar import cache
    from rulebook_build.similar.index import (
        Collection,
        Index,
        build_index,
        collection_of,
        pdn_files,
        record_of,
    )
    from rulebook_build.similar.records import read_file
    from rulebook_build.similar.search import (
        DEFAULT_LIMIT,
        POSSIBLE_ANTICIPATION,
        REPORTED,
        Match,
        queries,
    )
    from rulebook_build.similar.search import search as search_similar
    from rulebook_build.similar.words import describe

__getattr__ = face(
    __name__,
    {
        "Collection": ("rulebook_build.similar.index", "Collection"),
        "DEFAULT_LIMIT": ("rulebook_build.similar.search", "DEFAULT_LIMIT"),
        "Index": ("rulebook_build.similar.index", "Index"),
        "Match": ("rulebook_build.similar.search", "Match"),
        "POSSIBLE_ANTICIPATION": ("rulebook_build.similar.search", "POSSIBLE_ANTICIPATION"),
        "REPORTED": ("rulebook_build.similar.search", "REPORTED"),
        "build_index": ("rulebook_build.similar.index", "build_index"),
        "cache": ("rulebook_build.similar.cache", None),
        "collection_of": ("rulebook_build.similar.index", "collection_of"),
        "describe": ("rulebook_build.similar.words", "describe"),
        "pdn_files": ("rulebook_build.similar.index", "pdn_files"),
        "queries": ("rulebook_build.similar.search", "queries"),
        "read_file": ("rulebook_build.similar.records", "read_file"),
        "record_of": ("rulebook_build.similar.index", "record_of"),
        "search_similar": ("rulebook_build.similar.search", "search"),
    },
)

__all__ = [
    "DEFAULT_LIMIT",
    "POSSIBLE_ANTICIPATION",
    "REPORTED",
    "Collection",
    "Index",
    "Match",
    "build_index",
    "cache",
    "collection_of",
    "describe",
    "pdn_files",
    "queries",
    "read_file",
    "record_of",
    "search_similar",
]
