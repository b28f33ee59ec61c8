"""A cache of the tests' own, started from the checker's tables in the user's cache."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from rulebook_build.engine.tables.index import Material
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import Variant


def copy_checker_tables(
    variant: Variant, folder: Path, keep: Callable[[Material], bool] = lambda _: True
) -> list[Material]:
    """Copy the checker's tables of ``variant`` (every class of up to 4 pieces, both kinds,
    built first where missing) into ``folder``, the tables' folder of a cache of its own
    (``EndgameTables(cache_dir=folder)``; a command's ``--cache-dir`` holds it as
    ``endgame/``), each class that ``keep`` accepts; the user's cache may hold larger classes
    too: never these.  Returns the classes left out, to see what is built there."""
    own = checker_tables(variant)
    own.prepare_missing()
    classes = [m for m in own.pure.material_classes() if sum(m) <= own.pure.max_pieces]
    for kind in (own.pure, own.rules):
        copy = folder / kind.folder().name
        copy.mkdir(parents=True)
        for material in classes:
            if keep(material):
                shutil.copy(kind.path(material), copy)
    return [m for m in classes if not keep(m)]
