"""``umtali bench engine``: how fast the engine plays, and what its primitives cost.

It plays seeded random hands on one core through the int-level API a search bot
uses (``legal_moves`` / ``apply_move``), then times the three primitives a search
leans on.  With ``--compare`` it also times OpenSpiel's and RLCard's gin rummy in
the same run, the engines taking turns (:mod:`umtali.lab.compare`).  Figures go to
the terminal, and the last line is one JSON object for scripts to collect.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import cast

from umtali.engine.hand import deal_hand
from umtali.engine.rules import RuleSet, rules_named
from umtali.engine.state import OVER, HandState
from umtali.lab.benches._shared import VARIANTS


def random_hands(count: int, seed: int, rules: str | RuleSet = "classic") -> tuple[int, float]:
    """Play ``count`` random hands; returns (actions played, seconds)."""
    rng = random.Random(seed)
    pick = rng.random  # the same cheap choice in every engine's loop
    actions = 0
    rs = rules_named(rules)
    start = time.perf_counter()
    for n in range(count):
        state = deal_hand(seed=seed + n, rules=rs).state()  # a search plays on a copy
        while state.phase != OVER:
            moves = state.legal_moves()
            state.apply_move(moves[int(pick() * len(moves))])
            actions += 1
    return actions, time.perf_counter() - start


def sample_states(count: int, seed: int, rules: str | RuleSet = "classic") -> list[HandState]:
    """Mid-hand states (machines, as a search holds them) met in random play, for timing
    the primitives."""
    rng = random.Random(seed)
    pick = rng.random  # the same cheap choice in every engine's loop
    states: list[HandState] = []
    rs = rules_named(rules)
    n = 0
    while len(states) < count:
        hand = deal_hand(seed=seed + n, rules=rs).state()
        n += 1
        while hand.phase != OVER:
            if rng.random() < 0.1:
                states.append(hand.clone())
            moves = hand.legal_moves()
            hand.apply_move(moves[int(pick() * len(moves))])
    return states[:count]


def _per_call_us(fn: Callable[[HandState], object], states: list[HandState], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


def primitives(
    seed: int, states: int = 2000, repeat: int = 5, rules: str = "classic"
) -> dict[str, float]:
    """Mean microseconds for legal_moves, apply_move (on a clone) and clone."""
    sample = sample_states(states, seed, rules)
    firsts = [s.legal_moves()[0] for s in sample]
    clones = [s.clone() for s in sample for _ in range(repeat)]
    clone_us = _per_call_us(lambda s: s.clone(), sample, repeat)
    legal_us = _per_call_us(lambda s: s.legal_moves(), sample, repeat)
    start = time.perf_counter()
    for i, c in enumerate(clones):
        c.apply_move(firsts[i // repeat])
    apply_us = (time.perf_counter() - start) / len(clones) * 1e6
    return {"legal_moves_us": legal_us, "apply_us": apply_us, "clone_us": clone_us}


def bench_engine(hands: int, seed: int, rules: str = "classic") -> dict[str, object]:
    random_hands(min(200, hands), seed + 10**6, rules)  # warm caches and the allocator
    actions, seconds = random_hands(hands, seed, rules)
    figures: dict[str, object] = {
        "benchmark": "engine",
        "variant": rules,
        "hands": hands,
        "seed": seed,
        "seconds": round(seconds, 3),
        "hands_per_s": round(hands / seconds, 1),
        "actions_per_s": round(actions / seconds, 1),
        "actions_per_hand": round(actions / hands, 2),
    }
    figures.update({k: round(v, 3) for k, v in primitives(seed, rules=rules).items()})
    figures["python"] = platform.python_version()
    return figures


def random_for(seconds: float, seed: int) -> tuple[int, int, float]:
    """(hands, actions, elapsed) of classic random hands for about ``seconds``,
    in the loop the other engines are timed with (:mod:`umtali.lab.compare`)."""
    actions = hands = 0
    rng = random.Random(seed)
    pick = rng.random  # the same cheap choice in every engine's loop
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = deal_hand(seed=seed + hands).state()
        while state.phase != OVER:
            moves = state.legal_moves()
            state.apply_move(moves[int(pick() * len(moves))])
            actions += 1
        hands += 1
    return hands, actions, time.perf_counter() - start


#: The comparison runs the engines in turns, this many slices each.

COMPARE_ROUNDS = 8


def bench_compare(seconds: float, seed: int, rounds: int = COMPARE_ROUNDS) -> dict[str, object]:
    """Umtali, OpenSpiel gin_rummy and RLCard gin rummy random playouts, in turns.

    Each engine plays ``seconds`` in all, in ``rounds`` slices taken in turn
    (Umtali, OpenSpiel, RLCard, Umtali, ...), so that a slow spell on a shared
    machine falls on all three alike.  The ratios are of the totals; the
    spread of the per-round ratios is reported with them.
    """
    from umtali.lab import compare

    engines = {
        "umtali": random_for,
        "openspiel_gin": compare.openspiel_gin,
        "rlcard_gin": compare.rlcard_gin,
    }
    totals = {name: [0.0, 0.0, 0.0] for name in engines}  # hands, actions, seconds
    per_action: list[float] = []
    per_hand: list[float] = []
    for r in range(rounds):
        rates = {}
        for name, play in engines.items():
            hands, actions, elapsed = play(seconds / rounds, seed + 1_000_000 * r)
            total = totals[name]
            total[0] += hands
            total[1] += actions
            total[2] += elapsed
            rates[name] = (hands / elapsed, actions / elapsed)
        per_action.append(rates["umtali"][1] / rates["openspiel_gin"][1])
        per_hand.append(rates["umtali"][0] / rates["rlcard_gin"][0])
    figures: dict[str, float] = {}
    for name, (played, acted, took) in totals.items():
        figures[f"{name}_hands_per_s"] = played / took
        figures[f"{name}_actions_per_s"] = acted / took
    out: dict[str, object] = {k: round(v, 1) for k, v in figures.items()}
    out["actions_ratio_vs_openspiel"] = round(
        figures["umtali_actions_per_s"] / figures["openspiel_gin_actions_per_s"], 2
    )
    out["hands_ratio_vs_rlcard"] = round(
        figures["umtali_hands_per_s"] / figures["rlcard_gin_hands_per_s"], 1
    )
    out["actions_ratio_vs_openspiel_rounds"] = [
        round(min(per_action), 2),
        round(max(per_action), 2),
    ]
    out["hands_ratio_vs_rlcard_rounds"] = [round(min(per_hand), 1), round(max(per_hand), 1)]
    out["seconds_each"] = seconds
    out["rounds"] = rounds
    return out


def options(eng: argparse.ArgumentParser) -> None:
    eng.add_argument("--hands", type=int, default=5000, help="hands to play (default 5000)")
    eng.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")
    eng.add_argument(
        "--compare",
        action="store_true",
        help="also time OpenSpiel's and RLCard's gin rummy in the same run (needs [bench])",
    )
    eng.add_argument(
        "--seconds", type=float, default=10.0, help="seconds per engine with --compare (10)"
    )
    eng.add_argument("--variant", choices=VARIANTS, default="classic", help="rules (classic)")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.compare:
        from umtali.lab import compare

        missing = compare.available()
        if missing is not None:
            print(f"umtali bench engine --compare: {missing}", file=sys.stderr)
            return 2
    if args.compare and args.variant != "classic":
        parser.error("--compare times classic Umtali against gin rummy: leave out --variant")
    figures = bench_engine(args.hands, args.seed, args.variant)
    if args.compare:
        figures.update(bench_compare(args.seconds, args.seed))
    print(
        f"engine ({args.variant}): {figures['hands']} random hands in {figures['seconds']} s "
        "on one core"
    )
    print(f"  {figures['hands_per_s']} hands/s, {figures['actions_per_s']} actions/s")
    print(
        f"  legal_moves {figures['legal_moves_us']} us, apply {figures['apply_us']} us, "
        f"clone {figures['clone_us']} us"
    )
    if args.compare:
        _print_comparison(figures)
    print(json.dumps(figures))
    return 0


def _print_comparison(figures: dict[str, object]) -> None:
    print(
        f"  same run, {figures['seconds_each']} s each in {figures['rounds']} turns: Umtali "
        f"{figures['umtali_actions_per_s']} actions/s, {figures['umtali_hands_per_s']} hands/s"
    )
    print(
        f"  OpenSpiel gin_rummy {figures['openspiel_gin_actions_per_s']} actions/s, "
        f"{figures['openspiel_gin_hands_per_s']} hands/s "
        f"(Umtali x{figures['actions_ratio_vs_openspiel']} in actions/s; "
        f"{_spread(figures['actions_ratio_vs_openspiel_rounds'])} by round)"
    )
    print(
        f"  RLCard gin rummy {figures['rlcard_gin_actions_per_s']} actions/s, "
        f"{figures['rlcard_gin_hands_per_s']} hands/s "
        f"(Umtali x{figures['hands_ratio_vs_rlcard']} in hands/s; "
        f"{_spread(figures['hands_ratio_vs_rlcard_rounds'])} by round)"
    )


def _spread(low_high: object) -> str:
    low, high = cast(Sequence[float], low_high)
    return f"x{low}-x{high}"
