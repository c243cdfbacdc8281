"""``umtali bench club --ssh``: the club's real SSH server, its members at terminals.

The club is seeded as for the bench without SSH (:mod:`._club_seed`); each connected
member gets an SSH key of its own (ed25519, made here), kept as its member key as
``keys add`` keeps one.  Then ``processes`` club servers start, each in a process of
its own (:mod:`._club_server`), and the members, split between them, play from one
more process (:mod:`._club_clients`), so the servers share no interpreter lock with
the clients.  The figures are the servers' own: latency from an Enter to the first
frame sent after the table (or lobby page) changed, for moves and for opening a game
from the lobby; CPU a move; peak memory; and moves lost (a decision the club said it
stored that the database does not hold at the end).

Not a bench itself (hence the underscore).
"""

from __future__ import annotations

import multiprocessing
import random
import time
from typing import Any

from umtali.club import members
from umtali.club.club import Club
from umtali.lab.benches import _club_clients, _club_seed, _club_server
from umtali.store.database import Database

#: Seconds the servers may take to start listening, and the clients beyond their play
#: to log in and finish.
START = 60.0
SLACK = 300.0
#: Answers slower than this many seconds are listed by when they came.
SLOW = 0.25
#: Seconds from the start that the steady figures leave out: each session's first
#: tables (the members' first actions are spread over their first 5 s) cost more.
WARM = 10.0


def _pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in milliseconds (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def _keys(db: Database, member_ids: list[int]) -> list[bytes]:
    """A new key for each member, kept as theirs; the private keys, in order."""
    import asyncssh

    made = []
    with db.transaction() as tx:
        now = int(time.time() * 1000)
        for member_id in member_ids:
            key = asyncssh.generate_private_key("ssh-ed25519")
            public = key.export_public_key("openssh").decode("ascii").strip()
            members.add_key(tx, member_id, str(key.get_fingerprint("sha256")), public, now)
            made.append(key.export_private_key("openssh"))
    return made


def bench_club_ssh(url: str, member_count: int, game_count: int, most: int, connected: int,
                   rate: float, seconds: float, processes: int,
                   seed: int) -> dict[str, Any]:  # fmt: skip
    """Seed the club at ``url`` (an empty database), serve it over SSH to ``connected``
    simulated members for ``seconds``, and return the figures."""
    import asyncssh

    db = Database.open(url)
    try:
        Club.migrate(db, int(time.time() * 1000))
        begun = time.monotonic()
        seeded = _club_seed.seed(Club(db), member_count, game_count, most, random.Random(seed))
        seed_s = time.monotonic() - begun
        chosen = random.Random(seed + 1).sample(seeded.member_ids, connected)
        with db.transaction() as tx:
            names = {i: members.get(tx, i).name for i in chosen}
        keys = _keys(db, chosen)
    finally:
        db.close()
    context = multiprocessing.get_context("spawn")
    host_key = asyncssh.generate_private_key("ssh-ed25519").export_private_key("openssh")
    go, stop = context.Event(), context.Event()
    ports, served = context.Queue(), context.Queue()
    servers = [
        context.Process(target=_club_server.serve, args=(url, host_key, ports, go, stop, served))
        for _ in range(processes)
    ]
    for process in servers:
        process.start()
    try:
        listening = [ports.get(timeout=START) for _ in servers]
        people = [
            _club_clients.Person(i, names[i], keys[n], listening[n % processes],
                                 _club_clients.address(n))
            for n, i in enumerate(chosen)
        ]  # fmt: skip
        played = context.Queue()
        clients = context.Process(
            target=_club_clients.play, args=(url, people, rate, seconds, go, played)
        )
        clients.start()
        done: dict[str, Any] = played.get(timeout=seconds + SLACK)
        clients.join(timeout=30)
        stop.set()
        results = [served.get(timeout=START) for _ in servers]
    finally:
        stop.set()
        go.set()
        for process in servers:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
    lost = _lost(url, [s for r in results for s in r["stored"]])
    return _figures(results, done, seeded, seed_s, lost, game_count, connected, rate, seconds)


def _lost(url: str, stored: list[tuple[int, int, float]]) -> int:
    """How many decisions :meth:`Club.play` returned are not in the database now."""
    db = Database.open(url)
    try:
        with db.transaction(read_only=True) as tx:
            held = {(int(g), int(s)) for g, s in tx.all("SELECT game_id, seq FROM decisions")}
    finally:
        db.close()
    return sum(1 for g, s, _ in stored if (int(g), int(s)) not in held)


def _figures(results: list[dict[str, Any]], done: dict[str, Any], seeded: _club_seed.Seeded,
             seed_s: float, lost: int, games: int, connected: int, rate: float,
             seconds: float) -> dict[str, Any]:  # fmt: skip
    probed = [(kind, s) for r in results for kind, s, _ in r["latencies"]]
    # When the slow answers came (seconds into the play): steady, or in bursts.
    slow = sorted(round(at, 1) for r in results for _, s, at in r["latencies"] if s > SLOW)
    moves = [s for kind, s in probed if kind == "move"]
    opens = [s for kind, s in probed if kind == "open"]
    lobby = [s for kind, s in probed if kind == "lobby"]
    later = [(kind, s) for r in results for kind, s, at in r["latencies"] if at >= WARM]
    steady = {
        kind: {"p50": _pct(xs, 0.5), "p95": _pct(xs, 0.95), "n": len(xs)}
        for kind in ("move", "open")
        for xs in [[s for k, s in later if k == kind]]
    }
    stored = sum(len(r["stored"]) for r in results)
    cpu = sum(r["cpu"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
    return {
        "benchmark": "club-ssh", "members": len(seeded.member_ids), "games": games,
        "connected": connected, "logged_in": done["connected"], "processes": len(results),
        "seeded_decisions": seeded.decisions, "seed_s": round(seed_s, 1),
        "rate_asked": rate, "seconds": seconds,
        "moves": stored, "rate": round(stored / max(elapsed, 1e-9), 1),
        "opened": len(opens),
        "move_ms": {"p50": _pct(moves, 0.5), "p95": _pct(moves, 0.95), "n": len(moves)},
        "open_ms": {"p50": _pct(opens, 0.5), "p95": _pct(opens, 0.95), "n": len(opens)},
        "lobby_ms": {"p50": _pct(lobby, 0.5), "p95": _pct(lobby, 0.95), "n": len(lobby)},
        "steady_move_ms": steady["move"], "steady_open_ms": steady["open"],
        "cpu_ms_per_move": round(1000 * cpu / max(1, stored), 1),
        "cpu_share": round(cpu / max(elapsed, 1e-9), 2),
        "peak_rss_mb": [round(r["peak_rss_mb"], 1) for r in results],
        "stale": sum(r["stale"] for r in results), "unanswered": done["unanswered"],
        "typed_again": done["again"],
        "client_errors": done["errors"], "lost": lost,
        "clients_cpu_share": round(done["cpu"] / max(done["elapsed"], 1e-9), 2),
        "slow_at_s": slow[:200],
    }  # fmt: skip


def report(f: dict[str, Any], engine: str) -> None:
    """The figures in lines, for a person."""
    print(
        f"club over SSH on {engine}: {f['members']} members, {f['games']} games in progress "
        f"({f['seeded_decisions']} decisions seeded in {f['seed_s']} s); {f['logged_in']} of "
        f"{f['connected']} members logged in to {f['processes']} server process(es), "
        f"played {f['seconds']:g} s"
    )
    cpu = f"{f['cpu_ms_per_move']} ms ({f['cpu_share']} of a core, all servers told)"
    rows = [
        ("moves stored", f"{f['moves']} ({f['rate']}/s; asked {f['rate_asked']:g}/s)"),
        ("server: a move, Enter to frame, p50 / p95",
         f"{f['move_ms']['p50']} / {f['move_ms']['p95']} ms"),
        ("server: open a game, Enter to frame, p50 / p95",
         f"{f['open_ms']['p50']} / {f['open_ms']['p95']} ms ({f['opened']} opened)"),
        (f"  the same after the first {WARM:g} s: a move",
         f"{f['steady_move_ms']['p50']} / {f['steady_move_ms']['p95']} ms"),
        (f"  the same after the first {WARM:g} s: open a game",
         f"{f['steady_open_ms']['p50']} / {f['steady_open_ms']['p95']} ms"),
        ("server: back to the lobby, p50 / p95",
         f"{f['lobby_ms']['p50']} / {f['lobby_ms']['p95']} ms"),
        ("server CPU a move", cpu),
        ("server peak memory", " + ".join(f"{mb} MB" for mb in f["peak_rss_mb"])),
        ("Stale conflicts / moves unanswered", f"{f['stale']} / {f['unanswered']}"),
        ("lines typed again (lost under a redraw)", str(f["typed_again"])),
        ("moves lost", str(f["lost"])),
        ("the clients' process", f"{f['clients_cpu_share']} of a core"),
    ]  # fmt: skip
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    for error in f["client_errors"]:
        print(f"  client: {error}")
    print("  (the server's own figures; not included: the clients, the database server's CPU)")


__all__ = ["bench_club_ssh", "report"]
