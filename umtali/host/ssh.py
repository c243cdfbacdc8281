"""The SSH side of ``umtali host``: asyncssh, with a full-screen table per connection.

The invite code is the SSH user name (``ssh -p 2222 bako-tesi-rumu@host``): a
valid code needs no password or key, a wrong one gets nothing, and a peer that
tries too many is shut out for a while (and told for how long).  A connection
gets a terminal session and nothing else: no shell, no commands, no file
transfer, no forwarding.  Each session is a prompt_toolkit application sized and
redrawn for that client's terminal, showing the seat's
:class:`~umtali.host.remote.RemoteScreen`.

The door holds against strangers as well as friends:

- every byte a client types passes the input gate (:mod:`umtali.ui.gate`), so a
  flood, a paste that never ends or a byte that is not UTF-8 costs nothing;
- so does every change of its window, and the changes are coalesced
  (:mod:`umtali.host.window`): a table is redrawn for the latest size a few times
  a second at most, so no connection can keep the others' tables waiting;
- a window asked for larger than :data:`MAX_COLUMNS` x :data:`MAX_ROWS` is drawn
  at that size, and its client is told;
- connections not yet at a table (not logged in, or logged in with no session)
  are few: when there are too many, the oldest goes, first from the address
  that has the most, so idle connections never keep a player out; a code must be
  given within :data:`LOGIN_TIMEOUT` seconds and a session opened within
  :data:`SESSION_WAIT`; spectators have a cap of their own;
- a player who joins again takes their seat from their old connection at once
  (only the seat's code can), and a client that stops answering is noticed
  within :data:`KEEPALIVE` x :data:`KEEPALIVE_MISSES` seconds;
- a client that stops reading what is sent is dropped before its backlog grows,
  and nothing more is written to a connection whose socket has failed.

asyncssh is the optional ``net`` extra: this module is imported only by
``umtali host``, which says how to install it when it is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO, cast

import asyncssh
from prompt_toolkit.application.current import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.output.vt100 import Vt100_Output
from rich.text import Text

from umtali.engine.errors import UmtaliError
from umtali.host.codes import Doorman, Role
from umtali.host.game import Host
from umtali.host.remote import Joined, RemoteScreen
from umtali.host.window import WindowChanges
from umtali.ui.app import AppScreen
from umtali.ui.gate import REMOTE, GatedInput

#: Connections not yet at a table, for each game served: past this the oldest goes.
WAITING = 24
#: Of those, from any one address (for each game served).
PER_ADDRESS = 8
#: Spectators watching one game at once.
SPECTATORS = 10
#: Seconds a client has to give its code, and then to open its session.
LOGIN_TIMEOUT = 10
SESSION_WAIT = 10
#: A silent client is asked for a sign of life this often (seconds), and dropped
#: after so many unanswered asks: a vanished client frees its seat in 15 seconds.
KEEPALIVE = 5
KEEPALIVE_MISSES = 3
#: The largest window drawn: any real terminal fits; a client asking for more is told.
MAX_COLUMNS = 400
MAX_ROWS = 150
#: Bytes waiting to be sent to a client that reads none of them, before it is dropped.
MAX_BACKLOG = 4 * 1024 * 1024


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


# ------------------------------------------------------------ the lobby


class Lobby:
    """The connections not yet at a table, oldest first, and who may wait there.

    A new connection always gets in: when the lobby is full, the oldest waiting
    connection of the address that holds the most is closed to make room.  A
    connection leaves the lobby when its session starts, or when it logs in with
    a seat's code (a seated player is never pushed out by strangers).
    """

    def __init__(self, most: int, per_address: int) -> None:
        self.most = most
        self.per_address = per_address
        self._waiting: dict[asyncssh.SSHServerConnection, str] = {}  # in order of arrival

    def arrive(self, conn: asyncssh.SSHServerConnection, address: str) -> None:
        same = [c for c, a in self._waiting.items() if a == address]
        if len(same) >= self.per_address:
            self._evict(same[0])
        elif len(self._waiting) >= self.most:
            counts: dict[str, int] = {}
            for a in self._waiting.values():
                counts[a] = counts.get(a, 0) + 1
            crowded = max(counts, key=lambda a: counts[a])
            self._evict(next(c for c, a in self._waiting.items() if a == crowded))
        self._waiting[conn] = address

    def seated(self, conn: asyncssh.SSHServerConnection) -> None:
        self._waiting.pop(conn, None)

    def leave(self, conn: asyncssh.SSHServerConnection) -> None:
        self._waiting.pop(conn, None)

    def __len__(self) -> int:
        return len(self._waiting)

    def _evict(self, conn: asyncssh.SSHServerConnection) -> None:
        self._waiting.pop(conn, None)
        conn.close()


# ---------------------------------------------------------- a connection


class _Stdout:
    """What prompt_toolkit writes, sent down the channel as UTF-8."""

    def __init__(self, session: _Session) -> None:
        self.session = session

    def write(self, data: str) -> int:
        self.session.send(data.replace("\n", "\r\n"))
        return len(data)

    def isatty(self) -> bool:
        return True

    def flush(self) -> None:
        pass

    @property
    def encoding(self) -> str:
        return "utf-8"


class _Session(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One terminal session: the client's keys through the input gate into its table,
    and the table's frames back, at a size the host can afford."""

    def __init__(self, door: _Door) -> None:
        self.door = door
        self.input = GatedInput(lines=REMOTE)
        self.table: AppScreen | None = None
        self.parting: str | None = None  # a last line for the client, after the table
        self._chan: Any = None
        self._window: WindowChanges | None = None
        self._told_size = False
        # The host's own latency, where it is measured: when the last Enter came, and
        # whether a table has been shown since (the next frame sent answers it).
        self._enter: float | None = None
        self._shown_since = False
        self._ended = False  # the table was ended (the connection went, or the host)
        self.lost = False  # the connection went: nothing more can be sent

    # asyncssh's callbacks
    def connection_made(self, chan: Any) -> None:
        self._chan = chan
        self._window = WindowChanges(self._resized, asyncio.get_running_loop().call_later)

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def session_started(self) -> None:
        asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: Any) -> None:
        if isinstance(data, str):  # a channel opened with an encoding
            data = data.encode("utf-8", "surrogateescape")
        if self.door.server.latencies is not None and (b"\r" in data or b"\n" in data):
            self._enter, self._shown_since = time.perf_counter(), False
        self.input.send_bytes(data)

    def eof_received(self) -> bool:
        self._end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._end()

    def terminal_size_changed(
        self, width: int, height: int, pixwidth: object, pixheight: object
    ) -> None:
        # The size is asyncssh's to keep (``size`` reads it): a change only asks for a
        # redraw, once the gate has let it through, and the redraws are coalesced.
        if self.table is not None and self._window is not None and self.input.window_changed():
            self._window.changed()

    def _resized(self) -> None:
        table = self.table
        if table is None or self._ended:
            return
        self._tell_if_too_large(table)
        table.app._on_resize()

    # the table
    async def _run(self) -> None:
        chan = self._chan
        if chan is None:
            return
        output = Vt100_Output(
            cast(TextIO, _Stdout(self)), self.size, term=chan.get_terminal_type(), enable_cpr=False
        )
        try:
            with create_app_session(input=self.input, output=output):
                await self.door.interact(self, output)
        except EOFError:
            pass  # the client's input closed: _sit and _watch said who left, and how
        except Exception as err:  # never a traceback on the host's terminal
            why = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            self.door.log(f"a connection from {self.door.peer} failed ({why})")
        finally:
            if self.parting:
                self.send(self.parting.replace("\n", "\r\n") + "\r\n")
            chan.close()

    def size(self) -> Size:
        """The client's window, at most MAX_COLUMNS x MAX_ROWS (80 x 24 if it gave none)."""
        chan = self._chan
        columns, rows = (chan.get_terminal_size()[:2]) if chan is not None else (0, 0)
        return Size(
            rows=min(rows, MAX_ROWS) if rows > 0 else 24,
            columns=min(columns, MAX_COLUMNS) if columns > 0 else 80,
        )

    def _tell_if_too_large(self, table: AppScreen) -> None:
        chan = self._chan
        if chan is None or self._told_size:
            return
        columns, rows = chan.get_terminal_size()[:2]
        if columns > MAX_COLUMNS or rows > MAX_ROWS:
            self._told_size = True
            table.say(
                Text(
                    f"Your window ({columns}x{rows}) is larger than the table is drawn "
                    f"({MAX_COLUMNS}x{MAX_ROWS} at most): it uses the top left of it.",
                    "yellow",
                )
            )

    def send(self, data: str) -> None:
        chan = self._chan
        if chan is None or self.lost:
            return
        if self.door.failed():
            # The socket failed and asyncssh has not heard yet: asyncio would log
            # "socket.send() raised exception." for every write from now on.
            self.lost = True
            self._end()
            return
        try:
            if chan.get_write_buffer_size() > MAX_BACKLOG:
                # The client reads nothing we send: drop it before its backlog grows.
                self.door.log(f"a connection from {self.door.peer} stopped reading: closed")
                self.lost = True
                self._end()
                chan.close()
                return
            chan.write(data.encode("utf-8", "replace"))
            if self._shown_since and self._enter is not None:
                latencies = self.door.server.latencies
                if latencies is not None:
                    latencies.append(time.perf_counter() - self._enter)
                self._enter, self._shown_since = None, False
        except (BrokenPipeError, ConnectionError, OSError, asyncssh.Error):
            self.lost = True
            self._end()

    def table_shown(self) -> None:
        """A new table went to this session's screen: the next frame sent shows it."""
        if self._enter is not None:
            self._shown_since = True

    def _end(self) -> None:
        """The connection is gone or going: its table ends, its input closes."""
        if self._ended:
            return
        self._ended = True
        self.input.close()
        if self._window is not None:
            self._window.close()
        if self.table is not None:
            self.table.end()


class _Door(asyncssh.SSHServer):
    """One SSH connection: lets in a valid code, and only as far as the table."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.door = server.door
        self.host: Host | None = None  # the game the code opens
        self.peer = "?"
        self.role: Role | None = None
        self.session: _Session | None = None
        self._conn: asyncssh.SSHServerConnection | None = None
        self._timer: asyncio.TimerHandle | None = None

    def log(self, line: str) -> None:
        self.server.log(line)

    def failed(self) -> bool:
        """Whether the connection's socket has failed (or is closing) though asyncssh
        has not yet been told: asyncio tells it in a later turn of the loop, and
        asyncssh keeps its transport to itself, so it is asked for here."""
        transport = getattr(self._conn, "_transport", None)
        return transport is not None and bool(transport.is_closing())

    # The connection, and the lobby.
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        self.server.lobby.arrive(conn, self.peer)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn is not None:
            self.server.lobby.leave(self._conn)
        if self._timer is not None:
            self._timer.cancel()
        self.server.forget(self)

    # Authentication: only the code counts.
    def begin_auth(self, username: str) -> bool:
        admitted = self.door.admit(username, self.peer)
        if admitted.banner and self._conn is not None:
            self._conn.send_auth_banner(admitted.banner + "\r\n")
        if admitted.role is not None:
            game = self.door.game_of(username)
            if isinstance(game, Host):
                self.host, self.role = game, admitted.role
        return self.host is None  # a valid code needs nothing more; a wrong one fails

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def auth_completed(self) -> None:
        conn = self._conn
        if conn is None:
            return
        if self.role is not None and self.role.seat is not None:
            self.server.lobby.seated(conn)  # a player is never pushed out by strangers
        # A session must follow soon: a connection holding none holds nothing.
        self._timer = asyncio.get_running_loop().call_later(SESSION_WAIT, self._no_session)

    def _no_session(self) -> None:
        if self.session is None and self._conn is not None:
            self._conn.close()

    def session_requested(self) -> _Session | bool:
        if self.host is None or self.role is None or self.session is not None:
            return False  # one session a connection, and only with a valid code
        if self._timer is not None:
            self._timer.cancel()
        if self._conn is not None:
            self.server.lobby.seated(self._conn)
        self.session = _Session(self)
        return self.session

    # The connection's table.
    async def interact(self, session: _Session, output: Vt100_Output) -> None:
        host, role = self.host, self.role
        if host is None or role is None:
            return
        app = AppScreen(
            host.theme,
            self.server.color_system,
            remote=True,
            input=session.input,
            output=output,
            spectating=role.seat is None,
        )
        session.table = app
        if self.server.latencies is not None:
            app.on_table = session.table_shown
        session._tell_if_too_large(app)
        if role.seat is None:
            await self._watch(session, host, app)
        else:
            await self._sit(session, host, role.seat, app)

    async def _watch(self, session: _Session, host: Host, app: AppScreen) -> None:
        screen = RemoteScreen("spectator", host.grace)  # never asked anything
        if not host.watch(screen, most=SPECTATORS):
            session.parting = (
                f"All {SPECTATORS} places for spectators are taken (or the game is over): "
                "try again later."
            )
            return
        screen.attach(app)
        for line in host.chat_log[-5:]:
            app.say(line)
        host.joined(None, "")
        try:
            await app.app.run_async()
        finally:
            app.close()
            host.unwatch(screen)
            host.left(None, "")
            session.parting = app.parting

    async def _sit(self, session: _Session, host: Host, number: int, app: AppScreen) -> None:
        seat = host.remote.get(number)
        if seat is None:
            return
        name = seat.name
        app.on_say = lambda text: host.chat(name, text)
        joined = seat.attach(app, take_over=True)
        if joined is Joined.CLOSED:
            session.parting = seat.closed_words  # over, or the seat is the bot's
            return
        host.joined(number, name, again=joined is Joined.AGAIN)
        try:
            await app.app.run_async()
        finally:
            app.close()
            still_here = seat.detach(app)
            session.parting = app.parting
            if still_here or app.leaving:  # not taken over by a newer connection
                lost = session.lost and not app.leaving
                host.left(number, name, dropped=lost, closed=not lost and not app.leaving)


# ------------------------------------------------------------- the server


class Server:
    """The SSH server in a thread of its own, with its own event loop, so the game
    thread and a local table are free to block."""

    def __init__(
        self,
        door: Doorman,
        key: asyncssh.SSHKey,
        listen: str,
        port: int,
        games: int = 1,
        log: Callable[[str], None] = lambda line: None,
        color_system: str = "256",
        latencies: list[float] | None = None,
    ) -> None:
        self.door = door
        # Where given, each session adds the host's own latency of each answer to a
        # keystroke: from its Enter arriving to the first frame sent after a new table.
        self.latencies = latencies
        self.key = key
        self.listen = listen
        self.port = port
        self.log = log
        self.color_system = color_system
        self.lobby = Lobby(WAITING * games, PER_ADDRESS * games)
        self.loop = asyncio.new_event_loop()
        self._doors: set[_Door] = set()
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

    def _door(self) -> _Door:
        door = _Door(self)
        self._doors.add(door)
        return door

    def forget(self, door: _Door) -> None:
        self._doors.discard(door)

    async def _listen(self) -> asyncssh.SSHAcceptor:
        return await asyncssh.create_server(
            self._door,
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
            encoding=None,  # bytes: the input gate decodes them, leniently
        )

    def stop(self, parting: str | None = None) -> None:
        """Stop listening, end every connection (telling each client ``parting``), and
        stop the loop."""

        async def close() -> None:
            if self._acceptor is not None:
                self._acceptor.close()
            for door in list(self._doors):
                session = door.session
                if session is not None and parting and not session.parting:
                    session.parting = parting
                if session is not None:
                    session._end()
            await asyncio.sleep(0.3)  # let the sessions say their last words
            for door in list(self._doors):
                if door._conn is not None:
                    door._conn.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.loop.stop()

        if self.loop.is_running():
            asyncio.run_coroutine_threadsafe(close(), self.loop)
            self._thread.join(timeout=5)
        with contextlib.suppress(RuntimeError):
            if not self.loop.is_running():
                self.loop.close()
