"""Draughts notation: FEN, moves, PDN games and problems, diagram blocks.

The only layer that imports :mod:`lark`.  It depends on :mod:`rulebook_build.rules` and
:mod:`rulebook_build.errors`, never on the checker, the renderer or the site.
"""
