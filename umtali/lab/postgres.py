"""A throwaway PostgreSQL server, for the tests and the club's benchmark, never a mock:
started from Debian's binaries (``initdb``, ``pg_ctl``) in a folder of its own, on a free
loopback port, and stopped when they end.  ``tests/conftest.py`` starts one per test
session (per xdist worker, so workers never share a server or a port) and gives each
test a database of its own; ``umtali bench club --postgres`` starts one for its run.

Root may not run a PostgreSQL server (``initdb`` refuses), and root is who runs the
tests here and in CI: the server then runs as the ``postgres`` system user that
Debian's package made, through ``runuser`` (or ``setpriv``), in a folder handed to
that user.  The folder is under the system's temporary folder, not pytest's, since
pytest's is root's own and the ``postgres`` user could not reach into it.

The server listens on 127.0.0.1 only, its socket folder is inside its own folder, and
it asks a password made for this run (``scram-sha-256``), so another user of the
machine cannot use it in passing.
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
import time
from dataclasses import dataclass, field
from pathlib import Path

#: Seconds the server may take to start or stop before the tests give up on it.
WAIT_SECONDS = 60.0


class Unavailable(Exception):
    """No PostgreSQL server can be started here; the message says why and what to do."""


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: the one on PATH, else the newest
    of Debian's ``/usr/lib/postgresql/<version>/bin`` (which Debian leaves off PATH)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    for initdb in reversed(versions):
        if (initdb.parent / "pg_ctl").exists():
            return initdb.parent
    return None


def _free_port() -> int:
    """A port nothing listens on now; the server may still lose it to another
    program before it binds, so :func:`start` tries again on another."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """One running PostgreSQL server, stopped by :meth:`stop` (twice is harmless)."""

    folder: Path
    bin: Path
    port: int
    password: str
    as_user: list[str]
    running: bool = False
    started_in: float = 0.0
    _made: int = field(default=0, repr=False)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres:{self.password}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.as_user, *args],
            cwd=self.folder,  # the postgres user may not reach the tests' folder
            capture_output=True,
            text=True,
            timeout=WAIT_SECONDS + 10,
            check=False,
        )

    def _log(self) -> str:
        try:
            return "\n".join((self.folder / "log").read_text().splitlines()[-15:])
        except OSError:
            return "(no log)"

    def start(self) -> None:
        """Start it and wait until it takes a connection (pg_ctl's ``-w`` waits for
        the server to say it is ready; a connection then proves it)."""
        begun = time.monotonic()
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} "
            f"-c unix_socket_directories={self.folder / 'socket'}"
        )
        done = self._run(
            str(self.bin / "pg_ctl"), "start", "-w", "-t", str(int(WAIT_SECONDS)),
            "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options,
        )  # fmt: skip
        if done.returncode != 0:
            raise Unavailable(
                f"pg_ctl start failed on port {self.port}: {done.stderr.strip()}\n{self._log()}"
            )
        self.running = True
        self._wait_for_connection()
        self.started_in = time.monotonic() - begun

    def _wait_for_connection(self) -> None:
        import psycopg

        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                psycopg.connect(self.url(), connect_timeout=5).close()
                return
            except psycopg.OperationalError as err:
                if time.monotonic() > deadline:
                    raise Unavailable(f"the test server takes no connection: {err}") from err
            time.sleep(0.05)  # polling for a state, with a deadline: not a fixed wait

    def stop(self) -> None:
        """Stop it at once (``-m fast``: open connections are cut); never raises."""
        if not self.running:
            return
        self.running = False
        with contextlib.suppress(Exception):
            self._run(str(self.bin / "pg_ctl"), "stop", "-m", "fast", "-w", "-D", str(self.data))

    def restart(self) -> None:
        """Stop it and start it again on the same port: every open connection dies."""
        self.stop()
        self.start()

    def admin(self, sql: str) -> None:
        """Run one statement outside any transaction (CREATE DATABASE needs that)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.encode())

    def new_database(self) -> str:
        """A new, empty database of this server's; its name."""
        self._made += 1
        name = f"t_{self._made}"
        self.admin(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        """Drop a database made by :meth:`new_database`, cutting whoever is still in it."""
        with contextlib.suppress(Exception):
            self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _as_postgres() -> list[str]:
    """The words that run a command as the ``postgres`` user, for root."""
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable(
            "the tests run as root and there is no 'postgres' user to run PostgreSQL as "
            "(Debian's postgresql package makes one)"
        ) from None
    if shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--"]
    if shutil.which("setpriv"):
        return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups"]
    raise Unavailable("the tests run as root, and neither runuser nor setpriv is here")


def start() -> Server:
    """A new server in a new folder, running; Unavailable where none can be started.

    The caller stops it (:meth:`Server.stop`) and removes its folder (:func:`remove`)."""
    bin = binaries()
    if bin is None:
        raise Unavailable(
            "PostgreSQL is not installed (no initdb on PATH nor in /usr/lib/postgresql/*/bin): "
            "apt-get install postgresql, or see .ci/run"
        )
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise Unavailable("psycopg is missing: pip install -e '.[test]'") from None
    root = os.geteuid() == 0
    as_user = _as_postgres() if root else []
    folder = Path(tempfile.mkdtemp(prefix="umtali-pg-"))
    try:
        (folder / "socket").mkdir()
        password = secrets.token_hex(16)
        (folder / "password").write_text(password + "\n")
        if root:
            user = pwd.getpwnam("postgres")
            for path in (folder, folder / "socket", folder / "password"):
                os.chown(path, user.pw_uid, user.pw_gid)
        server = Server(folder, bin, 0, password, as_user)
        begun = time.monotonic()
        done = server._run(
            str(bin / "initdb"), "-D", str(server.data), "-U", "postgres",
            "-A", "scram-sha-256", f"--pwfile={folder / 'password'}",
            "-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions",
        )  # fmt: skip
        if done.returncode != 0:
            raise Unavailable(f"initdb failed: {done.stderr.strip()}")
        for attempt in range(5):
            server.port = _free_port()
            try:
                server.start()
                break
            except Unavailable:
                server.stop()
                if attempt == 4:
                    raise
        server.started_in = time.monotonic() - begun  # initdb and the start together
        return server
    except BaseException:
        remove(folder)
        raise


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
