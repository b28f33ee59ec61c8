"""``rulebook build``: build the website, every language, strictly.

    rulebook build [--out DIR] [--config mkdocs.yml] [--pdf] [--verbose]

Any warning (a broken link or anchor, a bad diagram block, an illegal example move) fails
the build: the problems are printed as ``file:line:column: message`` and the exit code is 1;
the previous site in DIR is left as it was.  A site that cannot be written (a full disk, a
read-only folder or cache) exits 2 with the reason, and the previous site stays too.  Set
``SOURCE_DATE_EPOCH`` for byte-identical builds across checkouts (by default the newest source
file's time is used).

``--pdf`` also prints every rulebook page to a PDF beside it and links it from the page
(WeasyPrint and Pango, the ``pdf`` extra); without them it exits 2 and says what to install.
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
    parser.add_argument(
        "--pdf",
        action="store_true",
        help="also make a PDF of each rulebook in each language and link it from its page "
        "(needs WeasyPrint and Pango: pip install -e '.[pdf]')",
    )
    parser.add_argument("--verbose", action="store_true", help="print MkDocs' progress too")


def run(args: argparse.Namespace) -> int:
    from rulebook_build.site.builder import build_site, find_config

    if args.pdf:
        from rulebook_build.site.pdf import unavailable

        missing = unavailable()
        if missing is not None:
            print(f"rulebook build: --pdf: {missing}", file=sys.stderr)
            return 2
    config = args.config if args.config is not None else find_config()
    try:
        report = build_site(config, args.out, verbose=args.verbose, pdf=args.pdf)
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
