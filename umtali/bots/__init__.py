"""Bots: seats that choose moves from a player's view alone.

They import the engine only, and see nothing a player at the table could
not see.  The levels are listed once, in :mod:`umtali.bots.levels`.
:func:`make_bot` builds one by level name; :func:`bot` wraps it for
scripts, which may hand it a whole :class:`~umtali.Hand` (the bot still looks
only at the view of the player to move).  The bots' modules are imported the
first time one is asked for, so that the level names cost nothing to read.

>>> import umtali
>>> hand = umtali.deal_hand(seed=7)
>>> decision = umtali.bot("normal").choose(hand)
>>> decision.action in hand.legal(), bool(decision.reason)
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from umtali.bots.levels import named, names
from umtali.engine.lazy import first_use

if TYPE_CHECKING:
    from umtali.bots.easy import EasyBot
    from umtali.bots.expert import ExpertBot
    from umtali.bots.hard import HardBot
    from umtali.bots.normal import NormalBot
    from umtali.bots.seat import Decision, GameInfo, Seat
    from umtali.engine.hand import Hand
    from umtali.engine.view import PlayerView

#: The levels' names when umtali was imported (the registry, :mod:`umtali.bots.levels`,
#: is what the program reads).
LEVELS = names()


def make_bot(level: str, seed: int | None = None) -> Seat:
    """A bot of the named level; ``seed`` fixes its random choices.  Only that
    level's modules are imported."""
    return named(level).make(seed)


class Bot:
    """A bot of one level, as a script uses it: ``choose`` takes a hand or a view."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        self.level = level
        self.seat = make_bot(level, seed)
        self.name = self.seat.name

    def choose(self, position: Hand | PlayerView, info: GameInfo | None = None) -> Decision:
        """The bot's action for the player to move, and its reason.

        Given a hand, the bot sees only the view of the player to move.  ``info``
        (the hand's place in its game) changes how the final hand is played;
        by default the hand is taken as the first of a game.
        """
        from umtali.bots.seat import GameInfo
        from umtali.engine.hand import Hand

        if isinstance(position, Hand):
            mover = position.to_move
            if mover is None:
                raise ValueError("the hand is over: there is no move to choose")
            position = position.view(mover)
        return self.seat.choose(position, info or GameInfo())

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return self.seat.choose_eleven(player, info)

    def __repr__(self) -> str:
        return f"umtali.bot({self.level!r})"


def bot(level: str, seed: int | None = None) -> Bot:
    """A bot of level ``easy``, ``normal``, ``hard`` or ``expert``; ``seed`` fixes its
    random choices."""
    return Bot(level, seed)


#: The module of :mod:`umtali.bots` that holds each class, imported on first use.
HOMES: dict[str, str] = {
    "Decision": "seat",
    "EasyBot": "easy",
    "ExpertBot": "expert",
    "GameInfo": "seat",
    "HardBot": "hard",
    "NormalBot": "normal",
    "Seat": "seat",
}


_first_use, __dir__ = first_use(
    "umtali.bots", {name: f"umtali.bots.{home}" for name, home in HOMES.items()}, globals()
)

if not TYPE_CHECKING:
    # The module's __getattr__ (PEP 562).  Type checkers see the imports above
    # instead, so a name that is not among them is still an error to them.
    __getattr__ = _first_use


__all__ = [
    "LEVELS",
    "Bot",
    "Decision",
    "EasyBot",
    "ExpertBot",
    "GameInfo",
    "HardBot",
    "NormalBot",
    "Seat",
    "bot",
    "make_bot",
]
