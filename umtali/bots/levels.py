"""The bot levels: one entry each, read by everything that needs the list.

An entry says what a reader of the list needs: the level's name, how to build
its seat, what it does in a line, where it stands on the rating ladder, and the
sentence ``why`` adds to tell a player how it chooses.  The command line's
choices, ``make_bot``, the rating, ``why`` and the lab's tournaments all read
:data:`REGISTRY` (through :func:`player_levels`), so a new level is a module
with its bot and one entry here.

The lab extends this list with its own levels (bots that see hidden cards, so
are never offered to a player) in :mod:`umtali.lab.tournament`; nothing here
knows them.

>>> [level.name for level in REGISTRY]
['easy', 'normal', 'hard', 'expert']
>>> ADVISER.name
'expert'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from umtali.bots.seat import Seat


@dataclass(frozen=True, slots=True)
class Anchor:
    """The rung the rating ladder hangs from: a fixed rating (openskill's mu)."""

    mu: float


@dataclass(frozen=True, slots=True)
class Measured:
    """A rung placed by a measurement: ``umtali bench bots --a A --b B`` found that
    A won ``share`` of the games (the figure it leads with: the rating counts games,
    so its rungs are placed by games won, not by matches).  One of the two is the
    level the rung belongs to, the other a level already on the ladder; A is the
    stronger."""

    a: str
    b: str
    share: float

    def __post_init__(self) -> None:
        if not 0.5 < self.share < 1.0:
            raise ValueError(
                f"{self.a} won {self.share} of its games against {self.b}: "
                "name the stronger first, with a share above a half"
            )

    def other(self, level: str) -> str:
        """The level that ``level`` was measured against."""
        return self.b if level == self.a else self.a


@dataclass(frozen=True, slots=True)
class Level:
    """One bot level, as every list of levels shows it."""

    name: str
    #: Builds a seat of this level; the seed fixes its random choices.
    make: Callable[[int | None], Seat]
    #: What the level does, in a line.
    about: str
    #: Where it stands on the rating ladder that rates a player's games against it.
    rung: Anchor | Measured
    #: How it chooses, in a sentence ``why`` adds after a real choice (None: ``why``
    #: cannot tell it).
    method: str | None
    #: Whether its choices are random: ``why`` then claims no judgement for them.
    at_random: bool = False


# Each level's bot is imported when a seat of that level is first made, so that
# reading the list (the command line's choices, umtali --help) loads no bot.


def _easy(seed: int | None) -> Seat:
    from umtali.bots.easy import EasyBot

    return EasyBot(seed)


def _normal(seed: int | None) -> Seat:
    from umtali.bots.normal import NormalBot

    return NormalBot()  # it chooses nothing at random


def _hard(seed: int | None) -> Seat:
    from umtali.bots.hard import HardBot

    return HardBot(seed)


def _expert(seed: int | None) -> Seat:
    from umtali.bots.expert import ExpertBot

    return ExpertBot(seed)


#: The levels a player can meet, weakest first.
# Each share is of games won, over 800 games of a deal bank of its own (docs/bots.md):
# normal v easy bank 21, hard v normal bank 20, expert v hard bank 27.
REGISTRY: tuple[Level, ...] = (
    Level(
        name="easy",
        make=_easy,
        about="picks at random among its legal moves",
        rung=Measured("normal", "easy", 0.834),
        method="The easy bot picks at random among its legal moves.",
        at_random=True,
    ),
    Level(
        name="normal",
        make=_normal,
        about="lays what scores most now and discards what is least worth keeping",
        rung=Anchor(25.0),
        method="The normal bot lays what scores most this turn and discards the card least "
        "worth keeping and least useful to you, from what you have shown.",
    ),
    Level(
        name="hard",
        make=_hard,
        about="plays its best few choices out in hundreds of deals of the cards it cannot see",
        rung=Measured("hard", "normal", 0.618),
        method="The hard bot plays its best few choices out in hundreds of deals of the "
        "cards it cannot see, and keeps the one with the best chance of winning the game.",
    ),
    Level(
        name="expert",
        make=_expert,
        about="reads the opponent's hand from their play, and searches the deals that fit it",
        rung=Measured("expert", "hard", 0.555),
        method="The expert bot reads your hand from what you have taken, passed and thrown "
        "away, deals the cards it cannot see to match, plays each of its choices out in "
        "every one of those deals, and keeps the one with the best chance of winning the "
        "game; where melding is optional it weighs holding a meld back against laying it. "
        "The hint and the coach search the same way.",
    ),
)


def player_levels() -> tuple[Level, ...]:
    """The registry as it stands (read it through here, so a test may add a level)."""
    return REGISTRY


def names() -> tuple[str, ...]:
    """The levels' names, weakest first: the command line's choices."""
    return tuple(level.name for level in player_levels())


def find(name: str) -> Level | None:
    """The level called ``name``, or None if there is none."""
    return next((level for level in player_levels() if level.name == name), None)


def named(name: str) -> Level:
    """The level called ``name``; a ValueError names the levels there are."""
    found = find(name)
    if found is None:
        raise ValueError(f"unknown bot level {name!r}: choose from {', '.join(names())}")
    return found


#: The level a player meets unless they choose: strong and quick (expert is a
#: little stronger, and slower).
OPPONENT = named("hard")
#: The adviser: the bot whose move a hint shows, and that takes over the seat of a
#: player who has left a hosted game: the top level, whose search the coach runs
#: too (:mod:`umtali.bots.analysis`), so the hint and the coach agree.
ADVISER = named("expert")
