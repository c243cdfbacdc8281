"""``umtali bench research`` and ``bench research-speed``: the research door, measured.

``research`` plays OpenSpiel's ISMCTS (our resampler, a stated number of
simulations a move) against one of our levels in duplicate: each deal is played
twice with the same cards in the same order, the seats swapped, so the luck of
the deal cancels.  A hand is the OpenSpiel game's episode (``scope=hand``; see
:mod:`umtali.research.openspiel_game`).

``research-speed`` times random play through our OpenSpiel game and our
PettingZoo environment against OpenSpiel's ``gin_rummy`` and RLCard's gin rummy,
each through its own Python API, the five taking turns in short slices so a slow
spell on a shared machine falls on all of them.  RLCard is timed twice: its game
object (legal actions and a step, no observation) and its RL environment, whose step
also makes the next observation and legal actions, as our PettingZoo env's step and
``last()`` do: that is the like-for-like row for the env.  Every applied action
counts, chance's included; in the PettingZoo env chance acts inside ``step``, so only
the agents' steps count there.  Ours are timed one hand an episode (``scope=hand``),
as the gin rummies' episodes are one hand; a whole game steps the same hands.

Both need the ``research`` extra (and ``research-speed`` the ``bench`` extra too).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from umtali.bots.levels import names
from umtali.engine.rules import PRESETS

RESEARCH_HINT = "pip install 'umtali[research]' (in a clone: pip install -e '.[research]')"


def _missing(*modules: str) -> str | None:
    import importlib.util

    gone = [m for m in modules if importlib.util.find_spec(m) is None]
    if gone:
        return f"{' and '.join(gone)} not installed: {RESEARCH_HINT}"
    return None


def bench_research(
    deals: int, simulations: int, level: str, variant: str, seed: int
) -> dict[str, Any]:
    """ISMCTS against ``level`` over ``deals`` deals, each played with both seatings."""
    from umtali.research.openspiel_bots import LevelBot, ismcts_bot
    from umtali.research.openspiel_game import load

    game = load(variant, scope="hand")  # a deal played twice is one hand
    wins = draws = losses = 0
    margin = 0.0
    moves = 0
    thought = 0.0
    for deal in range(deals):
        order = list(range(52))
        random.Random(seed + deal).shuffle(order)
        for searcher in (0, 1):
            search = ismcts_bot(game, simulations, seed=seed + deal)
            players: list[Any] = [search, LevelBot(level, seed + deal)]
            if searcher:
                players.reverse()
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    # The deck's order decides: the same cards come in both plays.
                    left = {a for a, _ in state.chance_outcomes()}
                    state.apply_action(next(c for c in order if c in left))
                    continue
                mover = state.current_player()
                start = time.perf_counter()
                state.apply_action(players[mover].step(state))
                if mover == searcher:
                    thought += time.perf_counter() - start
                    moves += 1
            result = state.returns()[searcher]
            wins += result > 0
            draws += result == 0
            losses += result < 0
            points = state.episode.returns(margin=True)
            margin += points[searcher]
    hands = 2 * deals
    return {
        "variant": variant,
        "scope": "hand",
        "ismcts_simulations": simulations,
        "level": level,
        "deals": deals,
        "hands": hands,
        "ismcts_wins": wins,
        "draws": draws,
        "ismcts_losses": losses,
        "ismcts_share": round((wins + draws / 2) / hands, 3),
        "mean_margin": round(margin / hands, 2),
        "ismcts_ms_per_move": round(1000 * thought / max(moves, 1), 1),
    }


def _our_openspiel(variant: str) -> Callable[[float, int], tuple[int, int, float]]:
    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        from umtali.research.openspiel_game import load

        game = load(variant, scope="hand")
        pick = random.Random(seed).random
        hands = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(pick() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(pick() * len(legal))])
                actions += 1
            hands += 1
        return hands, actions, time.perf_counter() - start

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


def research_speed(seconds: float, seed: int, variant: str, rounds: int = 4) -> dict[str, Any]:
    """Actions and hands per second of the five engines, taking turns ``rounds`` times."""
    from umtali.lab.compare import openspiel_gin, rlcard_gin, rlcard_gin_env

    engines: dict[str, Callable[[float, int], tuple[int, int, float]]] = {
        "umtali_openspiel": _our_openspiel(variant),
        "umtali_pettingzoo": _our_pettingzoo(variant),
        "openspiel_gin_rummy": openspiel_gin,
        "rlcard_gin_rummy": rlcard_gin,
        "rlcard_gin_rummy_env": rlcard_gin_env,
    }
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


def research_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=int, default=10, help="deals, each played twice (10)")
    parser.add_argument(
        "--simulations", type=int, default=200, help="ISMCTS simulations a move (200)"
    )
    parser.add_argument("--level", choices=names(), default="normal", help="opponent (normal)")
    parser.add_argument("--variant", choices=tuple(PRESETS), default="classic")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed (1)")


def run_research(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    missing = _missing("pyspiel", "pettingzoo")
    if missing:
        print(f"umtali bench research: {missing}")
        return 2
    if args.deals < 1 or args.simulations < 1:
        parser.error("--deals and --simulations must be at least 1")
    result = bench_research(args.deals, args.simulations, args.level, args.variant, args.seed)
    print(
        f"ISMCTS ({args.simulations} simulations a move) against {args.level}, "
        f"{result['hands']} hands of {args.variant} in duplicate: "
        f"{result['ismcts_wins']} won, {result['draws']} level, {result['ismcts_losses']} lost; "
        f"mean margin {result['mean_margin']:+} points; "
        f"{result['ismcts_ms_per_move']} ms a move"
    )
    print(json.dumps(result))
    return 0


def speed_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seconds", type=float, default=8.0, help="seconds for each engine, in all (8)"
    )
    parser.add_argument("--variant", choices=tuple(PRESETS), default="classic")
    parser.add_argument("--seed", type=int, default=1)


def run_speed(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    missing = _missing("pyspiel", "pettingzoo", "rlcard")
    if missing:
        print(f"umtali bench research-speed: {missing} (and umtali[bench] for rlcard)")
        return 2
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    result = research_speed(args.seconds, args.seed, args.variant)
    for name in (
        "umtali_openspiel",
        "umtali_pettingzoo",
        "openspiel_gin_rummy",
        "rlcard_gin_rummy",
        "rlcard_gin_rummy_env",
    ):
        figures = result[name]
        print(
            f"{name:21} {figures['actions_per_s']:>9,} actions/s "
            f"{figures['hands_per_s']:>8,} hands/s"
        )
    print(json.dumps(result))
    return 0


__all__ = [
    "bench_research",
    "research_options",
    "research_speed",
    "run_research",
    "run_speed",
    "speed_options",
]
