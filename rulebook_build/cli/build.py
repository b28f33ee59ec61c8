"""``rulebook build``: build the website, every language, strictly.

    rulebook build [--out DIR] [--config mkdocs.yml] [--pdf | --no-pdf] [--verbose]

Any warning (a broken link or anchor, a bad diagram block, an illegal example move) fails
the build: the problems are printed as ``file:line:column: message`` and the exit code is 1;
the previous site in DIR is left as it was.  A site that cannot be written (a full disk, a
read-only folder or cache) exits 2 with the reason, and the previous site stays too.  Set
``SOURCE_DATE_EPOCH`` for byte-identical builds across checkouts (by default the newest source
file's time is used).

Every rulebook page is also printed to a PDF beside it and linked from the page, where
WeasyPrint and Pango (the ``pdf`` extra) are installed: a federation that builds its site
publishes the printed copies with it.  Where they are missing, the site is built without PDFs
and one line says so and what to install (``bash scripts/site.sh`` installs them when run as
root).  ``--pdf`` makes the PDFs required (exit 2 without them); ``--no-pdf`` leaves them out.
"""

from __future__ import annotations

import argparse
import sys

from rulebook_build.cli.options import existing_file, folder_to_write
from rulebook_build.errors import OutputError, RulebookError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=folder_to_write,
        default=None,
        metavar="DIR",
        help="output folder (default: site/)",
    )
    parser.add_argument(
        "--config",
        type=existing_file,
        default=None,
        metavar="FILE",
        help="mkdocs.yml (default: the one in this folder or a folder above)",
    )
    pdf = parser.add_mutually_exclusive_group()
    pdf.add_argument(
        "--pdf",
        action="store_true",
        default=None,
        help="require the PDF of each rulebook in each language (exit 2 without WeasyPrint and "
        "Pango: pip install -e '.[pdf]'); by default they are made where they can be",
    )
    pdf.add_argument(
        "--no-pdf",
        dest="pdf",
        action="store_false",
        help="build the site without the rulebooks' PDFs",
    )
    parser.add_argument("--verbose", action="store_true", help="print MkDocs' progress too")


def run(args: argparse.Namespace) -> int:
    from rulebook_build.site import build_site, find_config

    make_pdf = args.pdf is not False
    if make_pdf:
        from rulebook_build.site import unavailable

        missing = unavailable()
        if missing is not None and args.pdf:
            print(f"rulebook build: --pdf: {missing}", file=sys.stderr)
            return 2
        if missing is not None:
            print(
                f"rulebook build: building without the rulebooks' PDFs: {missing} "
                "(--no-pdf leaves them out without this note)",
                file=sys.stderr,
            )
            make_pdf = False
    config = args.config if args.config is not None else find_config()
    try:
        report = build_site(config, args.out, verbose=args.verbose, pdf=make_pdf)
    except OutputError as error:  # the disk, not the sources: exit 2
        print(f"rulebook build: {error}", file=sys.stderr)
        return 2
    except RulebookError as error:
        print(f"rulebook build: {error.message}", file=sys.stderr)
        return 1
    print(
        f"built {report.pages} pages into {report.site_dir} in {report.seconds:.1f} s",
        file=sys.stderr,
    )
    return 0
