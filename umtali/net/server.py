"""The SSH side of ``umtali host``: asyncssh, with a full-screen table per connection.

The invite code is the SSH user name (``ssh -p 2222 bako-tesi-rumu@host``): a
valid code needs no password or key, a wrong one gets nothing, and a peer that
tries too many is refused for a while.  A connection gets a terminal session
and nothing else: no shell, no commands, no file transfer, no forwarding.  Each
session is a prompt_toolkit application sized and redrawn for that client's
terminal, showing the seat's :class:`~umtali.net.remote.RemoteScreen`.

asyncssh is the optional ``net`` extra: this module is imported only by
``umtali host``, which says how to install it when it is missing.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import asyncssh
from prompt_toolkit.contrib.ssh import PromptToolkitSSHServer, PromptToolkitSSHSession

from umtali.engine.errors import UmtaliError
from umtali.net.codes import Doorman
from umtali.net.host import Host
from umtali.net.remote import RemoteScreen
from umtali.ui.app import AppScreen

#: Connections open at once, all told, for one game (two players, spectators, and a
#: few tries); a server of several games allows this many for each.
MAX_CONNECTIONS = 32
#: Seconds a client has to get in.
LOGIN_TIMEOUT = 20
#: A silent client is asked for a sign of life this often (seconds), and dropped
#: after so many unanswered asks: a vanished client frees its seat in about a minute.
KEEPALIVE = 15
KEEPALIVE_MISSES = 4


def host_key(path: Path) -> asyncssh.SSHKey:
    """The host's SSH key: made on first use (ed25519) and kept, readable by the
    owner only, so a friend who checked the fingerprint once can trust it after.

    It passes the file door: it is read only from a regular file of a key's size,
    and made only where nothing is, never through a link; trouble is one line."""
    from umtali.store.door import HOST_KEY, FileMissing, FileRefused, create_file, read_file

    def unreadable(why: object) -> UmtaliError:
        return UmtaliError(
            f"the host key {path} cannot be read ({why}): move it away and a new one is "
            "made (your friends will then see a new fingerprint)"
        )

    try:
        data: bytes | None = read_file(path, HOST_KEY)
    except FileMissing:
        data = None
    except FileRefused as err:
        raise unreadable(err.reason) from None
    if data is not None:
        try:
            return asyncssh.import_private_key(data)
        except (ValueError, asyncssh.KeyImportError) as err:
            raise unreadable(err) from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        create_file(path, key.export_private_key(), mode=0o600)
    except FileExistsError:  # a link to nothing: the key is not made where it leads
        raise UmtaliError(f"the host key {path} cannot be made: something is there") from None
    except OSError as err:
        raise UmtaliError(f"the host key {path} cannot be made ({err.strerror or err})") from None
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    return str(key.get_fingerprint("sha256"))


class _Session(PromptToolkitSSHSession):
    """A terminal session whose table ends when the connection does (a closed
    window, a dropped network), so its seat is free for the player's return."""

    table: AppScreen | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.table is not None:
            self.table.end()

    def eof_received(self) -> bool:
        if self.table is not None:
            self.table.end()
        return False


class _Gate(PromptToolkitSSHServer):
    """One SSH connection: lets in a valid code, and only as far as the table."""

    def __init__(
        self,
        door: Doorman,
        live: set[asyncssh.SSHServerConnection],
        most: int = MAX_CONNECTIONS,
        color_system: str = "256",
    ) -> None:
        super().__init__(self._interact, enable_cpr=False)
        self.door = door
        self.host: Host | None = None  # the game the code opens
        self.live = live  # the server's open connections
        self.most = most
        self.color_system = color_system
        self.peer = "?"
        self.role: str | None = None
        self._conn: asyncssh.SSHServerConnection | None = None
        self._counted = False

    # Each of asyncssh's questions about authentication: only the code counts.
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        if len(self.live) >= self.most:
            conn.close()
            return
        self.live.add(conn)
        self._counted = True

    def connection_lost(self, exc: Exception | None) -> None:
        if self._counted and self._conn is not None:
            self.live.discard(self._conn)
            self._counted = False

    def begin_auth(self, username: str) -> bool:
        self.role = self.door.admit(username, self.peer)
        if self.role is not None:
            game = self.door.game_of(username)
            self.host = game if isinstance(game, Host) else None
        return self.host is None  # a valid code needs nothing more; a wrong one fails

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> PromptToolkitSSHSession:
        # Only a connection that gave a valid code gets this far; _table checks again.
        return _Session(self._interact, enable_cpr=False)

    # The connection's table.
    async def _interact(self, session: PromptToolkitSSHSession) -> None:
        host = self.host
        if host is None or self.role is None:
            return
        try:
            await self._table(session, host, self.role)
        except Exception as err:  # never a traceback on the host's terminal
            host.log(f"a connection from {self.peer} failed: {type(err).__name__}: {err}")

    async def _table(self, session: PromptToolkitSSHSession, host: Host, role: str) -> None:
        number = int(role.split()[1]) if role.startswith("seat ") else None
        app = AppScreen(host.theme, self.color_system, remote=True)
        if isinstance(session, _Session):
            session.table = app
        if number is None:
            screen = RemoteScreen("spectator", host.grace)  # never asked anything
            host.split.watch(screen)
            screen.attach(app)
            for line in host.chat_log[-5:]:
                app.say(line)
            host.joined(None, "")
            try:
                await app.app.run_async()
            finally:
                app.close()
                host.split.unwatch(screen)
                host.left(None, "")
            return
        seat = host.remote.get(number)
        if seat is not None:
            name = seat.name
            app.on_say = lambda text: host.chat(name, text)
        if seat is None or not seat.attach(app):
            _write(session, "This seat is taken: its player is at the table already.\r\n")
            return
        host.joined(number, seat.name)
        try:
            await app.app.run_async()
        finally:
            app.close()
            seat.detach(app)
            host.left(number, seat.name)


def _write(session: PromptToolkitSSHSession, text: str) -> None:
    chan: Any = session._chan
    if chan is not None:
        chan.write(text)


class Server:
    """The SSH server in a thread of its own, with its own event loop, so the game
    thread and a local table are free to block."""

    def __init__(
        self, door: Doorman, key: asyncssh.SSHKey, listen: str, port: int, games: int = 1
    ) -> None:
        self.door = door
        self.most = MAX_CONNECTIONS * games
        self.key = key
        self.listen = listen
        self.port = port
        self.loop = asyncio.new_event_loop()
        self.live: set[asyncssh.SSHServerConnection] = set()
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="umtali-ssh", daemon=True
        )

    def start(self) -> int:
        """Listen (raising OSError if the address cannot be had); the port listened on."""
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._listen(), self.loop)
        self._acceptor = future.result(timeout=30)
        return int(self._acceptor.get_port())

    async def _listen(self) -> asyncssh.SSHAcceptor:
        return await asyncssh.create_server(
            lambda: _Gate(self.door, self.live, self.most),
            self.listen,
            self.port,
            server_host_keys=[self.key],
            login_timeout=LOGIN_TIMEOUT,
            keepalive_interval=KEEPALIVE,
            keepalive_count_max=KEEPALIVE_MISSES,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            line_editor=False,
            encoding="utf-8",
        )

    def stop(self) -> None:
        """Stop listening, end every connection, and stop the loop."""

        async def close() -> None:
            if self._acceptor is not None:
                self._acceptor.close()
            for conn in list(self.live):
                conn.close()
            await asyncio.sleep(0.3)  # let the sessions see their end
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.loop.stop()

        if self.loop.is_running():
            asyncio.run_coroutine_threadsafe(close(), self.loop)
            self._thread.join(timeout=5)
