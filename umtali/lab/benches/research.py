"""``umtali bench research``: OpenSpiel's ISMCTS against a bot level, in duplicate.

It plays OpenSpiel's ISMCTS (our resampler, a stated number of
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

Needs the ``research`` extra; :func:`missing_modules` says what is not installed (and
``bench research-speed``, :mod:`umtali.lab.benches.research_speed`, asks it too).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umtali.bots.levels import names
from umtali.engine.rules import PRESETS

if TYPE_CHECKING:
    from umtali.lab.match_record import RunKey
    from umtali.lab.tournament import MatchResult

RESEARCH_HINT = "pip install 'umtali[research]' (in a clone: pip install -e '.[research]')"


def missing_modules(*modules: str) -> str | None:
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


def options(parser: argparse.ArgumentParser) -> None:
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


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    missing = missing_modules("pyspiel", "pettingzoo")
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


__all__ = ["RESEARCH_HINT", "bench_research", "missing_modules", "options", "run"]
