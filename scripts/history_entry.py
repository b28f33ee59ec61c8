"""Print the [[change]] entry of a rule page for ``editions/history.toml``.

After changing a rulebook's text on the site (a new edition, a corrected translation), run

    .venv/bin/python scripts/history_entry.py docs/nl/regels/kndb-2018.md

and paste what it prints at the end of ``editions/history.toml``, with what changed in each
language filled in.  The date is today's; the sha256 is that of the file as it is now, so run
it after the change and again after any later edit.  The site build and
``tests/site/test_history.py`` fail while a rule page differs from its latest entry
(guides/webmasters.md, "The change history of the rule pages").
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.site.history import digest, language_of_file  # noqa: E402


def entry(file: str, *, date: datetime.date, root: Path = ROOT) -> str:
    """The entry of ``file`` (relative to the project) as TOML, its texts left to fill in."""
    path = root / file
    lines = [
        "[[change]]",
        f'file = "{file}"',
        f"date = {date.isoformat()}",
        f'sha256 = "{digest(path)}"',
        'nl = "..."',
        'en = "..."',
    ]
    if language_of_file(file) == "fy":
        lines.append('fy = "..."')
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="rule pages, e.g. docs/nl/regels/kndb-2018.md")
    args = parser.parse_args(argv)
    today = datetime.date.today()
    for number, name in enumerate(args.files):
        path = Path(name).resolve()
        try:
            file = path.relative_to(ROOT).as_posix()
        except ValueError:
            print(f"{name}: not a file of this project", file=sys.stderr)
            return 1
        if not path.is_file():
            print(f"{name}: no such file", file=sys.stderr)
            return 1
        print(("\n" if number else "") + entry(file, date=today))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
