"""The Dask cluster behind ``rulebook check --cluster`` and ``rulebook tables --cluster``.

Both hand plain-data tasks to the workers of a ``distributed`` scheduler and read each result
from its own future, so a worker lost during a run costs its tasks a rerun on another worker
(the scheduler's own retry), never a lost or doubled result.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Final

from rulebook_build.errors import RulebookError

if TYPE_CHECKING:
    from distributed import Client

CONNECT_TIMEOUT: Final = "10s"
"""How long to wait for the scheduler to answer (a scheduler on a network answers within a
second; a wrong address is reported after this)."""


def connect(stack: contextlib.ExitStack, address: str) -> Client:
    """A client of the scheduler at ``address``, closed with ``stack``; a clear error when the
    package is missing or no scheduler answers."""
    try:
        from distributed import Client
    except ImportError:  # a plain installation: Dask is the optional extra 'cluster'
        raise RulebookError(
            "--cluster needs Dask's 'distributed' package, which a plain installation leaves "
            "out; add it with: pip install 'rulebook_build[cluster]' (from a clone of the "
            "project: pip install -e '.[cluster]')"
        ) from None
    try:
        client: Client = stack.enter_context(Client(address, timeout=CONNECT_TIMEOUT))  # type: ignore[no-untyped-call]
        return client
    except OSError as error:
        raise RulebookError(f"--cluster {address}: no scheduler answers there ({error})") from None
