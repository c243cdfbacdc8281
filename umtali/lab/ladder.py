"""The ladder: every level against every other in duplicate matches, and a rating each.

A round robin of duplicate matches (:func:`umtali.lab.tournament.play_match`, on
the versioned deal bank) gives each pair of levels the share of games each won
(a game is won on its totals, and a player's session on games, so games won is
what the rating speaks of); a Bradley-Terry fit of all the scores at once gives
each level one number, in Elo points (400 points are odds of ten to one in
games), with ``normal`` at 0.  Each match enters as its share of its two games,
so the interval of each rating, from refitting on the matches resampled (a
bootstrap), resamples whole matches: the two games of one share their deals.

>>> scores = {("normal", "easy"): [1.0] * 9 + [0.0]}
>>> round(fit(["easy", "normal"], scores)["easy"])
-321
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from umtali.lab.match_record import RecordError, read_record
from umtali.lab.tournament import summarise

#: The level rated 0.
ANCHOR = "normal"
#: Each pair is treated as having split one more match besides those played, so a
#: level that won every game has a finite rating (a light prior towards equality).
PRIOR = 0.5


def fit(
    levels: Sequence[str], scores: Mapping[tuple[str, str], Sequence[float]], rounds: int = 500
) -> dict[str, float]:
    """Bradley-Terry strengths, as Elo points with ANCHOR (if present) at 0.

    ``scores[(a, b)]`` lists a's score in each match against b: its share of the
    match's games (1 both, 0 neither, a half one of two; a game left level counts a
    half).  Any score from 0 to 1 a match will do: a match score fits the same way.
    """
    wins = {x: 0.0 for x in levels}
    games: dict[tuple[str, str], float] = {}
    for (a, b), played in scores.items():
        won = sum(played) + PRIOR
        lost = len(played) - sum(played) + PRIOR
        wins[a] += won
        wins[b] += lost
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0.0) + won + lost
    strength = {x: 1.0 for x in levels}
    for _ in range(rounds):  # the MM iteration (Hunter 2004), which always converges
        new = {}
        for x in levels:
            denominator = 0.0
            for (a, b), n in games.items():
                if x in (a, b):
                    other = b if x == a else a
                    denominator += n / (strength[x] + strength[other])
            new[x] = wins[x] / denominator if denominator else strength[x]
        mean = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {x: v / mean for x, v in new.items()}
    anchor = strength.get(ANCHOR, 1.0)
    return {x: 400 * math.log10(strength[x] / anchor) for x in levels}


def intervals(
    levels: Sequence[str],
    scores: Mapping[tuple[str, str], Sequence[float]],
    rng: random.Random,
    resamples: int = 200,
) -> dict[str, tuple[float, float]]:
    """The 95% bootstrap interval of each rating: the matches of each pair resampled."""
    fits: dict[str, list[float]] = {x: [] for x in levels}
    for _ in range(resamples):
        drawn = {pair: [rng.choice(s) for _ in s] for pair, s in scores.items() if s}
        for x, rating in fit(levels, drawn, rounds=200).items():
            fits[x].append(rating)
    out = {}
    for x, values in fits.items():
        values.sort()
        out[x] = (values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1])
    return out


def pairs(levels: Sequence[str]) -> list[tuple[str, str]]:
    """Each pair of levels once, the stronger-named second (``easy`` v ``normal``...)."""
    return [(levels[i], levels[j]) for i in range(len(levels)) for j in range(i + 1, len(levels))]


def ladder_from_records(paths: Sequence[Path]) -> dict[str, Any]:
    """The ladder fitted to runs already played: ``bench bots`` records (``--record``),
    one row for each, and the ratings from all their games won at once.  No game is
    played.  The records must share their rules, and link every level to every other
    (a level met by none of the others cannot be placed beside them)."""
    runs = [read_record(path) for path in paths]
    if not runs:
        raise RecordError("no records were given")
    variants = {key.variant for key, _ in runs}
    if len(variants) > 1:
        raise RecordError(f"the records are of different rules ({', '.join(sorted(variants))})")
    table: dict[str, Any] = {}
    pairs: set[tuple[frozenset[str], int]] = set()  # two levels and a bank, either way round
    scores: dict[tuple[str, str], list[float]] = {}
    for path, (key, results) in zip(paths, runs, strict=True):
        if not results:
            raise RecordError(f"{path} holds no finished match")
        if key.a == key.b:
            raise RecordError(f"{path} is a level against itself, which rates nothing")
        played = [results[i] for i in sorted(results)]
        name = f"{key.a} v {key.b}, bank {key.bank_version}"
        pair = (frozenset((key.a, key.b)), key.bank_version)
        if pair in pairs:
            raise RecordError(f"{path}: {name} is given twice (the same deals)")
        pairs.add(pair)
        table[name] = summarise(key.a, key.b, played, key.bank_version)
        scores.setdefault((key.a, key.b), []).extend(r.game_share for r in played)
    levels = list(dict.fromkeys(x for pair in scores for x in pair))
    apart = _unlinked(levels, list(scores))
    if apart:
        raise RecordError(
            f"no record links {', '.join(apart)} to {levels[0]}: the ratings cannot be placed"
        )
    ratings = fit(levels, scores)
    spread = intervals(levels, scores, random.Random(len(table)))
    return {
        "benchmark": "ladder",
        "variant": variants.pop(),
        "records": [str(path) for path in paths],
        "ratings": {x: round(ratings[x]) for x in levels},
        "rating95": {x: [round(spread[x][0]), round(spread[x][1])] for x in levels},
        "pairs": table,
    }


def _unlinked(levels: list[str], met: list[tuple[str, str]]) -> list[str]:
    """The levels no chain of match-ups joins to the first."""
    reached = {levels[0]}
    grew = True
    while grew:
        grew = False
        for a, b in met:
            if (a in reached) != (b in reached):
                reached |= {a, b}
                grew = True
    return [x for x in levels if x not in reached]
