"""Reader of tests/rules/perft.txt, shared by the tests and benchmarks/perft.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PERFT_FILE = Path(__file__).with_name("perft.txt")


@dataclass(frozen=True)
class PerftCase:
    id: str
    variant: str
    fen: str
    counts: dict[int, int]


def read_perft_cases(path: Path = PERFT_FILE) -> list[PerftCase]:
    cases: list[PerftCase] = []
    fields: dict[str, str] = {}
    counts: dict[int, int] = {}

    def flush() -> None:
        if fields:
            cases.append(PerftCase(fields["id"], fields["variant"], fields["fen"], dict(counts)))
        fields.clear()
        counts.clear()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            flush()
        if key == "perft":
            depth, nodes = value.split()
            counts[int(depth)] = int(nodes)
        else:
            fields[key] = value
    flush()
    return cases
