"""``rulebook similar``: look for anticipations, problems and game positions like a problem.

    rulebook similar FILE... [--in PATH]... [--limit N] [--json] [--cache-dir DIR]

For every problem (a game with a ``FEN`` tag) of the FILEs (PDN files or folders), the most
similar problems and game positions of the corpus, best first: the ``problems/`` folder of the
project (the folder of the ``mkdocs.yml`` found here or above, as ``rulebook build`` finds it,
else ``problems/`` of the working folder), and every file or folder given with ``--in``. A
game without ``FEN`` is a candidate at every position of its main line, reported with its move
number. What is measured and why is in ``similar/search.py``.

Text: a line per problem, then a line per match a jury can read. ``--json``: one object per
problem and line, ``{"source", "event", "matches": [{"source", "collection", "event",
"composer", "published", "move", "score", "transform", "reason"}]}``; every ``source`` is
``PATH:LINE`` as ``rulebook check`` writes it, so a match can be checked in turn.

The corpus is read once and kept in the cache folder (``similar/``), a file at a time, until the
file changes. Exit code 0; 2 when an input could not be read (a missing file or folder, a PDN
syntax error, a bad FEN tag), with a located message on standard error; the problems that could
be read are still searched.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from rulebook_build.cachedir import ENVIRONMENT, cache_root, use_cache_argument
from rulebook_build.cli.options import existing_path, folder_to_write, whole_number
from rulebook_build.errors import RulebookError
from rulebook_build.similar import (
    DEFAULT_LIMIT,
    REPORTED,
    Index,
    Match,
    build_index,
    collection_of,
    pdn_files,
    queries,
    record_of,
)
from rulebook_build.similar import search_similar as search

MAX_LIMIT = 1000
"""The most matches ``--limit`` asks for a problem (a jury reads the first few)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="PDN files or folders holding the problems"
    )
    parser.add_argument(
        "--in",
        dest="corpus",
        type=existing_path,
        action="append",
        default=[],
        metavar="PATH",
        help="also search this PDN file or folder (problem collections or game databases: "
        "every position of every game); may be repeated",
    )
    parser.add_argument(
        "--limit",
        type=whole_number(1, MAX_LIMIT),
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"matches per problem, best first, 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT}); "
        f"only those scoring {REPORTED} or more are reported",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per problem and line")
    parser.add_argument(
        "--cache-dir",
        type=folder_to_write,
        metavar="DIR",
        help=f"the cache the corpus's index is kept in, under similar/ (default: ${ENVIRONMENT}, "
        f"else the user's cache folder, now {cache_root()})",
    )


def project_problems(start: Path | None = None) -> Path | None:
    """``problems/`` of the project: beside the ``mkdocs.yml`` of the working folder or a
    folder above, else in the working folder; None when there is none."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "mkdocs.yml").is_file():
            if (folder / "problems").is_dir():
                return folder / "problems"
            break
    return here / "problems" if (here / "problems").is_dir() else None


def _named(folder: Path) -> str:
    """How to name the default corpus: relative to the working folder where it can be."""
    try:
        return os.path.relpath(folder)
    except ValueError:  # another drive (Windows)
        return str(folder)


class _Bar:
    """A progress bar on standard error while files the cache does not hold are read (a
    terminal only, and only for more than one file)."""

    def __init__(self) -> None:
        self.bar: Any = None

    def __call__(self, source: str, done: int, total: int) -> None:
        if self.bar is None:
            if total < 2 or not sys.stderr.isatty():
                return
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="file", file=sys.stderr, leave=False)
        self.bar.n = done
        self.bar.set_postfix_str(Path(source).name[:40], refresh=True)
        if done >= total:
            self.bar.close()


def _corpus(args: argparse.Namespace, errors: list[RulebookError]) -> Index:
    arguments: list[str] = []
    problems = project_problems()
    if problems is not None:
        arguments.append(_named(problems))
    arguments.extend(str(path) for path in args.corpus)
    if not arguments:
        raise RulebookError(
            "nothing to search: no problems/ folder in the project or here, and no --in PATH"
        )
    sources = []
    for argument in arguments:
        try:
            sources.extend(pdn_files(argument))
        except RulebookError as error:
            errors.append(error)
    return build_index(sources, progress=_Bar(), errors=errors)


def _line(match: Match) -> str:
    where = match.source + (f", move {match.move}" if match.move is not None else "")
    about = "; ".join(
        dict.fromkeys(
            text
            for text in (match.collection, match.event, match.composer, match.published)
            if text
        )
    )
    flag = "  possible anticipation" if match.anticipation else ""
    return f"  {match.score:.2f}  {where} ({about}): {match.reason}{flag}"


def run(args: argparse.Namespace) -> int:
    use_cache_argument(args)
    errors: list[RulebookError] = []
    index = _corpus(args, errors)
    warned: set[str] = set()
    for file in index.files:
        for warning in file.record.warnings:
            warned.add(str(warning.error(file.source, warning=True)))
    for argument in args.files:
        try:
            named = pdn_files(argument)
        except RulebookError as error:
            errors.append(error)
            continue
        for source, path in named:
            try:
                collection = collection_of(path)
                record, _bits = record_of(path, collection)
            except RulebookError as error:
                errors.append(error)
                continue
            errors.extend(fault.error(source) for fault in record.errors)
            for warning in record.warnings:
                warned.add(str(warning.error(source, warning=True)))
            for query in queries(index, source, record, collection):
                matches = search(index, query, args.limit)
                if args.json:
                    record_json = {
                        "source": query.source,
                        "event": query.event,
                        "matches": [match.as_json() for match in matches],
                    }
                    print(json.dumps(record_json, ensure_ascii=False), flush=True)
                    continue
                title = query.event or "problem"
                if matches:
                    count = f"{len(matches)} match" + ("" if len(matches) == 1 else "es")
                    print(f"{query.source}: {title}: {count}")
                    for match in matches:
                        print(_line(match))
                else:
                    print(f"{query.source}: {title}: nothing scoring {REPORTED} or more")
    for text in sorted(warned):
        print(text, file=sys.stderr)
    for text in dict.fromkeys(str(error) for error in errors):
        print(text, file=sys.stderr)
    return 2 if errors else 0
