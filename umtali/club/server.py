"""``umtali serve``'s SSH door: SSH public keys as identity, an invite code to join.

A member connects with ``ssh -p PORT HOST`` and the key their client offers is who
they are; a newcomer connects once with ``ssh -p PORT CODE@HOST`` and chooses a name,
and their key is theirs from then on.  There are no passwords.  Any key may try: a
member's key is let in at once, a key with a good invite code as its user name is let
in to join, and every other client (an unknown key, a suspended member, a client with
no key at all) is let in only as far as one line that says why not and what to do,
and is then disconnected.

Everything else is ``umtali host``'s door (:mod:`umtali.host.ssh`), reused: the input
gate each keystroke passes, the window size clamped, keepalives, the backlog limit,
the lobby of connections that have no session yet (per-address limits, the oldest goes
first), the deadlines to log in and to open a session, and the doorman's limits on
wrong codes (:mod:`umtali.club.invites` adds one across addresses).  On top: at most
:data:`KEY_SESSIONS` sessions a key and :data:`ADDRESS_SESSIONS` an address, and a
newcomer has :data:`NAME_WAIT` seconds to choose a name.

Each session is a full-screen :class:`~umtali.ui.app.AppScreen`; its body runs in a
worker thread and is the lobby's (``umtali.club.lobby.run_member``), so the event
loop only moves bytes.  The server polls the database for what other processes did
(:meth:`Hub.poll <umtali.club.hub.Hub.poll>`) and sweeps the club for what is due
(bots to move, turns whose time ran out) in threads of their own.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import textwrap
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Union, cast

import asyncssh
from prompt_toolkit.output.vt100 import Vt100_Output
from rich.text import Text

from umtali.club.club import Club
from umtali.club.hub import NO_LONGER, Address, Hub, membership_ended
from umtali.club.invites import InviteDoor, looks_like_code
from umtali.club.members import Member, MemberError, Status, by_key
from umtali.engine.errors import UmtaliError
from umtali.host.codes import Admission
from umtali.host.launch import where
from umtali.host.ssh import Server, _Door, _Session, fingerprint
from umtali.ui.app import AppScreen
from umtali.ui.screen import Screen
from umtali.ui.theme import Theme

if TYPE_CHECKING:
    from umtali.club.plain import RemoteLines

#: Sessions one key may hold at once (a laptop, a phone, a spare).
KEY_SESSIONS = 4
#: Sessions from one address at once (a household, an office behind one address).
ADDRESS_SESSIONS = 16
#: Room in the lobby of connections not yet in a session, as ``umtali host``'s for
#: this many games (its per-address share grows alike).
ROOM = 4
#: Seconds a newcomer has to choose a name.
NAME_WAIT = 300.0
#: Seconds between two polls of the database, and two sweeps of the club.
POLL_EVERY = 0.25
SWEEP_EVERY = 5.0

#: How long, in seconds, a thread keeps Python's interpreter lock while others wait for
#: it, in a club server.  Every connection has a thread, and one that waits on the
#: network or the database must get the lock back to go on: at Python's default (5 ms)
#: a hundred members' threads made a move wait half a second at the 95th percentile
#: (``umtali bench club``: p95 546 ms at 5 ms, 99 ms at 1 ms, on the 2-core machine).
SWITCH_INTERVAL = 0.001


def prefer_latency() -> None:
    """Set this process for many threads that each answer a person quickly."""
    sys.setswitchinterval(SWITCH_INTERVAL)


#: The body each member's session runs: ``(club, hub, member, screen, fingerprint,
#: plain)``, in the session's worker thread; it returns when the member leaves.
MemberBody = Callable[[Club, Hub, Member, Screen, str, bool], object]


def lobby_body() -> MemberBody:
    """The lobby's ``run_member``, the body of every member's session."""
    try:
        module = importlib.import_module("umtali.club.lobby")
    except ImportError as err:
        raise UmtaliError(f"this umtali has no club lobby ({err})") from None
    return cast(MemberBody, module.run_member)


def _owner(club: Club, key_print: str) -> Member | None:
    with club.db.transaction() as tx:
        return by_key(tx, key_print)


#: A member's screen: the full-screen table's, or the plain one's (``plain``).
Screened = Union[AppScreen, "RemoteLines"]


class _Here:
    """A member's session as the hub knows it."""

    def __init__(self, member_id: int, key_print: str, address: str, app: Screened) -> None:
        self.member_id = member_id
        self.fingerprint = key_print
        self.address = address
        self.app = app
        self.last_line: str | None = None

    def close(self, line: str) -> None:
        if self.last_line is None:
            self.last_line = line
        self.app.end()


class _ClubSession(_Session):
    """A terminal session, which may ask for the plain screen (``ssh -t HOST plain``)."""

    door: _MemberDoor

    def exec_requested(self, command: str) -> bool:
        if command.strip().lower() != "plain":
            return False
        self.door.plain = True
        return True


class _MemberDoor(_Door):
    """One SSH connection to the club: who it is, and its session."""

    server: ClubServer

    def __init__(self, server: ClubServer) -> None:
        super().__init__(server)
        self.username = ""
        self.member: Member | None = None
        self.key_print = ""
        self.public_key = ""
        self.code: str | None = None  # a good invite code, for a newcomer
        self.plain = False
        self._admission: Admission | None = None  # the code's, decided once
        self._saw_key = False  # an unknown key was offered
        self._refusal: str | None = None  # a suspended member's line

    # Authentication: a member's key, or any key with a good code; every other client
    # is let in with no key, only to be told why it cannot come further.
    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        key_print = fingerprint(key)
        owner = await self.server.blocking(_owner, self.server.club, key_print)
        if owner is not None:
            if owner.status is not Status.ACTIVE:
                self._refusal = membership_ended(owner.status, self.server.club_name())
                return False
            self.member, self.key_print = owner, key_print
            return True
        self._saw_key = True
        if looks_like_code(username) and (await self._invite()).role is not None:
            self.code = username.strip().lower()
            self.key_print = key_print
            self.public_key = key.export_public_key("openssh").decode("ascii").strip()
            return True
        return False

    async def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # No key of a member, nor a key with a good code: in, but only to be told.
        if looks_like_code(username):
            await self._invite()  # a guess without a key counts as much as one with
        self.member = None
        self.code = None
        return True

    async def _invite(self) -> Admission:
        if self._admission is None:
            self._admission = await self.server.blocking(
                self.server.invites.admit_invite,
                self.username,
                self.peer,
                self.server.club.invite_good,
            )
        return self._admission

    def refusal(self) -> str:
        """The one line for a client that is neither a member nor a newcomer."""
        server = self.server
        invite = self._admission
        if invite is not None and invite.banner:
            return invite.banner
        if self._refusal is not None:
            return self._refusal
        if invite is not None and invite.role is None:
            return (
                f"That invite code is not one of {server.club_name()}'s (or it was used, or "
                "ran out): ask the club's admin for another."
            )
        if not self._saw_key:
            return (
                "Your SSH client offered no key, and a key is who you are here: make one "
                f"with  {_command('ssh-keygen -t ed25519')}  and connect again."
            )
        return (
            f"This key is not a member of {server.club_name()}. Ask the club's admin for an "
            "invite code, then connect with "
            + _command(Address(server.address, server.port).ssh("CODE"))
            + "."
        )

    def session_requested(self) -> _ClubSession | bool:
        if self.session is not None:
            return False  # one session a connection
        if self._timer is not None:
            self._timer.cancel()
        if self._conn is not None:
            self.server.lobby.seated(self._conn)
        session = _ClubSession(self)
        self.session = session
        return session

    # The session.
    async def interact(self, session: _Session, output: Vt100_Output) -> None:
        server = self.server
        if self.member is None and self.code is None:
            refusal = self.refusal()
            server.log(f"{self.peer} was told: {refusal.replace(_GLUE, ' ')}")
            session.parting = _fitted(refusal, output.get_size().columns)
            return
        crowded = server.crowded(self)
        if crowded:
            session.parting = crowded
            return
        if self.plain:
            await self._plain(session, output)
            return
        app = AppScreen(
            server.theme, server.color_system, remote=True, input=session.input, output=output
        )
        session.table = app
        if server.latencies is not None:
            app.on_table = session.table_shown  # the latency probe, as umtali host's
        session._tell_if_too_large(app)
        here = _Here(0, self.key_print, self.peer, app)
        try:
            await app.run_async(lambda: self._body(app, here))
        except EOFError:
            pass  # the connection closed under a question: the member left, said once
        except Exception as err:  # never a traceback on the server's terminal
            server.log(f"a session of {self.peer} failed: {type(err).__name__}: {err}")
        finally:
            app.close()
            session.parting = here.last_line or app.parting or session.parting

    async def _plain(self, session: _Session, output: Vt100_Output) -> None:
        """The session on the plain screen: the same body, in lines (screen readers)."""
        from umtali.club.plain import RemoteLines

        server = self.server
        lines = RemoteLines(
            asyncio.get_running_loop(), session.send, session.input, output, server.theme,
            lambda: session.size().columns,
        )  # fmt: skip
        session.table = lines  # type: ignore[assignment]
        here = _Here(0, self.key_print, self.peer, lines)
        try:
            await asyncio.get_running_loop().run_in_executor(None, lambda: self._body(lines, here))
        except EOFError:
            pass  # the connection closed under a question: the member left
        except Exception as err:  # never a traceback on the server's terminal
            server.log(f"a session of {self.peer} failed: {type(err).__name__}: {err}")
        finally:
            lines.end()
            session.parting = here.last_line or lines.parting or session.parting

    def _body(self, app: Screened, here: _Here) -> None:
        """The worker thread: a newcomer chooses a name, then the member's lobby."""
        server = self.server
        member = self.member
        if member is None:
            member = self._newcomer(app, here)
            if member is None:
                return
        else:
            found = server.club.identify(self.key_print)  # seen now, if still a member
            if found is None:
                here.last_line = NO_LONGER
                return
            member = found
        here.member_id = member.id
        left = server.hub.arrive(here)
        server.log(f"{member.name} connected from {self.peer}")
        try:
            server.body(server.club, server.hub, member, app, self.key_print, self.plain)
        finally:
            left()
            server.log(f"{member.name} left")

    def _newcomer(self, app: Screened, here: _Here) -> Member | None:
        server, code = self.server, self.code
        assert code is not None
        name = server.club_name()
        app.show(
            Text(
                f"Welcome to {name}.\n\nChoose the name the other members will know you by: "
                "letters, digits, - and _ (up to 20). Your SSH key will be who you are "
                "here: next time, connect without the code.",
            )
        )
        app.answer_within = NAME_WAIT
        try:
            while True:
                try:
                    chosen = app.ask("Your name: ").strip()
                except (EOFError, KeyboardInterrupt, TimeoutError):
                    here.last_line = here.last_line or "No name was chosen: nobody joined."
                    return None
                try:
                    member = server.club.join(code, chosen, self.key_print, self.public_key)
                except (MemberError, UmtaliError) as err:
                    if not server.club.invite_good(code):
                        here.last_line = str(err)
                        return None
                    app.say(Text(str(err), "yellow"))
                    continue
                server.log(f"{member.name} joined with an invite, from {self.peer}")
                return member
        finally:
            app.answer_within = None


class ClubServer(Server):
    """The club's SSH server in a thread of its own, with its own event loop."""

    def __init__(
        self,
        club: Club,
        hub: Hub,
        key: asyncssh.SSHKey,
        listen: str,
        port: int,
        log: Callable[[str], None] = lambda line: None,
        body: MemberBody | None = None,
        color_system: str = "256",
        latencies: list[float] | None = None,
    ) -> None:
        self.invites = InviteDoor(log=log)
        # ``latencies``: umtali host's probe (Enter to the first frame after a new table
        # or page), for ``umtali bench club --ssh``; None in a club's own run.
        super().__init__(
            self.invites, key, listen, port, ROOM, log, color_system, latencies=latencies
        )
        self.club = club
        self.hub = hub
        self.body = body or lobby_body()
        self.theme = Theme()
        self.address = where(listen)
        self._name: tuple[float, str] | None = None
        # The database blocks: its calls run in threads, never on the event loop.
        self._database = ThreadPoolExecutor(4, thread_name_prefix="umtali-club-db")
        self._sweeper = ThreadPoolExecutor(1, thread_name_prefix="umtali-club-sweep")
        self._trouble: dict[str, str] = {}

    def start(self) -> int:
        self.port = super().start()
        self.hub.address = Address(self.address, self.port)  # the lobbies' to say
        asyncio.run_coroutine_threadsafe(self._ticks(), self.loop)
        return self.port

    def stop(self, parting: str | None = None) -> None:
        super().stop(parting)
        self._database.shutdown(wait=False, cancel_futures=True)
        self._sweeper.shutdown(wait=True, cancel_futures=True)

    def _door(self) -> _Door:
        door = _MemberDoor(self)
        self._doors.add(door)
        return door

    async def blocking(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a database thread."""
        return await asyncio.get_running_loop().run_in_executor(self._database, fn, *args)

    def club_name(self) -> str:
        """The club's name (read again at most every few seconds)."""
        now = time.monotonic()
        if self._name is None or now - self._name[0] > SWEEP_EVERY:
            try:
                self._name = (now, self.club.settings().name)
            except UmtaliError:
                return self._name[1] if self._name else "this club"
        return self._name[1]

    def crowded(self, door: _MemberDoor) -> str:
        """Why a new session of ``door``'s must not start ('' if it may)."""
        if door.member is not None:
            same_key = [s for s in self.hub.sessions_of(door.member.id)
                        if s.fingerprint == door.key_print]  # fmt: skip
            if len(same_key) >= KEY_SESSIONS:
                return (
                    f"This key has {KEY_SESSIONS} sessions open with the club already: "
                    "close one and connect again."
                )
        here = [d for d in self._doors if d.peer == door.peer and d.session is not None]
        if len(here) > ADDRESS_SESSIONS:
            return "Too many sessions are open from your address: close one and connect again."
        return ""

    async def _ticks(self) -> None:
        """Poll the database for other processes' moves; now and then, sweep the club."""
        loop = asyncio.get_running_loop()
        sweeping: asyncio.Future[int] | None = None
        swept = time.monotonic()
        while True:
            await asyncio.sleep(POLL_EVERY)
            try:
                await loop.run_in_executor(self._database, self.hub.poll)
                self._trouble.pop("poll", None)
            except Exception as err:
                self._say_trouble("poll", err)
            if (sweeping is None or sweeping.done()) and time.monotonic() - swept >= SWEEP_EVERY:
                swept = time.monotonic()
                sweeping = loop.run_in_executor(self._sweeper, self._sweep)

    def _sweep(self) -> int:
        try:
            moved = self.club.sweep()
            self._trouble.pop("sweep", None)
            return moved
        except Exception as err:
            self._say_trouble("sweep", err)
            return 0

    def _say_trouble(self, what: str, err: Exception) -> None:
        """Log a failure once, not every quarter of a second while it lasts."""
        words = f"{type(err).__name__}: {err}"
        if self._trouble.get(what) != words:
            self._trouble[what] = words
            self.log(f"the club's {what} failed: {words}")


#: Joins a command's words in a line to a client: no break there (textwrap breaks at
#: ASCII spaces only), a space once the line is broken into rows.
_GLUE = "\u00a0"


def _command(words: str) -> str:
    """A command shown to type, which a broken line keeps on one row."""
    return words.replace(" ", _GLUE)


def _fitted(line: str, columns: int) -> str:
    """``line`` broken between words into rows of fewer than ``columns``: the client's
    terminal would break it wherever its row ends, in the middle of a word (``ss`` and
    ``h-keygen``)."""
    rows = textwrap.wrap(line, max(columns - 1, 20), break_long_words=False, break_on_hyphens=False)
    return "\n".join(rows).replace(_GLUE, " ")
