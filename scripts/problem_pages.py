"""Write the problem pages of the site from the collection in problems/.

    python scripts/problem_pages.py          # write docs/<lang>/problemen/<name>.md and index.md
    python scripts/problem_pages.py --check  # exit 1 if a page is missing or out of date

Each page holds only the problem's title and a ```draughts-problem block naming its file; the
site renders everything else from the PDN file and the stored verdicts at build time.
Run it after adding or retitling a problem; the test suite runs --check.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.notation.pdn import read_pdn_file  # noqa: E402
from rulebook_build.site.problems import problem_page  # noqa: E402

LANGUAGES = ("nl", "en", "fy")
INDEX = {
    "nl": (
        "# Problemen\n\n"
        "De problemenverzameling van de federatie, met het oordeel van het controleprogramma "
        "per criterium. Hoe u zelf een probleem instuurt: [voor componisten](componisten.md).\n\n"
        "## Internationaal\n\n```draughts-problems\nvariant: international\n```\n\n"
        "## Fries\n\n```draughts-problems\nvariant: frisian\n```\n"
    ),
    "en": (
        "# Problems\n\n"
        '!!! note "Translation"\n    This is a translation. In case of doubt the Dutch text '
        "prevails.\n\n"
        "The federation's problem collection, with the checker's verdict per criterion. How to "
        "submit a problem yourself: [for composers](componisten.md).\n\n"
        "## International\n\n```draughts-problems\nvariant: international\n```\n\n"
        "## Frisian\n\n```draughts-problems\nvariant: frisian\n```\n"
    ),
    "fy": (
        "# Problemen\n\n"
        '!!! note "Oersetting"\n    Dit is in oersetting. By twifel jildt de Nederlânske '
        "tekst.\n\n"
        "De samling problemen fan de federaasje, mei it oardiel fan it kontrôleprogramma per "
        "kritearium. Hoe't jo sels in probleem ynstjoere: [foar komponisten](componisten.md).\n\n"
        "## Ynternasjonaal\n\n```draughts-problems\nvariant: international\n```\n\n"
        "## Frysk\n\n```draughts-problems\nvariant: frisian\n```\n"
    ),
}


def pages(root: Path = ROOT) -> dict[Path, str]:
    """Every page the problems of ``root/problems`` need, in every language."""
    wanted: dict[Path, str] = {}
    for path in sorted((root / "problems").glob("*.pdn")):
        games, _errors = read_pdn_file(path)
        title = next((g.tag("Title") for g in games if g.is_problem), None) or path.stem
        for lang in LANGUAGES:
            target = root / "docs" / lang / "problemen" / f"{path.stem}.md"
            wanted[target] = problem_page(title, path.name)
    for lang in LANGUAGES:
        wanted[root / "docs" / lang / "problemen" / "index.md"] = INDEX[lang]
    return wanted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args()
    stale = []
    for target, text in pages().items():
        current = target.read_text(encoding="utf-8") if target.is_file() else None
        if current != text:
            stale.append(target.relative_to(ROOT))
            if not args.check:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
    verb = "out of date" if args.check else "written"
    for path in stale:
        print(f"{path}: {verb}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
