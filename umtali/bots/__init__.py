"""Bots: seats that choose moves from a player's view alone.

They import the engine only, and see nothing a player at the table could
not see.  :func:`make_bot` builds one by level name.
"""

from __future__ import annotations

from umtali.bots.easy import EasyBot
from umtali.bots.hard import HardBot
from umtali.bots.normal import NormalBot
from umtali.bots.seat import Decision, GameInfo, Seat

LEVELS = ("easy", "normal", "hard")


def make_bot(level: str, seed: int | None = None) -> Seat:
    """A bot of the named level; ``seed`` fixes its random choices."""
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot()
    if level == "hard":
        return HardBot(seed)
    raise ValueError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "Decision",
    "EasyBot",
    "GameInfo",
    "HardBot",
    "NormalBot",
    "Seat",
    "make_bot",
]
