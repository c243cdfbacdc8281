"""The engine's three kinds of move, and the one table that ties them together.

A move has a kind in each of the engine's three forms, and each form makes
distinctions the others do not:

* :class:`ActionKind`: what a player types and a record stores (its values are
  the notation's verbs).  A discard face down is still a discard.
* :class:`MoveKind`: the hot path's plain ints.  A face-down discard is a kind of
  its own, and so is each way an addition joins a meld (``ADD_RANK`` …); two
  entries of the machines' log are no move at all (``REBUILD``, ``SKIP_DRAW``).
* :class:`EventKind`: what happened, as the history tells it.

They are kept apart because they answer different questions (a move kind
that a player cannot type has no place in the notation, nor a table event in
what a player may do).  What joins them is :data:`KINDS`, one row per move
kind naming its action kind and its event kind; every mapping between the
three is read off that table here, and nowhere else.

>>> ACTION_OF_MOVE[MoveKind.DISCARD_DOWN], EVENT_OF_MOVE[MoveKind.SKIP_DRAW]
(<ActionKind.DISCARD: 'discard'>, <EventKind.NO_DRAW: 'no draw'>)
>>> MOVE_OF_ACTION[ActionKind.DISCARD] == MoveKind.DISCARD
True
>>> ACTION_OF_EVENT[EventKind.TAKE_TWO]
<ActionKind.TAKE_TWO: 'take 2'>
"""

from __future__ import annotations

from enum import Enum, IntEnum


class ActionKind(Enum):
    """What a player may do; the values are the notation's words."""

    DRAW = "draw"
    TAKE = "take"
    TAKE_TWO = "take 2"
    TAKE_NEXT = "take next"  # family: the next discard, after playing the taken one
    TAKE_FROM = "take from"  # practical: a card deep in the pile, with all above it
    END = "end"  # end a last turn (where melding is optional)
    MELD = "meld"
    PLAY = "play"
    DISCARD = "discard"


class MoveKind(IntEnum):
    """Every kind of move on the hot path, and the two log entries that are not moves."""

    DRAW = 0
    TAKE = 1
    TAKE_TWO = 2
    MELD = 3
    PLAY = 4  # a single card: a jack, or an addition the table takes one way
    DISCARD = 5
    DISCARD_DOWN = 6
    REBUILD = 7  # log only: the discard pile, less its top, shuffled into a new stock
    SKIP_DRAW = 8  # log only: a last turn with no card left to draw
    TAKE_NEXT = 9  # family: the next discard, after playing the taken one
    TAKE_FROM = 10  # practical: a card deep in the pile, with every card above it
    END = 11  # the end of a last turn where melding is optional
    # An addition that more than one meld takes, by the way it joins the one the
    # player names (see :mod:`umtali.engine.extend`).
    ADD_RANK = 12
    ADD_UP = 13
    ADD_DOWN = 14
    ADD_JACK = 15


class EventKind(Enum):
    """What a player did, or what the table did for them."""

    DRAW = "draw"  # from the stock
    TAKE = "take"  # the top discard
    TAKE_TWO = "take 2"  # the top two discards together (classic)
    TAKE_NEXT = "take next"  # the next discard, after playing the taken one (family)
    TAKE_FROM = "take from"  # a card deep in the pile with every card above it (practical)
    MELD = "meld"
    PLAY = "play"  # a single card: a jack, or an addition to the table
    DISCARD = "discard"
    END = "end"  # the end of a last turn where melding is optional
    REBUILD = "rebuild"  # the pile, less its top, shuffled into a new stock
    NO_DRAW = "no draw"  # a last turn with no card left to draw

    @property
    def is_take(self) -> bool:
        """A card or cards taken from the discard pile, seen by both players."""
        return self in _TAKES


#: The one table: each move kind, the action kind it is (None: the table's doing,
#: no player's) and the event kind it makes.  Where two move kinds are one action
#: (a discard face down, an addition by way of a named meld), the first row is the
#: move an action asks for.
KINDS: tuple[tuple[MoveKind, ActionKind | None, EventKind], ...] = (
    (MoveKind.DRAW, ActionKind.DRAW, EventKind.DRAW),
    (MoveKind.TAKE, ActionKind.TAKE, EventKind.TAKE),
    (MoveKind.TAKE_TWO, ActionKind.TAKE_TWO, EventKind.TAKE_TWO),
    (MoveKind.TAKE_NEXT, ActionKind.TAKE_NEXT, EventKind.TAKE_NEXT),
    (MoveKind.TAKE_FROM, ActionKind.TAKE_FROM, EventKind.TAKE_FROM),
    (MoveKind.END, ActionKind.END, EventKind.END),
    (MoveKind.MELD, ActionKind.MELD, EventKind.MELD),
    (MoveKind.PLAY, ActionKind.PLAY, EventKind.PLAY),
    (MoveKind.ADD_RANK, ActionKind.PLAY, EventKind.PLAY),
    (MoveKind.ADD_UP, ActionKind.PLAY, EventKind.PLAY),
    (MoveKind.ADD_DOWN, ActionKind.PLAY, EventKind.PLAY),
    (MoveKind.ADD_JACK, ActionKind.PLAY, EventKind.PLAY),
    (MoveKind.DISCARD, ActionKind.DISCARD, EventKind.DISCARD),
    (MoveKind.DISCARD_DOWN, ActionKind.DISCARD, EventKind.DISCARD),
    (MoveKind.REBUILD, None, EventKind.REBUILD),
    (MoveKind.SKIP_DRAW, None, EventKind.NO_DRAW),
)

#: How many cards an action of each kind names (a meld names two or more: absent).
ARITY: dict[ActionKind, int] = {
    ActionKind.DRAW: 0,
    ActionKind.TAKE: 0,
    ActionKind.TAKE_TWO: 0,
    ActionKind.TAKE_NEXT: 0,
    ActionKind.TAKE_FROM: 1,
    ActionKind.END: 0,
    ActionKind.PLAY: 1,
    ActionKind.DISCARD: 1,
}

#: The words an action of each kind is written with before its cards: the verb, and
#: for two takes the word after it (a take from deep in the pile is ``take`` and its
#: card).  The prompt's verbs and short aliases are read off this table.
WORDS: dict[ActionKind, tuple[str, ...]] = {
    ActionKind.DRAW: ("draw",),
    ActionKind.TAKE: ("take",),
    ActionKind.TAKE_TWO: ("take", "2"),
    ActionKind.TAKE_NEXT: ("take", "next"),
    ActionKind.TAKE_FROM: ("take",),
    ActionKind.END: ("end",),
    ActionKind.MELD: ("meld",),
    ActionKind.PLAY: ("play",),
    ActionKind.DISCARD: ("discard",),
}

# Every mapping below is read off KINDS; the hot path's dicts are keyed by plain ints
# (a MoveKind is one), so a log entry's int finds its row directly.
ACTION_OF_MOVE: dict[int, ActionKind] = {int(m): a for m, a, _ in KINDS if a is not None}
EVENT_OF_MOVE: dict[int, EventKind] = {int(m): e for m, _, e in KINDS}
MOVE_OF_ACTION: dict[ActionKind, int] = {}
ACTION_OF_EVENT: dict[EventKind, ActionKind] = {}
for _move, _action, _event in KINDS:
    if _action is not None:
        MOVE_OF_ACTION.setdefault(_action, int(_move))
        ACTION_OF_EVENT.setdefault(_event, _action)
del _move, _action, _event

#: Log entries that record no move of a player, and the events they make.
NOT_MOVES: tuple[int, ...] = tuple(int(m) for m, a, _ in KINDS if a is None)
NOT_PLAYED: frozenset[EventKind] = frozenset(e for _, a, e in KINDS if a is None)
#: Every move kind that plays a single card.
SINGLE_PLAYS: tuple[int, ...] = tuple(int(m) for m, a, _ in KINDS if a is ActionKind.PLAY)
#: Move kinds whose action names no card, with that action's kind.
NO_CARDS: dict[int, ActionKind] = {m: a for m, a in ACTION_OF_MOVE.items() if ARITY.get(a) == 0}

_TAKES = frozenset({EventKind.TAKE, EventKind.TAKE_TWO, EventKind.TAKE_NEXT, EventKind.TAKE_FROM})

__all__ = [
    "ACTION_OF_EVENT",
    "ACTION_OF_MOVE",
    "ARITY",
    "EVENT_OF_MOVE",
    "KINDS",
    "MOVE_OF_ACTION",
    "NOT_MOVES",
    "NOT_PLAYED",
    "NO_CARDS",
    "SINGLE_PLAYS",
    "WORDS",
    "ActionKind",
    "EventKind",
    "MoveKind",
]
