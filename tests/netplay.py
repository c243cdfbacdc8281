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
from umtali.host.ssh import Server, host_key
from umtali.ui.gate import REMOTE
from umtali.ui.theme import Theme


class Loop:
    """An event loop in a thread of its own, for the clients."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Any, timeout: float = 20) -> Any:
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
            seed,
            grace=grace,
            delay=0,
            spectators=spectators,
            log=self.lines.append,
            patience=patience,
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

    def wait_for(self, pattern: str, timeout: float = 20) -> re.Match[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = re.search(pattern, self.text)
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never appeared; the screen was:\n{self.text}")

    def wait_for_everything(self, pattern: str, timeout: float = 20) -> re.Match[str]:
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

    def __init__(self, tmp_path: Path, port: int, code: str) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(
            "ssh",
            [
                *("-o", "StrictHostKeyChecking=no"),
                *("-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}"),
                *("-o", "LogLevel=ERROR"),
                *("-p", str(port)),
                f"{code}@127.0.0.1",
            ],
            dimensions=(24, 80),
            env={"TERM": "xterm", "PATH": "/usr/bin:/bin"},
        )

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str, timeout: float = 20) -> re.Match[str]:
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
