"""The check page's tables in its worker: the site's endgame tables opened for the judgement,
the calls the WebAssembly search makes for their blocks, and the scouts that fetch blocks
before the search asks for them (guides/design.md, "The check page").

The worker (``checkpage/assets/checker-worker.js``) calls these through ``entry``, which
re-exports them: ``open_tables`` (the tables of a variant from the site's manifest, read through
the worker's fetch and what it keeps, with the compiled search of its host), ``table_blocks``
and ``table_codes`` (``rb_table_blocks``/``rb_table_block`` of ``prover-host.js``),
``table_request`` (the ranges that bring a block alone, which the scouts fetch), and
``scout_lines`` (the scouts' request lines: the judgement's first searches).  Where the browser
lets Python wait for a promise in the middle of a call (JSPI), the judgement also waits for the
scouts of every search (:class:`_ScoutedHost`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from rulebook_build.engine import (
    FetchFailed,
    SiteCheckerTables,
    binaries,
    site_checker_tables,
    tablefile,
)
from rulebook_build.notation import ReplayedProblem
from rulebook_build.rules import advance, find_variant, initial_clocks

_OPEN: dict[str, SiteCheckerTables] = {}
"""The site's tables of each variant, opened once for the worker's life."""


def _as_bytes(data: Any) -> bytes:
    """What a fetch gave: bytes here, a JavaScript ``Uint8Array`` in the worker."""
    if isinstance(data, bytes | bytearray | memoryview):
        return bytes(data)
    return bytes(data.to_bytes())


def _fetched(fetch: Callable[[str, int, int], Any], name: str, start: int, end: int) -> bytes:
    """What ``fetch`` gave, or :class:`FetchFailed` for whatever it raised: the worker's fetch
    (``table-fetch.js``) has already tried again what may pass, so its failures are final."""
    try:
        return _as_bytes(fetch(name, start, end))
    except OSError:
        raise
    except Exception as error:  # a JavaScript error, in the worker: "Error: NAME: HTTP 404"
        said = str(error).removeprefix("Error: ").removeprefix(f"{name}: ")
        raise FetchFailed(said, transient=False) from None


class _ScoutedHost:
    """The worker's host of the compiled search with its scouts before every search:
    ``scout(line)`` (``checker-worker.js``) gives a promise that settles once the pages the
    scouts of that request want are fetched; the judgement waits for it where the browser lets
    Python wait for a promise in the middle of a call (WebAssembly's promise integration, JSPI:
    ``pyodide.ffi.run_sync``), and goes on without it elsewhere.  The search that follows is
    the one without scouts: they only bring its pages forward."""

    def __init__(self, host: Any, scout: Callable[[str], Any]) -> None:
        self._host = host
        self._scout = scout

    def open(self, variant: str, table_mb: int) -> _ScoutedSession:
        return _ScoutedSession(self._host.open(variant, table_mb), self._scout)


class _ScoutedSession:
    def __init__(self, session: Any, scout: Callable[[str], Any]) -> None:
        self._session = session
        self._scout = scout

    def request(self, line: str) -> str:
        if line.startswith("solve ") and can_wait():
            _wait_for(self._scout(line))
        return str(self._session.request(line))

    def close(self) -> None:
        self._session.close()


def can_wait() -> bool:
    """Whether Python can wait here for a JavaScript promise in the middle of a call: in a
    browser with JSPI, in a call the worker made with ``callPromising``."""
    try:
        from pyodide.ffi import can_run_sync  # type: ignore[import-not-found]
    except ImportError:  # not in the browser (the tests)
        return False
    return bool(can_run_sync())


def _wait_for(promise: Any) -> None:
    from pyodide.ffi import run_sync

    run_sync(promise)


def open_tables(
    variant: str,
    manifest: str,
    fetch: Callable[[str, int, int], Any],
    host: Any = None,
    kept: Callable[[str, int, int], Any] | None = None,
    scout: Callable[[str], Any] | None = None,
    drop: Callable[[str, int, int], Any] | None = None,
) -> str:
    """Open the site's tables of ``variant`` from its manifest (which the worker checked
    against the digest the page carries), read through ``fetch(name, start, end)``, and with
    the compiled search of ``host`` (``prover-host.js``) if given; ``kept(name, start, end)``:
    the bytes where the worker fetched them ahead, else None; ``drop(name, start, end)``: the
    worker forgets such bytes, which failed their checksum; ``scout(line)``: the worker's
    scouts before each search (:class:`_ScoutedHost`).  Returns ``{"classes", "pieces",
    "compiled"}`` or ``{"error"}``."""
    if host is not None and scout is not None:
        host = _ScoutedHost(host, scout)

    def found(name: str, start: int, end: int) -> bytes | None:
        assert kept is not None
        bytes_found = kept(name, start, end)
        return None if bytes_found is None else _as_bytes(bytes_found)

    try:
        data = json.loads(manifest)
        tables = site_checker_tables(
            find_variant(variant),
            data,
            lambda name, start, end: _fetched(fetch, name, start, end),
            host,
            found if kept is not None else None,
            drop,
        )
    except (ValueError, KeyError, TypeError, tablefile.DamagedTable) as error:
        return json.dumps({"error": str(error)})
    _OPEN[variant] = tables
    return json.dumps(
        {"classes": len(tables.remote), "pieces": tables.pieces, "compiled": host is not None}
    )


def table_blocks(variant: str, a: int, b: int, c: int, d: int) -> int:
    """``rb_table_blocks`` of the WebAssembly search: the blocks of a class, 0 for none."""
    tables = _OPEN.get(variant)
    return 0 if tables is None else tables.blocks((a, b, c, d))


def table_codes(variant: str, a: int, b: int, c: int, d: int, block: int) -> Any:
    """``rb_table_block``: the checked codes of a block (a ``Uint8Array`` in the worker), or
    None."""
    tables = _OPEN.get(variant)
    codes = None if tables is None else tables.codes((a, b, c, d), block)
    if codes is None:
        return None
    try:
        from pyodide.ffi import to_js
    except ImportError:  # not in the browser (the tests)
        return codes
    return to_js(memoryview(codes))


def table_request(variant: str, a: int, b: int, c: int, d: int, block: int) -> str:
    """The ranges a block would cost (``SiteCheckerTables.request_for``: the block alone and
    its page's sums): ``[[file, start, end], ...]`` in JSON, or ``null`` where it costs none.
    The worker's scouts (``checker-worker.js``) fetch these ranges ahead of the judgement."""
    tables = _OPEN.get(variant)
    found = None if tables is None else tables.request_for((a, b, c, d), block)
    return json.dumps([list(r) for r in found] if found is not None else None)


SCOUT_NODES: Final = 2_000_000
"""A scout's node limit: it is stopped long before, once it wants the blocks it may."""


def scout_lines(read: ReplayedProblem, seconds: float) -> list[str]:
    """``solve SECONDS NODES NODE`` for the position after each legal first move of the
    problem: the searches its judgement asks first (the key's proof, each other first move's
    refutation), whose blocks its later searches mostly read too."""
    start = read.replayed.start if read.replayed is not None else read.start
    state = start.state()
    clocks = initial_clocks(read.variant, state)
    lines = []
    for move in start.raw_moves():
        after = start.play_raw(move).state()
        clocks_after = advance(read.variant, clocks, state, move, after)
        node = binaries.node_words(read.variant, after, clocks_after)
        lines.append(" ".join(["solve", f"{max(seconds, 0.001):.3f}", str(SCOUT_NODES), *node]))
    return lines
