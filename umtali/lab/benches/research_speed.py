"""``umtali bench research-speed``: random play through our OpenSpiel game and
PettingZoo env against gin rummy's.

It times random play through our OpenSpiel game and our
PettingZoo environment against OpenSpiel's ``gin_rummy`` and RLCard's gin rummy,
each through its own Python API, the five taking turns in short slices so a slow
spell on a shared machine falls on all of them.  RLCard is timed twice: its game
object (legal actions and a step, no observation) and its RL environment, whose step
also makes the next observation and legal actions, as our PettingZoo env's step and
``last()`` do: that is the like-for-like row for the env.  Every applied action
counts, chance's included; in the PettingZoo env chance acts inside ``step``, so only
the agents' steps count there.  Ours are timed one hand an episode (``scope=hand``),
as the gin rummies' episodes are one hand; a whole game steps the same hands.

Needs the ``research`` and ``bench`` extras.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from umtali.engine.rules import PRESETS
from umtali.lab.benches.research import missing_modules


def _our_openspiel(variant: str) -> Callable[[float, int], tuple[int, int, float]]:
    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        from umtali.lab.compare import random_episodes
        from umtali.research.openspiel_game import load

        return random_episodes(load(variant, scope="hand"), seconds, seed)

    return run


def _our_pettingzoo(variant: str) -> Callable[[float, int], tuple[int, int, float]]:
    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        import numpy as np

        from umtali.research import umtali_v0

        env = umtali_v0.env(variant=variant, scope="hand")
        pick = random.Random(seed).random
        env.reset(seed=seed)
        hands = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.reset()
            for _agent in env.agent_iter():
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[int(pick() * len(legal))]))
                actions += 1
            hands += 1
        return hands, actions, time.perf_counter() - start

    return run


#: The engines research-speed times, in the order it reports them.
ENGINES = (
    "umtali_openspiel",
    "umtali_pettingzoo",
    "openspiel_gin_rummy",
    "rlcard_gin_rummy",
    "rlcard_gin_rummy_env",
)


def research_speed(seconds: float, seed: int, variant: str, rounds: int = 4) -> dict[str, Any]:
    """Actions and hands per second of the five engines, taking turns ``rounds`` times."""
    from umtali.lab.compare import openspiel_gin, rlcard_gin, rlcard_gin_env

    runs: tuple[Callable[[float, int], tuple[int, int, float]], ...] = (
        _our_openspiel(variant),
        _our_pettingzoo(variant),
        openspiel_gin,
        rlcard_gin,
        rlcard_gin_env,
    )
    engines = dict(zip(ENGINES, runs, strict=True))
    totals = dict.fromkeys(engines, (0, 0, 0.0))
    for n in range(rounds):
        for name, run in engines.items():
            got = run(seconds / rounds, seed + n)
            before = totals[name]
            totals[name] = (before[0] + got[0], before[1] + got[1], before[2] + got[2])
    out: dict[str, Any] = {"variant": variant, "scope": "hand", "seconds_each": seconds}
    for name, (hands, actions, elapsed) in totals.items():
        out[name] = {
            "actions_per_s": round(actions / elapsed),
            "hands_per_s": round(hands / elapsed, 1),
        }
    return out


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seconds", type=float, default=8.0, help="seconds for each engine, in all (8)"
    )
    parser.add_argument("--variant", choices=tuple(PRESETS), default="classic")
    parser.add_argument("--seed", type=int, default=1)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    missing = missing_modules("pyspiel", "pettingzoo", "rlcard")
    if missing:
        print(f"umtali bench research-speed: {missing} (and umtali[bench] for rlcard)")
        return 2
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    result = research_speed(args.seconds, args.seed, args.variant)
    for name in ENGINES:
        figures = result[name]
        print(
            f"{name:21} {figures['actions_per_s']:>9,} actions/s "
            f"{figures['hands_per_s']:>8,} hands/s"
        )
    print(json.dumps(result))
    return 0


__all__ = ["ENGINES", "options", "research_speed", "run"]
