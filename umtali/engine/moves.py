"""The engine's one move vocabulary, and the seam between its two forms.

A move is spoken of in two ways.  :class:`umtali.Action` is the public, typed
value: what a player types, a seat answers, a view lists and a record stores.
On the hot path (listing and applying moves thousands of times a second in a
search) a move is a plain ``(kind, card set)`` pair of ints, the kind from
:class:`MoveKind`.  :func:`to_move` and :func:`to_action` are the only way
between the two; notation is always :class:`Action`'s, never written here.

>>> from umtali.engine.actions import Action
>>> move = to_move(Action.parse("meld 7S 6S 5S"))
>>> move[0] == MoveKind.MELD, str(to_action(move))
(True, 'meld 7S 6S 5S')
>>> str(to_action((ADD_UP, Action.parse("play 8H").mask), Action.parse("play 7H").cards[0].index))
'play 8H on 7H'
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import BITS, CARDS, JACKS, cards_of
from umtali.engine.rules import RuleSet

Move = tuple[int, int]


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


# Plain ints for the hot path: comparing with an int constant is cheaper than with
# an enum member.  They are the enum's values, so the two can be mixed.
DRAW = int(MoveKind.DRAW)
TAKE = int(MoveKind.TAKE)
TAKE_TWO = int(MoveKind.TAKE_TWO)
MELD = int(MoveKind.MELD)
PLAY = int(MoveKind.PLAY)
DISCARD = int(MoveKind.DISCARD)
DISCARD_DOWN = int(MoveKind.DISCARD_DOWN)
REBUILD = int(MoveKind.REBUILD)
SKIP_DRAW = int(MoveKind.SKIP_DRAW)
TAKE_NEXT = int(MoveKind.TAKE_NEXT)
TAKE_FROM = int(MoveKind.TAKE_FROM)
END = int(MoveKind.END)
ADD_RANK = int(MoveKind.ADD_RANK)
ADD_UP = int(MoveKind.ADD_UP)
ADD_DOWN = int(MoveKind.ADD_DOWN)
ADD_JACK = int(MoveKind.ADD_JACK)

DRAW_KINDS = (DRAW, TAKE, TAKE_TWO)
#: Log entries that record no move of a player.
NOT_MOVES = (REBUILD, SKIP_DRAW)
#: Every move kind that plays a single card.
SINGLE_PLAYS = (PLAY, ADD_RANK, ADD_UP, ADD_DOWN, ADD_JACK)

_NO_CARDS = {
    DRAW: ActionKind.DRAW,
    TAKE: ActionKind.TAKE,
    TAKE_TWO: ActionKind.TAKE_TWO,
    TAKE_NEXT: ActionKind.TAKE_NEXT,
    END: ActionKind.END,
}
_KIND_OF_ACTION = {
    ActionKind.DRAW: DRAW,
    ActionKind.TAKE: TAKE,
    ActionKind.TAKE_TWO: TAKE_TWO,
    ActionKind.TAKE_NEXT: TAKE_NEXT,
    ActionKind.END: END,
    ActionKind.TAKE_FROM: TAKE_FROM,
    ActionKind.MELD: MELD,
    ActionKind.PLAY: PLAY,
}


@lru_cache(maxsize=4096)
def to_action(move: Move, target: int = -1) -> Action:
    """The Action a move is; ``target`` (a card index) names the card a single play goes
    on (an addition that several melds take always names one).  Actions are values, so
    each is made once."""
    kind, mask = move
    words = _NO_CARDS.get(kind)
    if words is not None:
        return Action(words)
    cards = tuple(cards_of(mask))
    if kind == MELD:
        return Action(ActionKind.MELD, cards)
    if kind in SINGLE_PLAYS:
        return Action(ActionKind.PLAY, cards, CARDS[target] if target >= 0 else None)
    if kind == TAKE_FROM:
        return Action(ActionKind.TAKE_FROM, cards)
    if kind in (DISCARD, DISCARD_DOWN):
        return Action(ActionKind.DISCARD, cards, down=kind == DISCARD_DOWN)
    raise ValueError(f"{MoveKind(kind).name} is a log entry, not a move")


def way_onto(bit: int, target: int, jacks_alone: bool) -> int:
    """The ``ADD_...`` kind of a card (``bit``) joining the meld that holds the table
    card ``target`` (an index), given that the meld takes it: by rank, off a lone
    jack, or up or down a run."""
    if jacks_alone and BITS[target] & JACKS:
        return ADD_JACK
    i = bit.bit_length() - 1
    if i % 13 == target % 13:
        return ADD_RANK
    return ADD_UP if i > target else ADD_DOWN


def to_move(action: Action, rules: RuleSet | None = None) -> Move:
    """The hot-path move an action asks for.

    A play's target is not part of a ``PLAY`` move (the classic machine checks it
    apart).  Where additions extend one meld (``rules.one_meld_additions``), a
    play naming its target is the ``ADD_...`` move of that meld: the form in which
    such a machine lists a card that several melds take.
    """
    if action.kind is ActionKind.DISCARD:
        return (DISCARD_DOWN if action.down else DISCARD, action.mask)
    if action.target is not None and rules is not None and rules.one_meld_additions:
        bit = action.cards[0].bit
        return (way_onto(bit, action.target.index, rules.jacks_alone), bit)
    kind = _KIND_OF_ACTION[action.kind]
    return (kind, action.mask if action.cards else 0)


def move_text(move: Move, target: int = -1) -> str:
    """A move in notation (Action's), for messages."""
    return str(to_action(move, target))


__all__ = [
    "ADD_DOWN",
    "ADD_JACK",
    "ADD_RANK",
    "ADD_UP",
    "DISCARD",
    "DISCARD_DOWN",
    "DRAW",
    "DRAW_KINDS",
    "END",
    "MELD",
    "NOT_MOVES",
    "PLAY",
    "REBUILD",
    "SINGLE_PLAYS",
    "SKIP_DRAW",
    "TAKE",
    "TAKE_FROM",
    "TAKE_NEXT",
    "TAKE_TWO",
    "Move",
    "MoveKind",
    "move_text",
    "to_action",
    "to_move",
    "way_onto",
]
