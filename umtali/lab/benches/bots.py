"""``umtali bench bots``: duplicate matches between two bot levels.

The matches (:mod:`umtali.lab.tournament`) spread over local processes or Ray,
with a progress bar; with ``--record`` each is kept as it ends, and a run that
stopped goes on where it left off (:mod:`umtali.lab.match_record`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from umtali.lab.benches._shared import VARIANTS, ray_option
from umtali.lab.match_record import record_option


def bench_bots(
    a: str,
    b: str,
    matches: int,
    workers: int,
    version: int,
    rules: str = "classic",
    ray: str | None = None,
    record: Path | None = None,
) -> dict[str, object]:
    """Duplicate matches between two levels, spread over processes (or Ray), with a
    progress bar.  With ``record`` each match is kept in that file as it ends, and
    the matches already there are not played again (see
    :mod:`umtali.lab.match_record`)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from umtali.lab.match_record import RunKey, append, open_record
    from umtali.lab.tournament import MatchResult, decision_print, play_match, summarise
    from umtali.lab.workers import run_jobs

    kept: dict[int, MatchResult] = {}
    if record is not None:
        key = RunKey(a, b, rules, version, decision_print(a, b, version, rules))
        kept = {i: r for i, r in open_record(record, key).items() if i < matches}

    def finished(result: MatchResult) -> None:
        if record is not None:
            append(record, result)
        progress.advance(task)

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=False,
    ) as progress:
        task = progress.add_task(f"{a} vs {b} ({rules})", total=matches, completed=len(kept))
        jobs = [(a, b, i, version, rules) for i in range(matches) if i not in kept]
        played = run_jobs(play_match, jobs, workers, ray, finished)
    results = sorted([*kept.values(), *played], key=lambda r: r.index)
    summary = summarise(a, b, results, version)
    summary["variant"] = rules
    if record is not None:
        summary["resumed"] = len(kept)
    return summary


def options(bots: argparse.ArgumentParser) -> None:
    from umtali.lab.tournament import BANK_VERSION, lab_levels

    bots.add_argument("--a", choices=lab_levels(), default="hard", help="bot A (default hard)")
    bots.add_argument("--b", choices=lab_levels(), default="normal", help="bot B (default normal)")
    bots.add_argument("--matches", type=int, default=100, help="matches (default 100)")
    bots.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ray_option(bots)
    bots.add_argument(
        "--bank", type=int, default=BANK_VERSION, help=f"deal bank version ({BANK_VERSION})"
    )
    bots.add_argument("--variant", choices=VARIANTS, default="classic", help="rules (classic)")
    record_option(bots)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.matches < 1 or args.workers < 1:
        parser.error("--matches and --workers must be at least 1")
    from umtali.lab.match_record import RecordError, stopped, went_on
    from umtali.lab.tournament import headline

    try:
        result = bench_bots(
            args.a,
            args.b,
            args.matches,
            args.workers,
            args.bank,
            args.variant,
            args.ray,
            args.record,
        )
    except RecordError as err:
        print(f"umtali bench: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return stopped(args.record)
    went_on(result, args.record)
    print(headline(result))
    print(
        f"  over {args.matches} duplicate matches (95% intervals); points per hand "
        f"{args.a} {result['a_points_per_hand']}, {args.b} {result['b_points_per_hand']} "
        f"(margin {result['margin_per_hand']:+})"
    )
    print(f"  decision latency (ms): {args.a} {result['a_latency_ms']}")
    print(f"                         {args.b} {result['b_latency_ms']}")
    print(json.dumps(result))
    return 0
