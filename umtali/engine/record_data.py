"""What a game record holds: its layout, its version and the values read from it.

A record holds the rules, the players, the seed, every hand's full deal
(both hands and the stock, top first) and every action in notation with the
player who made it, and each finished hand's result.  Loading one rebuilds
the game by replaying it through the engine from the seed, and checks every
recorded deal and result against the replay, so a record that was cut short,
edited by hand, or written by a newer version is refused with the line at
fault instead of being half believed.

The writer (:mod:`umtali.engine.record`) and the reader
(:mod:`umtali.engine.record_read`) both build on the values here, and neither on
the other.

The layout, one fact per line (``#`` starts a comment)::

    umtali record 1
    rules classic
    match game            (or: session)
    seed 8211
    player 1 human: Ann
    player 2 bot hard: Bot (hard)
    game 1
    hand 1 dealer 1 eleven 1 seed 77
    deal 1: AS 2S ...
    deal 2: ...
    stock: ...
    1: meld KS QS
    2: draw
    result: 23 17 out 1

A bot standing in for a player who left (version 5) is a line where it took the seat,
``stand-in 2: adviser`` (its level), and ``stand-in 2 ends`` where the player came
back; a line before a game's first ``hand`` line is a change made before its first deal.

A game played with real cards (version 4) has no ``seed`` line: each hand gives its
deal as typed in, ``hand 1 dealer 1 eleven 1`` and then ``deal 1:``, ``deal 2:``,
``up:`` (where the rules turn up a card) and ``drawn:``, the cards drawn from the
stock in order (see :mod:`umtali.engine.real_deal`).  A shuffled game's record is
still written as version 3, so older versions read it; only a record with a stand-in
is written as version 5.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from urllib.parse import unquote

from umtali.engine.actions import Action
from umtali.engine.cards import Card
from umtali.engine.match import StandIn

#: The newest version this umtali reads: 5 added ``stand-in`` lines (a bot playing the
#: seat of a player who left); 4 added games played with real cards (deals typed in, no
#: seed); 3 added ``copy`` lines (the extra records a game is also written to); 2
#: escaped names (see :func:`escape_name`).  Every older version still loads.
FORMAT_VERSION = 5
#: A record is written as the oldest version that holds it: a shuffled game's as 3, a
#: game played with real cards as 4, and any game with a stand-in as 5.
SHUFFLED_VERSION = 3
TYPED_VERSION = 4
STAND_IN_VERSION = 5
#: The words of a stand-in line: ``stand-in 2: LEVEL``, or ``stand-in 2 ends``.
STAND_IN = "stand-in"
STAND_IN_ENDS = "ends"
MAGIC = "umtali record"


class PlayerKind(str, Enum):
    """Who sits in a seat; the value is the record's (and the profile's) word."""

    HUMAN = "human"
    BOT = "bot"

    def __str__(self) -> str:
        return self.value


class MatchKind(str, Enum):
    """What a record holds: one game, or a session of games; the value is the record's word."""

    GAME = "game"
    SESSION = "session"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    kind: PlayerKind  # its word ("human", "bot") is taken too
    name: str
    level: str = ""  # the bot's level

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", PlayerKind(self.kind))

    @property
    def is_bot(self) -> bool:
        return self.kind is PlayerKind.BOT

    def line(self, number: int) -> str:
        level = f" {self.level}" if self.is_bot else ""
        return f"player {number} {self.kind.value}{level}: {escape_name(self.name)}"


def escape_name(name: str) -> str:
    r"""A name as a record line holds it: ``%``, ``#`` (a comment), control and format
    characters (a new line would end the line) and spaces at either end are written as
    ``%XX`` (their UTF-8 bytes), so any name comes back exactly.

    >>> escape_name("Ann#1\nrules rummy")
    'Ann%231%0Arules rummy'
    >>> unescape_name(escape_name(" 50% Zoë ")) == " 50% Zoë "
    True
    """
    out = []
    last = len(name) - 1
    for n, ch in enumerate(name):
        edge_space = ch.isspace() and (n == 0 or n == last)
        if ch in "%#" or edge_space or not ch.isprintable():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def unescape_name(text: str) -> str:
    """The name :func:`escape_name` wrote (a stray ``%`` is left as it is)."""
    return unquote(text, errors="replace")


@dataclass(frozen=True, slots=True)
class Step:
    """One action line of a record: who played it, as written, and where (the line is
    where, not what: records that differ only in comments and blank lines are equal)."""

    player: int
    text: str
    line: int = field(default=0, compare=False)


@dataclass
class HandRecord:
    number: int
    dealer: int
    eleven: int  # 0 where a hand typed in from real cards leaves it out
    seed: int | None  # None: dealt with real cards, typed in
    p1: tuple[Card, ...]
    p2: tuple[Card, ...]
    stock: tuple[Card, ...]
    actions: list[Step] = field(default_factory=list)
    # Undos: how many actions were kept, and those taken back (not replayed).
    undone: list[tuple[int, tuple[Action, ...]]] = field(default_factory=list)
    result: tuple[int, int, int | None, str] | None = None  # scores, went out, end
    line: int = field(default=0, compare=False)
    # A hand dealt with real cards: the up-card (where the rules have one) and the
    # cards drawn from the stock, in order.
    up: Card | None = None
    drawn: tuple[Card, ...] | None = None
    lines: dict[str, int] = field(default_factory=dict, compare=False)  # where each line was


@dataclass
class RecordData:
    rules: str
    match: MatchKind
    seed: int | None  # None: a game played with real cards
    players: tuple[PlayerInfo, PlayerInfo]
    games: list[list[HandRecord]] = field(default_factory=list)
    # Records the game is also written to (``umtali play --record FILE``), absolute.
    copies: tuple[str, ...] = ()
    # Changes of who plays a seat: (the game's index, the change), in the record's order.
    stand_ins: list[tuple[int, StandIn]] = field(default_factory=list)
