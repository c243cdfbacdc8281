"""Simulated members at SSH terminals, for ``umtali bench club --ssh``.

All the members run in one process of their own (so the server's CPU and memory are
the server's), each an asyncssh client on the loopback interface from an address of
its own (127.0.x.y: a club lets only so many sessions in from one address), logging in
with its own key, as a member does.  Each reads its screen through a terminal
emulator (pyte) and answers what the program asks at the cursor, as a person would:

- at the lobby's prompt, it types the number of one of its games whose turn is its own
  (it knows which from the club's database, as a person knows from the page), or waits
  a little and looks again;
- at its move prompt (or the deal's question of the extra card), the move a cheap bot
  chooses from the stored game (the person reading their table), at its turn of a
  steady pace shared by all the members, and waits for the table to change;
- at a table where it is not to move, ``lobby``; at a game's end, Enter.

The server measures its own latency (see :mod:`._club_server`); the clients count
what they did, and the moves that went unanswered.

Not a bench itself (hence the underscore).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from umtali.club import games
from umtali.club.club import Club
from umtali.engine.progress import Move
from umtali.lab.benches._club_seed import choose
from umtali.store.database import Database
from umtali.ui.human import move_prompt
from umtali.ui.layout import LOG_HEADING

COLUMNS, ROWS = 100, 30
#: Seconds a member with no game to play waits before looking again.
IDLE = 0.5
#: Seconds a member waits for an answer before counting it unanswered.
ANSWER = 15.0
#: Seconds a line that leaves a table is given before it is typed again: typed as the
#: opponent's move arrives, the prompt is asked anew and the line is gone, as a person
#: at that prompt would find (and type it again).
AGAIN = 3.0
#: Seconds over which the members' first actions are spread, so that the run does not
#: begin with all of them pressing Enter at the same instant.
SPREAD = 5.0
#: Members logging in at once (the server's room for connections not yet in a session
#: is small, as a club's is).
LOGINS = 8


@dataclass(frozen=True, slots=True)
class Person:
    """A simulated member: who, their key, which server and from which address."""

    member_id: int
    name: str
    key: bytes  # the private key, OpenSSH format
    port: int
    address: str


@dataclass
class Done:
    """What the members did (one process's)."""

    typed: int = 0  # moves typed
    opened: int = 0  # games opened from the lobby
    unanswered: int = 0  # moves whose answer did not come within ANSWER seconds
    again: int = 0  # other lines typed again, unanswered within AGAIN seconds
    connected: int = 0
    errors: list[str] = field(default_factory=list)


class Pace:
    """One clock for all the members' moves: each takes the next slot of a steady
    rate, and waits for it (a member behind it types at once)."""

    def __init__(self, rate: float, start: float) -> None:
        self._gap = 1.0 / rate
        self._next = start

    async def wait(self, until: float) -> bool:
        """Wait for the next slot; False (and no wait) when it falls after ``until``."""
        slot = self._next
        self._next = max(slot, time.monotonic() - 1.0) + self._gap
        if slot > until:
            return False
        await asyncio.sleep(max(0.0, slot - time.monotonic()))
        return True


def address(n: int) -> str:
    """The loopback address of the ``n``-th member (127.0.0.1 is the server's)."""
    return f"127.0.{1 + n // 250}.{2 + n % 250}"


def play(url: str, people: list[Person], rate: float, seconds: float, go: Any,
         results: Any) -> None:  # fmt: skip
    """The members' process: connect all, set ``go``, play for ``seconds``, and put
    what was done on ``results``."""
    results.put(asyncio.run(_play_all(url, people, rate, seconds, go)))


async def _play_all(url: str, people: list[Person], rate: float, seconds: float,
                    go: Any) -> dict[str, Any]:  # fmt: skip
    import asyncssh

    done = Done()
    db = Database.open(url)
    club = Club(db)
    logins = asyncio.Semaphore(LOGINS)

    async def connect(person: Person) -> Any:
        async with logins:
            try:
                conn = await asyncssh.connect(
                    "127.0.0.1", person.port, username=person.name, known_hosts=None,
                    client_keys=[asyncssh.import_private_key(person.key)],
                    local_addr=(person.address, 0),
                )  # fmt: skip
                proc = await conn.create_process(term_type="xterm", term_size=(COLUMNS, ROWS))
            except (OSError, asyncssh.Error) as err:
                done.errors.append(f"{person.name} could not connect: {err}")
                return None
        done.connected += 1
        return conn, proc

    links = await asyncio.gather(*(connect(p) for p in people))
    go.set()  # the servers measure from here
    begun, cpu0 = time.monotonic(), os.times()
    until = begun + seconds
    pace = Pace(rate, begun)
    await asyncio.gather(*(
        _member(club, person, link, pace, until, done, random.Random(n))
        for n, (person, link) in enumerate(zip(people, links, strict=True)) if link is not None
    ))  # fmt: skip
    for link in links:
        if link is not None:
            link[0].close()
    db.close()
    cpu1 = os.times()
    return {
        "cpu": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
        "typed": done.typed, "opened": done.opened, "unanswered": done.unanswered,
        "again": done.again,
        "connected": done.connected, "errors": done.errors[:10],
        "elapsed": time.monotonic() - begun,
    }  # fmt: skip


async def _member(club: Club, person: Person, link: tuple[Any, Any], pace: Pace,
                  until: float, done: Done, rng: random.Random) -> None:  # fmt: skip
    import asyncssh
    import pyte

    _, proc = link
    screen = pyte.Screen(COLUMNS, ROWS)
    stream = pyte.Stream(screen)
    lobby = f"{person.name} @ lobby>"
    prompt = move_prompt(person.name).strip()
    game_id = 0

    def asked() -> str:
        """What is asked at the cursor: its row up to it ('' while nothing is)."""
        return str(screen.display[screen.cursor.y][: screen.cursor.x]).strip()

    def table() -> list[str]:
        """The rows above the move log: the table itself."""
        rows = [str(line).rstrip() for line in screen.display]
        return next((rows[:n] for n, row in enumerate(rows) if LOG_HEADING in row), rows)

    async def read_until(ready: Callable[[], bool], limit: float) -> bool:
        stop = time.monotonic() + limit
        while not ready():
            left = stop - time.monotonic()
            if left <= 0:
                return False
            try:
                data = await asyncio.wait_for(proc.stdout.read(65536), min(left, 0.5))
            except asyncio.TimeoutError:
                continue
            if not data:
                return False
            stream.feed(data.decode("utf-8", "replace") if isinstance(data, bytes) else data)
        return True

    async def answer(line: str, ready: Callable[[], bool], move: bool = False) -> bool:
        asking_now = asked()
        proc.stdin.write(line + "\r")
        if await read_until(ready, ANSWER if move else AGAIN):
            return True
        if not move:
            done.again += 1  # the loop reads what is asked now, and answers that
            return False
        done.unanswered += 1
        done.errors.append(f"{person.name} typed {line!r} at {asking_now!r}: no answer "
                           f"in {ANSWER:g} s (now asked {asked()!r})")  # fmt: skip
        return False

    def asking() -> bool:
        return asked() != ""

    await asyncio.sleep(rng.uniform(0, min(SPREAD, until - time.monotonic())))
    try:
        while time.monotonic() < until:
            if not await read_until(asking, until - time.monotonic()):
                break
            question = asked()
            if question == lobby:
                with club.db.transaction(read_only=True) as tx:
                    mine = [g.id for g in games.games_of(tx, person.member_id)
                            if g.to_move == person.member_id]  # fmt: skip
                if not mine:
                    await asyncio.sleep(IDLE * (0.5 + rng.random()))
                    continue
                game_id = rng.choice(mine)
                if await answer(str(game_id), lambda: asking() and asked() != lobby):
                    done.opened += 1
            elif question == prompt or question.startswith("Who takes the extra"):
                choice = choose(club.game(game_id), rng.getrandbits(32))
                if choice is None:
                    await answer("lobby", lambda: asked() == lobby)
                    continue
                line = str(choice[1].action) if isinstance(choice[1], Move) else ""
                if not await pace.wait(until):
                    break
                before = table()
                if await answer(line, _landed(table, before, asking), move=True):
                    done.typed += 1
            elif question.startswith("Enter for the lobby"):
                await answer("", lambda: asked() == lobby)
            elif "lobby to leave" in question:
                await answer("lobby", lambda: asked() == lobby)
            else:  # any other question (a pause, a yes or no): Enter, as a person might
                await answer("", _landed(lambda: list(screen.display), list(screen.display)))
    except (OSError, asyncssh.Error) as err:
        done.errors.append(f"{person.name}: {type(err).__name__}: {err}")


def _landed(now: Callable[[], list[str]], before: list[str],
            asking: Callable[[], bool] = lambda: True) -> Callable[[], bool]:  # fmt: skip
    """Whether what ``now`` reads has changed from ``before``, and a question is asked."""
    return lambda: now() != before and asking()


__all__ = ["Done", "Pace", "Person", "address", "play"]
