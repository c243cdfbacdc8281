"""``umtali bench search``: how much the expert's moves owe to the luck of its deals.

The expert's search plays each candidate in a few hundred deals of the hidden
cards; another few hundred would sometimes choose another move.  This bench asks
what that costs, in the units the game rewards.  It gathers the positions where
the expert searched, in whole games against ``hard`` on the deal bank, then for
each one:

* a yardstick: the same search at many times the budget, every candidate played
  in every deal (no race), with a salt of its own;
* the expert's choice at each budget asked for (a multiple of its own simulated
  moves and of its most deals), once for each salt, and what that choice gives up
  against the yardstick's best: the chance of winning the game, and the points.

A budget whose choices give up no more than a larger one's has bought all that
more deals can buy: what is left is the yardstick's own noise (its best is the
best of noisy figures, so even its own choice at another salt gives something
up) and the search's bias, which no budget changes.  The figures are a number of
simulated moves, not seconds: the same on any machine.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from umtali.bots.analysis import analyse, budget_for, worlds_for
from umtali.bots.arena import Driver
from umtali.bots.expert import ExpertBot
from umtali.bots.hard import HardBot
from umtali.bots.seat import Decision, GameInfo, Seat
from umtali.engine.match import Game
from umtali.engine.view import PlayerView
from umtali.lab.tournament import BANK_VERSION, bank_seed

#: The yardstick's budget and most deals, as multiples of the level's.
REFERENCE = 10
REFERENCE_SALT = 1_000_003


@dataclass(frozen=True, slots=True)
class Position:
    """A decision the expert searched: what its player saw, and the game around it."""

    view: PlayerView
    info: GameInfo


class _Gatherer(ExpertBot):
    """The expert, keeping each position it searched."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[Position] = []

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        found = analyse(view, info)
        if found.lines:
            self.found.append(Position(view, info))
        return found.decision


def positions(games: int, version: int = BANK_VERSION) -> list[Position]:
    """The positions the expert searched in ``games`` games against hard (classic), the
    deals those of the bank's first matches, the expert first and second in turn."""
    found: list[Position] = []
    for i in range(games):
        expert = _Gatherer()
        seats: list[Seat] = [expert, HardBot(i)] if i % 2 == 0 else [HardBot(i), expert]
        Driver(seats).play_game(Game(seed=bank_seed(i // 2, version)))
        found.extend(expert.found)
    return found


def given_up(
    found: Sequence[Position], multiples: Sequence[float], salts: int, reference: float = 0
) -> dict[str, Any]:
    """For each budget multiple: the mean chance of the game (in percent) and points a
    decision gives up against the yardstick (``reference`` times the budget; 0:
    ``REFERENCE``), and how often it plays the yardstick's move.  A decision's points
    are those of its move against the yardstick's, which plays for the game: where a
    few points buy no chance, they may be below nothing."""
    reference = reference or REFERENCE
    lost = {m: [0.0, 0.0, 0] for m in multiples}
    seconds = {m: 0.0 for m in multiples}
    for position in found:
        view, info = position.view, position.info
        level = budget_for(view)
        deals = worlds_for(view)
        yardstick = analyse(
            view,
            info,
            budget=round(reference * level),
            salt=REFERENCE_SALT,
            race=False,
            max_worlds=round(reference * deals),
        )
        best = yardstick.choice
        for m in multiples:
            for salt in range(1, salts + 1):
                start = time.perf_counter()
                choice = analyse(
                    view, info, budget=round(m * level), salt=salt, max_worlds=round(m * deals)
                ).choice
                seconds[m] += time.perf_counter() - start
                chance, points = yardstick.cost(choice)
                lost[m][0] += chance
                lost[m][1] += points
                lost[m][2] += choice == best
    tries = max(1, len(found) * salts)
    return {
        str(m): {
            "chance_given_up_pct": round(100 * lost[m][0] / tries, 3),
            "points_given_up": round(lost[m][1] / tries, 3),
            "same_move": round(lost[m][2] / tries, 3),
            "ms_per_decision": round(1000 * seconds[m] / tries, 1),
        }
        for m in multiples
    }


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games", type=int, default=4, help="games of expert v hard to gather from (4)"
    )
    parser.add_argument(
        "--budgets",
        type=float,
        nargs="+",
        default=[0.5, 1.0, 2.0, 4.0],
        help="budgets, as multiples of the expert's own (0.5 1 2 4)",
    )
    parser.add_argument("--salts", type=int, default=2, help="choices at each budget (2)")
    parser.add_argument(
        "--reference",
        type=float,
        default=REFERENCE,
        help=f"the yardstick's budget, as a multiple of the expert's ({REFERENCE})",
    )
    parser.add_argument(
        "--bank", type=int, default=BANK_VERSION, help=f"deal bank version ({BANK_VERSION})"
    )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.games < 1 or args.salts < 1 or min(args.budgets) <= 0:
        parser.error("--games and --salts must be at least 1, and every budget above 0")
    if args.reference < 2 * max(args.budgets):
        parser.error("--reference must be at least twice the largest budget it measures")
    found = positions(args.games, args.bank)
    per_game = len(found) / args.games
    table = given_up(found, args.budgets, args.salts, args.reference)
    print(
        f"search: {len(found)} searched decisions in {args.games} games of expert v hard "
        f"(bank {args.bank}, {per_game:.1f} a game); yardstick {args.reference:g}x the budget, "
        "every candidate in every deal"
    )
    print("| budget | chance of the game given up a decision | points | same move | ms |")
    print("|---|---|---|---|---|")
    for m, row in table.items():
        print(
            f"| {float(m):g}x | {row['chance_given_up_pct']:.3f}% | "
            f"{row['points_given_up']:.3f} | {100 * row['same_move']:.0f}% | "
            f"{row['ms_per_decision']} |"
        )
    result = {
        "benchmark": "search",
        "games": args.games,
        "bank_version": args.bank,
        "decisions": len(found),
        "reference_multiple": args.reference,
        "budgets": table,
    }
    print(json.dumps(result))
    return 0


__all__ = ["Position", "given_up", "options", "positions", "run"]
