"""Your rating against the bot ladder, with openskill (Plackett-Luce).

The bots are the ladder's fixed rungs: ``normal`` at 25, and ``easy``, ``hard``
and ``expert`` placed so that the model predicts the win rates measured between
them in duplicate matches (README, ``umtali bench bots``).  Your rating starts where
openskill starts everyone (25 ± 8.3) and moves with each game against a bot;
the rungs never move, so your number means the same thing tomorrow.  Games
between two people are in your record but not in this rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce, PlackettLuceRating

from umtali.store.profile import GameEntry

#: Measured with ``umtali bench bots`` (README): A beats B in this share of matches.
MEASURED = (("hard", "normal", 0.728), ("normal", "easy", 0.990), ("expert", "hard", 0.533))
RUNG_SIGMA = 1.0
NORMAL_MU = 25.0


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


@cache
def rungs() -> dict[str, float]:
    """Each bot level's fixed rating (mu)."""
    hard_share, easy_share, expert_share = (share for _, _, share in MEASURED)
    normal = NORMAL_MU
    hard = _solve(normal, hard_share)
    return {
        "easy": normal - (_solve(normal, easy_share) - normal),
        "normal": normal,
        "hard": hard,
        "expert": _solve(hard, expert_share),
    }


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
