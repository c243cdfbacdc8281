"""``umtali bench reading``: how well the search's deals place the opponent's hidden cards.

The expert deals the cards it cannot see many ways, drawn from its reading of
the opponent (:mod:`umtali.bots.inference`).  This bench plays whole games of
``hard`` against ``hard`` on the deal bank and, at each decision after the
opponent has moved, draws a number of opponent hands the way the expert does,
then asks how well the share of those hands holding each unseen card foretold
where the card really was: the log-loss a card (lower is better; a reading that
knew the hand would score 0).  Beside it, the same figure for hands drawn with no
reading (only what the rules prove), so the reading's worth is the step between.

It reads nothing but what each seat saw; the true hands are only the answers.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from umtali.bots.arena import Driver
from umtali.bots.hard import HardBot
from umtali.bots.inference import read_opponent
from umtali.bots.knowledge import Knowledge
from umtali.engine.actions import Action
from umtali.engine.cards import indices, mask_of
from umtali.engine.hand import Hand
from umtali.engine.match import Game
from umtali.engine.rules import PRESETS, rules_named
from umtali.engine.view import PlayerView
from umtali.lab.tournament import BANK_VERSION, bank_seed

#: Keep a share a little off 0 and 1: a card the draws never gave costs a finite amount.
SHARE_FLOOR = 1e-3

#: Draws an opponent hand (a card set) for a seat's knowledge and view.
Drawer = Callable[[Knowledge, PlayerView, random.Random], int]


@dataclass(frozen=True, slots=True)
class Seen:
    """One decision: what its seat saw, and the opponent's hand at that moment."""

    view: PlayerView
    theirs: int


def gather(games: int, version: int = BANK_VERSION, variant: str = "classic") -> list[Seen]:
    """Every decision after the opponent's first move, in ``games`` games of hard v hard."""
    found: list[Seen] = []

    def after(hand: Hand, player: int, action: Action) -> None:
        mover = hand.to_move
        if mover is None:
            return
        view = hand.view(mover)
        if view.opponent_hand_size and any(e.player != mover for e in view.events):
            found.append(Seen(view, mask_of(hand.cards_in_hand(3 - mover))))

    for i in range(games):
        driver = Driver([HardBot(2 * i), HardBot(2 * i + 1)], [after])
        driver.play_game(Game(rules=rules_named(variant), seed=bank_seed(i, version)))
    return found


def with_reading(know: Knowledge, view: PlayerView, rng: random.Random) -> int:
    return know.sample_opponent(rng, read=read_opponent(view, know))[0]


def rules_only(know: Knowledge, view: PlayerView, rng: random.Random) -> int:
    return know.sample_opponent(rng)[0]


def log_loss(seen: Sequence[Seen], draw: Drawer, hands: int, seed: int = 1) -> float:
    """The mean log-loss a card of the hidden cards' places, as ``hands`` draws foretell
    them (each share smoothed by half a draw)."""
    rng = random.Random(seed)
    total = 0.0
    cards = 0
    for one in seen:
        know = Knowledge.of(one.view)
        hidden = know.unseen & ~know.opp_known
        counts = [0] * 52
        for _ in range(hands):
            for i in indices(draw(know, one.view, rng) & hidden):
                counts[i] += 1
        for i in indices(hidden):
            share = min(1 - SHARE_FLOOR, max(SHARE_FLOOR, (counts[i] + 0.5) / (hands + 1)))
            total -= math.log(share if one.theirs >> i & 1 else 1 - share)
            cards += 1
    return total / max(1, cards)


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=6, help="games of hard v hard (6)")
    parser.add_argument(
        "--hands", type=int, default=200, help="opponent hands drawn a decision (200)"
    )
    parser.add_argument(
        "--bank", type=int, default=BANK_VERSION, help=f"deal bank version ({BANK_VERSION})"
    )
    parser.add_argument(
        "--variant",
        choices=list(PRESETS),
        default="classic",
        help="rules (classic)",
    )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.games < 1 or args.hands < 1:
        parser.error("--games and --hands must be at least 1")
    seen = gather(args.games, args.bank, args.variant)
    plain = log_loss(seen, rules_only, args.hands)
    read = log_loss(seen, with_reading, args.hands)
    print(
        f"reading: {len(seen)} decisions in {args.games} games of hard v hard ({args.variant}, "
        f"bank {args.bank}), {args.hands} opponent hands drawn at each: log-loss a hidden card "
        f"{read:.4f} with the reading, {plain:.4f} with the rules alone (0 knows the hand)"
    )
    print(
        json.dumps(
            {
                "benchmark": "reading",
                "variant": args.variant,
                "games": args.games,
                "bank_version": args.bank,
                "decisions": len(seen),
                "hands": args.hands,
                "log_loss_reading": round(read, 4),
                "log_loss_rules_only": round(plain, 4),
            }
        )
    )
    return 0


__all__ = ["Seen", "gather", "log_loss", "options", "rules_only", "run", "with_reading"]
