"""``umtali bench coach``: what the coach costs, reviewing easy's games against hard."""

from __future__ import annotations

import argparse
import json
from typing import Any

from umtali.lab.benches._shared import VARIANTS


def bench_coach(games: int, seed: int, variant: str) -> dict[str, Any]:
    """Review the easy seat of ``games`` games of easy against hard: what it costs."""
    from umtali.bots import make_bot
    from umtali.bots.arena import play_game
    from umtali.engine.match import Game
    from umtali.review.game import review_match

    hands = decisions = 0
    lost = seconds = 0.0
    for n in range(games):
        seats = [make_bot("easy", n), make_bot("hard", n)]
        game = play_game(Game(variant, seed=seed + n), seats)
        reviewed, spent = review_match(game, 1)
        seconds += spent
        hands += len(reviewed)
        decisions += sum(review.weighed for _, review in reviewed)
        lost += sum(v.cost for _, review in reviewed for v in review.verdicts)
    return {
        "benchmark": "coach",
        "variant": variant,
        "games": games,
        "hands": hands,
        "decisions": decisions,
        "seconds_per_hand": round(seconds / max(1, hands), 3),
        "ms_per_decision": round(1000 * seconds / max(1, decisions), 1),
        "chance_lost_per_hand": round(lost / max(1, hands), 4),
    }


def options(coach: argparse.ArgumentParser) -> None:
    coach.add_argument("--games", type=int, default=5, help="games (default 5)")
    coach.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    coach.add_argument("--variant", choices=VARIANTS, default="classic", help="rules (classic)")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.games < 1:
        parser.error("--games must be at least 1")
    coached = bench_coach(args.games, args.seed, args.variant)
    print(
        f"coach: {coached['hands']} hands of {coached['games']} games ({args.variant}), "
        f"{coached['decisions']} decisions weighed: {coached['seconds_per_hand']} s a "
        f"hand, {coached['ms_per_decision']} ms a decision; the easy seat's flagged "
        f"decisions gave up {coached['chance_lost_per_hand']:.1%} of its chance a hand"
    )
    print(json.dumps(coached))
    return 0
