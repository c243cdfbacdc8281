"""``umtali bench club``: what a club server pays for its members' moves, measured.

A club is seeded (``--members`` members, ``--games`` games in progress between them,
each moved a random number of decisions by a cheap bot through :meth:`Club.play`), on
SQLite (a file in a temporary folder) or PostgreSQL (``--db URL``, or ``--postgres``
for a throwaway server started and stopped by the bench).  Then ``--connected``
members, each a thread as each SSH connection's worker is, open their games whose
turn it is with the club's own table (:class:`~umtali.club.table.Sitting`: load, news
since last seen, the table rendered by rich for 80x24 into a string) and play them at
a steady total ``--rate``, for ``--seconds``.  ``--processes 2`` splits the members
between two processes sharing the database (PostgreSQL), each also polling
``MAX(id)`` of ``decisions`` every 0.25 s, and times how long a move stored by one is
in being seen by the other.

Reported: opening a game (to its first prompt) and a move (its Enter to the next
prompt, stored and drawn) p50/p95; CPU a move (the processes' CPU less the members'
own bot, which a real member thinks on their own machine); peak memory of each
playing process; Stale conflicts; and moves lost (a decision :meth:`Club.play`
returned that the database does not hold at the end): 0 is the target, and the exit
code is 1 otherwise.  Not included: SSH (encryption, the channel, a terminal emulator
at the far end) and prompt_toolkit's own screen; see the report's last line.

``--ssh`` measures those too: the club's own SSH server (one process, or two on
PostgreSQL) and the members as SSH clients at terminal screens in another process,
the figures being the server's own (:mod:`._club_ssh`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from umtali.club.club import Club
from umtali.lab.benches import _club_members, _club_seed, _postgres
from umtali.store.database import Database, DatabaseError

#: Seconds the playing processes get to start (imports, connections) before play.
WARM_UP = 3.0


def _pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in milliseconds (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.contextmanager
def _database(args: argparse.Namespace) -> Iterator[str]:
    """The run's database URL: given, a throwaway server, or a new SQLite file."""
    if args.db:
        yield args.db
    elif args.postgres:
        with _postgres.throwaway() as url:
            yield url
    else:
        with tempfile.TemporaryDirectory(prefix="umtali-bench-club-") as folder:
            yield str(Path(folder) / "club.db")


def bench_club(url: str, members: int, games: int, most: int, connected: int, rate: float,
               seconds: float, processes: int, seed: int) -> dict[str, Any]:  # fmt: skip
    """Seed the club at ``url`` (an empty database), play it, and return the figures."""
    db = Database.open(url)
    try:
        Club.migrate(db, int(time.time() * 1000))
        begun = time.monotonic()
        seeded = _club_seed.seed(Club(db), members, games, most, random.Random(seed))
        seed_s = time.monotonic() - begun
    finally:
        db.close()
    chosen = random.Random(seed + 1).sample(seeded.member_ids, connected)
    shares = [chosen[n::processes] for n in range(processes)]
    start_at = time.time() + WARM_UP
    jobs = [
        (url, share, rate / processes, seconds, seed + 1000 * n, start_at, processes > 1)
        for n, share in enumerate(shares)
    ]
    # Each share plays in a process of its own, so its memory and CPU are the server's
    # alone, not the seeding's.
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        results = pool.starmap(_club_members.play_share, jobs)
    lost = _lost(url, [tuple(s) for r in results for s in r["stored"]])
    return _figures(results, seeded, seed_s, lost, games, connected, rate, seconds)


def _lost(url: str, stored: list[tuple[Any, ...]]) -> int:
    """How many decisions :meth:`Club.play` returned are not in the database now."""
    db = Database.open(url)
    try:
        with db.transaction() as tx:
            held = {(int(g), int(s)) for g, s in tx.all("SELECT game_id, seq FROM decisions")}
    finally:
        db.close()
    return sum(1 for g, s, _ in stored if (int(g), int(s)) not in held)


def _figures(results: list[dict[str, Any]], seeded: _club_seed.Seeded, seed_s: float,
             lost: int, games: int, connected: int, rate: float,
             seconds: float) -> dict[str, Any]:  # fmt: skip
    opens = [x for r in results for x in r["opens"]]
    moves = [x for r in results for x in r["moves"]]
    stored = sum(len(r["stored"]) for r in results)
    cpu = sum(r["cpu"] for r in results)
    think = sum(r["think_cpu"] for r in results)
    figures: dict[str, Any] = {
        "members": len(seeded.member_ids), "games": games, "connected": connected,
        "processes": len(results), "seeded_decisions": seeded.decisions,
        "seed_s": round(seed_s, 1), "rate_asked": rate, "seconds": seconds,
        "moves": stored, "rate": round(stored / max(r["elapsed"] for r in results), 1),
        "opened": len(opens),
        "open_ms": {"p50": round(_pct(opens, 0.5), 1), "p95": round(_pct(opens, 0.95), 1)},
        "move_ms": {"p50": round(_pct(moves, 0.5), 1), "p95": round(_pct(moves, 0.95), 1)},
        "cpu_ms_per_move": round(1000 * (cpu - think) / max(1, stored), 1),
        "think_cpu_ms_per_move": round(1000 * think / max(1, stored), 1),
        "frame_kb": round(sum(r["frame_bytes"] for r in results)
                          / max(1, sum(r["frames"] for r in results)) / 1024, 1),
        "peak_rss_mb": [round(r["peak_rss_mb"], 1) for r in results],
        "stale": sum(r["stale"] for r in results), "refused": sum(r["refused"] for r in results),
        "lost": lost,
    }  # fmt: skip
    if len(results) > 1:
        delays = _seen_delays(results)
        figures["seen"] = len(delays)
        figures["seen_ms"] = {
            "p50": round(_pct(delays, 0.5), 1),
            "p95": round(_pct(delays, 0.95), 1),
        }
    return figures


def _seen_delays(results: list[dict[str, Any]]) -> list[float]:
    """Seconds from a move stored by one process to its watcher's first sight of it in
    another (a watcher may see it a hair before play returns: counted as 0)."""
    delays = []
    for n, mine in enumerate(results):
        for m, other in enumerate(results):
            if m == n:
                continue
            seen = {(g, s): t for g, s, t in other["seen"]}
            for g, s, when in mine["stored"]:
                if (g, s) in seen:
                    delays.append(max(0.0, seen[(g, s)] - when))
    return delays


def options(club: argparse.ArgumentParser) -> None:
    club.add_argument("--members", type=int, default=200, help="members (200)")
    club.add_argument("--games", type=int, default=1000, help="games in progress (1000)")
    club.add_argument(
        "--most", type=int, default=60, help="decisions each game is moved at most (60)"
    )
    club.add_argument("--connected", type=int, default=100, help="members playing (100)")
    club.add_argument("--rate", type=float, default=20.0, help="moves a second, all told (20)")
    club.add_argument("--seconds", type=float, default=60.0, help="how long to play (60)")
    club.add_argument(
        "--processes", type=int, choices=(1, 2), default=1,
        help="processes sharing the database (2 needs PostgreSQL)",
    )  # fmt: skip
    where = club.add_mutually_exclusive_group()
    where.add_argument("--db", metavar="URL", help="an empty PostgreSQL database to use")
    where.add_argument(
        "--postgres", action="store_true", help="start a throwaway PostgreSQL server"
    )
    club.add_argument("--seed", type=int, default=1, help="the club's seed (1)")
    club.add_argument(
        "--ssh", action="store_true",
        help="serve the club with its real SSH server, members as SSH clients on loopback",
    )  # fmt: skip


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.members < 2 or args.games < 1 or args.most < 0 or args.rate <= 0:
        parser.error("--members is at least 2, --games 1, --most 0, and --rate above 0")
    if not 1 <= args.connected <= args.members or not 0 < args.seconds <= 3600:
        parser.error("--connected is 1 to --members, and --seconds above 0 up to 3600")
    if args.processes > 1 and not (args.db or args.postgres):
        parser.error("--processes 2 shares one database between processes: give --postgres")
    engine = "PostgreSQL" if args.db or args.postgres else "SQLite"
    if args.ssh:
        return _run_ssh(args, engine)
    try:
        with _database(args) as url:
            f = bench_club(url, args.members, args.games, args.most, args.connected,
                           args.rate, args.seconds, args.processes, args.seed)  # fmt: skip
    except (_postgres.Unavailable, DatabaseError) as err:
        print(f"umtali bench club: {err}", file=sys.stderr)
        return 2
    _report(f, engine)
    print(json.dumps(f))
    return 1 if f["lost"] else 0


def _run_ssh(args: argparse.Namespace, engine: str) -> int:
    """``--ssh``: the club's own SSH server(s), members at terminals (:mod:`._club_ssh`)."""
    from umtali.lab.benches import _club_ssh
    from umtali.lab.benches.host import missing

    lacking = missing()
    if lacking is not None:
        print(f"umtali bench club --ssh: {lacking}", file=sys.stderr)
        return 2
    try:
        with _database(args) as url:
            f = _club_ssh.bench_club_ssh(url, args.members, args.games, args.most,
                                         args.connected, args.rate, args.seconds,
                                         args.processes, args.seed)  # fmt: skip
    except (_postgres.Unavailable, DatabaseError) as err:
        print(f"umtali bench club: {err}", file=sys.stderr)
        return 2
    _club_ssh.report(f, engine)
    print(json.dumps(f))
    return 1 if f["lost"] or f["logged_in"] < f["connected"] else 0


def _report(f: dict[str, Any], engine: str) -> None:
    print(
        f"club on {engine}: {f['members']} members, {f['games']} games in progress "
        f"({f['seeded_decisions']} decisions seeded in {f['seed_s']} s); {f['connected']} "
        f"members connected in {f['processes']} process(es) for {f['seconds']:g} s"
    )
    rows = [
        ("moves stored", f"{f['moves']} ({f['rate']}/s; asked {f['rate_asked']:g}/s)"),
        ("open a game, p50 / p95", f"{f['open_ms']['p50']} / {f['open_ms']['p95']} ms "
                                   f"({f['opened']} opened)"),
        ("a move, Enter to frame, p50 / p95",
         f"{f['move_ms']['p50']} / {f['move_ms']['p95']} ms"),
        ("club CPU a move", f"{f['cpu_ms_per_move']} ms (members' bot apart: "
                            f"{f['think_cpu_ms_per_move']} ms)"),
        ("a frame", f"{f['frame_kb']} KiB"),
        ("peak memory a process", " + ".join(f"{mb} MB" for mb in f["peak_rss_mb"])),
        ("Stale conflicts / refused", f"{f['stale']} / {f['refused']}"),
        ("moves lost", str(f["lost"])),
    ]  # fmt: skip
    if "seen_ms" in f:
        rows.append(("seen by the other process, p50 / p95",
                     f"{f['seen_ms']['p50']} / {f['seen_ms']['p95']} ms ({f['seen']} moves; "
                     f"polling every {_club_members.POLL} s)"))  # fmt: skip
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    print("  (not included: SSH, prompt_toolkit's screen, the database server's own CPU)")


__all__ = ["bench_club", "options", "run"]
