"""The compiled proof search as WebAssembly, for the check page, and the prover a host runs.

``native/prover.c`` compiled with ``-DPROVER_WASM`` for ``wasm32-wasi`` is a library (a WASI
"reactor") instead of a program: the host opens a session (``rb_open``: variant, table memory),
writes each request line of ``prover serve`` into ``rb_request_buffer`` and calls
``rb_request``; the answer arrives on standard output, the same lines as from ``serve``.  A new
session is a new instance of the module, with fresh memory.  The module reads no files: the
host gives it the compact endgame tables through two imported functions, ``rb_table_blocks``
(how many blocks a class's table has, 0 for none) and ``rb_table_block`` (one block's codes,
unpacked after its checksum was verified, ``tables/remote.py``); ``rb_progress`` tells the host
the nodes of the search under way every 65,536, so that the page's counter moves.

Hosts: the check page's worker (``checkpage/assets/prover-host.js``) in the browser, and
``wasmtime`` in the tests (``tests/checker/test_wasm_differential.py``).  Whatever the host,
:class:`HostedProver` is a :class:`~rulebook_build.engine.binaries.NativeProver` to the judge,
and every answer goes through the same Python walk of its tree before it counts: a fault of the
WebAssembly build can cost a proof, never make a false one.

The compiler is Zig's ``zig cc`` from the PyPI package ``ziglang`` (pinned in the ``wasm``
extra of ``pyproject.toml``): one ``pip install`` brings clang, the WebAssembly linker and
wasi-libc, with no download of its own and no system package.  Without it the site still
builds and the page runs the Python search.  WebAssembly is 32-bit: ``long`` and pointers have
4 bytes, which ``prover.c`` never relies on (its board and counts are ``uint64_t``), and memory
ends at 4 GB (``--max-memory``); the transposition table a judgement gets is sized as on the
command line, so that a search counted in work takes the same steps in the browser.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Final, Protocol

from rulebook_build.engine import binaries
from rulebook_build.errors import RulebookError
from rulebook_build.rules import DrawClocks, State, Variant

WASM_FLAGS: Final = (
    "-target",
    "wasm32-wasi",
    "-O3",
    "-std=c11",
    "-DPROVER_WASM",
    "-mexec-model=reactor",
    "-s",
    "-Wl,--max-memory=4294901760",
    "-Wl,-z,stack-size=16777216",
)
"""How ``prover.c`` is compiled for the browser: optimised, stripped, a reactor (no ``main``),
its memory allowed to grow to WebAssembly's 4 GB less one page (Zig reads the limit as 32 bits),
and a stack of 16 MB: the search recurses up to ``MAX_DEPTH`` (8,000) plies, which the default
1 MB would not hold."""
WASM_NAME: Final = "prover.wasm"


def zig() -> str | None:
    """Zig's compiler driver: the ``ziglang`` package's, else a ``zig`` on the PATH."""
    try:
        import ziglang  # type: ignore[import-untyped]
    except ImportError:
        return shutil.which("zig")
    program = Path(ziglang.__file__).resolve().parent / "zig"
    return str(program) if program.is_file() else shutil.which("zig")


class WasmBuildError(RulebookError):
    """``prover.c`` could not be compiled to WebAssembly (the compiler's message)."""


def wasm_build(folder: Path) -> Path | None:
    """``prover.wasm`` in ``folder/bin``, compiled first when missing (its name carries a hash of
    the source and the flags); None without Zig.  Raises :class:`WasmBuildError` when the
    compiler refuses the source."""
    built_as = hashlib.sha256(
        binaries.source_bytes(binaries.PROVER_SOURCE) + " ".join(WASM_FLAGS).encode()
    ).hexdigest()[:16]
    target = folder / "bin" / f"prover-{built_as}.wasm"
    if target.is_file():
        return target
    compiler = zig()
    if compiler is None:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".prover-", suffix=".wasm")
    os.close(handle)
    try:
        done = subprocess.run(
            [compiler, "cc", *WASM_FLAGS, "-o", temporary, str(binaries.PROVER_SOURCE)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            message = done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
            raise WasmBuildError(
                f"zig cc could not compile the search to WebAssembly: {message[0]}",
                source=str(binaries.PROVER_SOURCE),
            )
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target


class HostSession(Protocol):
    """One instance of the module, opened by a :class:`Host`."""

    def request(self, line: str) -> str:
        """Answer one request line: the lines of ``prover serve`` up to ``end``."""

    def close(self) -> None:
        """Let the instance and its memory go."""


class Host(Protocol):
    """What runs the module: the page's worker, or wasmtime in the tests."""

    def open(self, variant: str, table_mb: int) -> HostSession:
        """A new instance, its session opened for ``variant`` with ``table_mb`` of table."""


class HostedSession(binaries.ProverSession):
    """The searches of one judgement in one instance of the module (as ``ProverSession`` in one
    process): what one search settles, the next one starts from."""

    def __init__(self, prover: HostedProver, table_mb: int) -> None:
        super().__init__(prover, table_mb)
        self.host = prover.host
        self._instance: HostSession | None = None

    def _exchange(self, request: str) -> str:
        if self._instance is None:
            self._instance = self.host.open(self.prover.variant.name, self.table_mb)
        try:
            answer = str(self._instance.request(request))
        except Exception as error:  # a trap of the module, or the host's own failure
            raise OSError(f"the WebAssembly search stopped: {error}") from None
        if not answer.endswith("end\n"):
            raise OSError("the WebAssembly search's answer ended early")
        return answer

    def close(self) -> None:
        instance, self._instance = self._instance, None
        if instance is not None:
            instance.close()


class HostedProver(binaries.NativeProver):
    """``prover.c`` as WebAssembly, run by ``host``: a search is a session of one request."""

    def __init__(
        self, host: Host, *, variant: Variant, table_mb: int = binaries.PROVER_TABLE_MB
    ) -> None:
        super().__init__(Path(WASM_NAME), Path(), Path(), variant=variant, table_mb=table_mb)
        self.host = host

    def session(self, seconds: float) -> HostedSession:
        return HostedSession(self, self.table_mb_for(seconds))

    def solve(
        self,
        state: State,
        clocks: DrawClocks,
        *,
        seconds: float,
        node_limit: int,
        table_seconds: float | None = None,
    ) -> binaries.ProverAnswer:
        session = self.session(seconds if table_seconds is None else table_seconds)
        try:
            return session.solve(state, clocks, seconds=seconds, node_limit=node_limit)
        finally:
            session.close()

    def describe(self, state: State, clocks: DrawClocks) -> binaries.NodeReport:
        raise RulebookError("the WebAssembly build answers searches only, not 'moves'")
