"""``umtali bench ladder``: a round robin of the levels, and their ratings.

It plays duplicate matches between every pair of levels and fits a rating to each
from the games won (:mod:`umtali.lab.ladder`); with ``--records`` it plays nothing
and fits the ratings to runs of ``bench bots --record``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from umtali.lab.benches._shared import VARIANTS, ray_option


def bench_ladder(
    levels: Sequence[str],
    matches: int,
    workers: int,
    version: int,
    rules: str = "classic",
    ray: str | None = None,
) -> dict[str, Any]:
    """A round robin of duplicate matches between ``levels``, and a rating for each from
    the games won."""
    from umtali.lab.ladder import fit, intervals, pairs
    from umtali.lab.tournament import MatchResult, play_match, summarise
    from umtali.lab.workers import run_jobs

    jobs = [(a, b, i) for a, b in pairs(levels) for i in range(matches)]
    done = run_jobs(play_match, [(a, b, i, version, rules) for a, b, i in jobs], workers, ray)
    by_pair: dict[tuple[str, str], list[MatchResult]] = {}
    for (a, b, _), result in zip(jobs, done, strict=True):
        by_pair.setdefault((a, b), []).append(result)
    # Rated on games won, as a player is: each match's share of its two games, so the
    # bootstrap resamples whole matches (its two games share their deals).
    scores = {pair: [r.game_share for r in results] for pair, results in by_pair.items()}
    ratings = fit(levels, scores)
    spread = intervals(levels, scores, random.Random(version))
    table = {f"{a} v {b}": summarise(a, b, results, version) for (a, b), results in by_pair.items()}
    return {
        "benchmark": "ladder",
        "variant": rules,
        "bank_version": version,
        "matches_per_pair": matches,
        "ratings": {x: round(ratings[x]) for x in levels},
        "rating95": {x: [round(spread[x][0]), round(spread[x][1])] for x in levels},
        "pairs": table,
    }


def ladder_text(result: dict[str, Any]) -> str:
    """The ladder as Markdown tables: each pair's share of games won (a game left level
    at the cap on hands a half), its margin and its match score; then the ratings, which
    are fitted to the games won."""
    lines = [
        f"| {result['variant']} | games | first won (95% interval) | margin per hand "
        "| matches won (95% interval) |",
        "|---|---|---|---|---|",
    ]
    for name, pair in result["pairs"].items():
        lines.append(
            f"| {name} | {pair['games']} | {_percent(pair['a_game_win_rate'])} "
            f"({_percents(pair['game_wilson95'])}) | {pair['margin_per_hand']:+.1f} | "
            f"{_percent(pair['a_match_win_rate'])} ({_percents(pair['wilson95'])}) |"
        )
    undecided = sum(pair["games_undecided"] for pair in result["pairs"].values())
    if undecided:
        lines += ["", f"{undecided} games were level at the cap on hands: each counts a half."]
    lines += ["", "| level | rating (Elo points, normal = 0) | 95% interval |", "|---|---|---|"]
    for level, rating in sorted(result["ratings"].items(), key=lambda kv: kv[1]):
        low, high = result["rating95"][level]
        spread = "(the anchor)" if low == high == rating else f"{low:+d} to {high:+d}"
        lines.append(f"| {level} | {rating:+d} | {spread} |")
    return "\n".join(lines)


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def _percents(interval: Sequence[float]) -> str:
    low, high = interval
    return f"{100 * low:.0f}–{100 * high:.0f}%"


def options(ladder: argparse.ArgumentParser) -> None:
    from umtali.lab.tournament import BANK_VERSION, lab_levels, ladder_levels

    ladder.add_argument(
        "--levels",
        nargs="+",
        choices=lab_levels(),
        default=list(ladder_levels()),
        help=f"levels (default {' '.join(ladder_levels())})",
    )
    ladder.add_argument("--matches", type=int, default=20, help="matches a pair (default 20)")
    ladder.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ray_option(ladder)
    ladder.add_argument(
        "--bank", type=int, default=BANK_VERSION, help=f"deal bank version ({BANK_VERSION})"
    )
    ladder.add_argument("--variant", choices=VARIANTS, default="classic", help="rules (classic)")
    ladder.add_argument(
        "--records",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="play nothing: fit the ratings to these `bench bots --record` runs",
    )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.records:
        from umtali.lab.ladder import ladder_from_records
        from umtali.lab.match_record import RecordError

        playing = ("levels", "matches", "workers", "ray", "bank", "variant")
        alone = argparse.ArgumentParser()
        options(alone)
        given = [name for name in playing if getattr(args, name) != alone.get_default(name)]
        if given:
            parser.error(
                f"--records plays nothing: {', '.join('--' + n for n in given)} cannot go with it"
            )
        try:
            fitted = ladder_from_records(args.records)
        except RecordError as err:
            print(f"umtali bench: {err}", file=sys.stderr)
            return 2
        print(ladder_text(fitted))
        print(json.dumps(fitted))
        return 0
    levels = list(dict.fromkeys(args.levels))
    if len(levels) < 2 or args.matches < 1:
        parser.error("--levels needs two or more levels, --matches at least 1")
    rungs = bench_ladder(levels, args.matches, args.workers, args.bank, args.variant, args.ray)
    print(ladder_text(rungs))
    print(json.dumps(rungs))
    return 0
