"""One fixed integer action space for every legal move in every variant.

OpenSpiel and PettingZoo want each move as an int below a fixed bound; the engine
speaks :class:`~umtali.engine.actions.Action`.  :func:`action_id` and
:func:`action_of_id` are the one mapping between the two, the same in every
variant (an id a variant never uses is simply never legal there).  The layout,
``NUM_ACTIONS`` = 930 ids in all:

=========  =====  ===========================================================
ids        count  action
=========  =====  ===========================================================
0 – 4      5      ``draw``, ``take``, ``take 2``, ``take next``, ``end``
5 – 56     52     ``take <card>`` (practical's deep take), by card index
57 – 511   455    ``meld <cards>``: every card set that is a meld in some
                  variant (see :data:`MELDS`)
512 – 823  312    ``play <card> [on <card>]``: ``512 + 6 * card + slot``;
                  slot 0 names no target (the engine finds it), slots 1–3
                  name the card's rank-mates (spades, hearts, diamonds,
                  clubs, skipping itself), slot 4 the card one below it in
                  its suit, slot 5 the card one above
824 – 875  52     ``discard <card>`` face up, by card index
876 – 927  52     ``discard <card> down``
928 – 929  2      the dealer's choice in classic, in a whole game
                  (:mod:`umtali.research.game_episode`): ``keep the eleventh
                  card`` (928) or ``give the eleventh card`` (929); they are
                  no engine :class:`~umtali.Action` (the engine is dealt its
                  hands), so :func:`choice_id` and :func:`choice_of_id` map
                  them to :class:`Eleven`
=========  =====  ===========================================================

A card's index is the engine's: ``13 * suit + rank``, suits S H D C, ranks A to K.

**Melds are enumerated, not split into sub-actions.**  There are only 455 card
sets that any variant lays as one meld: every run of two to thirteen cards in
one suit (312: the two-card runs are family's going-out meld, and a queen and
king of one suit are Umtali's marriage; the long runs through the jack are
Rummy's) and every two, three or four cards of one rank (143: going-out pairs
and groups).  One id for each keeps
every id one whole engine move, as OpenSpiel's gin rummy does with its 185
melds: a history is the list of moves a record stores, every state reached is
one the rules know (no half-laid meld, which the engine has no notion of and
whose legality, under the Rule's whole-column melding, only the whole meld
decides), and a search tree is no deeper than the game.  The cost is a wider
action mask, which a legal-action mask makes harmless.

**A play names its target by where it stands to the card**, not by the table
card's own index: every card that can take an addition is a rank-mate or a suit
neighbour of it (a group's lowest card, a run's end card, a lone card or a jack
one step away), so six slots a card cover every play in every variant.

>>> action_id(Action.parse("draw")), action_id(Action.parse("discard 4C down"))
(0, 918)
>>> str(action_of_id(action_id(Action.parse("play 5H on 4H"))))
'play 5H on 4H'
>>> str(action_of_id(57)), len(MELDS)
('meld 2S AS', 455)
>>> choice_id(Eleven.GIVE), str(choice_of_id(929)), Eleven.parse("keep the eleventh card")
(929, 'give the eleventh card', <Eleven.KEEP: 'keep the eleventh card'>)
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from itertools import combinations

from umtali.engine.actions import (
    DRAW_ACTION,
    END_ACTION,
    TAKE_ACTION,
    TAKE_NEXT_ACTION,
    TAKE_TWO_ACTION,
    Action,
)
from umtali.engine.cards import CARDS, cards_of
from umtali.engine.kinds import ActionKind


def _melds() -> tuple[int, ...]:
    """Every card set some variant lays as one meld, in a fixed order."""
    runs = [
        sum(1 << (13 * suit + r) for r in range(low, high + 1))
        for suit in range(4)
        for low in range(13)
        for high in range(low + 1, 13)
    ]
    groups = [
        sum(1 << (13 * suit + rank) for suit in suits)
        for rank in range(13)
        for size in (2, 3, 4)
        for suits in combinations(range(4), size)
    ]
    # A marriage (the queen and king of a suit) is a two-card run's card set.
    return tuple(runs + groups)


#: The meld card sets, in id order (:data:`MELD_BASE` + position).
MELDS: tuple[int, ...] = _melds()
_MELD_ID: dict[int, int] = {mask: n for n, mask in enumerate(MELDS)}

#: The actions that name no card, in id order.
SIMPLE: tuple[Action, ...] = (
    DRAW_ACTION,
    TAKE_ACTION,
    TAKE_TWO_ACTION,
    TAKE_NEXT_ACTION,
    END_ACTION,
)
TAKE_FROM_BASE = len(SIMPLE)
MELD_BASE = TAKE_FROM_BASE + 52
PLAY_BASE = MELD_BASE + len(MELDS)
PLAY_SLOTS = 6
DISCARD_BASE = PLAY_BASE + PLAY_SLOTS * 52
DISCARD_DOWN_BASE = DISCARD_BASE + 52
CHOICE_BASE = DISCARD_DOWN_BASE + 52
NUM_ACTIONS = CHOICE_BASE + 2


class NoActionId(ValueError):
    """An action or id outside the space (a play onto a card that could never take it,
    an id out of range)."""


class Eleven(Enum):
    """The classic dealer's choice of who takes the eleventh card (and moves first)."""

    KEEP = "keep the eleventh card"
    GIVE = "give the eleventh card"

    def __str__(self) -> str:
        return self.value

    @staticmethod
    def parse(text: str) -> Eleven:
        """The choice ``text`` names (:class:`NoActionId` if none)."""
        try:
            return Eleven(text.strip())
        except ValueError:
            raise NoActionId(
                f"{text!r} is no choice of the eleventh card: "
                f"{Eleven.KEEP.value!r} or {Eleven.GIVE.value!r}"
            ) from None


_CHOICES = tuple(Eleven)


def choice_id(choice: Eleven) -> int:
    """The id of the dealer's choice (928 keeps the eleventh card, 929 gives it)."""
    return CHOICE_BASE + _CHOICES.index(choice)


def choice_of_id(number: int) -> Eleven:
    """The dealer's choice with id ``number``; :class:`NoActionId` for any other id."""
    if not CHOICE_BASE <= number < NUM_ACTIONS:
        raise NoActionId(f"action id {number} is no choice of the eleventh card (928 or 929)")
    return _CHOICES[number - CHOICE_BASE]


def _targets(card: int) -> tuple[int | None, ...]:
    """The target of each play slot of ``card`` (None: no target, or no such card)."""
    suit, rank = divmod(card, 13)
    mates = tuple(13 * s + rank for s in range(4) if s != suit)
    below = card - 1 if rank > 0 else None
    above = card + 1 if rank < 12 else None
    return (None, *mates, below, above)


_TARGETS: tuple[tuple[int | None, ...], ...] = tuple(_targets(c) for c in range(52))
_SLOT: tuple[dict[int, int], ...] = tuple(
    {t: slot for slot, t in enumerate(targets) if t is not None} for targets in _TARGETS
)
_SIMPLE_ID: dict[ActionKind, int] = {a.kind: n for n, a in enumerate(SIMPLE)}


@lru_cache(maxsize=8192)
def action_id(action: Action) -> int:
    """The id of ``action`` (see the module docstring); :class:`NoActionId` if none."""
    kind = action.kind
    simple = _SIMPLE_ID.get(kind)
    if simple is not None:
        return simple
    first = action.cards[0].index
    if kind is ActionKind.TAKE_FROM:
        return TAKE_FROM_BASE + first
    if kind is ActionKind.DISCARD:
        return (DISCARD_DOWN_BASE if action.down else DISCARD_BASE) + first
    if kind is ActionKind.MELD:
        found = _MELD_ID.get(action.mask)
        if found is None:
            raise NoActionId(f"{action} lays no meld of any variant")
        return MELD_BASE + found
    slot = 0
    if action.target is not None:
        got = _SLOT[first].get(action.target.index)
        if got is None:
            raise NoActionId(f"{action}: {action.target} could never take {action.cards[0]}")
        slot = got
    return PLAY_BASE + PLAY_SLOTS * first + slot


@lru_cache(maxsize=8192)
def action_of_id(number: int) -> Action:
    """The action with id ``number``; :class:`NoActionId` if there is none."""
    if not 0 <= number < NUM_ACTIONS:
        raise NoActionId(f"action ids run from 0 to {NUM_ACTIONS - 1}, not {number}")
    if number >= CHOICE_BASE:
        raise NoActionId(f"action id {number} is the dealer's {choice_of_id(number)}, no move")
    if number < TAKE_FROM_BASE:
        return SIMPLE[number]
    if number < MELD_BASE:
        return Action(ActionKind.TAKE_FROM, (CARDS[number - TAKE_FROM_BASE],))
    if number < PLAY_BASE:
        return Action(ActionKind.MELD, tuple(cards_of(MELDS[number - MELD_BASE])))
    if number < DISCARD_BASE:
        card, slot = divmod(number - PLAY_BASE, PLAY_SLOTS)
        target = _TARGETS[card][slot]
        if slot and target is None:
            raise NoActionId(f"action id {number}: {CARDS[card]} has no card on that side")
        return Action(ActionKind.PLAY, (CARDS[card],), None if target is None else CARDS[target])
    if number < DISCARD_DOWN_BASE:
        return Action(ActionKind.DISCARD, (CARDS[number - DISCARD_BASE],))
    return Action(ActionKind.DISCARD, (CARDS[number - DISCARD_DOWN_BASE],), down=True)


def valid_ids() -> list[int]:
    """Every id that names an engine action (the edge slots of aces and kings name none;
    the two choices of the eleventh card are :func:`choice_of_id`'s)."""
    out = []
    for n in range(NUM_ACTIONS):
        try:
            action_of_id(n)
        except NoActionId:
            continue
        out.append(n)
    return out


__all__ = [
    "CHOICE_BASE",
    "DISCARD_BASE",
    "DISCARD_DOWN_BASE",
    "MELDS",
    "MELD_BASE",
    "NUM_ACTIONS",
    "PLAY_BASE",
    "TAKE_FROM_BASE",
    "Eleven",
    "NoActionId",
    "action_id",
    "action_of_id",
    "choice_id",
    "choice_of_id",
    "valid_ids",
]
