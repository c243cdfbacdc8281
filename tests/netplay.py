"""Helpers for the hosted-game tests: a host on the loopback interface and SSH
clients (asyncssh's, in-process) whose screens a pyte terminal reads.

Tests import them by name (``from netplay import ...``).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from pathlib import Path
from typing import Any

import asyncssh
import pexpect
import pyte
from rich.text import Text

import umtali
from umtali.engine.record import PlayerInfo
from umtali.host.codes import Role
from umtali.host.game import Host
from umtali.host.options import HostOptions
from umtali.host.ssh import Server, host_key
from umtali.ui.gate import REMOTE
from umtali.ui.theme import Theme

#: Seconds a wait for a screen or a state lasts before the test fails: long, since it
#: only matters when the state never comes, and a loaded machine may take seconds.
PATIENCE = 60.0


class Loop:
    """An event loop in a thread of its own, for the clients."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Any, timeout: float = PATIENCE) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        async def end() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.loop.stop()

        asyncio.run_coroutine_threadsafe(end(), self.loop)
        self.thread.join(timeout=5)


class Hosted:
    """A game hosted on 127.0.0.1 (an ephemeral port), played in a thread."""

    def __init__(
        self,
        tmp: Path,
        seed: int = 4,
        bot: str | None = None,
        grace: float = 600.0,
        spectators: bool = True,
        patience: float = 600.0,
    ) -> None:
        second = PlayerInfo("bot", "Bot", bot) if bot else PlayerInfo("human", "Ben")
        players = (PlayerInfo("human", "Ann"), second)
        self.game = umtali.Game(seed=seed)
        self.lines: list[str] = []
        self.host = Host(
            self.game,
            players,
            Theme(),
            Text("RULES"),
            [tmp / "game.umtali"],
            HostOptions(grace=grace, spectators=spectators, delay=0, patience=patience),
            seed=seed,
            log=self.lines.append,
        )
        self.server = Server(
            self.host.doorman, host_key(tmp / "host_key"), "127.0.0.1", 0, log=self.lines.append
        )
        self.port = self.server.start()
        self.outcome: list[tuple[int, list[str]]] = []
        self.thread = threading.Thread(
            target=lambda: self.outcome.append(self.host.play()), daemon=True
        )
        self.thread.start()

    def code(self, role: Role) -> str:
        return next(i.code for i in self.host.invites if i.role == role)

    def stop(self) -> None:
        for screen in self.host.remote.values():
            screen.close()
        self.thread.join(timeout=10)
        self.server.stop()


def open_question(hosted: Hosted, number: int) -> Any:
    """The question the host waits on for seat ``number``'s answer (None: none, or one
    answered that the game has not yet taken)."""
    app = hosted.host.remote[number]._app
    question = app._question if app is not None else None
    return question if question is not None and question.answer is None else None


def asking_a_move(hosted: Hosted, number: int) -> bool:
    """Whether the host waits for ``number``'s move (a move prompt, nothing typed)."""
    app = hosted.host.remote[number]._app
    question = open_question(hosted, number)
    return (
        app is not None
        and question is not None
        and question.completer is not None
        and not app.buffer.text
    )


def answer_a_pause(hosted: Hosted, number: int, term: Terminal) -> bool:
    """If the host waits for ``number`` to press Enter (a pause, the extra card), press
    it and wait until the host has the answer; whether there was one."""
    question = open_question(hosted, number)
    if question is None or not re.search(r"Press Enter|extra \(11th\)", question.message):
        return False
    term.type("")
    end = time.monotonic() + PATIENCE
    while question.answer is None and open_question(hosted, number) is question:
        assert time.monotonic() < end, f"the pause was never answered:\n{term.text}"
        time.sleep(0.02)
    return True


def caught_up(ann: Terminal, hosted: Hosted) -> None:
    """Wait until the host has read all Ann typed: a chat line sent after it comes
    back (unless a page took it: then the page is closed and another is sent)."""
    for attempt in range(20):
        mark = f"mark-{time.monotonic_ns()}-{attempt}"
        ann.type(f"\x15say {mark}")
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            if any(mark in line for line in hosted.host.chat_log):
                return
            time.sleep(0.02)
        if "q: back" in ann.text:
            ann.send("q")
    raise AssertionError(f"the host never read what Ann typed:\n{ann.text}")


def waiting_on(hosted: Hosted, number: int) -> tuple[Any, Any, Any, bool]:
    """What the host waits on at seat ``number``: its connection, an open page, an open
    question, and whether a line is typed and unsent."""
    app = hosted.host.remote[number]._app
    if app is None:
        return None, None, None, False
    page = app._page
    open_page = page if page is not None and not page.closed else None
    return (app, open_page, open_question(hosted, number), bool(app.buffer.text))


def back_at_a_move(hosted: Hosted, number: int, term: Terminal) -> None:
    """Bring seat ``number`` back to its move prompt, going by what the host waits on:
    q closes a page, Ctrl-U clears a line left unsent, n answers a yes-or-no question,
    Enter a pause; each key once the host waits for it, then until the host took it."""
    end = time.monotonic() + PATIENCE
    while not asking_a_move(hosted, number):
        assert time.monotonic() < end, f"seat {number} never came back:\n{term.text}"
        state = waiting_on(hosted, number)
        _, page, question, typed = state
        if page is not None:
            term.send("q")
        elif question is not None and typed:
            term.send("\x15")
        elif question is not None and "[y/N]" in question.message:
            term.type("n")
        else:
            if not answer_a_pause(hosted, number, term):
                time.sleep(0.02)  # nothing asked yet: the host is busy (the bot moves)
            continue
        while waiting_on(hosted, number) == state:
            assert time.monotonic() < end, f"seat {number} never came back:\n{term.text}"
            time.sleep(0.02)


def gone(term: Terminal, words: str, timeout: float = PATIENCE) -> None:
    """Wait until ``words`` are no longer on the screen (a pause was answered, or a move:
    an answer clears what was said, a hint say)."""
    end = time.monotonic() + timeout
    while words in term.text:
        assert time.monotonic() < end, f"{words!r} stayed on the screen:\n{term.text}"
        time.sleep(0.02)


def connect(port: int, code: str) -> Any:
    """An asyncssh connection (a coroutine) to the host on 127.0.0.1, with ``code``."""
    return asyncssh.connect("127.0.0.1", port, username=code, known_hosts=None, client_keys=None)


#: Seconds between two lines a Terminal types: a quick typist's, under the gate's
#: allowance of line breaks a second.
PACE = 1.2 / REMOTE.rate


class Terminal:
    """One SSH client with a terminal: what it shows is read through pyte.

    The channel carries bytes, so a test can send any byte a terminal might."""

    def __init__(
        self,
        loop: Loop,
        port: int,
        code: str,
        cols: int = 80,
        rows: int = 24,
        term_size: tuple[int, int] | None = None,
    ) -> None:
        self.loop = loop
        self._typed = 0.0  # when the last line was typed
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw: list[bytes] = []
        self._lock = threading.Lock()
        size = term_size or (cols, rows)

        async def join() -> tuple[Any, Any]:
            conn = await connect(port, code)
            proc = await conn.create_process(term_type="xterm", term_size=size, encoding=None)
            return conn, proc

        self.conn, self.proc = loop.run(join())
        self.closed = threading.Event()
        asyncio.run_coroutine_threadsafe(self._read(), loop.loop)

    async def _read(self) -> None:
        try:
            while True:
                data = await self.proc.stdout.read(65536)
                if not data:
                    return
                with self._lock:
                    self.raw.append(data)
                    self.stream.feed(data)
        except (asyncssh.Error, OSError):
            return
        finally:
            self.closed.set()

    @property
    def text(self) -> str:
        with self._lock:
            return "\n".join(line.rstrip() for line in self.screen.display)

    def everything(self) -> str:
        """All the client was ever sent (its scrollback, as it were)."""
        with self._lock:
            return b"".join(self.raw).decode("utf-8", "replace")

    def wait_for(self, pattern: str, timeout: float = PATIENCE) -> re.Match[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = re.search(pattern, self.text)
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never appeared; the screen was:\n{self.text}")

    def wait_for_everything(self, pattern: str, timeout: float = PATIENCE) -> re.Match[str]:
        """Like wait_for, in all the client was sent (what follows the table, too)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = re.search(pattern, self.everything())
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never came; the screen was:\n{self.text}")

    def send(self, data: str | bytes) -> None:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        self.loop.loop.call_soon_threadsafe(self.proc.stdin.write, raw)

    def type(self, line: str) -> None:
        """A line and Enter, at a typist's pace: lines come at most PACE seconds apart,
        under the host's allowance of line breaks (umtali.ui.gate), however fast the
        test runs."""
        wait = self._typed + PACE - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._typed = time.monotonic()
        self.send(line + "\r")

    def resize(self, cols: int, rows: int) -> None:
        self.loop.loop.call_soon_threadsafe(self.proc.change_terminal_size, cols, rows)

    def close(self) -> None:
        def shut() -> None:
            self.conn.close()

        self.loop.loop.call_soon_threadsafe(shut)
        self.closed.wait(5)


class OpenSSH:
    """OpenSSH's ssh in a pseudo-terminal, its screen read through pyte (the table is
    drawn by moving the cursor, so its words are not in the byte stream in order)."""

    def __init__(
        self,
        tmp_path: Path,
        port: int,
        code: str,
        options: tuple[str, ...] = (),
        command: tuple[str, ...] = (),
        cols: int = 80,
    ) -> None:
        self.screen = pyte.Screen(cols, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(
            "ssh",
            [
                *("-o", "StrictHostKeyChecking=no"),
                *("-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}"),
                *("-o", "LogLevel=ERROR"),
                *options,
                *("-p", str(port)),
                f"{code}@127.0.0.1",
                *command,
            ],
            dimensions=(24, cols),
            env={"TERM": "xterm", "PATH": "/usr/bin:/bin"},
        )

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str, timeout: float = PATIENCE) -> re.Match[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = re.search(pattern, self.text)
            if found:
                return found
            try:
                self.stream.feed(self.child.read_nonblocking(65536, timeout=0.1))
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                break
        raise AssertionError(f"{pattern!r} never appeared; the screen was:\n{self.text}")


class CodeTries:
    """Codes tried at a door with no key, as a guesser would, keeping every banner the
    door answers with (``attempt`` raises PermissionDenied for a refused code)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.banners: list[str] = []

    async def attempt(self, code: str) -> None:
        banners = self.banners

        class Client(asyncssh.SSHClient):
            def auth_banner_received(self, msg: str, lang: str) -> None:
                banners.append(msg)

        conn = await asyncssh.connect(
            "127.0.0.1",
            self.port,
            username=code,
            known_hosts=None,
            client_keys=None,
            client_factory=Client,
        )
        conn.close()
