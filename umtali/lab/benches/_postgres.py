"""``umtali bench club --postgres``: a throwaway PostgreSQL server for one run, the
same one the tests start (:mod:`umtali.lab.postgres`), stopped and removed after."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from umtali.lab.postgres import Unavailable, binaries, remove, start


@contextlib.contextmanager
def throwaway() -> Iterator[str]:
    """A running server's URL for the block's length; stopped and removed after."""
    server = start()
    try:
        yield server.url()
    finally:
        server.stop()
        remove(server.folder)


def installed() -> None:
    """Raise Unavailable, saying why, where no server can be started here."""
    if binaries() is None:
        raise Unavailable("PostgreSQL is not installed (no initdb): apt-get install postgresql")


__all__ = ["Unavailable", "installed", "throwaway"]
