"""Benchmarks: ``python -m umtali.lab.bench engine`` (also ``umtali bench engine``).

The engine benchmark plays seeded random hands on one core through the
int-level API a search bot uses (``legal_moves`` / ``apply_move``), then
times the three primitives a search leans on.  Figures go to the terminal,
and the last line is one JSON object for scripts to collect.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from umtali.bots.seat import Decision, GameInfo
from umtali.engine.actions import Action
from umtali.engine.hand import Hand, deal_hand
from umtali.engine.rules import PRESETS, RuleSet, rules_named
from umtali.engine.state import OVER, HandState
from umtali.engine.view import PlayerView
from umtali.lab import reading_bench, research_bench, search_noise
from umtali.lab.equity_fit import equity_options, run_equity
from umtali.lab.match_record import record_option

VARIANTS = tuple(PRESETS)


def random_hands(count: int, seed: int, rules: str | RuleSet = "classic") -> tuple[int, float]:
    """Play ``count`` random hands; returns (actions played, seconds)."""
    rng = random.Random(seed)
    pick = rng.random  # the same cheap choice in every engine's loop
    actions = 0
    rs = rules_named(rules)
    start = time.perf_counter()
    for n in range(count):
        state = deal_hand(seed=seed + n, rules=rs).machine  # a search plays on the machine
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
        hand = deal_hand(seed=seed + n, rules=rs).machine
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
        state = deal_hand(seed=seed + hands).machine
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


def _fuzz_one(job: tuple[int, int, str, bool]) -> dict[str, Any]:
    from umtali.lab.fuzzing import fuzz_game

    seed, per_prompt, variant, app = job
    report = fuzz_game(seed, per_prompt, variant, app)
    return {
        "lines": report.lines,
        "prompts": report.prompts,
        "crashes": report.crashes,
        "hangs": report.hangs,
        "nudges": report.nudges,
        "escapes": report.escapes,
        "slowest_line_s": report.slowest_line_s,
    }


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


def bench_fuzz(
    games: int, seed: int, per_prompt: int, workers: int, app: bool = False
) -> dict[str, Any]:
    """Fuzzed games (:mod:`umtali.lab.fuzzing`) on ``workers`` processes, the variants in
    turn, on the line-by-line screen or (``app``) in the full-screen application."""
    from umtali.lab.workers import run_jobs

    start = time.perf_counter()
    jobs = [((seed + n, per_prompt, VARIANTS[n % len(VARIANTS)], app),) for n in range(games)]
    results = run_jobs(_fuzz_one, jobs, workers)
    return {
        "benchmark": "fuzz",
        "screen": "app" if app else "plain",
        "games": games,
        "lines": sum(r["lines"] for r in results),
        "prompts": sum(r["prompts"] for r in results),
        "crashes": [c for r in results for c in r["crashes"]],
        "hangs": sum(r["hangs"] for r in results),
        "nudges": sum(r["nudges"] for r in results),
        "escapes": sum(r["escapes"] for r in results),
        "slowest_line_s": round(max(r["slowest_line_s"] for r in results), 3),
        "seconds": round(time.perf_counter() - start, 1),
    }


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


def bench_ladder(
    levels: Sequence[str],
    matches: int,
    workers: int,
    version: int,
    rules: str = "classic",
    ray: str | None = None,
) -> dict[str, Any]:
    """A round robin of duplicate matches between ``levels``, and a rating for each from
    the games won."""
    from umtali.lab.ladder import fit, intervals, pairs
    from umtali.lab.tournament import MatchResult, play_match, summarise
    from umtali.lab.workers import run_jobs

    jobs = [(a, b, i) for a, b in pairs(levels) for i in range(matches)]
    done = run_jobs(play_match, [(a, b, i, version, rules) for a, b, i in jobs], workers, ray)
    by_pair: dict[tuple[str, str], list[MatchResult]] = {}
    for (a, b, _), result in zip(jobs, done, strict=True):
        by_pair.setdefault((a, b), []).append(result)
    # Rated on games won, as a player is: each match's share of its two games, so the
    # bootstrap resamples whole matches (its two games share their deals).
    scores = {pair: [r.game_share for r in results] for pair, results in by_pair.items()}
    ratings = fit(levels, scores)
    spread = intervals(levels, scores, random.Random(version))
    table = {f"{a} v {b}": summarise(a, b, results, version) for (a, b), results in by_pair.items()}
    return {
        "benchmark": "ladder",
        "variant": rules,
        "bank_version": version,
        "matches_per_pair": matches,
        "ratings": {x: round(ratings[x]) for x in levels},
        "rating95": {x: [round(spread[x][0]), round(spread[x][1])] for x in levels},
        "pairs": table,
    }


def ladder_text(result: dict[str, Any]) -> str:
    """The ladder as Markdown tables: each pair's share of games won (a game left level
    at the cap on hands a half), its margin and its match score; then the ratings, which
    are fitted to the games won."""
    lines = [
        f"| {result['variant']} | games | first won (95% interval) | margin per hand "
        "| matches won (95% interval) |",
        "|---|---|---|---|---|",
    ]
    for name, pair in result["pairs"].items():
        lines.append(
            f"| {name} | {pair['games']} | {_percent(pair['a_game_win_rate'])} "
            f"({_percents(pair['game_wilson95'])}) | {pair['margin_per_hand']:+.1f} | "
            f"{_percent(pair['a_match_win_rate'])} ({_percents(pair['wilson95'])}) |"
        )
    undecided = sum(pair["games_undecided"] for pair in result["pairs"].values())
    if undecided:
        lines += ["", f"{undecided} games were level at the cap on hands: each counts a half."]
    lines += ["", "| level | rating (Elo points, normal = 0) | 95% interval |", "|---|---|---|"]
    for level, rating in sorted(result["ratings"].items(), key=lambda kv: kv[1]):
        low, high = result["rating95"][level]
        spread = "(the anchor)" if low == high == rating else f"{low:+d} to {high:+d}"
        lines.append(f"| {level} | {rating:+d} | {spread} |")
    return "\n".join(lines)


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def _percents(interval: Sequence[float]) -> str:
    low, high = interval
    return f"{100 * low:.0f}–{100 * high:.0f}%"


def _ray_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run on a Ray cluster (needs [cluster]); without ADDRESS, one on this machine",
    )


def main(argv: Sequence[str] | None = None) -> int:
    from umtali.lab.workers import ClusterError

    try:
        return _main(argv)
    except ClusterError as err:
        print(f"umtali bench: {err}", file=sys.stderr)
        return 2


#: A bench command's run: the parsed arguments and the parser (whose ``error`` refuses
#: nonsense with the usage, exit code 2) to the exit code.
Run = Callable[[argparse.Namespace, argparse.ArgumentParser], int]


@dataclass(frozen=True, slots=True)
class BenchCommand:
    """One ``umtali bench`` command: its name and help, its options, and its run."""

    name: str
    help: str
    options: Callable[[argparse.ArgumentParser], None]
    run: Run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umtali bench", description="Measure the Umtali engine and bots."
    )
    sub = parser.add_subparsers(dest="what", required=True)
    for command in BENCH_COMMANDS:
        command.options(sub.add_parser(command.name, help=command.help))
    return parser


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = next(c.run for c in BENCH_COMMANDS if c.name == args.what)
    return run(args, parser)


def _engine_options(eng: argparse.ArgumentParser) -> None:
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


def _engine(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
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


def _soak_options(soak: argparse.ArgumentParser) -> None:
    soak.add_argument("--hands", type=int, default=100_000, help="hands (default 100000)")
    soak.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    soak.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    _ray_option(soak)
    soak.add_argument(
        "--variant",
        choices=(*VARIANTS, "all"),
        default="all",
        help="rules to soak (default all: the presets take turns)",
    )


def _soak(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
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


def _bots_options(bots: argparse.ArgumentParser) -> None:
    from umtali.lab.tournament import BANK_VERSION, lab_levels

    bots.add_argument("--a", choices=lab_levels(), default="hard", help="bot A (default hard)")
    bots.add_argument("--b", choices=lab_levels(), default="normal", help="bot B (default normal)")
    bots.add_argument("--matches", type=int, default=100, help="matches (default 100)")
    bots.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    _ray_option(bots)
    bots.add_argument(
        "--bank", type=int, default=BANK_VERSION, help=f"deal bank version ({BANK_VERSION})"
    )
    bots.add_argument("--variant", choices=VARIANTS, default="classic", help="rules (classic)")
    record_option(bots)


def _bots(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
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


def _coach_options(coach: argparse.ArgumentParser) -> None:
    coach.add_argument("--games", type=int, default=5, help="games (default 5)")
    coach.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    coach.add_argument("--variant", choices=VARIANTS, default="classic", help="rules (classic)")


def _coach(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
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


def _fuzz_options(fuzz: argparse.ArgumentParser) -> None:
    fuzz.add_argument("--games", type=int, default=40, help="games (default 40)")
    fuzz.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    fuzz.add_argument(
        "--per-prompt", type=int, default=3, help="hostile lines before each move (up to 3)"
    )
    fuzz.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    fuzz.add_argument(
        "--app", action="store_true", help="type into the full-screen application instead"
    )


def _fuzz(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.games < 1 or args.workers < 1 or args.per_prompt < 1:
        parser.error("--games, --workers and --per-prompt must be at least 1")
    fuzzed = bench_fuzz(args.games, args.seed, args.per_prompt, args.workers, args.app)
    print(
        f"fuzz: {fuzzed['games']} games, {fuzzed['lines']} hostile lines typed at "
        f"{fuzzed['prompts']} prompts in {fuzzed['seconds']} s: {len(fuzzed['crashes'])} "
        f"crashes, {fuzzed['hangs']} hangs, {fuzzed['escapes']} escapes reaching the screen, "
        f"{fuzzed['nudges']} prompts that needed Enter again"
    )
    for line in fuzzed["crashes"][:10]:
        print("  " + line)
    print(json.dumps(fuzzed))
    return 1 if fuzzed["crashes"] or fuzzed["hangs"] or fuzzed["escapes"] else 0


def _ladder_options(ladder: argparse.ArgumentParser) -> None:
    from umtali.lab.tournament import BANK_VERSION, lab_levels, ladder_levels

    ladder.add_argument(
        "--levels",
        nargs="+",
        choices=lab_levels(),
        default=list(ladder_levels()),
        help=f"levels (default {' '.join(ladder_levels())})",
    )
    ladder.add_argument("--matches", type=int, default=20, help="matches a pair (default 20)")
    ladder.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    _ray_option(ladder)
    ladder.add_argument(
        "--bank", type=int, default=BANK_VERSION, help=f"deal bank version ({BANK_VERSION})"
    )
    ladder.add_argument("--variant", choices=VARIANTS, default="classic", help="rules (classic)")
    ladder.add_argument(
        "--records",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="play nothing: fit the ratings to these `bench bots --record` runs",
    )


def _ladder(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.records:
        from umtali.lab.ladder import ladder_from_records
        from umtali.lab.match_record import RecordError

        playing = ("levels", "matches", "workers", "ray", "bank", "variant")
        alone = argparse.ArgumentParser()
        _ladder_options(alone)
        given = [name for name in playing if getattr(args, name) != alone.get_default(name)]
        if given:
            parser.error(
                f"--records plays nothing: {', '.join('--' + n for n in given)} cannot go with it"
            )
        try:
            fitted = ladder_from_records(args.records)
        except RecordError as err:
            print(f"umtali bench: {err}", file=sys.stderr)
            return 2
        print(ladder_text(fitted))
        print(json.dumps(fitted))
        return 0
    levels = list(dict.fromkeys(args.levels))
    if len(levels) < 2 or args.matches < 1:
        parser.error("--levels needs two or more levels, --matches at least 1")
    rungs = bench_ladder(levels, args.matches, args.workers, args.bank, args.variant, args.ray)
    print(ladder_text(rungs))
    print(json.dumps(rungs))
    return 0


def _host_options(host: argparse.ArgumentParser) -> None:
    host.add_argument(
        "--games",
        type=int,
        nargs="+",
        default=[10, 50, 100],
        help="games at once; several numbers make a run for each (default 10 50 100)",
    )
    host.add_argument("--seconds", type=float, default=60.0, help="how long each (default 60)")
    host.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")


def _host(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from umtali.lab import hostload as load

    if min(args.games) < 1 or not 1 <= args.seconds <= 3600:
        parser.error("--games must be at least 1 and --seconds from 1 to 3600")
    lacking = load.missing()
    if lacking is not None:
        print(f"umtali: {lacking}", file=sys.stderr)
        return 2
    failed = False
    for games in args.games:
        hosted = load.bench_host_apart(games, args.seconds, args.seed)
        print(
            f"host: {hosted['games']} games for {hosted['seconds']:g} s, {hosted['moves']} "
            f"moves; the host's own latency p50 {hosted['host_latency_ms']['p50']} ms, p95 "
            f"{hosted['host_latency_ms']['p95']} ms (the clients saw p50 "
            f"{hosted['latency_ms']['p50']} ms, p95 {hosted['latency_ms']['p95']} ms); "
            f"{hosted['host_cpu_ms_per_move']} ms of host CPU a move; host peak memory "
            f"{hosted['host_peak_rss_mb']} MB; stalled {hosted['stalled']}, lost "
            f"{hosted['lost']}"
        )
        print(json.dumps(hosted))
        failed = failed or bool(hosted["stalled"] or hosted["lost"])
    return 1 if failed else 0


def _startup_options(startup: argparse.ArgumentParser) -> None:
    startup.add_argument("--runs", type=int, default=10, help="runs of each (default 10)")


def _startup(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from umtali.lab import startup as start

    if args.runs < 1:
        parser.error("--runs must be at least 1")
    lacking = start.missing()
    if lacking is not None:
        print(f"umtali: {lacking}", file=sys.stderr)
        return 2
    timed = start.bench_startup(args.runs)
    print(
        f"startup, {timed['runs']} runs each: umtali --help median {timed['help_median_ms']} "
        f"ms, p90 {timed['help_p90_ms']} ms ({timed['help_cpu_median_ms']} ms of CPU); "
        f"umtali play to its first frame median {timed['first_screen_median_ms']} ms, p90 "
        f"{timed['first_screen_p90_ms']} ms ({timed['first_screen_cpu_median_ms']} ms of CPU)"
    )
    print(json.dumps(timed))
    return 0


#: The ``umtali bench`` commands, in the order its help lists them.
BENCH_COMMANDS: tuple[BenchCommand, ...] = (
    BenchCommand(
        "engine", "random hands per second, and the primitives' cost", _engine_options, _engine
    ),
    BenchCommand("soak", "random and bot hands with every invariant checked", _soak_options, _soak),
    BenchCommand("bots", "duplicate matches between two bot levels", _bots_options, _bots),
    BenchCommand(
        "coach", "the coach's cost: reviewing easy's games against hard", _coach_options, _coach
    ),
    BenchCommand(
        "reading",
        "how well the expert's deals place the opponent's hidden cards (log-loss a card)",
        reading_bench.options,
        reading_bench.run,
    ),
    BenchCommand(
        "search",
        "what the expert's moves give up to the luck of its deals, at several budgets",
        search_noise.options,
        search_noise.run,
    ),
    BenchCommand(
        "equity",
        "fit the game-equity table the bots and the coach read",
        equity_options,
        run_equity,
    ),
    BenchCommand(
        "fuzz", "hostile lines typed at the real prompt, game after game", _fuzz_options, _fuzz
    ),
    BenchCommand(
        "ladder", "a round robin of the levels, and their ratings", _ladder_options, _ladder
    ),
    BenchCommand(
        "host",
        "many hosted games at once, each against an SSH client (needs [host-load])",
        _host_options,
        _host,
    ),
    BenchCommand(
        "startup",
        "how long umtali --help, and umtali play to its first frame, take",
        _startup_options,
        _startup,
    ),
    BenchCommand(
        "research",
        "OpenSpiel's ISMCTS against a bot level, in duplicate (needs [research])",
        research_bench.research_options,
        research_bench.run_research,
    ),
    BenchCommand(
        "research-speed",
        "random play through our OpenSpiel game and PettingZoo env against gin rummy's",
        research_bench.speed_options,
        research_bench.run_speed,
    ),
)


if __name__ == "__main__":
    sys.exit(main())
