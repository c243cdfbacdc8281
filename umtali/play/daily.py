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
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from umtali.store.saves import SavedGame


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


def saved_deal(
    games: Iterable[SavedGame], seed: int, variant: str, session: bool
) -> SavedGame | None:
    """The saved game, among ``games``, that is the deal of ``seed`` in ``variant`` (a
    session if ``session``), or None: the deal of the day is played once, so a second
    ``umtali play --daily`` goes on with it instead of dealing it again beside it."""
    from umtali.engine.match import Session

    for saved in games:
        match = saved.match
        if (
            match.seed == seed
            and match.rules.name == variant
            and isinstance(match, Session) == session
        ):
            return saved
    return None
