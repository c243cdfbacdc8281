"""Dealing: a hand's cards from a seed, or given explicitly and checked.

:func:`deal_cards` shuffles and deals as a dealer would (or checks a deal it is
given) and says who deals and who plays first; :func:`umtali.deal_hand` puts
the cards on a machine.  :class:`Deal` is what a record keeps of it.

>>> dealt = deal_cards("classic", None, None, None, 1, None, 7)
>>> dealt.dealer, dealt.eleven, len(dealt.p1), len(dealt.p2), len(dealt.stock)
(1, 1, 11, 10, 31)
>>> dealt.deal().stock[0] == Card.from_index(dealt.stock[0])
True
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from umtali.engine.cards import CARDS, Card
from umtali.engine.errors import InvalidDeal
from umtali.engine.rand import shuffle
from umtali.engine.rules import RuleSet, rules_named

CardLike = Card | str


class Dealt(NamedTuple):
    """A deal as card indices (cheap: one is made for every simulated hand)."""

    rules: RuleSet
    p1: list[int]
    p2: list[int]
    stock: list[int]  # top first
    dealer: int  # 1 or 2
    eleven: int  # who holds the extra card and plays first
    seed: int
    # The cards drawn from the stock, in order, where a person typed them in (a game
    # played with real cards); None for a shuffled deal.
    drawn: tuple[int, ...] | None = None

    def deal(self) -> Deal:
        """The deal as a record keeps it."""
        return Deal(tuple(self.p1), tuple(self.p2), tuple(self.stock), *self[4:])


def seat_of(player: int) -> int:
    """The machine's seat (0 or 1) of player 1 or 2."""
    if player not in (1, 2):
        raise ValueError(f"players are 1 and 2, not {player!r}")
    return player - 1


def _card(c: CardLike) -> Card:
    return c if isinstance(c, Card) else Card.parse(c)


@dataclass(frozen=True, slots=True)
class Deal:
    """How a hand was dealt: enough, with the actions, to replay it exactly.

    The cards are kept as indices (a deal is made for every simulated hand,
    so it must be cheap); ``p1``, ``p2`` and ``stock`` give them as cards.
    """

    p1_index: tuple[int, ...]
    p2_index: tuple[int, ...]
    stock_index: tuple[int, ...]  # top first
    dealer: int  # 1 or 2
    eleven: int  # who was dealt the extra card and plays first
    seed: int  # also fixes how an exhausted stock is rebuilt
    # The cards drawn from the stock in the order drawn, for a deal typed in from real
    # cards (:mod:`umtali.engine.real_deal`); they, not the seed, order a rebuilt stock.
    drawn_index: tuple[int, ...] | None = None

    @property
    def p1(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in self.p1_index)

    @property
    def p2(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in self.p2_index)

    @property
    def stock(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in self.stock_index)

    @property
    def drawn(self) -> tuple[Card, ...] | None:
        """The cards drawn from the stock, as typed in; None for a shuffled deal."""
        drawn = self.drawn_index
        return None if drawn is None else tuple(CARDS[i] for i in drawn)


def told_stock(cards: Sequence[int], coming: Sequence[int]) -> list[int]:
    """A stock rebuilt from ``cards`` (the discard pile under its top) in the order the
    record says its cards were drawn: ``coming`` (the cards still to be drawn, in
    order) as far as they are in it, then the rest by rank and suit.  Returned bottom
    first, as a machine keeps its stock.  A card of ``coming`` that is not in the
    pile ends the known part: the record's check then finds that draw wrong.

    >>> told_stock([5, 9, 2, 7], [7, 2, 30, 5])
    [9, 5, 2, 7]
    """
    left = set(cards)
    top: list[int] = []
    for card in coming:
        if card not in left:
            break
        left.discard(card)
        top.append(card)
    return sorted(left, reverse=True) + top[::-1]


_DECK = list(range(52))


def deal_cards(
    rules: str | RuleSet,
    p1: Sequence[CardLike] | None,
    p2: Sequence[CardLike] | None,
    stock: Sequence[CardLike] | None,
    dealer: int,
    eleven: int | None,
    seed: int | None,
    drawn: Sequence[CardLike] | None = None,
) -> Dealt:
    """The cards of :func:`umtali.deal_hand`'s deal (its arguments, its checks)."""
    rs = rules_named(rules)
    seat_of(dealer)
    if rs.up_card:
        if eleven not in (None, 3 - dealer):
            raise InvalidDeal(f"in {rs.name} the non-dealer, player {3 - dealer}, plays first")
        eleven = 3 - dealer
    eleven = dealer if eleven is None else eleven
    seat_of(eleven)
    if seed is None:
        seed = random.SystemRandom().getrandbits(63)
    # An int seeds the generator's C core exactly as random.Random would, only
    # sooner; anything else goes through random.Random's own seeding.
    rng = _random.Random(seed) if type(seed) is int else random.Random(seed)
    if p1 is None and p2 is None:
        if stock is not None:
            raise InvalidDeal("a stock can be given only with both hands")
        deck = _DECK[:]
        shuffle(deck, rng)
        small, big = rs.small_hand, rs.big_hand
        # One card at a time, the non-dealer first; then the extra card.
        non_dealer = deck[0 : 2 * small : 2]
        dealers = deck[1 : 2 * small : 2]
        extra = deck[2 * small : small + big]
        if eleven == dealer:
            dealers += extra
        else:
            non_dealer += extra
        if dealer == 1:
            return Dealt(rs, dealers, non_dealer, deck[small + big :], dealer, eleven, seed)
        return Dealt(rs, non_dealer, dealers, deck[small + big :], dealer, eleven, seed)
    if p1 is None or p2 is None:
        raise InvalidDeal("give both hands, p1 and p2, or neither")
    hands = ([_card(c) for c in p1], [_card(c) for c in p2])
    rest = [] if stock is None else [_card(c) for c in stock]
    used = hands[0] + hands[1] + rest
    if len(set(used)) != len(used):
        dup = sorted({str(c) for c in used if used.count(c) > 1})
        raise InvalidDeal(f"a card is dealt twice: {', '.join(dup)}")
    if stock is None:
        rest = [c for c in CARDS if c not in set(used)]
        shuffle(rest, rng)
    elif len(used) != 52:
        raise InvalidDeal(f"the deal holds {len(used)} cards, not 52")
    told = None if drawn is None else tuple(_card(c).index for c in drawn)
    if told is not None:
        first = [c.index for c in rest[int(rs.up_card) : int(rs.up_card) + len(told)]]
        if stock is None or first != list(told[: len(first)]):
            raise InvalidDeal("the cards drawn must be the stock's top (under any up-card)")
    sizes = {eleven: rs.big_hand, 3 - eleven: rs.small_hand}
    for who in (1, 2):
        if len(hands[who - 1]) != sizes[who]:
            raise InvalidDeal(
                f"player {who} is dealt {len(hands[who - 1])} cards, not {sizes[who]}"
                f" (player {eleven} takes the extra card)"
            )
    return Dealt(
        rs,
        [c.index for c in hands[0]],
        [c.index for c in hands[1]],
        [c.index for c in rest],
        dealer,
        eleven,
        seed,
        told,
    )
