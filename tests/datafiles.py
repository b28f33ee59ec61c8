"""Where the tests' data files live: in the repository, under ``tests/data/`` (see its READMEs)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

CONFORMANCE = DATA / "pdn-conformance" / "games"
"""The PDN 3.0 conformance files (``succeed/`` and ``fail/``), copied from the standard."""

PWCP = CONFORMANCE / "succeed" / "PWCP_2.pdn"
"""The 51 category-A problems of the 2nd Problem World Championship (2007/2008)."""


def conformance_files(kind: str) -> list[Path]:
    """The conformance files of ``games/<kind>/``; a missing folder is an error, not a skip."""
    folder = CONFORMANCE / kind
    if not folder.is_dir():
        raise FileNotFoundError(f"the PDN conformance files are missing: {folder}")
    return sorted(folder.glob("*.pdn"))
