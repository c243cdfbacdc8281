"""Rummy on the Umtali engine (RULES.md, "Rummy"): each rule that differs from
Umtali, on both sides."""

from __future__ import annotations

import itertools
import random

import pytest
from dealing import deal_in, refused, run

import umtali
from umtali.engine.cards import CARDS, Card, mask_of, rummy_points
from umtali.engine.hand import machine_of

JACKS_P1 = "10H JH QH JS JD JC KC QC 4S 5D"
JACKS_P2 = "9H KH 2S 3S 5C 6C 10S AH AD 9D"


def test_jacks_are_ordinary_cards_in_runs_and_groups() -> None:
    hand = run(deal_in("rummy", JACKS_P1, JACKS_P2, "2D", "9C"), "draw")
    legal = hand.legal_actions()
    assert {"meld QH JH 10H", "meld JS JD JC", "meld JS JH JD JC"} <= set(legal)
    # In Umtali a jack is never in a meld.
    family = run(deal_in("family", JACKS_P1, JACKS_P2, "2D", "9C"), "draw")
    assert "jacks are never part of a meld" in refused(family, "meld QH JH 10H")


def test_rummy_has_no_marriages_and_no_pairs() -> None:
    hand = run(deal_in("rummy", JACKS_P1, JACKS_P2, "2D", "9C"), "draw")
    assert "meld KC QC" not in hand.legal_actions()
    assert "is not a meld" in refused(hand, "meld KC QC")
    assert "is not a meld" in refused(hand, "meld 5D 4S")
    family = run(deal_in("family", JACKS_P1, JACKS_P2, "2D", "9C"), "draw")
    assert "meld KC QC" in family.legal_actions()


def test_lay_off_onto_the_opponents_meld_at_either_end() -> None:
    hand = run(deal_in("rummy", JACKS_P1, JACKS_P2, "2D", "9C 8S"), "draw")
    run(hand, "meld QH JH 10H; discard 5D; draw")
    assert str(hand.play("play 9H")) == "play 9H on 10H"
    assert str(hand.play("play KH")) == "play KH on QH"
    assert hand.side(2)[0].off == Card.parse("10H")
    assert "nothing on the table takes it" in refused(hand, "play 9D")


def test_a_rummy_count_is_the_sum_of_its_cards_values() -> None:
    one_suit = [rummy_points(c.bit) for c in CARDS if c.suit == CARDS[0].suit]
    assert one_suit == [*range(1, 11), 10, 10, 10]  # ace to ten, then J Q K
    rng = random.Random(5)
    for _ in range(500):
        cards = rng.sample(CARDS, rng.randrange(53))
        assert rummy_points(mask_of(cards)) == sum(rummy_points(c.bit) for c in cards)


RUMMY_P1 = "AH 2H 3H 4S 4D 4C 7C 8C 9C KS"
RUMMY_P2 = "KH QS 2S 3S 5C 6C 10S JD AD 9D"
P2_VALUE = 10 + 10 + 2 + 3 + 5 + 6 + 10 + 10 + 1 + 9


def test_going_out_ends_the_hand_at_once_and_going_rummy_doubles() -> None:
    hand = run(deal_in("rummy", RUMMY_P1, RUMMY_P2, "5D", "10C"), "draw")
    run(hand, "meld 3H 2H AH; meld 4S 4D 4C; meld 9C 8C 7C; play 10C")
    assert hand.legal_actions() == ["discard KS"]
    assert "every discard is face up" in refused(hand, "discard KS down")
    run(hand, "discard KS")
    assert hand.is_over and hand.went_out == 1 and not hand.last_turn
    assert rummy_points(machine_of(hand).forfeit) == P2_VALUE
    assert hand.scores == (2 * P2_VALUE, 0)


def test_having_melded_before_scores_the_hand_once() -> None:
    hand = deal_in("rummy", RUMMY_P1, RUMMY_P2, "5D", "QD 6H 10C")
    run(hand, "draw; meld 3H 2H AH; discard QD; draw; discard 6H; draw")
    run(hand, "meld 4S 4D 4C; meld 9C 8C 7C; play 10C; discard KS")
    assert hand.is_over and hand.scores == (P2_VALUE, 0)


def test_a_meld_of_the_last_cards_goes_out_without_a_discard() -> None:
    p1 = "AH 2H 3H 4S 4D 4C 7C 8C 9C 10C"
    hand = run(deal_in("rummy", p1, RUMMY_P2, "5D", "JC"), "draw; meld 3H 2H AH; meld 4S 4D 4C")
    assert not hand.is_over
    run(hand, "meld JC 10C 9C 8C 7C")
    assert hand.is_over and hand.went_out == 1 and hand.scores == (2 * P2_VALUE, 0)
    assert not any(a.startswith("discard") for a in hand.actions())


def test_the_card_taken_may_not_be_discarded() -> None:
    hand = run(deal_in("rummy", RUMMY_P1, RUMMY_P2, "5D"), "take")
    assert "you may not discard it" in refused(hand, "discard 5D")
    assert "discard KS" in hand.legal_actions()


def greedy(hand: umtali.Hand, rng: random.Random) -> str:
    legal = hand.legal_actions()
    plays = [a for a in legal if a.startswith(("meld", "play"))]
    return rng.choice(plays or legal)


def test_a_game_runs_to_150_and_the_deal_alternates() -> None:
    rng = random.Random(5)
    game = umtali.Game("rummy", seed=5)
    while not game.is_over:
        hand = game.next_hand()
        while not hand.is_over:
            hand.play(greedy(hand, rng))
        results = game.results
        if not game.is_over:
            assert max(game.totals) < 150 or game.totals[0] == game.totals[1]
    dealers = [r.dealer for r in game.results]
    assert all(a != b for a, b in itertools.pairwise(dealers))
    assert max(game.totals) >= 150 and game.winner == (1 if game.totals[0] > game.totals[1] else 2)
    assert len(results) >= 2
    for r in results:
        assert 0 in r.scores  # only the player who went out scores


@pytest.mark.parametrize("rules", ["classic", "family", "practical"])
def test_umtali_games_are_four_hands(rules: str) -> None:
    rng = random.Random(2)
    game = umtali.Game(rules, seed=2)
    while not game.is_over:
        hand = game.next_hand()
        while not hand.is_over:
            hand.play(greedy(hand, rng))
    assert len(game.results) >= 4 and game.totals[0] != game.totals[1]
