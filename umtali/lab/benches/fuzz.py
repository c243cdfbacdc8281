"""``umtali bench fuzz``: hostile lines typed at the real prompt, game after game.

The games (:mod:`umtali.lab.fuzzing`) run on local processes, the variants in
turn; a crash, a hang or an escape sequence reaching the screen makes the exit
code 1.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from umtali.lab.benches._shared import VARIANTS


def _fuzz_one(job: tuple[int, int, str, bool]) -> dict[str, Any]:
    from umtali.lab.fuzzing import fuzz_game

    seed, per_prompt, variant, app = job
    report = fuzz_game(seed, per_prompt, variant, app)
    return {
        "lines": report.lines,
        "prompts": report.prompts,
        "crashes": report.crashes,
        "hangs": report.hangs,
        "nudges": report.nudges,
        "escapes": report.escapes,
        "slowest_line_s": report.slowest_line_s,
    }


def bench_fuzz(
    games: int, seed: int, per_prompt: int, workers: int, app: bool = False
) -> dict[str, Any]:
    """Fuzzed games (:mod:`umtali.lab.fuzzing`) on ``workers`` processes, the variants in
    turn, on the line-by-line screen or (``app``) in the full-screen application."""
    from umtali.lab.workers import run_jobs

    start = time.perf_counter()
    jobs = [((seed + n, per_prompt, VARIANTS[n % len(VARIANTS)], app),) for n in range(games)]
    results = run_jobs(_fuzz_one, jobs, workers)
    return {
        "benchmark": "fuzz",
        "screen": "app" if app else "plain",
        "games": games,
        "lines": sum(r["lines"] for r in results),
        "prompts": sum(r["prompts"] for r in results),
        "crashes": [c for r in results for c in r["crashes"]],
        "hangs": sum(r["hangs"] for r in results),
        "nudges": sum(r["nudges"] for r in results),
        "escapes": sum(r["escapes"] for r in results),
        "slowest_line_s": round(max(r["slowest_line_s"] for r in results), 3),
        "seconds": round(time.perf_counter() - start, 1),
    }


def options(fuzz: argparse.ArgumentParser) -> None:
    fuzz.add_argument("--games", type=int, default=40, help="games (default 40)")
    fuzz.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    fuzz.add_argument(
        "--per-prompt", type=int, default=3, help="hostile lines before each move (up to 3)"
    )
    fuzz.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    fuzz.add_argument(
        "--app", action="store_true", help="type into the full-screen application instead"
    )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.games < 1 or args.workers < 1 or args.per_prompt < 1:
        parser.error("--games, --workers and --per-prompt must be at least 1")
    fuzzed = bench_fuzz(args.games, args.seed, args.per_prompt, args.workers, args.app)
    print(
        f"fuzz: {fuzzed['games']} games, {fuzzed['lines']} hostile lines typed at "
        f"{fuzzed['prompts']} prompts in {fuzzed['seconds']} s: {len(fuzzed['crashes'])} "
        f"crashes, {fuzzed['hangs']} hangs, {fuzzed['escapes']} escapes reaching the screen, "
        f"{fuzzed['nudges']} prompts that needed Enter again"
    )
    for line in fuzzed["crashes"][:10]:
        print("  " + line)
    print(json.dumps(fuzzed))
    return 1 if fuzzed["crashes"] or fuzzed["hangs"] or fuzzed["escapes"] else 0
