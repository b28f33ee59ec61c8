"""A host for the WebAssembly search in the tests: wasmtime, with the imports the check page's
worker gives it (``checkpage/assets/prover-host.js``): the six WASI calls the module makes and the
two table calls, answered by a :class:`SiteCheckerTables` as in the browser.

With ``rounds`` a search never waits for a block: a probe of a block not yet fetched is noted as
wanted and answered "no table here", the search goes on; when it ends with blocks wanted, they
are fetched together, the instance's memory is put back as it was before the request, and the
search runs again, until a run wants nothing new.  That last run had every block it probed, so
its answer is the one of a search that waited for each.

:meth:`WasmtimeHost.scout_ahead` scouts as the page's worker does before a judgement
(``checker-worker.js`` scoutAhead, ``prover-host.js`` scout): each request of the judgement's
first searches runs in a fresh instance with a small table that never waits (a block whose
range is not kept is noted as wanted and answered "not here yet", which the search takes as
settled by the material, ``prover.c`` pending_guess; once ``enough`` are wanted its clock
jumps past its limit); the ranges of the wanted blocks (``request_for``: a
page each) are fetched and kept, and the scouts run again, a round at a time.  The judgement
then runs as it always does, taking what the scouts fetched from what is kept; its answer is
the one without scouts."""

from __future__ import annotations

import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import wasmtime

from rulebook_build.engine.tables import remote
from rulebook_build.engine.tables.remote import SiteCheckerTables

T = TypeVar("T")

I32 = wasmtime.ValType.i32()
I64 = wasmtime.ValType.i64()
ESPIPE = 70
EBADF = 8


class Exit(Exception):
    pass


class WasmtimeSession:
    def __init__(
        self,
        host: WasmtimeHost,
        variant: str,
        table_mb: int,
        *,
        ready: Callable[[tuple[int, int, int, int], int], bool] | None = None,
    ) -> None:
        self.host = host
        self.ready = ready
        """A scout's: whether a block can be had without waiting (else it is wanted)."""
        self.in_order: list[tuple[tuple[int, int, int, int], int]] = []
        """A scout's wanted blocks, in the order first wanted."""
        self.variant = variant
        self.wanted: set[tuple[tuple[int, int, int, int], int]] = set()
        self.jumps = 0  # with rounds, a run that wants enough blocks: its clock jumps to its end
        self.store = wasmtime.Store(host.engine)
        self.output = bytearray()
        self.errors = bytearray()
        self.tables = host.tables
        self.progress: list[float] = []
        self.waited = 0  # nanoseconds spent on table blocks, left out of the clock (as the page)
        linker = wasmtime.Linker(host.engine)
        wasi = "wasi_snapshot_preview1"

        def memory(caller: wasmtime.Caller) -> wasmtime.Memory:
            found = caller["memory"]
            assert isinstance(found, wasmtime.Memory)
            return found

        def fd_write(caller: wasmtime.Caller, fd: int, iovs: int, count: int, out: int) -> int:
            mem = memory(caller)
            written = 0
            for i in range(count):
                base, length = struct.unpack(
                    "<II", mem.read(caller, iovs + 8 * i, iovs + 8 * i + 8)
                )
                data = mem.read(caller, base, base + length)
                (self.output if fd == 1 else self.errors).extend(data)
                written += length
            mem.write(caller, struct.pack("<I", written), out)
            return 0 if fd in (1, 2) else EBADF

        def fd_fdstat_get(caller: wasmtime.Caller, fd: int, out: int) -> int:
            # a character device, no flags, every right
            memory(caller).write(caller, struct.pack("<BxHxxxxQQ", 2, 0, 2**64 - 1, 0), out)
            return 0

        def clock_time_get(caller: wasmtime.Caller, _id: int, _precision: int, out: int) -> int:
            clock = time.monotonic_ns() - self.waited + self.jumps * 10**15
            if self.jumps:
                self.jumps += 1
            memory(caller).write(caller, struct.pack("<Q", clock), out)
            return 0

        def proc_exit(code: int) -> None:
            raise Exit(f"the module exited with status {code}")

        def unclocked(ask: Callable[[], T]) -> T:
            """What ``ask`` returns, the time it took left out of the search's clock."""
            asked = time.monotonic_ns()
            try:
                return ask()
            finally:
                self.waited += time.monotonic_ns() - asked

        def blocks(a: int, b: int, c: int, d: int) -> int:
            return unclocked(lambda: self.tables.blocks((a, b, c, d)))

        def block(caller: wasmtime.Caller, a: int, b: int, c: int, d: int, n: int, at: int) -> int:
            if self.ready is not None:
                if not self.ready((a, b, c, d), n):
                    if ((a, b, c, d), n) not in self.wanted:
                        self.wanted.add(((a, b, c, d), n))
                        self.in_order.append(((a, b, c, d), n))
                    if len(self.wanted) >= host.enough_scout and not self.jumps:
                        self.jumps = 1
                    return -2  # not here yet: the scout guesses (prover.c pending_guess)
            elif host.rounds is not None and not self.tables.held((a, b, c, d), n):
                self.wanted.add(((a, b, c, d), n))
                if len(self.wanted) >= host.enough and not self.jumps:
                    self.jumps = 1
                return -1
            codes = unclocked(lambda: self.tables.codes((a, b, c, d), n))
            if codes is None:
                return -1
            memory(caller).write(caller, codes, at)
            return len(codes)

        functions = [
            (wasi, "fd_write", [I32] * 4, [I32], fd_write, True),
            (wasi, "fd_close", [I32], [I32], lambda fd: 0, False),
            (wasi, "fd_seek", [I32, I64, I32, I32], [I32], lambda *a: ESPIPE, False),
            (wasi, "fd_fdstat_get", [I32, I32], [I32], fd_fdstat_get, True),
            (wasi, "clock_time_get", [I32, I64, I32], [I32], clock_time_get, True),
            (wasi, "proc_exit", [I32], [], proc_exit, False),
            ("env", "rb_table_blocks", [I32] * 4, [I32], blocks, False),
            ("env", "rb_table_block", [I32] * 6, [I32], block, True),
            ("env", "rb_progress", [wasmtime.ValType.f64()], [], self.progress.append, False),
        ]
        for module, name, params, results, function, caller in functions:
            kind = wasmtime.FuncType(params, results)
            linker.define_func(module, name, kind, function, access_caller=caller)
        self.instance = linker.instantiate(self.store, host.module)
        exports = self.instance.exports(self.store)
        exports["_initialize"](self.store)  # type: ignore[operator]
        self.memory = exports["memory"]
        self.buffer = exports["rb_request_buffer"](self.store)  # type: ignore[operator]
        self.request_function = exports["rb_request"]
        number = {"international": 0, "frisian": 1}[variant]
        assert exports["rb_open"](self.store, number, table_mb) == 1  # type: ignore[operator]

    def request(self, line: str) -> str:
        data = line.encode() + b"\n\0"
        assert len(data) <= 512
        assert isinstance(self.memory, wasmtime.Memory)
        self.memory.write(self.store, data, self.buffer)
        if self.host.rounds is None or self.ready is not None:
            return self._run()
        before = self.memory.read(self.store, 0, self.memory.data_len(self.store))
        runs: list[tuple[int, float]] = []
        self.host.rounds.append(runs)
        self.host.kept_bytes = max(self.host.kept_bytes, len(before))
        while True:
            self.wanted.clear()
            self.jumps = 0
            began = time.perf_counter()
            answer = self._run()
            runs.append((len(self.wanted), time.perf_counter() - began))
            if not self.wanted:
                return answer
            asked = time.monotonic_ns()
            for material, number in sorted(self.wanted):
                self.tables.codes(material, number)
            self.waited += time.monotonic_ns() - asked
            grown = self.memory.data_len(self.store) - len(before)
            self.memory.write(self.store, before, 0)
            if grown:  # as fresh memory would be
                self.memory.write(self.store, bytes(grown), len(before))

    def _run(self) -> str:
        self.output.clear()
        self.request_function(self.store)  # type: ignore[operator]
        return self.output.decode()

    def close(self) -> None:
        self.instance = None  # type: ignore[assignment]


def prover_wasm() -> Path:
    """``prover.wasm`` built (once, into the cache), or the test failed saying what is missing."""
    import pytest

    from rulebook_build.engine import wasm
    from rulebook_build.engine.tables.endgame import default_cache_dir

    program = wasm.wasm_build(default_cache_dir())
    if program is None:
        pytest.fail("Zig is missing: pip install -e '.[wasm]' (scripts/test.sh does)")
    return program


SCOUT_TABLE_MB = 64
"""A scout's transposition table (``checker-worker.js`` SCOUT_TABLE_MB)."""
SCOUT_ROUNDS = 6
"""Rounds of scouts before a judgement (``table-fetch.js`` SCOUTING, over HTTP/2)."""
SCOUT_ENOUGH = 1024
"""Blocks a scout may want before it is stopped (``table-fetch.js`` SCOUTING, over HTTP/2)."""

Range = tuple[str, int, int]


class WasmtimeHost:
    """Opens a fresh instance of ``prover.wasm`` per session, as the page's worker does."""

    def __init__(
        self,
        wasm: Path,
        tables: SiteCheckerTables,
        *,
        rounds: bool = False,
        enough: int = 0,
        enough_scout: int = SCOUT_ENOUGH,
    ) -> None:
        self.engine = wasmtime.Engine()
        self.enough = enough or 2**62
        """With rounds, a run stops (its clock jumps past its deadline) once it wants this many
        blocks: the blocks it would want after are guesses of a search without their values."""
        self.rounds: list[list[tuple[int, float]]] | None = [] if rounds else None
        """With rounds: per request, per run its blocks wanted and its seconds."""
        self.kept_bytes = 0
        """With rounds: the most memory kept to put an instance back before a request."""
        self.enough_scout = enough_scout
        """A scout stops once it wants this many blocks."""
        self.module = wasmtime.Module.from_file(self.engine, str(wasm))
        self.tables = tables
        self.sessions = 0

    def open(self, variant: str, table_mb: int) -> WasmtimeSession:
        self.sessions += 1
        return WasmtimeSession(self, variant, table_mb)

    def scout_ahead(
        self,
        variant: str,
        lines: list[str],
        kept: remote.KeptRanges,
        fetch: Callable[[str, int, int], bytes],
        rounds: int = SCOUT_ROUNDS,
    ) -> list[list[Range]]:
        """The worker's scouts before a judgement whose first searches are ``lines``
        (``entry.scout_requests``): each round's wanted ranges (each block alone, with its
        page's sums) fetched with ``fetch`` into ``kept`` (which the tables read through
        ``kept``, as the worker's ``ahead``); a scout that wanted nothing is not run again.
        Returns the ranges fetched, per round."""
        ranges: dict[tuple[tuple[int, int, int, int], int], list[Range] | None] = {}

        def ranges_of(material: tuple[int, int, int, int], number: int) -> list[Range]:
            if (material, number) not in ranges:
                ranges[material, number] = self.tables.request_for(material, number)
            return ranges[material, number] or []

        def ready(material: tuple[int, int, int, int], number: int) -> bool:
            return all(found in kept for found in ranges_of(material, number))

        fetched: list[list[Range]] = []
        running = list(lines)
        for _round in range(rounds):
            wanted: list[Range] = []
            still = []
            for line in running:
                scout = WasmtimeSession(self, variant, SCOUT_TABLE_MB, ready=ready)
                scout.request(line)
                for material, number in scout.in_order:
                    for found in ranges_of(material, number):
                        if found not in kept and found not in wanted:
                            wanted.append(found)
                if scout.in_order:
                    still.append(line)
            if not wanted:
                break
            for name, start, end in wanted:
                kept.put(name, start, end, fetch(name, start, end))
            fetched.append(wanted)
            running = still
        return fetched
