"""``umtali bench research`` and ``bench research-speed``: the research door, measured.

``research`` plays OpenSpiel's ISMCTS (our resampler, a stated number of
simulations a move) against one of our levels in duplicate matches
(:mod:`umtali.lab.research_match`): each match is one whole game (``scope=game``,
the default) or one hand (``scope=hand``) of the OpenSpiel game
(:mod:`umtali.research.openspiel_game`), played twice with the same chance
outcomes, the seats swapped, so the luck of the cards cancels.  A run of games is
summed up as ``bench bots`` sums one up (:func:`~umtali.lab.tournament.summarise`,
ISMCTS as A): the share of games won first, with its Wilson interval, then the
margin a hand and the match score; a run of hands as hands won, level and lost.
The matches can be spread over processes and kept in a record as they end, as
``bench bots`` does.

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
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umtali.bots.levels import names
from umtali.engine.rules import PRESETS

if TYPE_CHECKING:
    from umtali.lab.match_record import RunKey
    from umtali.lab.tournament import MatchResult

RESEARCH_HINT = "pip install 'umtali[research]' (in a clone: pip install -e '.[research]')"


def _missing(*modules: str) -> str | None:
    import importlib.util

    gone = [m for m in modules if importlib.util.find_spec(m) is None]
    if gone:
        return f"{' and '.join(gone)} not installed: {RESEARCH_HINT}"
    return None


def bench_research(
    matches: int,
    simulations: int,
    level: str,
    variant: str,
    seed: int,
    scope: str = "game",
    workers: int = 1,
    record: Path | None = None,
    done: Callable[[MatchResult], None] | None = None,
) -> dict[str, Any]:
    """ISMCTS against ``level`` in ``matches`` duplicate matches of ``scope`` (see
    :mod:`umtali.lab.research_match`), over ``workers`` processes; ``done`` is told
    each match as it ends.  With ``record`` each match is kept in that file as it
    ends, and the matches already there are not played again."""
    from umtali.lab.match_record import append, open_record
    from umtali.lab.research_match import play_research_match
    from umtali.lab.workers import run_jobs

    kept: dict[int, MatchResult] = {}
    if record is not None:
        kept = {
            i: r
            for i, r in open_record(
                record, _run_key(simulations, level, variant, seed, scope)
            ).items()
            if i < matches
        }

    def finished(result: MatchResult) -> None:
        if record is not None:
            append(record, result)
        if done is not None:
            done(result)

    jobs = [(i, seed, simulations, level, variant, scope) for i in range(matches) if i not in kept]
    played = run_jobs(play_research_match, jobs, workers, done=finished)
    results = sorted([*kept.values(), *played], key=lambda r: r.index)
    out = _games(results, simulations, level) if scope == "game" else _hands(results)
    head: dict[str, Any] = {
        "benchmark": "research",
        "variant": variant,
        "scope": scope,
        "ismcts_simulations": simulations,
        "level": level,
        "seed": seed,
    }
    if record is not None:
        head["resumed"] = len(kept)
    return {**head, **out}


def _run_key(simulations: int, level: str, variant: str, seed: int, scope: str) -> RunKey:
    """A research run's key in a match record: its options.  (``bench bots`` also
    keys on a fingerprint of the bots' play, which would cost ISMCTS a hand's search;
    here the fingerprint only names the scope.)"""
    from umtali.lab.match_record import RunKey

    return RunKey(_searcher(simulations), level, variant, seed, f"research, scope {scope}")


def _searcher(simulations: int) -> str:
    return f"ismcts-{simulations}"


def _games(results: list[MatchResult], simulations: int, level: str) -> dict[str, Any]:
    """A run of whole games, as ``bench bots`` sums one up: the share of games won
    first, the margin a hand, the match score, each side's ms a move."""
    from umtali.lab.tournament import summarise

    summary = summarise(_searcher(simulations), level, results, 0)
    del summary["benchmark"], summary["bank_version"]
    summary["ismcts_ms_per_move"] = summary.pop("a_latency_ms")
    summary["level_ms_per_move"] = summary.pop("b_latency_ms")
    return summary


def _hands(results: list[MatchResult]) -> dict[str, Any]:
    """A run of hands, summed up as ``bench research`` always has: hands won, level
    and lost, the margin a hand, ms a move."""
    from umtali.lab.tournament import percentile

    hands = sum(r.hands for r in results)
    wins = sum(r.games_won[0] for r in results)
    losses = sum(r.games_won[1] for r in results)
    draws = hands - wins - losses
    thought = [x for r in results for x in r.latency[0]]
    return {
        "deals": len(results),
        "hands": hands,
        "ismcts_wins": wins,
        "draws": draws,
        "ismcts_losses": losses,
        "ismcts_share": round((wins + draws / 2) / hands, 3),
        "mean_margin": round(sum(r.margin for r in results) / hands, 2),
        "ismcts_ms_per_move": {
            "p50": round(1000 * percentile(thought, 0.5), 1),
            "p95": round(1000 * percentile(thought, 0.95), 1),
        },
    }


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


def research_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scope",
        choices=("game", "hand"),
        default="game",
        help="what a match plays twice: a whole game (the default) or one hand",
    )
    parser.add_argument(
        "--matches",
        "--deals",
        dest="matches",
        type=int,
        default=10,
        help="duplicate matches, each one game (or hand) played twice, the seats swapped (10)",
    )
    parser.add_argument(
        "--simulations", type=int, default=200, help="ISMCTS simulations a move (200)"
    )
    parser.add_argument("--level", choices=names(), default="normal", help="opponent (normal)")
    parser.add_argument("--variant", choices=tuple(PRESETS), default="classic")
    parser.add_argument("--seed", type=int, default=1, help="first match's seed (1)")
    parser.add_argument("--workers", type=int, default=1, help="processes (1)")
    from umtali.lab.match_record import record_option

    record_option(parser, "; the same options, the same code")


def run_research(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    missing = _missing("pyspiel", "pettingzoo")
    if missing:
        print(f"umtali bench research: {missing}")
        return 2
    if args.matches < 1 or args.simulations < 1 or args.workers < 1:
        parser.error("--matches, --simulations and --workers must be at least 1")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from umtali.lab.match_record import RecordError, stopped, went_on

    # The bar goes to stderr: stdout is the figures, the last line one JSON object.
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    ) as progress:
        task = progress.add_task(
            f"ismcts-{args.simulations} vs {args.level} ({args.variant}, {args.scope})",
            total=args.matches,
        )
        try:
            result = bench_research(
                args.matches,
                args.simulations,
                args.level,
                args.variant,
                args.seed,
                args.scope,
                args.workers,
                args.record,
                lambda _: progress.advance(task),
            )
        except RecordError as err:
            print(f"umtali bench research: {err}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return stopped(args.record)
    went_on(result, args.record)
    if args.scope == "game":
        _print_games(result)
    else:
        _print_hands(result)
    print(json.dumps(result))
    return 0


def _print_games(result: dict[str, Any]) -> None:
    from umtali.lab.tournament import headline

    matches = result["matches"]
    print(headline(result))
    print(
        f"  ISMCTS at {result['ismcts_simulations']} simulations a move, {matches} duplicate "
        f"{'match' if matches == 1 else 'matches'} of whole games, {result['hands']} hands "
        f"(95% Wilson intervals); ms a move: ISMCTS {_ms(result['ismcts_ms_per_move'])}, "
        f"{result['level']} {_ms(result['level_ms_per_move'])}"
    )


def _ms(latency: dict[str, float]) -> str:
    return f"{latency['p50']:.1f} (p95 {latency['p95']:.1f})"


def _print_hands(result: dict[str, Any]) -> None:
    ms = result["ismcts_ms_per_move"]
    print(
        f"ISMCTS ({result['ismcts_simulations']} simulations a move) against "
        f"{result['level']}, {result['hands']} hands of {result['variant']} in duplicate: "
        f"{result['ismcts_wins']} won, {result['draws']} level, "
        f"{result['ismcts_losses']} lost; mean margin {result['mean_margin']:+} points; "
        f"{_ms(ms)} ms a move"
    )


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
    for name in ENGINES:
        figures = result[name]
        print(
            f"{name:21} {figures['actions_per_s']:>9,} actions/s "
            f"{figures['hands_per_s']:>8,} hands/s"
        )
    print(json.dumps(result))
    return 0


__all__ = [
    "ENGINES",
    "bench_research",
    "research_options",
    "research_speed",
    "run_research",
    "run_speed",
    "speed_options",
]
