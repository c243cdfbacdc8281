"""The seats of a match, built in one place.

A bot's seat is made from its level in the registry (:mod:`umtali.bots.levels`), under
the player's name; a person's seat is made by whoever drives the table (a prompt at
this terminal, a screen at another one), told which player it is and who sits across.
The table at one keyboard, ``umtali watch`` and ``umtali host`` all seat their players
here, and a bot that stands in for a player who left is made here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from umtali.bots import make_bot
from umtali.bots.levels import ADVISER
from umtali.bots.seat import Seat
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.ui.text import visible

#: The bot a hint comes from, and the one that stands in for a player who left: the
#: adviser, named once in the registry of levels.
STAND_IN = ADVISER

#: Makes a person's seat: (their player number, who they are, who sits across: the
#: bot's name and level, or None for a person).
PersonSeat = Callable[[int, PlayerInfo, "tuple[str, str] | None"], Seat]


def hint_bot() -> Seat:
    """The bot a person's hints come from, with the coach's own seed: the hint and the
    coach agree."""
    return STAND_IN.make(None)


def seat_players(
    players: Sequence[PlayerInfo],
    person: PersonSeat,
    seeds: Callable[[int], int | None] = lambda player: None,
) -> list[Seat]:
    """Player 1's seat and player 2's: a person's made by ``person``, a bot's from its
    level with the seed ``seeds`` gives that player."""
    seats: list[Seat] = []
    for number, info in enumerate(players, 1):
        other = players[2 - number]
        across = (visible(other.name), other.level) if other.is_bot else None
        if info.kind is PlayerKind.HUMAN:
            seats.append(person(number, info, across))
        else:
            bot = make_bot(info.level, seeds(number))
            bot.name = info.name
            seats.append(bot)
    return seats


def stand_in(player: PlayerInfo) -> Seat:
    """The bot that plays ``player``'s seat after they left, under their name."""
    bot = STAND_IN.make(None)
    bot.name = player.name
    return bot


def bots_watched(levels: Sequence[str]) -> tuple[PlayerInfo, PlayerInfo]:
    """The players of ``umtali watch``: a bot of each level, named by seat and level."""
    first, second = (
        PlayerInfo(PlayerKind.BOT, f"Bot {n} ({level})", level) for n, level in enumerate(levels, 1)
    )
    return first, second
