"""Simulated members at a club's tables, for ``umtali bench club``.

Each connected member is a thread, as each SSH connection's worker is in the server.
It looks for a game whose turn is its own (the lobby's query), and sits at it with the
club's own :class:`~umtali.club.table.Sitting` on a :class:`FrameScreen`: the table is
loaded, the news since the member last looked is told, and the table is rendered by
rich for an 80x24 terminal into a string, as the screen would send it.  At the move
prompt the member types the move a cheap bot chooses (its notation, parsed by the
table's own prompt), at its turn of a shared pace, and the table stores it with
:meth:`Club.play`; once the turn has passed it types ``lobby`` and looks for another.

The screen times what a member waits for: from opening a game to its first prompt
(load, news, the frame), and from a move's Enter to the next prompt (stored, loaded
again, the frame drawn).  The members' own thinking (the bot's choice) is timed apart,
so the club's CPU a move can be told from theirs.

Not a bench itself (hence the underscore).
"""

from __future__ import annotations

import io
import os
import random
import resource
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.completion import Completer
from rich.console import Console, RenderableType
from rich.text import Text

from umtali.club import games
from umtali.club.club import Club
from umtali.club.games import Decided, Stale
from umtali.club.members import Member
from umtali.club.table import Sitting
from umtali.engine.progress import Decision, Move
from umtali.engine.view import PlayerView
from umtali.lab.benches._club_seed import choose
from umtali.store.database import Database
from umtali.ui.human import move_prompt
from umtali.ui.render import TableInfo, render_table
from umtali.ui.screen import QuitGame, Toolbar
from umtali.ui.theme import DEFAULT_THEME

WIDTH, HEIGHT = 80, 24
#: Seconds a member with no game to play waits before looking again.
IDLE = 0.5
#: Seconds between two polls of the watcher (``--processes 2``).
POLL = 0.25


class Pace:
    """Moves at a steady total rate: each typed move takes the next slot of one clock
    shared by the process's members, and waits for it (a member behind it types at
    once)."""

    def __init__(self, rate: float, start: float) -> None:
        self._gap = 1.0 / rate
        self._next = start
        self._lock = threading.Lock()

    def wait(self, until: float) -> bool:
        """Wait for the next slot; False (and no wait) when it falls after ``until``."""
        with self._lock:
            slot = self._next
            self._next = max(slot, time.monotonic() - 1.0) + self._gap
        if slot > until:
            return False
        time.sleep(max(0.0, slot - time.monotonic()))
        return True


@dataclass
class Figures:
    """What one process's members measured."""

    opens: list[float] = field(default_factory=list)  # seconds to a game's first prompt
    moves: list[float] = field(default_factory=list)  # seconds from Enter to the next prompt
    stored: list[tuple[int, int, float]] = field(default_factory=list)  # game, seq, when
    stale: int = 0
    refused: int = 0
    think_cpu: float = 0.0  # the members' own CPU seconds (their bot)
    frame_bytes: int = 0
    frames: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class CountingClub(Club):
    """The club, noting every decision :meth:`Club.play` said it stored, and Stale."""

    figures: Figures

    def play(self, member_id: int, game_id: int, seq: int, decision: Decision) -> Decided:
        try:
            decided = super().play(member_id, game_id, seq, decision)
        except Stale:
            with self.figures.lock:
                self.figures.stale += 1
            raise
        with self.figures.lock:
            self.figures.stored.append((game_id, decided.game.seq, time.time()))
        return decided


class FrameScreen:
    """A member's 80x24 screen: frames rendered to a string; answers typed by the
    member's bot at the pace's turn.  Speaks :class:`umtali.ui.screen.Screen`."""

    def __init__(self, club: Club, member: Member, game_id: int, figures: Figures,
                 pace: Pace, until: float, rng: random.Random) -> None:  # fmt: skip
        self.club, self.member, self.game_id = club, member, game_id
        self.figures, self.pace, self.until, self.rng = figures, pace, until, rng
        self._out = io.StringIO()
        self.console = Console(
            file=self._out, width=WIDTH, height=HEIGHT, force_terminal=True,
            color_system="truecolor", legacy_windows=False,
        )  # fmt: skip
        self.opened = time.perf_counter()
        self._typed: float | None = None
        self._first = True
        self._framed = False

    @property
    def interactive(self) -> bool:
        return True

    def size(self) -> tuple[int, int]:
        return WIDTH, HEIGHT

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        self.console.clear()
        self.console.print(render_table(view, info, DEFAULT_THEME, WIDTH, HEIGHT))
        if note is not None:
            self.console.print(note)
        self._frame()

    def show(self, renderable: RenderableType) -> None:
        self.console.clear()
        self.console.print(renderable)
        self._frame()

    def blank(self) -> None:
        self.console.clear()

    def say(self, message: RenderableType) -> None:
        self.console.print(message)

    def page(self, renderable: RenderableType, title: str) -> None:
        self.console.print(renderable)

    def wait(self, seconds: float) -> None:
        pass  # a pause for a person's eyes: the bench has none

    def _frame(self) -> None:
        """The frame as it would leave for the terminal: taken, and the buffer emptied."""
        sent = len(self._out.getvalue().encode())
        self._out.seek(0)
        self._out.truncate()
        with self.figures.lock:
            self.figures.frame_bytes += sent
            self.figures.frames += 1
        self._framed = True

    def ask(self, message: str, toolbar: Toolbar | None = None,
            completer: Completer | None = None) -> str:  # fmt: skip
        now = time.perf_counter()
        figures = self.figures
        if self._first:
            self._first = False
            with figures.lock:
                figures.opens.append(now - self.opened)
        elif self._typed is not None:
            if not self._framed:  # asked again with no new frame: the move was refused
                with figures.lock:
                    figures.refused += 1
                raise QuitGame(self.member.name)
            with figures.lock:
                figures.moves.append(now - self._typed)
        self._typed = None
        deciding = message.startswith(move_prompt(self.member.name)) or message.startswith(
            "Who takes the extra"
        )
        if not deciding:
            return "lobby"  # the turn has passed (or the game ended): back to the lobby
        line = self._think()
        if line is None or not self.pace.wait(self.until):
            raise QuitGame(self.member.name)  # the run is over: the game waits, stored
        self._framed = False
        self._typed = time.perf_counter()
        return line

    def _think(self) -> str | None:
        """The line the member types: the cheap bot's move in notation, or Enter (the
        dealer takes the 11th card)."""
        begun = time.thread_time()
        choice = choose(self.club.game(self.game_id), self.rng.getrandbits(32))
        with self.figures.lock:
            self.figures.think_cpu += time.thread_time() - begun
        if choice is None:
            return None
        _, decision = choice
        if isinstance(decision, Move):
            return str(decision.action)
        return ""  # a deal: Enter, and the dealer takes the 11th card


def _member_loop(club: Club, member: Member, figures: Figures, pace: Pace, until: float,
                 seed: int) -> None:  # fmt: skip
    rng = random.Random(seed)
    while time.monotonic() < until:
        # As the lobby reads a member's games: a read, which takes no write lock.
        with club.db.transaction(read_only=True) as tx:
            mine = [g.id for g in games.games_of(tx, member.id) if g.to_move == member.id]
        if not mine:
            time.sleep(IDLE * (0.5 + rng.random()))
            continue
        screen = FrameScreen(club, member, rng.choice(mine), figures, pace, until, rng)
        Sitting(club, member, screen, screen.game_id).run()


def _watch(db: Database, seen: dict[tuple[int, int], float], stop: threading.Event) -> None:
    """Poll ``MAX(id)`` of decisions, as a server watching for other servers' moves
    would, noting when each decision was first seen here."""
    row = None
    with db.transaction() as tx:
        row = tx.one("SELECT MAX(id) FROM decisions")
    last = int(row[0]) if row and row[0] is not None else 0
    while not stop.wait(POLL):
        with db.transaction() as tx:
            row = tx.one("SELECT MAX(id) FROM decisions")
            top = int(row[0]) if row and row[0] is not None else 0
            if top > last:
                rows = tx.all("SELECT game_id, seq FROM decisions WHERE id > ?", (last,))
                when = time.time()
                for game_id, seq in rows:
                    seen.setdefault((int(game_id), int(seq)), when)
                last = top


def play_share(url: str, member_ids: list[int], rate: float, seconds: float, seed: int,
               start_at: float, watch: bool) -> dict[str, Any]:  # fmt: skip
    """One process's members playing for ``seconds`` from wall time ``start_at``; its
    figures as plain data (it may run in a process of its own)."""
    from umtali.club.server import prefer_latency

    prefer_latency()  # as umtali serve run does: this process stands for a server
    db = Database.open(url)
    club = CountingClub(db)
    club.figures = figures = Figures()
    with db.transaction() as tx:
        from umtali.club import members

        people = [members.get(tx, i) for i in member_ids]
    seen: dict[tuple[int, int], float] = {}
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(db, seen, stop), daemon=True)
    time.sleep(max(0.0, start_at - time.time()))
    begun, cpu0 = time.monotonic(), os.times()
    until = begun + seconds
    pace = Pace(rate, begun)
    threads = [
        threading.Thread(target=_member_loop, args=(club, m, figures, pace, until, seed + n),
                         daemon=True)
        for n, m in enumerate(people)
    ]  # fmt: skip
    if watch:
        watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cpu1, elapsed = os.times(), time.monotonic() - begun
    stop.set()
    if watch:
        watcher.join()
    db.close()
    return {
        "opens": figures.opens,
        "moves": figures.moves,
        "stored": figures.stored,
        "stale": figures.stale,
        "refused": figures.refused,
        "cpu": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
        "think_cpu": figures.think_cpu,
        "elapsed": elapsed,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "frame_bytes": figures.frame_bytes,
        "frames": figures.frames,
        "seen": [(g, s, t) for (g, s), t in seen.items()],
    }


__all__ = ["CountingClub", "FrameScreen", "Pace", "play_share"]
