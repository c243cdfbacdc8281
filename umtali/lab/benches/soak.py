"""``umtali bench soak``: random and bot hands with every invariant checked.

Each hand is audited (:func:`umtali.engine.audit.audit`) before and after every
action; the hands go in chunks, the variants taking turns, over local processes
or Ray (:mod:`umtali.lab.workers`).  Any violation makes the exit code 1.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import cast

from umtali.bots.seat import Decision, GameInfo
from umtali.engine.actions import Action
from umtali.engine.hand import Hand, deal_hand
from umtali.engine.rules import rules_named
from umtali.engine.view import PlayerView
from umtali.lab.benches._shared import VARIANTS, ray_option


def bench_soak(
    hands: int,
    seed: int,
    workers: int,
    variants: Sequence[str] = VARIANTS,
    ray: str | None = None,
) -> dict[str, object]:
    """Hands of random and bot play with every audit check after every action.

    The chunks of hands take the ``variants`` in turn; they run on ``workers``
    local processes, or on Ray (see :mod:`umtali.lab.workers`).
    """
    from umtali.lab.workers import run_jobs

    chunks = soak_plan(hands, seed, variants)
    start = time.perf_counter()
    totals = {"hands": 0, "actions": 0, "violations": 0}
    examples: list[str] = []
    done = run_jobs(soak_chunk, chunks, workers, ray)
    per_variant = dict.fromkeys(variants, 0)
    for (_, _, variant), (played, actions, problems) in zip(chunks, done, strict=True):
        per_variant[variant] += played
        totals["hands"] += played
        totals["actions"] += actions
        totals["violations"] += len(problems)
        examples += problems[: max(0, 5 - len(examples))]
    out: dict[str, object] = {"benchmark": "soak", **totals, "hands_by_variant": per_variant}
    out["seconds"] = round(time.perf_counter() - start, 1)
    out["examples"] = examples
    return out


SOAK_CHUNK = 250


def soak_plan(hands: int, seed: int, variants: Sequence[str]) -> list[tuple[int, int, str]]:
    """The soak's chunks: (first seed, hands, variant), the variants taking turns."""
    starts = range(0, hands, SOAK_CHUNK)
    return [
        (seed + i, min(SOAK_CHUNK, hands - i), variants[n % len(variants)])
        for n, i in enumerate(starts)
    ]


class _RandomSeat:
    """A seat that picks any legal action with the soak's own generator."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        return Decision(self._rng.choice(view.legal), "picked at random")

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player


def soak_chunk(first: int, count: int, rules: str = "classic") -> tuple[int, int, list[str]]:
    """Audit ``count`` hands from seed ``first``: random play, and normal vs easy bots."""
    from umtali.bots import EasyBot, NormalBot, Seat
    from umtali.bots.arena import Driver
    from umtali.engine.audit import audit

    rng = random.Random(first)
    problems: list[str] = []
    actions = 0
    random_seat = _RandomSeat(rng)
    for n in range(count):
        seed = first * 1000 + n
        rs = rules_named(rules)
        eleven = None if rs.up_card else 1 + (n // 2) % 2
        hand = deal_hand(seed=seed, dealer=1 + n % 2, eleven=eleven, rules=rs)
        seats: list[Seat] = (
            [NormalBot(), EasyBot(seed)] if n % 3 == 0 else [random_seat, random_seat]
        )

        def check(hand: Hand, player: int, action: Action, seed: int = seed) -> None:
            problems.extend(f"{rules} hand {seed}: {p}" for p in audit(hand, rng))

        driver = Driver(seats, [check])
        problems.extend(f"{rules} hand {seed}: {p}" for p in audit(hand, rng))
        while not hand.is_over and hand.turns <= hand.rules.turn_limit:
            driver.step(hand, GameInfo())
            actions += 1
        if not hand.is_over:
            problems.append(f"{rules} hand {seed}: did not end within its turn limit")
    return count, actions, problems


def options(soak: argparse.ArgumentParser) -> None:
    soak.add_argument("--hands", type=int, default=100_000, help="hands (default 100000)")
    soak.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    soak.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ray_option(soak)
    soak.add_argument(
        "--variant",
        choices=(*VARIANTS, "all"),
        default="all",
        help="rules to soak (default all: the presets take turns)",
    )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.hands < 1 or args.workers < 1:
        parser.error("--hands and --workers must be at least 1")
    variants = VARIANTS if args.variant == "all" else (args.variant,)
    soaked = bench_soak(args.hands, args.seed, args.workers, variants, args.ray)
    print(
        f"soak: {soaked['hands']} hands, {soaked['actions']} actions audited in "
        f"{soaked['seconds']} s: {soaked['violations']} violations"
    )
    for line in cast("list[str]", soaked["examples"]):
        print("  " + line)
    print(json.dumps(soaked))
    return 1 if soaked["violations"] else 0
