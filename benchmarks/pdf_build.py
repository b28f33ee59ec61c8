"""What the rulebooks' PDFs add to a site build: ``rulebook build`` without and with ``--pdf``.

    python benchmarks/pdf_build.py [--runs 2] [--jobs N] [--each]

Builds the project's own site in this process (``build_site``, as ``rulebook build`` does) into
a temporary folder: ``--runs`` times without PDFs (the first run may fill the diagram cache), then
``--runs`` times with them, and prints each build's wall-clock seconds and processor seconds (this
process and its children), and of a build with PDFs the time its PDF step took (``write_pdfs``,
one process a core, or ``--jobs``). Then a line per PDF: its pages, its size and, with
``--each``, the seconds it takes alone in this process. Needs WeasyPrint and Pango.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.site import pdf, print_pages  # noqa: E402
from rulebook_build.site.builder import build_site, find_config  # noqa: E402


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Timed:
    """Wraps the plugin's ``write_pdfs``: the time of its call and the pages it printed."""

    def __init__(self, jobs: int | None) -> None:
        self.jobs = jobs
        self.seconds = 0.0
        self.done: list[tuple[pdf.PrintPage, tuple[int, list[str]]]] = []
        self.real = print_pages.write_pdfs

    def __call__(self, pages: Any, site_dir: Path, **options: Any) -> Any:
        started = time.perf_counter()
        done = self.real(pages, site_dir, jobs=self.jobs, **options)
        self.seconds = time.perf_counter() - started
        self.done = list(done)
        return done


def build(config: Path, out: Path, *, with_pdf: bool) -> tuple[float, float, int]:
    started, cpu = time.perf_counter(), cpu_seconds()
    with open(os.devnull, "w") as quiet:
        report = build_site(config, out, pdf=with_pdf, stream=quiet)
    return time.perf_counter() - started, cpu_seconds() - cpu, report.pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="builds of each kind (default 2)")
    parser.add_argument("--jobs", type=int, default=None, help="PDF processes (default: cores)")
    parser.add_argument("--each", action="store_true", help="time each PDF alone, too")
    args = parser.parse_args()
    missing = pdf.unavailable()
    if missing is not None:
        print(missing, file=sys.stderr)
        return 2
    config = find_config(ROOT)
    timed = Timed(args.jobs)
    print_pages.write_pdfs = timed  # type: ignore[assignment]
    cores = pdf._cores()
    print(f"cores: {cores}, PDF processes: {args.jobs or cores}")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "site"
        plain: list[float] = []
        for run in range(1, args.runs + 1):
            wall, cpu, pages = build(config, out, with_pdf=False)
            plain.append(wall)
            print(
                f"without PDFs, run {run}: {wall:5.1f} s ({cpu:5.1f} s of processor), {pages} pages"
            )
        printed: list[float] = []
        for run in range(1, args.runs + 1):
            wall, cpu, pages = build(config, out, with_pdf=True)
            printed.append(wall)
            print(
                f"with PDFs,    run {run}: {wall:5.1f} s ({cpu:5.1f} s of processor), of which "
                f"the {len(timed.done)} PDFs {timed.seconds:.1f} s"
            )
        best_plain, best_printed = min(plain), min(printed)
        print(
            f"fastest: {best_plain:.1f} s without, {best_printed:.1f} s with PDFs: "
            f"+{best_printed - best_plain:.1f} s, {best_printed / best_plain:.1f} times as long"
        )
        print(f"{'PDF':58} {'pages':>5} {'KB':>6}" + (f" {'alone':>7}" if args.each else ""))
        for page, (count, _complaints) in timed.done:
            path = out / page.uri
            line = f"{page.uri:58} {count:5} {path.stat().st_size / 1024:6.0f}"
            if args.each:
                started = time.perf_counter()
                pdf.write_pdf(page, out)
                line += f" {time.perf_counter() - started:6.1f}s"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
