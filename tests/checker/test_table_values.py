"""A table kind's name (``store.FINGERPRINTS``) stands for its values, and keeps standing for them.

The tables of a kind are found in the cache, on the site and in a jury's export by their name
alone, so a change to the rules or to a builder that moved a value under an old name would read
stale tables as if they were new.  Here every class of up to 3 pieces of each kind is built with
the compiled builder into a cache of its own, and the digest of its values is compared with the
one recorded for the kind's name below.  A change that moves a value (a rule, a count rule, the
meaning of a stored value) fails here: give the kind a new name in ``store.FINGERPRINTS`` (any new
16 hex digits: every machine then builds that kind again) and record the new digest that the
failure prints.  A change that keeps every value (the builder made faster, a comment) passes and
keeps every table.  The builders agree slot for slot (``test_native_tables.py``), and the values
follow the rules (``test_endgame.py``), so the digest of the compiled builder's tables is theirs.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Final

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import store
from rulebook_build.engine.tables.endgame import EndgameTables, Semantics
from rulebook_build.engine.tables.index import material_name
from rulebook_build.rules import FRISIAN, INTERNATIONAL, Variant

pytestmark = pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler on this machine")

DIGESTS: Final[dict[str, str]] = {
    "572c36a478843e31": ("ca47e237302c135f597a6dfa75ec31bb78887ee94b0fb41106e1fe609d15b82e"),
    "1d2380ef6420c18c": ("261105e071fece45f63b240abc2d60b0242363d52278edb10e8ee7eea3ab9416"),
    "32987d08bde35227": ("72e045645681f632712a6fdb9a56a578cf68d7b749ee2538c4e5dcff07fe69c9"),
    "ff00b2d1b96d5790": ("bea7bd074294a1a16543fdb7c6fdf4d9334641af6eab2d8a0394898e2fba33f2"),
}
"""The SHA-256 of every class of up to 3 pieces (in ``material_classes`` order: its name, then
its values as little-endian int16), by the kind's name."""


def values_digest(tables: EndgameTables) -> str:
    digest = hashlib.sha256()
    for material in tables.material_classes():
        if sum(material) > 3:
            continue
        values = tables.table(material)
        digest.update(material_name(material).encode())
        digest.update(b"".join(int(v).to_bytes(2, "little", signed=True) for v in values))
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("variant", "semantics"),
    [(v, s) for v in (INTERNATIONAL, FRISIAN) for s in ("pure", "rules")],
    ids=lambda p: getattr(p, "name", p),
)
def test_a_kinds_name_stands_for_its_values(
    variant: Variant, semantics: Semantics, tmp_path: Path
) -> None:
    tables = EndgameTables(variant, cache_dir=tmp_path, max_pieces=3, semantics=semantics)
    name = store.rules_fingerprint(variant, semantics)
    assert name == store.FINGERPRINTS[variant.name, semantics]
    found = values_digest(tables)
    assert DIGESTS.get(name) == found, (
        f"the {variant.name} {semantics} tables of up to 3 pieces have other values than those "
        f"recorded for their name {name}: if the change is meant, give the kind a new name in "
        f"rulebook_build/engine/tables/store.py FINGERPRINTS and record {found} for it in "
        "DIGESTS here (every machine then builds that kind's tables again)"
    )
