"""A throwaway PostgreSQL server for ``umtali bench club --postgres``.

Started as the tests start theirs (``tests/postgres.py``, which research tooling may not
import): Debian's ``initdb`` and ``pg_ctl`` in a new temporary folder, listening on a
free port of 127.0.0.1 only, with a password made for this run; as the ``postgres``
system user when root runs the bench, since PostgreSQL refuses to run as root.  The
server is stopped and its folder removed when the ``with`` block ends.

Not a bench itself (hence the underscore).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

#: Seconds the server may take to start or stop.
WAIT_SECONDS = 60


class Unavailable(Exception):
    """No PostgreSQL server can be started here; the message says why."""


def _binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, else the newest of Debian's
    ``/usr/lib/postgresql/<version>/bin``."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if not versions:
        raise Unavailable("PostgreSQL is not installed (no initdb): apt-get install postgresql")
    return versions[-1].parent


def _as_postgres() -> list[str]:
    """The words that run a command as the ``postgres`` user (for root), else none."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable("root may not run PostgreSQL, and there is no 'postgres' user") from None
    if shutil.which("runuser") is None:
        raise Unavailable("root may not run PostgreSQL, and runuser is missing")
    return ["runuser", "-u", "postgres", "--"]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def throwaway() -> Iterator[str]:
    """A running server's URL for the block's length; stopped and removed after."""
    bin_dir = _binaries()
    as_user = _as_postgres()
    folder = Path(tempfile.mkdtemp(prefix="umtali-bench-pg-"))
    data = folder / "data"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*as_user, *args], cwd=folder, capture_output=True, text=True,
            timeout=WAIT_SECONDS + 10, check=False,
        )  # fmt: skip

    started = False
    try:
        (folder / "socket").mkdir()
        password = secrets.token_hex(16)
        (folder / "password").write_text(password + "\n")
        if as_user:  # the postgres user must reach its own folder
            user = pwd.getpwnam("postgres")
            for path in (folder, folder / "socket", folder / "password"):
                os.chown(path, user.pw_uid, user.pw_gid)
        done = run(
            str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "scram-sha-256",
            f"--pwfile={folder / 'password'}", "-E", "UTF8", "--no-locale", "--no-sync",
        )  # fmt: skip
        if done.returncode != 0:
            raise Unavailable(f"initdb failed: {done.stderr.strip()}")
        port = _free_port()
        options = (
            f"-c listen_addresses=127.0.0.1 -p {port} "
            f"-c unix_socket_directories={folder / 'socket'} -c max_connections=200"
        )
        done = run(
            str(bin_dir / "pg_ctl"), "start", "-w", "-t", str(WAIT_SECONDS), "-D", str(data),
            "-l", str(folder / "log"), "-o", options,
        )  # fmt: skip
        if done.returncode != 0:
            raise Unavailable(f"pg_ctl start failed: {done.stderr.strip()}")
        started = True
        yield f"postgresql://postgres:{password}@127.0.0.1:{port}/postgres"
    finally:
        if started:
            run(str(bin_dir / "pg_ctl"), "stop", "-m", "fast", "-w", "-D", str(data))
        shutil.rmtree(folder, ignore_errors=True)


__all__ = ["Unavailable", "throwaway"]
