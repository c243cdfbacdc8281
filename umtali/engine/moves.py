"""The engine's one move vocabulary, and the seam between its two forms.

A move is spoken of in two ways.  :class:`umtali.Action` is the public, typed
value: what a player types, a seat answers, a view lists and a record stores.
On the hot path (listing and applying moves thousands of times a second in a
search) a move is a plain ``(kind, card set)`` pair of ints, the kind from
:class:`MoveKind`.  :func:`to_move` and :func:`to_action` are the only way
between the two (the hand's resolving of a typed play goes through them too);
the kinds they map between are read off the one table in
:mod:`umtali.engine.kinds`.  Notation is
always :class:`Action`'s, never written here.

>>> from umtali.engine.actions import Action
>>> move = to_move(Action.parse("meld 7S 6S 5S"))
>>> move[0] == MoveKind.MELD, str(to_action(move))
(True, 'meld 7S 6S 5S')
>>> str(to_action((ADD_UP, Action.parse("play 8H").mask), Action.parse("play 7H").cards[0].index))
'play 8H on 7H'
"""

from __future__ import annotations

from functools import lru_cache

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import BITS, CARDS, JACKS, cards_of
from umtali.engine.kinds import (
    ACTION_OF_MOVE,
    MOVE_OF_ACTION,
    NO_CARDS,
    NOT_MOVES,
    SINGLE_PLAYS,
    MoveKind,
)
from umtali.engine.rules import RuleSet

Move = tuple[int, int]


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


@lru_cache(maxsize=4096)
def to_action(move: Move, target: int = -1) -> Action:
    """The Action a move is; ``target`` (a card index) names the card a single play goes
    on (an addition that several melds take always names one).  Actions are values, so
    each is made once."""
    kind, mask = move
    action = ACTION_OF_MOVE.get(kind)
    if action is None:
        raise ValueError(f"{MoveKind(kind).name} is a log entry, not a move")
    if kind in NO_CARDS:
        return Action(action)
    on = CARDS[target] if target >= 0 and action is ActionKind.PLAY else None
    return Action(action, tuple(cards_of(mask)), on, kind == DISCARD_DOWN)


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
    kind = MOVE_OF_ACTION[action.kind]
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
