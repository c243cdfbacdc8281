"""The deal: sizes, dealing order, the extra card, the opening turn without a draw."""

from __future__ import annotations

import random

import pytest
from dealing import deal, refused
from hypothesis import given, settings
from hypothesis import strategies as st

import umtali
from umtali.engine.cards import CARDS
from umtali.engine.hand import machine_of
from umtali.engine.rand import shuffle


@pytest.mark.parametrize("dealer,eleven", [(1, 1), (1, 2), (2, 2), (2, 1)])
def test_seeded_deal_sizes_and_who_starts(dealer: int, eleven: int) -> None:
    hand = umtali.deal_hand(seed=11, dealer=dealer, eleven=eleven)
    sizes = {1: len(hand.hand_of(1)), 2: len(hand.hand_of(2))}
    assert sizes[eleven] == 11 and sizes[3 - eleven] == 10
    assert len(machine_of(hand).stock) == 31
    assert hand.to_move == eleven
    assert machine_of(hand).cards_accounted()


def test_dealer_keeps_the_extra_card_by_default() -> None:
    assert umtali.deal_hand(seed=3, dealer=2).to_move == 2


def test_cards_are_dealt_one_at_a_time_starting_with_the_non_dealer() -> None:
    deck = list(CARDS)
    random.Random(5).shuffle(deck)
    hand = umtali.deal_hand(seed=5, dealer=1, eleven=1)
    assert hand.cards_in_hand(2) == sorted(deck[0:20:2], key=lambda c: c.index)
    assert hand.cards_in_hand(1) == sorted([*deck[1:20:2], deck[20]], key=lambda c: c.index)
    assert [c.index for c in hand.deal.stock] == [c.index for c in deck[21:]]
    while hand.to_move == 1:  # play the opening turn out
        hand.play(hand.legal_actions()[0])
    hand.play("draw")
    assert str(deck[21]) in hand.hand_of(2)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([1, 2]))
def test_a_seed_deals_the_deck_random_random_would_shuffle(seed: int, dealer: int) -> None:
    deck = list(range(52))
    shuffle(deck, random.Random(seed))
    dealt = umtali.deal_hand(seed=seed, dealer=dealer).deal
    dealers, others = (*deck[1:20:2], deck[20]), tuple(deck[0:20:2])
    assert (dealt.p1_index, dealt.p2_index) == (
        (dealers, others) if dealer == 1 else (others, dealers)
    )
    assert dealt.stock_index == tuple(deck[21:])


def test_the_deal_stays_as_dealt_through_play_and_clones() -> None:
    hand = umtali.deal_hand(seed=21)
    early = hand.clone()
    while not hand.is_over:
        hand.play(hand.legal_actions()[-1])
    assert hand.deal == early.deal == umtali.deal_hand(seed=21).deal
    assert hand.deal is hand.deal  # made once, then kept


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    assert umtali.deal_hand(seed=9).deal == umtali.deal_hand(seed=9).deal
    assert umtali.deal_hand(seed=9).deal != umtali.deal_hand(seed=10).deal


def test_opening_turn_has_no_draw_then_the_next_player_must_draw() -> None:
    hand = deal("AS 3S 5S 7S 9S 2H 4H 6H 8H 10H QC", "AD 3D 5D 7D 9D 2C 4C 6C 8C 10C")
    assert not {"draw", "take", "take 2"} & set(hand.legal_actions())
    assert "no draw on this turn" in refused(hand, "draw")
    hand.play("discard QC")
    assert hand.legal_actions() == ["draw", "take"]
    assert "draw first" in refused(hand, "discard 2C")


@pytest.mark.parametrize(
    "p1,p2,stock,message",
    [
        ("AS " * 11, "2S", None, "dealt twice"),
        ("AS 2S", "3S", None, "not 11"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H", ["KS"], "not 52"),
    ],
)
def test_explicit_deals_are_checked(
    p1: str, p2: str, stock: list[str] | None, message: str
) -> None:
    with pytest.raises(umtali.InvalidDeal, match=message):
        umtali.deal_hand(p1.split(), p2.split(), stock)


def test_explicit_deal_with_full_stock_is_kept_exactly() -> None:
    deck = [str(c) for c in CARDS]
    hand = umtali.deal_hand(deck[:11], deck[11:21], deck[21:], dealer=1, eleven=1)
    assert hand.hand_of(1) == deck[:11]
    assert [str(c) for c in hand.deal.stock] == deck[21:]
    assert machine_of(hand).stock[-1] == CARDS[21].index  # the first listed card is on top
