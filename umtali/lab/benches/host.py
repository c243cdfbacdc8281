"""``umtali bench host``: many hosted games at once, each against a client over SSH.

One host process serves ``games`` sessions (best of three games, so that each
lasts the run) from one SSH server; in each, seat 1 is
a client on the loopback interface and seat 2 a bot.  The clients run in a
process of their own (so the host's memory is the host's): each reads its screen
through a terminal emulator, asks for a hint at its prompt and plays it, and
times every move from its Enter to the first change of the table on its screen.

A client plays as a person at another terminal would, so all it has is its
screen and what it knows itself: what the program asks is the row at the
terminal's cursor, up to the cursor (its move prompt there, which it knows from
its player's name, or any other question, answered with Enter); the hint and
the table it finds by the marks the screen places for that, documented where
they are written (:data:`~umtali.ui.answers.HINT_LABEL`,
:data:`~umtali.ui.layout.LOG_HEADING`).  Whether a game ended is the host's to
say, from its match.
The host measures its own latency too, apart from the clients' terminal
emulation: from a keystroke's Enter arriving at the host to the first frame it
sends after the table changed.  At the end the run reports both latencies, the
host's CPU time per move (its bots and hints included), its memory, and whether
any game stalled (no move in its last STALL seconds) or was lost (its record does
not replay to the game in the host's memory).

Needs the ``host-load`` extra: asyncssh, and pyte for the clients' screens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from umtali.ui.gate import REMOTE

#: A game with no move for this many seconds at the end of the run has stalled.
STALL = 20.0
#: Seconds between two lines a client types: a quick typist's, under the host's
#: allowance of line breaks for a remote terminal (umtali.ui.gate.REMOTE).
PACE = 1.2 / REMOTE.rate


def missing() -> str | None:
    """What the benchmark needs and this installation lacks, in words; None if nothing."""
    lacking = []
    for module in ("asyncssh", "pyte"):
        try:
            __import__(module)
        except ImportError:
            lacking.append(module)
    if not lacking:
        return None
    return (
        f"umtali bench host needs {' and '.join(lacking)}: pip install 'umtali[host-load]' "
        "(from a copy of the repository: pip install '.[host-load]')"
    )


def bench_host_apart(games: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    """:func:`bench_host` in a process of its own, so that its memory is its own."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    worker = context.Process(target=_host_run, args=(games, seconds, seed, results))
    worker.start()
    report: dict[str, Any] = results.get(timeout=seconds + 600)
    worker.join(timeout=60)
    return report


def _host_run(games: int, seconds: float, seed: int, results: Any) -> None:
    results.put(bench_host(games, seconds, seed))


def bench_host(games: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    import asyncssh
    from rich.text import Text

    from umtali.engine.match import Session
    from umtali.engine.record import PlayerInfo, PlayerKind
    from umtali.host.codes import Doorman
    from umtali.host.game import Host
    from umtali.host.options import HostOptions
    from umtali.host.ssh import Server
    from umtali.lab.tournament import percentile
    from umtali.store.saves import read_saved
    from umtali.ui.theme import Theme

    folder = Path(tempfile.mkdtemp(prefix="umtali-load-"))
    door = Doorman()
    hosts: list[Host] = []
    for n in range(games):
        players = (
            PlayerInfo(PlayerKind.HUMAN, _name(n)),
            PlayerInfo(PlayerKind.BOT, "Bot", "normal"),
        )
        host = Host(
            Session(seed=seed + n),  # best of three: long enough to last the run
            players,
            Theme(),
            Text("RULES"),
            [folder / f"game{n}.umtali"],
            HostOptions(grace=seconds + 60, delay=0, hint="normal"),
            seed=seed + n,
            doorman=door,
        )
        hosts.append(host)
    threads = [threading.Thread(target=h.play, daemon=True) for h in hosts]
    for thread in threads:
        thread.start()
    key = asyncssh.generate_private_key("ssh-ed25519")
    host_latencies: list[float] = []
    server = Server(door, key, "127.0.0.1", 0, games, latencies=host_latencies)
    port = server.start()
    cpu_before = _cpu_seconds()
    codes = [h.invites[0].code for h in hosts]
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    clients = context.Process(target=_clients, args=(port, codes, seconds, results))
    clients.start()
    report = results.get(timeout=seconds + 120)
    cpu = _cpu_seconds() - cpu_before
    clients.join(timeout=30)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # Whether each game ended is the host's to say (its match), not read off a screen;
    # a connection that failed after its game ended is the host closing the table.
    finished = [host.match.is_over for host in hosts]
    errors = report["errors"] + [
        why for why, done in zip(report["dropped"], finished, strict=True) if why and not done
    ]
    lost = 0
    for host in hosts:
        host.saver.save()
        saved = read_saved(host.saver.paths[0]).match
        match = host.match
        assert isinstance(match, Session) and isinstance(saved, Session)
        played = [[h.played() for h in g.hands] for g in match.games]
        if [[h.played() for h in g.hands] for g in saved.games] != played:
            lost += 1
    for host in hosts:
        for screen in host.remote.values():
            screen.close()
    server.stop()
    latencies = sorted(report["latencies"])
    own = sorted(host_latencies)
    now = report["ended"]
    stalled = sum(
        1
        for last, done in zip(report["last_move"], finished, strict=True)
        if not done and now - last > STALL
    )
    return {
        "benchmark": "host",
        "games": games,
        "seconds": seconds,
        "moves": len(latencies),
        "moves_per_game_min": min(report["moves"]) if report["moves"] else 0,
        "finished": sum(finished),
        "latency_ms": {
            "p50": round(1000 * percentile(latencies, 0.50), 1),
            "p95": round(1000 * percentile(latencies, 0.95), 1),
        },
        "host_latency_ms": {
            "p50": round(1000 * percentile(own, 0.50), 1),
            "p95": round(1000 * percentile(own, 0.95), 1),
        },
        "host_cpu_ms_per_move": round(1000 * cpu / max(1, len(latencies)), 1),
        "host_peak_rss_mb": round(peak_mb, 1),
        "stalled": stalled,
        "lost": lost,
        "client_errors": errors[:10],
    }


def _cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


# ----------------------------------------------------------------- the clients


def _clients(port: int, codes: list[str], seconds: float, results: Any) -> None:
    report = asyncio.run(_play_all(port, codes, seconds))
    results.put(report)


async def _play_all(port: int, codes: list[str], seconds: float) -> dict[str, Any]:
    end = time.monotonic() + seconds
    latencies: list[float] = []
    moves = [0] * len(codes)
    last = [time.monotonic()] * len(codes)
    dropped: list[str | None] = [None] * len(codes)
    errors: list[str] = []
    await asyncio.gather(
        *(
            _play_one(port, code, i, end, latencies, moves, last, errors, dropped)
            for i, code in enumerate(codes)
        )
    )
    return {
        "latencies": latencies,
        "moves": moves,
        "last_move": last,
        "dropped": dropped,  # the connections that failed, and how
        "ended": end,  # a game with no move in the run's last STALL seconds stalled
        "errors": errors[:10],
    }


async def _play_one(
    port: int,
    code: str,
    i: int,
    end: float,
    latencies: list[float],
    moves: list[int],
    last: list[float],
    errors: list[str],
    dropped: list[str | None],
) -> None:
    import asyncssh
    import pyte

    from umtali.ui.answers import HINT_LABEL
    from umtali.ui.human import move_prompt
    from umtali.ui.layout import LOG_HEADING
    from umtali.ui.theme import Theme

    screen = pyte.Screen(100, 30)
    stream = pyte.Stream(screen)
    try:
        conn = await asyncssh.connect(
            "127.0.0.1", port, username=code, known_hosts=None, client_keys=None
        )
        proc = await conn.create_process(term_type="xterm", term_size=(100, 30))
    except (OSError, asyncssh.Error) as err:
        errors.append(f"connect: {err}")
        return

    prompt = move_prompt(_name(i))  # the client knows its player's name
    dash = Theme().dash  # the host's theme (bench_host gives it Theme())
    typed = [0.0]

    def text() -> str:
        return "\n".join(line.rstrip() for line in screen.display)

    def asked() -> str:
        """What the program asks where the terminal's cursor is, the place a terminal
        takes what is typed: that row up to the cursor ('' while nothing is asked)."""
        return screen.display[screen.cursor.y][: screen.cursor.x].strip()

    def table() -> list[str]:
        """The rows above the move log: the table, without what the log and the
        messages under it say."""
        rows = [line.rstrip() for line in screen.display]
        return next((rows[:n] for n, row in enumerate(rows) if LOG_HEADING in row), rows)

    def hint() -> str | None:
        """The move of the hint on the screen: the row that begins with its label, from
        the label to the dash."""
        for row in screen.display:
            said = row.strip()
            end = said.find(f" {dash} ")
            if said.startswith(f"{HINT_LABEL} ") and end > len(HINT_LABEL):
                return said[len(HINT_LABEL) + 1 : end]
        return None

    async def type_line(line: str) -> None:
        """A line and Enter, no faster than the host lets a remote terminal type."""
        wait = typed[0] + PACE - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        typed[0] = time.monotonic()
        proc.stdin.write(line + "\r")

    async def read_until(done: Callable[[], bool], limit: float) -> bool:
        """Read the screen until ``done`` says so (True), the time runs out or the
        host closes the connection (False)."""
        stop = time.monotonic() + limit
        while time.monotonic() < stop:
            if done():
                return True
            try:
                data = await asyncio.wait_for(proc.stdout.read(65536), 0.5)
            except asyncio.TimeoutError:
                continue
            if not data:
                return False
            stream.feed(data)
        return False

    try:
        while time.monotonic() < end:
            if not await read_until(lambda: asked() != "", end - time.monotonic()):
                break  # the run is over, or the host closed the table
            if asked() != prompt.strip():  # a pause, a question, or the game's end
                answered = _changed(text)
                await type_line("")
                await read_until(answered, 10)  # answered, as a person waits
                continue
            await type_line("hint")
            if not await read_until(lambda: hint() is not None, 30):
                errors.append("no hint came")
                break
            move = hint()
            assert move is not None
            landed = _changed(table)
            await type_line(move)
            started = time.monotonic()
            if await read_until(landed, 30):
                latencies.append(time.monotonic() - started)
                moves[i] += 1
                last[i] = time.monotonic()
            else:
                errors.append("a move went unanswered")
    except (OSError, asyncssh.Error) as err:
        dropped[i] = f"play: {err}"  # an error unless the host had ended the game
    finally:
        conn.close()


def _changed(now: Callable[[], object]) -> Callable[[], bool]:
    """Whether what ``now`` reads differs from what it reads at this moment."""
    before = now()
    return lambda: now() != before


def _name(i: int) -> str:
    """The name of game ``i``'s player at the client."""
    return f"P{i}"


def options(host: argparse.ArgumentParser) -> None:
    host.add_argument(
        "--games",
        type=int,
        nargs="+",
        default=[10, 50, 100],
        help="games at once; several numbers make a run for each (default 10 50 100)",
    )
    host.add_argument("--seconds", type=float, default=60.0, help="how long each (default 60)")
    host.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if min(args.games) < 1 or not 1 <= args.seconds <= 3600:
        parser.error("--games must be at least 1 and --seconds from 1 to 3600")
    lacking = missing()
    if lacking is not None:
        print(f"umtali: {lacking}", file=sys.stderr)
        return 2
    failed = False
    for games in args.games:
        hosted = bench_host_apart(games, args.seconds, args.seed)
        print(
            f"host: {hosted['games']} games for {hosted['seconds']:g} s, {hosted['moves']} "
            f"moves; the host's own latency p50 {hosted['host_latency_ms']['p50']} ms, p95 "
            f"{hosted['host_latency_ms']['p95']} ms (the clients saw p50 "
            f"{hosted['latency_ms']['p50']} ms, p95 {hosted['latency_ms']['p95']} ms); "
            f"{hosted['host_cpu_ms_per_move']} ms of host CPU a move; host peak memory "
            f"{hosted['host_peak_rss_mb']} MB; stalled {hosted['stalled']}, lost "
            f"{hosted['lost']}"
        )
        print(json.dumps(hosted))
        failed = failed or bool(hosted["stalled"] or hosted["lost"])
    return 1 if failed else 0
