"""``umtali bench host``: many hosted games at once, each against a client over SSH.

One host process serves ``games`` sessions (best of three games, so that each
lasts the run) from one SSH server; in each, seat 1 is
a client on the loopback interface and seat 2 a bot.  The clients run in a
process of their own (so the host's memory is the host's): each reads its screen
through a terminal emulator, asks for a hint at its prompt and plays it, and
times every move from its Enter to the first change of the table on its screen.
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
import re
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from umtali.ui.gate import REMOTE

#: A game with no move for this many seconds at the end of the run has stalled.
STALL = 20.0
#: Seconds between two lines a client types: a quick typist's, under the host's
#: allowance of line breaks for a remote terminal (umtali.ui.gate.REMOTE).
PACE = 1.2 / REMOTE.rate
_HINT = re.compile(r"Hint: (.+?) —|(Typed ahead: 'hint')")


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
            PlayerInfo(PlayerKind.HUMAN, f"P{n}"),
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
    lost = 0
    for host in hosts:
        host.saver.save()
        saved = read_saved(host.saver.paths[0]).match
        match = host.match
        assert isinstance(match, Session) and isinstance(saved, Session)
        played = [[h.actions() for h in g.hands] for g in match.games]
        if [[h.actions() for h in g.hands] for g in saved.games] != played:
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
        for last, done in zip(report["last_move"], report["finished"], strict=True)
        if not done and now - last > STALL
    )
    return {
        "benchmark": "host",
        "games": games,
        "seconds": seconds,
        "moves": len(latencies),
        "moves_per_game_min": min(report["moves"]) if report["moves"] else 0,
        "finished": sum(report["finished"]),
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
        "client_errors": report["errors"],
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
    finished = [False] * len(codes)
    errors: list[str] = []
    await asyncio.gather(
        *(
            _play_one(port, code, i, end, latencies, moves, last, errors, finished)
            for i, code in enumerate(codes)
        )
    )
    return {
        "latencies": latencies,
        "moves": moves,
        "last_move": last,
        "finished": finished,
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
    finished: list[bool],
) -> None:
    import asyncssh
    import pyte

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

    def text() -> str:
        return "\n".join(line.rstrip() for line in screen.display)

    typed = [0.0]
    over = [False]  # the game's end was on the screen

    async def type_line(line: str) -> None:
        """A line and Enter, no faster than the host lets a remote terminal type."""
        wait = typed[0] + PACE - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        typed[0] = time.monotonic()
        proc.stdin.write(line + "\r")

    def table() -> str:
        shown = text()
        cut = shown.find("last moves")
        return shown[:cut] if cut >= 0 else shown

    async def read_until(pattern: re.Pattern[str], limit: float) -> re.Match[str] | None:
        stop = time.monotonic() + limit
        while time.monotonic() < stop:
            found = pattern.search(text())
            if found:
                return found
            try:
                data = await asyncio.wait_for(proc.stdout.read(65536), 0.5)
            except asyncio.TimeoutError:
                continue
            if not data:
                return None
            stream.feed(data)
            if "The game is over" in text():
                over[0] = True
        return None

    try:
        while time.monotonic() < end:
            found = await read_until(
                re.compile(r"(?m)^P\d+>\s*$|Press Enter|extra \(11th\)"), end - time.monotonic()
            )
            if found is None:
                finished[i] = over[0] or "The game is over" in text()
                break
            if not re.match(r"P\d+>", found.group(0)):  # a pause, or the dealer's question
                shown = text()
                await type_line("")
                await read_until(_other_than(shown), 10)  # answered, as a person waits
                continue
            await type_line("hint")
            hint = await read_until(_HINT, 30)
            if hint is None:
                errors.append("no hint came")
                break
            if hint.group(2):  # typed at a prompt already answered: look again
                await asyncio.sleep(0.1)
                stream.feed(await _drain(proc))
                continue
            before = table()
            await type_line(hint.group(1))
            started = time.monotonic()
            answered = False
            while time.monotonic() - started < 30:
                try:
                    data = await asyncio.wait_for(proc.stdout.read(65536), 0.5)
                except asyncio.TimeoutError:
                    continue
                if not data:
                    break
                stream.feed(data)
                if table() != before:
                    latencies.append(time.monotonic() - started)
                    moves[i] += 1
                    last[i] = time.monotonic()
                    answered = True
                    break
            if not answered:
                errors.append("a move went unanswered")
    except (OSError, asyncssh.Error) as err:
        if over[0] or "The game is over" in text():
            finished[i] = True  # the host closed the table after the last Enter
        else:
            errors.append(f"play: {err}")
    finally:
        conn.close()


def _other_than(screen: str) -> re.Pattern[str]:
    """A pattern that matches any screen but ``screen``."""
    return re.compile(rf"\A(?!{re.escape(screen)}\Z)")


async def _drain(proc: Any) -> str:
    try:
        return str(await asyncio.wait_for(proc.stdout.read(65536), 0.2))
    except asyncio.TimeoutError:
        return ""


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
