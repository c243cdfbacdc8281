"""The seat protocol: how a player, human or bot, is asked for a move.

A seat sees only a :class:`~umtali.engine.view.PlayerView` (its own hand
and public facts), plus a little public context about the game, and answers
with one of the view's legal :class:`~umtali.Action` values.  The game loop
cannot tell a bot from a person.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from umtali.engine.actions import Action
from umtali.engine.hand import Hand
from umtali.engine.progress import GameInfo as GameInfo  # its home is the engine
from umtali.engine.view import PlayerView


@dataclass(frozen=True, slots=True)
class Decision:
    """An action and a one-line reason a player can read (shown by ``hint``)."""

    action: Action
    reason: str


def possessive(name: str) -> str:
    """Whose, for a seat's name: the one rule every sentence about a player follows.
    A seat named You (the default name of the person at the keyboard) is spoken to:
    it takes "Your", as a name is written, with a capital.

    >>> [possessive(name) for name in ("Ann", "You", "James", "Bot (hard)")]
    ["Ann's", 'Your', "James'", "Bot (hard)'s"]
    """
    if name.casefold() == "you":
        return "Your"
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def expected_margin(points: float) -> str:
    """What a search's mean margin (the seat's points less its opponent's when the hand
    ends, averaged over the deals tried) means, in words a player reads at a glance.

    >>> expected_margin(-31.6)
    'on average you end this hand about 32 points behind'
    >>> expected_margin(0.3)
    'on average you end this hand about level'
    """
    near = round(abs(points))
    if near == 0:
        return "on average you end this hand about level"
    side = "ahead" if points > 0 else "behind"
    return f"on average you end this hand about {near} point{'s' if near != 1 else ''} {side}"


class Seat(Protocol):
    """Anything that can take a turn: a bot, or the prompt in front of a person."""

    name: str

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        """Pick one of ``view.legal``."""
        ...

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        """As dealer (``player``), say who takes the extra card: 1 or 2."""
        ...


@runtime_checkable
class FullSight(Protocol):
    """A research seat that is handed the whole hand, hidden cards and all (the
    tournament's oracle, a yardstick for the bots).  Never a seat in play."""

    sees_everything: bool

    def choose_full(self, hand: Hand, info: GameInfo) -> Decision: ...
