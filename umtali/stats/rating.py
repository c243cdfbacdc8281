"""Your rating against the bot ladder, with openskill (Plackett-Luce).

The bots are the ladder's fixed rungs, each read from its level's entry in
:mod:`umtali.bots.levels`: the anchor (``normal``, at 25), and each other level
placed so that the model predicts the share of games won measured in duplicate
matches against a level already placed (docs/bots.md, ``umtali bench bots``).  Every level has
a rung, so every game against a bot counts.  Your rating starts where openskill
starts everyone (25 ± 8.3) and moves with each game against a bot;
the rungs never move, so your number means the same thing tomorrow.  Games
between two people are in your record but not in this rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce, PlackettLuceRating

from umtali.bots.levels import Anchor, Level, Measured, player_levels
from umtali.store.profile import GameEntry

RUNG_SIGMA = 1.0


@dataclass(frozen=True, slots=True)
class Point:
    """Your rating after one rated game."""

    finished: str
    mu: float
    sigma: float


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


def _solve(above: float, share: float) -> float:
    """The mu that beats a rung at ``above`` in ``share`` of games (bisection)."""
    m = model()
    base = m.rating(mu=above, sigma=RUNG_SIGMA)
    low, high = above, above + 60.0
    for _ in range(60):
        mid = (low + high) / 2
        p = m.predict_win([[m.rating(mu=mid, sigma=RUNG_SIGMA)], [base]])[0]
        low, high = (mid, high) if p < share else (low, mid)
    return (low + high) / 2


def measured() -> tuple[Measured, ...]:
    """The measurements the rungs are placed by (``umtali bench bots``, docs/bots.md)."""
    return tuple(level.rung for level in player_levels() if isinstance(level.rung, Measured))


def rungs() -> dict[str, float]:
    """Each bot level's fixed rating (mu): a fresh dict, so a caller cannot change the
    ladder that later calls see."""
    return dict(_rungs(player_levels()))


@cache
def _rungs(levels: tuple[Level, ...]) -> dict[str, float]:
    for level in levels:
        if isinstance(level.rung, Measured) and level.name not in (level.rung.a, level.rung.b):
            raise ValueError(f"the rung of {level.name} is a measurement of other levels")
    placed = {level.name: level.rung.mu for level in levels if isinstance(level.rung, Anchor)}
    waiting = [level for level in levels if level.name not in placed]
    while waiting:
        ready = [
            (level, rung)
            for level in waiting
            if isinstance(rung := level.rung, Measured) and rung.other(level.name) in placed
        ]
        if not ready:
            lost = ", ".join(level.name for level in waiting)
            raise ValueError(f"no measurement links {lost} to the rating's anchor")
        for level, rung in ready:
            base = placed[rung.other(level.name)]
            above = _solve(base, rung.share)  # where A stands, B at base
            placed[level.name] = above if level.name == rung.a else base - (above - base)
        waiting = [level for level in waiting if level.name not in placed]
    return {level.name: placed[level.name] for level in levels}


def history(entries: Sequence[GameEntry]) -> list[Point]:
    """Your rating after each game against a bot of the ladder, oldest first."""
    m = model()
    you: PlackettLuceRating = m.rating(name="you")
    points = []
    ladder = rungs()
    for entry in sorted(entries, key=lambda e: e.finished):
        level = entry.levels[2 - entry.you]
        if not entry.rated or level not in ladder:
            continue
        bot = m.rating(mu=ladder[level], sigma=RUNG_SIGMA, name=level)
        ranks = [1.0, 2.0] if entry.won else [2.0, 1.0]
        [[you], _] = m.rate([[you], [bot]], ranks=ranks)
        points.append(Point(entry.finished, you.mu, you.sigma))
    return points
