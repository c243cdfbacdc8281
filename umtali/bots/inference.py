"""Reading the opponent's hand from what they did in public: weights, not only rules.

:class:`~umtali.bots.knowledge.Knowledge` already knows what the rules
prove (cards taken openly are held; where play is compulsory, no jack, no
meld and no card the table took is kept).  Players also give themselves
away by habit, and this module turns those habits into a weight for every
unseen card (1.0 for a card nothing is known of):

* a card they **discarded** says they did not need it: its neighbours and
  its rank-mates are less likely in their hand;
* a face-up discard they **passed** (drawing from the stock instead) would
  have scored with a pair or a near-run: cards that make a meld with it are
  less likely;
* a card they **took** (and still hold, or played) was wanted: the cards
  that go with it are more likely;
* where melding is optional, a card the table took at the end of their turn,
  or a meld they could have laid, may still be held back, but less often.

Only the viewer's events are read: this never looks at a hidden card.
"""

from __future__ import annotations

from umtali.bots.knowledge import Knowledge, Reading, accepted_then
from umtali.engine.cards import RANK_MASKS
from umtali.engine.events import EventKind
from umtali.engine.melds import SOLO_ACCEPTS
from umtali.engine.view import PlayerView

#: How much each kind of evidence moves a card's weight.
DISCARDED = 0.6  # a neighbour or rank-mate of a card they threw away
PASSED = 0.7  # a card that would have made a meld with a discard they left
WANTED = 1.5  # a card that goes with one they took from the pile
NOT_LAID = 0.5  # optional melding: a card the table took that they did not play
FLOOR = 0.15
#: Where melding is optional: how often a sampled hand that could lay a meld is kept.
HOLDS = 0.35


def _near(index: int) -> int:
    """Cards that meld with card ``index``: its rank-mates and the two each side in its suit."""
    rank = index % 13
    suit_base = index - rank
    near = RANK_MASKS[rank] & ~(1 << index)
    for d in (-2, -1, 1, 2):
        r = rank + d
        if 0 <= r < 13:
            near |= 1 << (suit_base + r)
    return near


NEAR = tuple(_near(i) for i in range(52))


def _scale(weights: list[float], mask: int, factor: float) -> None:
    while mask:
        low = mask & -mask
        mask ^= low
        i = low.bit_length() - 1
        weights[i] = min(4.0, max(FLOOR, weights[i] * factor))


def read_opponent(view: PlayerView, know: Knowledge) -> Reading:
    """The weights of :mod:`this module <umtali.bots.inference>` for ``view``'s opponent."""
    me = view.player
    weights = [1.0] * 52
    last_mine: int | None = None  # my last face-up discard, until the opponent draws
    for e in view.events:
        if e.player == me:
            if e.kind is EventKind.DISCARD and e.cards and not e.down:
                last_mine = e.cards[0].index
            elif e.kind is not EventKind.DISCARD:
                last_mine = None
            continue
        if e.kind is EventKind.DRAW and last_mine is not None:
            _scale(weights, NEAR[last_mine], PASSED)
        elif e.kind is EventKind.DISCARD and e.cards:
            _scale(weights, SOLO_ACCEPTS[e.cards[0].index], DISCARDED)
        elif e.kind.is_take:
            for card in e.cards:
                _scale(weights, NEAR[card.index], WANTED)
        last_mine = None
    if not view.rules.mandatory_play and any(e.player != me for e in view.events):
        _scale(weights, accepted_then(view, know.sides), NOT_LAID)
    return Reading(tuple(weights), HOLDS)


__all__ = ["HOLDS", "NEAR", "read_opponent"]
