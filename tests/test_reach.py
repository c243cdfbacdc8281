"""The take-two look-ahead, checked against a search that tries every order.

``can_play_all`` plays every free card at once and branches only on melds;
that is sound only if an addition can never spoil a later play.  The slow
reference below branches on every single play and every order.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st
from reference import ref_rule_melds

from umtali.engine.cards import CARDS, JACKS, Card, indices, mask_of
from umtali.engine.melds import SOLO_ACCEPTS, PieceKind, is_pair, meldable
from umtali.engine.reach import can_play_all, meld_accepts
from umtali.engine.rules import CLASSIC
from umtali.engine.state import DRAW_PHASE, HandState


@cache
def slow(hand: int, accept: int, required: int) -> bool:
    if not hand & required:
        return True
    mel = meldable(hand)
    options = []
    for m in ref_rule_melds([c for c in CARDS if c.bit & hand]):
        options.append((hand & ~m, accept | meld_accepts(m)))
    for i in indices(hand):
        bit = 1 << i
        if bit & JACKS or (accept & bit and not mel & bit):
            options.append((hand & ~bit, accept | SOLO_ACCEPTS[i]))
    if is_pair(hand):
        return True
    if not options and hand.bit_count() == 3:
        return any(is_pair(hand & ~(1 << i)) for i in indices(hand & ~required))
    return any(slow(h, a, required) for h, a in options)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(CARDS), min_size=2, max_size=9, unique=True),
    st.lists(st.sampled_from(CARDS), max_size=10),
    st.data(),
)
def test_can_play_all_agrees_with_exhaustive_search(
    hand: list[Card], table: list[Card], data: st.DataObject
) -> None:
    mask = mask_of(hand)
    accept = 0
    for c in table:
        accept |= SOLO_ACCEPTS[c.index]
    accept &= ~mask | accept  # the table may accept cards in the hand
    req_cards = data.draw(st.lists(st.sampled_from(hand), min_size=1, max_size=2, unique=True))
    required = mask_of(req_cards)
    assert can_play_all(mask, accept, required) == slow(mask, accept, required)


def test_a_meld_choice_can_strand_a_card_and_the_search_sees_the_other_choice() -> None:
    hand = mask_of(Card.parse(t) for t in ["7H", "7C", "7D", "6D", "8D", "9D"])
    required = mask_of([Card.parse("6D"), Card.parse("7D")])
    assert can_play_all(hand, 0, required)
    # Without 8D, 6D and 7D can only be played in a run that is no longer there.
    assert not can_play_all(hand & ~Card.parse("8D").bit, 0, required)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(CARDS), min_size=3, max_size=11, unique=True),
    st.lists(st.sampled_from(CARDS), max_size=8, unique=True),
)
def test_take_two_agrees_with_exhaustive_search(cards: list[Card], table: list[Card]) -> None:
    # The last two cards are the top of the discard pile; table cards lie as solo pieces.
    *held, under, top = cards
    table = [c for c in table if c not in cards]
    state = HandState.from_parts(
        CLASSIC,
        hands=(mask_of(held), 0),
        stock_top_first=[],
        pile=[under.index, top.index],
        pile_down=False,
        sides=([(PieceKind.SOLO, c.bit, -1, SOLO_ACCEPTS[c.index]) for c in table], []),
        mover=0,
        phase=DRAW_PHASE,
    )
    two = under.bit | top.bit
    assert state.can_take_two() == slow(mask_of(held) | two, state.accept, two)
