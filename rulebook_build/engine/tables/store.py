"""The endgame tables' files: where each kind's tables of a variant are cached, and reading,
writing, copying and checking them.

A kind's tables (pure, or with the count rules: ``endgame.py``) live in one folder of the cache
named after the variant, the kind, ``FORMAT`` and the fingerprint naming their values
(``rules_fingerprint``, ``FINGERPRINTS``), so that a change of the values or of the format makes
new tables instead of reading stale ones.  A class's built table is ``<class>.bin`` there
(``tablefile.py``: a header with the fingerprint and a checksum, then the values); its compact
file, both kinds in one, is ``<class>.pack`` in the pure kind's folder (``compact.py``).  A
file is read only when its header is the one expected and its values match the checksum; a
damaged one is moved aside.

This module knows neither the probes (``endgame.py``) nor the builders (``retrograde.py``): both
use it.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import re
import sys
from array import array
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Final, Literal

from rulebook_build.engine import binaries
from rulebook_build.engine.tables import compact, tablefile
from rulebook_build.engine.tables.index import Layout, Material, material_name, material_of_name
from rulebook_build.rules import VARIANTS, Variant, source_files

FORMAT: Final = 2
"""Bump when the layout or the meaning of the stored values changes (2: a checksum in the
header, ``tablefile.py``)."""

MAP_FROM_BYTES: Final = 4 << 20
"""Tables larger than this are mapped from the file, not read: a search touches few of their
pages, and the 5-piece tables are up to 250 MB each."""

Values = Sequence[int]
"""One int16 per slot: an ``array('h')``, or a ``memoryview`` of a mapped file."""
Semantics = Literal["pure", "rules"]


FINGERPRINTS: Final[dict[tuple[str, Semantics], str]] = {
    ("international", "pure"): "572c36a478843e31",
    ("international", "rules"): "1d2380ef6420c18c",
    ("frisian", "pure"): "32987d08bde35227",
    ("frisian", "rules"): "ff00b2d1b96d5790",
}
"""The name of the values each kind of a variant's tables holds, which their folder, their files'
headers and the site's manifests carry.  It changes when the values do (a rule, the count rules,
a builder's meaning of a value), and only then: a new name here builds every table of that kind
again, on every machine and for the site.  The names were once a hash of the sources, so that an
edit of a comment in the rules or of the compiled builder's speed made every table again (the
International 5-piece set is some ten minutes of building); those hashes are kept as the names.
``tests/checker/test_table_values.py`` keeps a name honest: it builds every class of up to 3
pieces of each kind with the compiled builder and compares their values' digest with the one
recorded for the name, so a change that moves a value fails there until the kind gets a new name
(and its digest is recorded again)."""


@cache
def rules_fingerprint(variant: Variant, semantics: Semantics = "pure") -> str:
    """The name of the values of a kind's tables (``FINGERPRINTS``); a variant of its own (the
    tests make some) gets a hash of ``FORMAT``, the variant and the sources of the rules and of
    the compiled builder instead."""
    named = FINGERPRINTS.get((variant.name, semantics))
    if named is not None and variant in VARIANTS:  # the rules' own, not a test's look-alike
        return named
    prefix = f"{FORMAT}|" if semantics == "pure" else f"{FORMAT}|{semantics}|"
    digest = hashlib.sha256(f"{prefix}{variant!r}".encode())
    for path in source_files(draw_rules=semantics == "rules"):
        digest.update(path.read_bytes())
    if variant.name in binaries.VARIANTS:  # the compiled builder makes them
        digest.update(binaries.source_bytes())
    return digest.hexdigest()[:16]


class TableStore:
    """The files of one kind's tables of a variant under ``cache_dir``."""

    def __init__(self, variant: Variant, cache_dir: Path, semantics: Semantics) -> None:
        self.variant = variant
        self.cache_dir = cache_dir
        self.semantics = semantics
        self.limit = variant.max_consecutive_king_moves
        self.fingerprint = rules_fingerprint(variant, semantics)
        self.layouts: dict[Material, Layout] = {}
        """The layout of each class met so far (``layout``)."""

    def layout(self, material: Material) -> Layout:
        """Where each position of a class is stored in its table (``index.py``)."""
        layout = self.layouts.get(material)
        if layout is None:
            layout = self.layouts[material] = Layout.of(material, self.limit)
        return layout

    # ------------------------------------------------------------------ names
    def folder(self) -> Path:
        """Where this kind's tables for these rules are cached."""
        return self.folder_of(self.semantics)

    def folder_of(self, semantics: Semantics) -> Path:
        kind = "" if semantics == "pure" else f"-{semantics}"
        fingerprint = rules_fingerprint(self.variant, semantics)
        return self.cache_dir / f"{self.variant.name}{kind}-v{FORMAT}-{fingerprint}"

    def is_table_folder(self, folder: Path) -> bool:
        """Whether ``folder`` is named as ``folder`` names this variant's tables, of any kind,
        format or rules (``rulebook tables --prune``)."""
        variant = re.escape(self.variant.name)
        return re.fullmatch(rf"{variant}(-rules)?-v\d+-[0-9a-f]{{16}}", folder.name) is not None

    def path(self, material: Material) -> Path:
        """The file a class's table is stored in."""
        return self.folder() / f"{material_name(material)}.bin"

    def compact_folder(self) -> Path:
        """Where the compact files of these rules are (the pure kind's folder: the fingerprint
        of one kind changes with the other's)."""
        return self.folder_of("pure")

    def compact_path(self, material: Material) -> Path:
        """The compact file of a class: both kinds in one (``compact.py``)."""
        return self.compact_folder() / f"{material_name(material)}{compact.SUFFIX}"

    def in_cache(self, material: Material) -> bool:
        """Whether the class's table is stored in the cache folder, built or compact."""
        return self.path(material).is_file() or self.compact_path(material).is_file()

    # ------------------------------------------------------------------ headers
    def compact_fields(self, material: Material) -> dict[str, object]:
        """What a compact file of this class must say of itself, but its blocks and checksum."""
        return {
            "format": compact.FORMAT,
            "variant": self.variant.name,
            "pure": rules_fingerprint(self.variant, "pure"),
            "rules": rules_fingerprint(self.variant, "rules"),
            "material": list(material),
            "size": self.layout(material).size,
            "cap": compact.CAP,
        }

    def fields(self, material: Material) -> dict[str, object]:
        """What a table file of this class must say of itself (``tablefile.py``)."""
        return {
            "format": FORMAT,
            "variant": self.variant.name,
            **({} if self.semantics == "pure" else {"semantics": self.semantics}),
            "rules": self.fingerprint,
            "material": list(material),
            "size": self.layout(material).size,
        }

    # ------------------------------------------------------------------ reading and writing
    def load(self, material: Material) -> Values | None:
        """The class's table from the cache; None when it is missing, foreign (other rules,
        another format) or damaged (then it is also moved aside, see ``tablefile.py``)."""
        path = self.path(material)
        size = self.layout(material).size
        if not path.is_file():
            return self.load_compact(material)
        try:
            with path.open("rb") as stream:
                found = tablefile.expect(stream, self.fields(material))
                if found is None:
                    return None
                offset, checksum = found
                length = os.fstat(stream.fileno()).st_size - offset
                if length != 2 * size:
                    tablefile.set_aside(path, f"{path}: {length} bytes of values, not {2 * size}")
                    return None
                try:
                    tablefile.check(path, stream, offset, checksum)
                except tablefile.DamagedTable as damage:
                    tablefile.set_aside(path, str(damage))
                    return None
                if size * 2 >= MAP_FROM_BYTES and sys.byteorder == "little":
                    mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
                    if hasattr(mmap, "MADV_RANDOM"):  # probes jump about: no read-ahead
                        mapped.madvise(mmap.MADV_RANDOM)
                    return memoryview(mapped)[offset:].cast("h")
                stream.seek(offset)
                table = array("h")
                table.frombytes(stream.read())
        except (OSError, ValueError):
            return None
        if sys.byteorder == "big":
            table.byteswap()
        return table

    def load_compact(self, material: Material) -> Values | None:
        """The class's values from its compact file (the pure result and the count-rule
        distances the search uses, ``compact.py``); None when there is none or it is refused."""
        path = self.compact_path(material)
        if not path.is_file():
            return None
        try:
            table = compact.CompactTable(path, self.compact_fields(material))
        except tablefile.DamagedTable as damage:
            tablefile.set_aside(path, str(damage))
            return None
        except (OSError, ValueError):
            return None
        values = compact.PURE_VALUE if self.semantics == "pure" else compact.RULES_VALUE
        return compact.KindView(table, values)

    def write(self, material: Material, table: Values) -> None:
        """Store a class's table just built in the cache, with its header; a read-only cache
        is left as it is (the class is only built again next time)."""
        little = array("h", table)
        if sys.byteorder == "big":
            little.byteswap()
        with contextlib.suppress(OSError):
            tablefile.write(self.path(material), self.fields(material), little.tobytes())

    # ------------------------------------------------------------------ copying and checking
    def table_files(self, folder: Path) -> list[Path]:
        """This kind's table files in ``folder``: the built ones, and for the pure kind the
        compact ones (which hold both kinds)."""
        packed = sorted(folder.glob(f"*{compact.SUFFIX}")) if self.semantics == "pure" else []
        return sorted(folder.glob("*.bin")) + packed

    def copy_table(self, source: Path, folder: Path | None = None) -> Path:
        """Copy the table file ``source``, built or compact, into ``folder`` (default: its place
        in the cache) if it is a table of these rules and kind and passes its checksum; the
        copy's path.  ``tablefile.DamagedTable`` says why not."""
        material = material_of_name(source.stem)
        if material is None:
            raise tablefile.DamagedTable(f"{source}: not a table's name")
        if source.suffix == compact.SUFFIX:
            target = self.compact_path(material) if folder is None else folder / source.name
            compact.copy_verified(source, target, self.compact_fields(material))
        else:
            target = self.path(material) if folder is None else folder / source.name
            tablefile.copy_verified(source, target, self.fields(material))
        return target

    def install_from(self, folder: Path) -> tuple[list[Path], list[str]]:
        """Copy into the cache every table of ``folder`` that is a table of these rules and
        kind and passes its checksum; the files installed, and what was refused and why."""
        installed: list[Path] = []
        refused: list[str] = []
        for source in self.table_files(folder):
            try:
                installed.append(self.copy_table(source))
            except tablefile.DamagedTable as refusal:
                refused.append(str(refusal))
            except OSError as error:
                refused.append(f"{source}: {error.strerror or error}")
        return installed, refused

    def verify_files(self, *, always: bool = False) -> list[str]:
        """Check the checksum of every table file in this kind's folder (a large file with a
        valid stamp only when ``always``): the damaged or foreign ones are moved aside and
        named in the list returned."""
        problems = []
        for path in sorted(self.folder().glob("*.bin")):
            material = material_of_name(path.stem)  # the programs read a class by its name
            try:
                with path.open("rb") as stream:
                    found = (
                        None
                        if material is None
                        else tablefile.expect(stream, self.fields(material))
                    )
                    if found is None:
                        raise tablefile.DamagedTable(f"{path}: not a table of these rules")
                    offset, checksum = found
                    tablefile.check(path, stream, offset, checksum, always=always)
            except tablefile.DamagedTable as damage:
                tablefile.set_aside(path, str(damage))
                problems.append(str(damage))
            except OSError as error:
                problems.append(f"{path}: {error.strerror or error}")
        if self.semantics == "pure":  # the compact files are in this kind's folder
            for path in sorted(self.compact_folder().glob(f"*{compact.SUFFIX}")):
                material = material_of_name(path.stem)
                try:
                    if material is None:
                        raise tablefile.DamagedTable(f"{path}: not a table's name")
                    compact.check(path, self.compact_fields(material), always=always)
                except tablefile.DamagedTable as damage:
                    tablefile.set_aside(path, str(damage))
                    problems.append(str(damage))
                except OSError as error:
                    problems.append(f"{path}: {error.strerror or error}")
        return problems
