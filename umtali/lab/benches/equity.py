"""``umtali bench equity``: fit the game-equity table the bots, the hint and the coach read.

A hand's points matter only through the game they decide.  To turn a hand's
margin into a chance of winning the game, this module (as backgammon programs
build their match-equity tables) plays many single hands between two bots of a
strong level, takes the distribution of the margin of the player who moves
first (the holder of the eleventh card in classic, the non-dealer where an
up-card starts the pile), smooths it a little, and convolves it over the hands
left:

* four-hand games: the chance of winning from every lead (-300..300), every
  number of hands finished and either dealer, the winner of a hand dealing the
  next (a level hand: the same dealer again), the dealer choosing who takes the
  eleventh card where the rules let them, and level totals after the fourth hand
  played on until one player is ahead;
* a race to a target (Rummy's 150): the chance of winning from every pair of
  scores below the target, the deal alternating.

The result is one JSON file (``umtali/bots/equity.json`` ships with the
program); :mod:`umtali.bots.equity` reads it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from umtali.bots import make_bot
from umtali.bots.arena import Driver
from umtali.bots.equity import FORMAT, LEAD_LIMIT
from umtali.bots.seat import GameInfo
from umtali.engine.hand import deal_hand
from umtali.engine.rules import PRESETS, RuleSet, rules_named

#: The smoothing kernel's widest bandwidth, in points: a few hundred hands leave
#: gaps between the margins seen, a wider kernel would blur the first mover's edge.
MAX_BANDWIDTH = 3.0
#: Decimals kept in the shipped tables (a chance to a hundredth of a percent).
DECIMALS = 4


def first_mover_margin(rules: RuleSet, level: str, seed: int) -> int:
    """One hand between two bots of ``level``: the margin of the player who moved first."""
    first = 1 + seed % 2
    # The first mover holds the extra card (classic), or is the non-dealer (an up-card).
    dealer = 3 - first if rules.up_card else first
    hand = deal_hand(seed=seed, dealer=dealer, eleven=None if rules.up_card else first, rules=rules)
    driver = Driver([make_bot(level, seed), make_bot(level, seed + 1)])
    driver.play_hand(hand, GameInfo(1, rules.hands_per_game, (0, 0), dealer))
    a, b = hand.scores
    return a - b if first == 1 else b - a


def _margins_chunk(args: tuple[str, str, list[int]]) -> list[int]:
    variant, level, seeds = args
    rules = rules_named(variant)
    return [first_mover_margin(rules, level, s) for s in seeds]


def hand_margins(variant: str, level: str, hands: int, seed: int, jobs: int = 1) -> list[int]:
    """The first mover's margins in ``hands`` hands (seeded, so a run repeats exactly)."""
    rng = random.Random(f"umtali-equity-{variant}-{seed}")
    seeds = [rng.getrandbits(62) for _ in range(hands)]
    chunks = [(variant, level, seeds[i::jobs]) for i in range(jobs)]
    if jobs == 1:
        return _margins_chunk(chunks[0])
    with ProcessPoolExecutor(jobs) as pool:
        return [m for part in pool.map(_margins_chunk, chunks) for m in part]


def smoothed(margins: Sequence[int]) -> tuple[int, list[float]]:
    """The margins' distribution, smoothed by a discrete Gaussian kernel (Silverman's
    bandwidth, at most MAX_BANDWIDTH points): (lowest margin, probabilities upward)."""
    n = len(margins)
    if n < 2:
        raise ValueError("fit the equity from two hands at least")
    mean = sum(margins) / n
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1)) or 1.0
    width = min(MAX_BANDWIDTH, 1.06 * sd * n ** (-0.2))
    reach = math.ceil(3 * width)
    kernel = [math.exp(-0.5 * (k / width) ** 2) for k in range(-reach, reach + 1)]
    norm = sum(kernel)
    counts = Counter(margins)
    low, high = min(margins) - reach, max(margins) + reach
    probs = [0.0] * (high - low + 1)
    for margin, count in counts.items():
        for k, weight in enumerate(kernel):
            probs[margin - reach + k - low] += count * weight / (norm * n)
    return low, probs


#: One hand's outcome for a seat: (its margin, probability).
Outcomes = list[tuple[int, float]]


def _outcomes(low: int, probs: list[float]) -> tuple[Outcomes, Outcomes]:
    """(outcomes when I move first, outcomes when they do), as my margins."""
    mine = [(low + i, p) for i, p in enumerate(probs) if p > 1e-9]
    return mine, [(-m, p) for m, p in mine]


def four_hand_table(rules: RuleSet, low: int, probs: list[float]) -> dict[str, object]:
    """The chance of winning a game of ``rules.hands_per_game`` hands from every lead,
    hands finished and dealer (see the module's docstring)."""
    hands = rules.hands_per_game
    first, second = _outcomes(low, probs)
    # Who moves first when I deal (d=0) or they do (d=1): the choices the dealer has.
    if rules.up_card:
        options = {0: [second], 1: [first]}
    else:
        options = {0: [first, second], 1: [first, second]}
    dealer_is_me = {0: True, 1: False}

    # Level after the last hand: play on until a hand is won.
    level: list[float] = []
    for d in (0, 1):
        values = []
        for outs in options[d]:
            win = sum(p for m, p in outs if m > 0)
            lose = sum(p for m, p in outs if m < 0)
            values.append(win / (win + lose))
        level.append(max(values) if dealer_is_me[d] else min(values))

    span = range(-LEAD_LIMIT, LEAD_LIMIT + 1)

    def final(lead: int, d: int) -> float:
        return 1.0 if lead > 0 else 0.0 if lead < 0 else level[d]

    after: list[Callable[[int, int], float]] = [final]
    rows: list[list[list[float]]] = []
    for _ in range(hands):
        later = after[-1]
        row: list[list[float]] = []
        for d in (0, 1):
            values = []
            for lead in span:
                best = []
                for outs in options[d]:
                    total = 0.0
                    for m, p in outs:
                        nd = 0 if m > 0 else 1 if m < 0 else d
                        total += p * later(max(-LEAD_LIMIT, min(LEAD_LIMIT, lead + m)), nd)
                    best.append(total)
                values.append(max(best) if dealer_is_me[d] else min(best))
            row.append(values)
        rows.append(row)
        after.append(_reader(row))
    rows.reverse()  # rows[n]: n hands finished
    return {
        "before": [[[round(v, DECIMALS) for v in vs] for vs in row] for row in rows],
        "level": [round(v, DECIMALS) for v in level],
    }


def _reader(row: list[list[float]]) -> Callable[[int, int], float]:
    """A row of chances as the function of (lead, dealer) the row before it reads."""

    def chance(lead: int, d: int) -> float:
        return row[d][lead + LEAD_LIMIT]

    return chance


def race_table(rules: RuleSet, low: int, probs: list[float]) -> dict[str, object]:
    """The chance of winning a race to ``rules.target``: ``race[a][b]`` at my ``a`` to
    their ``b`` with me to deal next (the deal alternates; the non-dealer moves first)."""
    target = rules.target
    first, second = _outcomes(low, probs)
    # I deal: they move first (second); they deal: I move first.
    outs = {0: second, 1: first}
    zero = {d: sum(p for m, p in outs[d] if m == 0) for d in (0, 1)}

    # Level at or past the target: the next hand that someone wins decides.
    win = {d: sum(p for m, p in outs[d] if m > 0) for d in (0, 1)}
    # T_d = win_d + zero_d * T_other (dead hands pass the deal on).
    level0 = (win[0] + zero[0] * win[1]) / (1 - zero[0] * zero[1])
    level1 = win[1] + zero[1] * level0
    level = {0: level0, 1: level1}

    chance: dict[tuple[int, int, int], float] = {}

    def value(a: int, b: int, d: int) -> float:
        if a >= target or b >= target:
            if a == b:
                return level[d]
            return 1.0 if a > b else 0.0
        return chance[a, b, d]

    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            x = {}
            for d in (0, 1):
                nd = 1 - d  # the deal alternates
                x[d] = sum(
                    p * value(a + max(m, 0), b + max(-m, 0), nd) for m, p in outs[d] if m != 0
                )
            # W_d = x_d + zero_d * W_other (a dead hand: same scores, the deal passes).
            w0 = (x[0] + zero[0] * x[1]) / (1 - zero[0] * zero[1])
            chance[a, b, 0] = w0
            chance[a, b, 1] = x[1] + zero[1] * w0
    race = [[round(chance[a, b, 0], DECIMALS) for b in range(target)] for a in range(target)]
    return {"race": race, "level": [round(level[0], DECIMALS), round(level[1], DECIMALS)]}


def fit(
    variant: str, level: str, hands: int, seed: int, jobs: int = 1, command: str = ""
) -> dict[str, object]:
    """One variant's entry in the equity file, with the command that made it."""
    rules = rules_named(variant)
    margins = hand_margins(variant, level, hands, seed, jobs)
    low, probs = smoothed(margins)
    n = len(margins)
    mean = sum(margins) / n
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1))
    entry: dict[str, object] = {
        "command": command,
        "bots": level,
        "hands": n,
        "seed": seed,
        "mean": round(mean, 3),
        "sd": round(sd, 3),
        "first_low": low,
        "first": [round(p, 6) for p in probs],
    }
    if rules.target:
        entry.update(race_table(rules, low, probs))
    else:
        entry.update(four_hand_table(rules, low, probs))
    return entry


def build(
    variants: Sequence[str],
    level: str,
    hands: int,
    seed: int,
    jobs: int,
    command: str,
    kept: dict[str, object] | None = None,
) -> dict[str, object]:
    """The whole equity file: each of ``variants`` fitted anew, the others' entries
    taken from ``kept`` (an equity file read before), each with the command that made
    it."""
    for v in variants:
        if v not in PRESETS:
            raise ValueError(f"unknown variant {v!r}")
    entries: dict[str, object] = {}
    if kept is not None:
        old = kept.get("variants")
        if kept.get("format") != FORMAT or not isinstance(old, dict):
            raise ValueError("the equity file to update is not one of this version")
        entries.update(old)
    for v in variants:
        entries[v] = fit(v, level, hands, seed, jobs, command)
    return {"format": FORMAT, "lead_limit": LEAD_LIMIT, "variants": entries}


def dumps(table: dict[str, object]) -> str:
    """The file's text: one variant's table to a line or so, so a diff shows what moved."""
    return json.dumps(table, separators=(",", ":")) + "\n"


def options(parser: argparse.ArgumentParser) -> None:
    """``umtali bench equity``'s options."""
    parser.add_argument(
        "--variant",
        action="append",
        choices=tuple(PRESETS),
        help="a variant to fit (again for more; default: all four)",
    )
    parser.add_argument("--level", default="hard", help="the bots that play (default hard)")
    parser.add_argument("--hands", type=int, default=1000, help="hands a variant (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    parser.add_argument(
        "--update",
        type=Path,
        help="an equity file whose other variants are kept (umtali/bots/equity.json)",
    )
    parser.add_argument(
        "--out", type=Path, required=True, help="the new file to write (never one that is there)"
    )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``umtali bench equity``: fit, write a new file, and say what the chances look like."""
    from umtali.bots.levels import names
    from umtali.store.door import EQUITY_TABLE, FileRefused, create_file, read_text_file

    if args.level not in names():
        parser.error(f"--level: choose from {', '.join(names())}")
    if args.hands < 2 or args.jobs < 1:
        parser.error("--hands must be at least 2 and --jobs at least 1")
    variants = args.variant or list(PRESETS)
    try:
        kept = None
        if args.update is not None:
            kept = json.loads(read_text_file(args.update, EQUITY_TABLE))
        command = (
            f"umtali bench equity --level {args.level} --hands {args.hands} --seed {args.seed}"
        )
        table = build(variants, args.level, args.hands, args.seed, args.jobs, command, kept)
        create_file(args.out, dumps(table), 0o644)
    except FileExistsError:
        print(f"umtali bench equity: {args.out} is there already: name a new file", file=sys.stderr)
        return 1
    except (FileRefused, OSError, ValueError) as err:
        print(f"umtali bench equity: {err}", file=sys.stderr)
        return 1
    entries = table["variants"]
    assert isinstance(entries, dict)
    for v in variants:
        entry = entries[v]
        print(
            f"{v}: {entry['hands']} hands of {entry['bots']}: the first mover's margin "
            f"{entry['mean']:+.1f} on average, spread {entry['sd']:.1f}"
        )
    print(f"written to {args.out}")
    return 0
