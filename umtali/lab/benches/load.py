"""``umtali bench load``: what a server pays to pick a stored game up again.

A server that keeps games for days holds no game in memory: for every request it
loads the game's record, asks what decision is pending, and (when a decision comes)
applies it and stores the record again.  This bench plays finished-length games
between two bots, keeps each one's record as it stood before its last decision, and
times, per game and many times over, :meth:`Progress.load` with :meth:`pending`
(the cost of every request), then the decision applied and the record written
(the cost of a move).  The issue's budget is under 5 ms for the first, on the
2-core machine; a timed test would be flaky there, so it is measured here.
"""

from __future__ import annotations

import argparse
import statistics
import time

from umtali.bots import make_bot
from umtali.bots.arena import Driver, unnamed
from umtali.engine.match import Game
from umtali.engine.progress import Asked, Move, Progress
from umtali.engine.rules import PRESETS


def _before_the_end(seed: int, rules: str) -> tuple[str, int, int]:
    """A game played to its end by two normal bots: its record before the last move,
    the move's player and how many actions the game has."""
    seats = [make_bot("normal", seed), make_bot("normal", seed + 1)]
    progress = Progress(Game(rules, seed=seed), unnamed(seats))
    driver = Driver(seats)
    text, player = progress.record(), 0
    while not progress.is_over:
        text = progress.record()
        asked = progress.pending()
        player = asked.player or 0
        driver.answer(progress)
    actions = sum(len(h.played()) for h in progress.game.hands)
    return text, player, actions


def bench_load(games: int, repeat: int, seed: int, rules: str = "classic") -> dict[str, float]:
    """Milliseconds to load a stored game and find its pending decision (p50, p95 and
    the mean over every game and repeat), and to apply one move and store it again."""
    loads: list[float] = []
    moves: list[float] = []
    sizes: list[int] = []
    for n in range(games):
        text, player, actions = _before_the_end(seed + 2 * n, rules)
        sizes.append(actions)
        for _ in range(repeat):
            start = time.perf_counter()
            progress = Progress.load(text)
            asked = progress.pending()
            loaded = time.perf_counter()
            assert asked.kind is Asked.MOVE and asked.player == player
            progress.decide(player, Move(asked.legal[0]))
            progress.record()
            done = time.perf_counter()
            loads.append(1000 * (loaded - start))
            moves.append(1000 * (done - loaded))
    loads.sort()
    return {
        "games": games,
        "actions_mean": statistics.fmean(sizes),
        "ms_p50": loads[len(loads) // 2],
        "ms_p95": loads[min(len(loads) - 1, int(0.95 * len(loads)))],
        "ms_mean": statistics.fmean(loads),
        "move_ms_mean": statistics.fmean(moves),
    }


def options(load: argparse.ArgumentParser) -> None:
    load.add_argument("--games", type=int, default=20, help="games played and stored (20)")
    load.add_argument("--repeat", type=int, default=20, help="loads timed per game (20)")
    load.add_argument("--seed", type=int, default=1, help="the first game's seed (1)")
    load.add_argument("--rules", choices=sorted(PRESETS), default="classic")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat are at least 1")
    f = bench_load(args.games, args.repeat, args.seed, args.rules)
    print(
        f"{args.rules}: {f['games']:.0f} finished-length games "
        f"({f['actions_mean']:.0f} actions on average), each loaded {args.repeat} times"
    )
    print(
        f"load a stored game and find its pending decision: p50 {f['ms_p50']:.2f} ms, "
        f"p95 {f['ms_p95']:.2f} ms, mean {f['ms_mean']:.2f} ms"
    )
    print(f"then apply one move and write the record: mean {f['move_ms_mean']:.2f} ms")
    return 0
