"""The club's real SSH server in a process of its own, for ``umtali bench club --ssh``.

Each process runs :class:`~umtali.club.server.ClubServer` (the club's door, hub and
lobby, exactly as ``umtali serve`` runs them) on a free port of 127.0.0.1, with the
host's latency probe on (``latencies``: from an Enter arriving to the first frame
sent after a new table or page).  Its sessions also note what each Enter was for, by
the line it ended: a game's number (opening a game from the lobby), a leave word (back
to the lobby), or anything else (a move), so the probe's figures can be told apart.
The club under it counts every decision :meth:`Club.play` said it stored
(:class:`~umtali.lab.benches._club_members.CountingClub`), for the moves-lost check.

CPU and memory are the process's own: the SSH server, the lobby, the tables and the
database client, from the clients' go to their end; nothing of the clients'.

Not a bench itself (hence the underscore).
"""

from __future__ import annotations

import os
import resource
import time
from typing import Any

import asyncssh

from umtali.club.hub import Hub
from umtali.club.server import ClubServer, _ClubSession, _MemberDoor
from umtali.club.table import LEAVE_WORDS
from umtali.host.ssh import _Door
from umtali.lab.benches._club_members import CountingClub, Figures
from umtali.store.database import Database

#: Seconds the server waits for the clients' go, or for their end, at most.
LONGEST = 3600.0


def kind_of(line: str) -> str:
    """What an Enter ending ``line`` was for: ``open``, ``lobby`` or ``move``."""
    word = line.strip().lower()
    if word.isdigit():
        return "open"
    if word in LEAVE_WORDS:
        return "lobby"
    return "move"


class _ProbedSession(_ClubSession):
    """A member's session that notes, for each figure the probe records, what the
    Enter it answers was for."""

    def __init__(self, door: _MemberDoor, kinds: list[tuple[str, float]]) -> None:
        super().__init__(door)
        self._kinds = kinds
        self._typing = ""
        self._kind = "move"

    def data_received(self, data: bytes, datatype: Any) -> None:
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
        self._typing += text
        if "\r" in self._typing or "\n" in self._typing:
            line = self._typing.replace("\n", "\r").split("\r")[0]
            self._kind = kind_of(line)
            self._typing = ""
        super().data_received(data, datatype)

    def send(self, data: str) -> None:
        latencies = self.door.server.latencies
        before = len(latencies) if latencies is not None else 0
        super().send(data)
        if latencies is not None and len(latencies) > before:
            # The event loop's thread alone appends, so the two lists stay in step.
            self._kinds.append((self._kind, time.monotonic()))


class _ProbedDoor(_MemberDoor):
    kinds: list[tuple[str, float]]

    def session_requested(self) -> _ClubSession | bool:
        made = super().session_requested()
        if not isinstance(made, _ClubSession):
            return made
        probed = _ProbedSession(self, self.kinds)
        self.session = probed
        return probed


class ProbedServer(ClubServer):
    """The club's server whose sessions say what each latency figure answers."""

    kinds: list[tuple[str, float]]

    def _door(self) -> _Door:
        door = _ProbedDoor(self)
        door.kinds = self.kinds
        self._doors.add(door)
        return door


def serve(url: str, host_key: bytes, ports: Any, go: Any, stop: Any, results: Any) -> None:
    """Serve the club at ``url`` until ``stop`` is set; put the port on ``ports`` once
    listening, and this server's figures on ``results`` at the end (a process's body)."""
    db = Database.open(url)
    club = CountingClub(db)
    club.figures = figures = Figures()
    latencies: list[float] = []
    server = ProbedServer(
        club, Hub(club), asyncssh.import_private_key(host_key), "127.0.0.1", 0,
        latencies=latencies,
    )  # fmt: skip
    kinds: list[tuple[str, float]] = []
    server.kinds = kinds
    ports.put(server.start())
    go.wait(LONGEST)
    cpu0 = os.times()
    begun = time.monotonic()
    first = len(latencies)  # connecting is not what is measured: from the go on
    stop.wait(LONGEST)
    cpu1 = os.times()
    elapsed = time.monotonic() - begun
    taken = list(zip(latencies[first:], kinds[first:], strict=False))
    server.stop()
    db.close()
    results.put({
        # What each answered, how long it took, and when (seconds into the play).
        "latencies": [(kind, seconds, at - begun) for seconds, (kind, at) in taken],
        "stored": figures.stored,
        "stale": figures.stale,
        "cpu": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
        "elapsed": elapsed,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    })  # fmt: skip


__all__ = ["ProbedServer", "kind_of", "serve"]
