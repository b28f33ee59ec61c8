"""What the tests of the compact files compare them with: their codes, the codes of a class
filled as a filled file holds them, and the results of build codes, two bits a slot."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rulebook_build.engine.tables import compact
from rulebook_build.engine.tables.index import Material, material_of_name
from rulebook_build.engine.tables.kinds import CheckerTables


def codes_in(tables: CheckerTables, path: Path) -> bytes:
    """Every code of the compact file ``path`` of a class of ``tables``' rules."""
    material = material_of_name(path.stem)
    assert material is not None
    return bytes(compact.CompactTable(path, tables.pure.compact_fields(material)).codes())


def filled(program: Path, material: Material, codes: bytes) -> bytes:
    """A Fries Spel class's ``codes`` with the slots no probe reads given the code before them
    (``pack fill``, as the site fills its tables)."""
    return subprocess.run(
        [str(program), "fill", "1", *map(str, material), "1"],
        input=codes,
        capture_output=True,
        check=True,
    ).stdout


RESULT: bytes = bytes(c if c < 4 else 2 if c < 36 else 3 for c in range(256))
"""The result of each build code (``compact.build_code``): 0 unused, 1 draw, 2 win, 3 loss."""


def results_of(codes: bytes) -> bytes:
    """The results of build codes, four a byte from the lowest bits (a ``.wdl`` file)."""
    r = codes.translate(RESULT) + bytes(-len(codes) % 4)
    return bytes(r[i] | r[i + 1] << 2 | r[i + 2] << 4 | r[i + 3] << 6 for i in range(0, len(r), 4))
