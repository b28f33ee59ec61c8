"""Build the whole site, every language, strictly: the engine of ``rulebook build``.

MkDocs runs in this process with ``strict`` on, so any warning (a broken link, a missing
anchor, a bad diagram, an illegal example move) fails the build.  The messages are printed
as they come, the located ones as ``file:line:column: message``; a failure raises
:class:`SiteError` instead of a traceback.

The site is built into a temporary folder next to the output folder and moved into place
only when the build succeeded: a failed build leaves the previous site as it was.  So does a
build that cannot write (a full disk, a read-only folder): it raises :class:`OutputError`, and
the temporary folder is removed.  The previous site is renamed aside before the new one takes
its name, and removed only then, so that no moment leaves the output folder half-deleted.
"""

from __future__ import annotations

import logging
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import MkDocsException

from rulebook_build.errors import OutputError, RulebookError, SiteError


@dataclass(frozen=True, slots=True)
class BuildReport:
    site_dir: Path
    pages: int
    seconds: float
    warnings: int


_LOCATED = re.compile(r"^(?:[\w./-]+: )?(?P<message>[^\s:]+:\d+(?::\d+)?: .*)", re.DOTALL)
"""``file:line[:column]: message``, maybe behind a plugin's ``name: `` prefix."""


class _Printer(logging.Handler):
    """Prints MkDocs' log records plainly and counts the warnings."""

    def __init__(self, stream: TextIO, level: int) -> None:
        super().__init__(level)
        self.stream = stream
        self.problems = 0

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.levelno >= logging.WARNING:
            self.problems += 1
            located = _LOCATED.match(message)
            if located:
                message = located.group("message")  # "file:line:column: ..." as it is
            else:
                message = f"{record.levelname.lower()}: {message}"
        self.stream.write(message.rstrip() + "\n")
        self.stream.flush()


def find_config(start: Path | None = None) -> Path:
    """``mkdocs.yml`` in ``start`` (default: the working folder) or a folder above it."""
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        path = candidate / "mkdocs.yml"
        if path.is_file():
            return path
    raise SiteError("no mkdocs.yml here or in a folder above", source=str(folder))


def build_site(
    config_file: Path,
    out_dir: Path | None = None,
    *,
    verbose: bool = False,
    stream: TextIO | None = None,
    pdf: bool = False,
) -> BuildReport:
    """Build the site of ``config_file`` into ``out_dir`` (default: its ``site_dir``);
    ``pdf`` turns on the ``rulebook`` plugin's PDFs of the rulebooks (:mod:`.pdf`)."""
    output = stream or sys.stderr
    started = time.monotonic()
    try:
        config = load_config(str(config_file), strict=True)
    except MkDocsException as error:
        raise SiteError(f"bad configuration: {error}", source=str(config_file)) from None
    if pdf:
        plugin = config.plugins.get("rulebook")
        if plugin is None:
            raise SiteError(
                "PDFs are made by the 'rulebook' plugin, which is not in its plugins",
                source=str(config_file),
            )
        plugin.config["pdf"] = True
    target = Path(out_dir).resolve() if out_dir else Path(config.site_dir).resolve()
    docs = Path(config.docs_dir).resolve()
    if target == docs or docs in target.parents or target in (docs, *docs.parents):
        raise SiteError(f"the output folder {target} would overwrite the sources")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    except OSError as error:
        raise _cannot_write(target, error) from None
    config.site_dir = str(staging)

    logger = logging.getLogger("mkdocs")
    printer = _Printer(output, logging.INFO if verbose else logging.WARNING)
    saved = (logger.level, logger.propagate)
    logger.addHandler(printer)
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False
    try:
        build(config)
    except (MkDocsException, SystemExit) as error:
        shutil.rmtree(staging, ignore_errors=True)
        problems = printer.problems
        detail = f" ({problems} problem{'s' if problems != 1 else ''} above)" if problems else ""
        raise SiteError(
            f"the site was not built{detail}: {error}", source="rulebook build"
        ) from None
    except OSError as error:  # a full disk, a read-only folder or cache
        shutil.rmtree(staging, ignore_errors=True)
        raise _cannot_write(target, error) from None
    except OutputError as error:  # the same, said by the plugin
        shutil.rmtree(staging, ignore_errors=True)
        error.message += "; the site was not built, the previous one is left as it was"
        raise
    except RulebookError as error:
        # a fault of the sources that reached past the plugin's own reporting: printed like
        # the others (located), and counted with them
        shutil.rmtree(staging, ignore_errors=True)
        output.write(f"{error}\n")
        problems = printer.problems + 1
        raise SiteError(
            f"the site was not built ({problems} problem{'s' if problems != 1 else ''} above)",
            source="rulebook build",
        ) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        logger.removeHandler(printer)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
    _put_in_place(staging, target)
    pages = sum(1 for _ in target.rglob("*.html"))
    return BuildReport(target, pages, time.monotonic() - started, printer.problems)


def _put_in_place(staging: Path, target: Path) -> None:
    """The built site ``staging`` becomes ``target``: the previous site is renamed aside, the
    new one takes its name, and the previous one is removed last (renames in one folder need no
    room on the disk).  On a failure the previous site is put back and ``staging`` removed."""
    aside = target.with_name(f"{staging.name}-previous")
    try:
        staging.chmod(0o755)
        if target.exists():
            target.rename(aside)
        try:
            staging.rename(target)
        except OSError:
            if aside.exists():
                aside.rename(target)
            raise
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise _cannot_write(target, error) from None
    shutil.rmtree(aside, ignore_errors=True)


def _cannot_write(target: Path, error: OSError) -> OutputError:
    written = error.filename2 or error.filename  # a copy's error names its source first
    where = f" ({written})" if written else ""
    return OutputError(
        f"the site could not be written: {error.strerror or error}{where}; the previous site "
        "is left as it was",
        source=str(target),
    )
