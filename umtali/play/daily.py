"""The deal of the day: one seed a day, the same on every machine.

``umtali play --daily`` deals from the day's seed, so everyone who plays it that
day gets the same cards (and, against the bot, the same bot, which is seeded
too) and can compare scores without a network.  The seed is a hash of the date
and the variant, so each variant has its own deal of the day.

>>> daily_seed(date(2026, 11, 23), "classic") == daily_seed(date(2026, 11, 23), "classic")
True
>>> daily_seed(date(2026, 11, 23), "classic") != daily_seed(date(2026, 11, 24), "classic")
True
"""

from __future__ import annotations

import hashlib
from datetime import date


def daily_seed(day: date, variant: str) -> int:
    """The seed of ``variant``'s deal of the day ``day`` (a non-negative 63-bit int)."""
    digest = hashlib.sha256(f"umtali deal of the day {day.isoformat()} {variant}".encode())
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def daily_of(seed: int, variant: str, started: date) -> str:
    """The date of the deal of the day a game's ``seed`` is (checked on the day the
    game was started and the day after, for a game begun near midnight), or ''."""
    for day in (started, date.fromordinal(started.toordinal() + 1)):
        if daily_seed(day, variant) == seed:
            return day.isoformat()
    return ""
