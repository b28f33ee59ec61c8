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
