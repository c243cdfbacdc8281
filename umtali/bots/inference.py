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

Where play is compulsory (classic) the weights are fitted rather than set by
hand: a logistic model of "this unseen card is in their hand" on the evidence
above, split by how the card stands to the one in question (a rank-mate, one
away in its suit, two away), with more for their last two discards and a
tilt towards high cards that follows the rank of their last discard.  It was
fitted to 11,500 decisions of ``hard`` against ``hard`` (deal bank v3, 300
matches, the true hand of the opponent beside each view).  Fitted on one half,
it read the other half's hidden cards better than the hand-set weights: a
log-loss a card of 0.479 against their 0.485 (0.498 with no reading).  The
factors below are the fit to all of it, rounded.  A hand is also read as a
whole: one in which their last discard was not among the cards least worth
keeping is mostly drawn again, for ``hard`` and ``normal`` throw what their
habit values least.

Only the viewer's events are read: this never looks at a hidden card.
"""

from __future__ import annotations

from umtali.bots.knowledge import Knowledge, Reading, accepted_then
from umtali.engine.cards import FIVES, RANK_MASKS
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

#: Where play is compulsory, the fitted factors for the cards that stand to a card
#: of theirs as (a rank-mate, one away in its suit, two away in its suit):
THREW = (0.3, 0.67, 1.24)  # a card they discarded face up
THREW_LATELY = (0.7, 0.9, 0.75)  # and again for their last two discards
LEFT = (0.76, 1.12, 1.24)  # the face-up discard of mine they passed over
TOOK = (1.94, 1.15, 1.0)  # a card they took from the pile
#: A ten or a court card, after their last discard was one too, or a low card.
HIGH_AFTER_HIGH = 1.85
HIGH_AFTER_LOW = 1.4
#: How often a sampled hand is kept in which their last discard was not among the
#: cards least worth keeping (:meth:`~umtali.bots.knowledge.Knowledge.fair_discard`).
ODD_DISCARD = 0.3


def _scale(weights: list[float], mask: int, factor: float) -> None:
    while mask:
        low = mask & -mask
        mask ^= low
        i = low.bit_length() - 1
        weights[i] = min(4.0, max(FLOOR, weights[i] * factor))


def _ties(index: int) -> tuple[int, int, int]:
    """Card ``index``'s rank-mates, its suit neighbours one away, and two away."""
    rank = index % 13
    suit_base = index - rank
    ones = twos = 0
    for d in (-2, -1, 1, 2):
        if 0 <= rank + d < 13:
            if abs(d) == 1:
                ones |= 1 << (suit_base + rank + d)
            else:
                twos |= 1 << (suit_base + rank + d)
    return (RANK_MASKS[rank] & ~(1 << index), ones, twos)


TIES = tuple(_ties(i) for i in range(52))
#: Cards that meld with each card: its rank-mates and the two each side in its suit.
NEAR = tuple(mates | ones | twos for mates, ones, twos in TIES)


def _scale_ties(weights: list[float], index: int, factors: tuple[float, float, float]) -> None:
    for mask, factor in zip(TIES[index], factors, strict=True):
        _scale(weights, mask, factor)


#: What the opponent did with a card seen: passed it over on the pile, threw it, took it.
LEFT_IT, THREW_IT, TOOK_IT = range(3)


def _evidence(view: PlayerView) -> list[tuple[int, int]]:
    """What ``view``'s opponent did with cards the viewer saw, oldest first:
    (``LEFT_IT``, ``THREW_IT`` or ``TOOK_IT``, the card's index)."""
    me = view.player
    found: list[tuple[int, int]] = []
    last_mine: int | None = None  # my last face-up discard, until the opponent draws
    for e in view.events:
        if e.player == me:
            if e.kind is EventKind.DISCARD and e.cards and not e.down:
                last_mine = e.cards[0].index
            elif e.kind is not EventKind.DISCARD:
                last_mine = None
            continue
        if e.kind is EventKind.DRAW and last_mine is not None:
            found.append((LEFT_IT, last_mine))
        elif e.kind is EventKind.DISCARD and e.cards:
            found.append((THREW_IT, e.cards[0].index))
        elif e.kind.is_take:
            found.extend((TOOK_IT, card.index) for card in e.cards)
        last_mine = None
    return found


def read_opponent(view: PlayerView, know: Knowledge) -> Reading:
    """The weights of :mod:`this module <umtali.bots.inference>` for ``view``'s opponent."""
    evidence = _evidence(view)
    if view.rules.mandatory_play:
        return _read_compulsory(evidence)
    weights = [1.0] * 52
    for what, index in evidence:
        if what == LEFT_IT:
            _scale(weights, NEAR[index], PASSED)
        elif what == THREW_IT:
            _scale(weights, SOLO_ACCEPTS[index], DISCARDED)
        else:
            _scale(weights, NEAR[index], WANTED)
    if any(e.player != view.player for e in view.events):
        _scale(weights, accepted_then(view, know.sides), NOT_LAID)
    return Reading(tuple(weights), HOLDS)


def _read_compulsory(evidence: list[tuple[int, int]]) -> Reading:
    """The fitted reading, where play is compulsory."""
    weights = [1.0] * 52
    for what, index in evidence:
        if what == LEFT_IT:
            _scale_ties(weights, index, LEFT)
        elif what == TOOK_IT:
            _scale_ties(weights, index, TOOK)
    thrown = [index for what, index in evidence if what == THREW_IT]
    for n, index in enumerate(reversed(thrown)):
        _scale_ties(weights, index, THREW)
        if n < 2:
            _scale_ties(weights, index, THREW_LATELY)
    if thrown:
        high = HIGH_AFTER_HIGH if FIVES >> thrown[-1] & 1 else HIGH_AFTER_LOW
        _scale(weights, FIVES, high)
    return Reading(tuple(weights), thrown=thrown[-1] if thrown else -1, odd_discard=ODD_DISCARD)


__all__ = ["HOLDS", "NEAR", "TIES", "read_opponent"]
