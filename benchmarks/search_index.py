"""The weight of the search index every page loads: bytes and gzipped bytes, per language.

    python benchmarks/search_index.py [--site DIR] [--unrefined]

Builds the site (``rulebook build``, in this process, into a temporary folder) and prints, per
language, the index each of its pages loads (``search/search_index.json``, ``en/search/..``):
its bytes, its bytes gzipped (level 6, a static host's usual setting), its entries, the share of
the rule pages, the problem pages and the rest, and its share of the home page's first load (the
page, its stylesheets and scripts, the search worker, lunr's language files and the index).
``--unrefined`` builds it as Material's search plugin writes it (one index per language, without
``rulebook_build/site/search.py``'s refinement): the figures before.  ``--site`` measures a
site built already.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.site import language_search  # noqa: E402
from rulebook_build.site.builder import build_site, find_config  # noqa: E402

LANGUAGES = {"nl": "", "en": "en/", "fy": "fy/"}
LEVEL = 6


def gzipped(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=LEVEL, mtime=0))


def area(location: str) -> str:
    if location.startswith("regels/"):
        return "rules"
    if location.startswith("problemen/") and location.split("#")[0].count("/") >= 2:
        return "problems"
    return "other"


def first_load(site: Path, prefix: str, index: bytes) -> tuple[int, int]:
    """Bytes and gzipped bytes of the home page's first load: the page, the site's own
    stylesheets and scripts it names, the search worker, lunr's language files, the index."""
    home = site / prefix / "index.html"
    html = home.read_bytes()
    parts = [html, index]
    text = html.decode("utf-8")
    for found in re.findall(r'(?:href|src)="([^"]+\.(?:css|js))"', text):
        path = (home.parent / found.split("?")[0]).resolve()
        if path.is_file() and site.resolve() in path.parents:
            parts.append(path.read_bytes())
    config = re.search(r'<script id="__config" type="application/json">(.*?)</script>', text)
    settings: dict[str, Any] = json.loads(config.group(1)) if config else {}
    lang = json.loads(index).get("config", {}).get("lang", [])
    workers = site / "assets" / "javascripts" / "workers"
    worker = str(settings.get("search", "")).rsplit("/", 1)[-1]
    if worker and (workers / worker).is_file():
        parts.append((workers / worker).read_bytes())
        for imported in re.findall(r'importScripts\("([^"]+)"\)', parts[-1].decode("utf-8")):
            parts.append((workers / imported).read_bytes())
    lunr = site / "assets" / "javascripts" / "lunr" / "min"
    for name in ["lunr.stemmer.support.min.js", *(f"lunr.{code}.min.js" for code in lang)]:
        if (lunr / name).is_file() and name != "lunr.en.min.js":
            parts.append((lunr / name).read_bytes())
    return sum(len(p) for p in parts), sum(gzipped(p) for p in parts)


def report(site: Path) -> None:
    print(
        f"{'lang':4} {'bytes':>9} {'gzipped':>8} {'entries':>7} {'rules':>8} {'problems':>9}"
        f" {'other':>7}  share of the home page's first load (bytes, gzipped)"
    )
    for lang, prefix in LANGUAGES.items():
        path = site / prefix / "search" / "search_index.json"
        data = path.read_bytes()
        docs = json.loads(data)["docs"]
        areas = {"rules": 0, "problems": 0, "other": 0}
        for doc in docs:
            areas[area(str(doc["location"]))] += len(json.dumps(doc, separators=(",", ":")))
        page, page_gzipped = first_load(site, prefix, data)
        print(
            f"{lang:4} {len(data):9,} {gzipped(data):8,} {len(docs):7,} {areas['rules']:8,}"
            f" {areas['problems']:9,} {areas['other']:7,}  {len(data) / page:5.0%} of {page:,},"
            f" {gzipped(data) / page_gzipped:4.0%} of {page_gzipped:,}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site to measure instead")
    parser.add_argument(
        "--unrefined", action="store_true", help="build the index as Material writes it (before)"
    )
    args = parser.parse_args()
    if args.site is not None:
        report(args.site)
        return 0
    if args.unrefined:
        language_search.refine_index = lambda index, lang, collections: None  # type: ignore[assignment]
    with tempfile.TemporaryDirectory(prefix="search-index-") as folder:
        built = build_site(find_config(ROOT), Path(folder) / "site")
        print(f"built {built.pages} pages in {built.seconds:.1f} s")
        report(built.site_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
