"""Drawing: the stock, the top discard, and the top two discards."""

from __future__ import annotations

from dealing import deal, refused, run

# Player 1 discards 7D on the first turn and player 2 discards 8D or 8C on top
# of it, so player 1 then looks at a discard pile of two cards.
P1 = "6D 7D 2S 4S 6S 8S 10H QH AC 3C 5C"
P2 = "8D KS KC 2H 4H 6H 8C 5S 9H AS"


def two_on_pile(p2_discard: str) -> object:
    return run(deal(P1, P2, top="9C 2D"), f"discard 7D; draw; discard {p2_discard}")


def test_draw_takes_the_top_of_the_stock() -> None:
    hand = run(deal(P1, P2, top="9C 2D"), "discard 7D; draw")
    assert "9C" in hand.hand_of(2)
    assert hand.view(2).stock_size == 30


def test_take_puts_the_top_discard_in_the_hand() -> None:
    hand = run(deal(P1, P2, top="9C 2D"), "discard 7D; take")
    assert "7D" in hand.hand_of(2)
    assert hand.view(1).discard_top is None and hand.view(1).discard_size == 0
    # The take is public: player 1 knows player 2 holds 7D.
    assert [str(c) for c in hand.view(1).opponent_known] == ["7D"]


def test_take_refused_when_the_pile_is_empty() -> None:
    hand = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "AH 3H 5H 7H 9H 2C 4C 6C 8C 10C", top="KD")
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; play JS")  # out with no discard
    assert hand.went_out == 1
    assert hand.legal_actions() == ["draw"]
    assert "pile is empty" in refused(hand, "take")


def test_take_two_allowed_when_both_can_be_played() -> None:
    hand = two_on_pile("8D")
    assert "take 2" in hand.legal_actions()
    run(hand, "take 2")
    assert hand.legal_actions() == ["meld 8D 7D 6D"]


def test_take_two_refused_when_one_cannot_be_played() -> None:
    hand = two_on_pile("8C")
    assert hand.legal_actions() == ["draw", "take"]
    reason = refused(hand, "take 2")
    assert reason == "take 2 needs both cards to be playable this turn: 8C 7D cannot both be played"


def test_take_two_counts_one_card_played_off_the_other() -> None:
    # Player 2's club run makes 7C (under the top) playable, and 6C goes off 7C.
    p1 = "7C 2S 4S KS 8S 10S AH 3H 5H 9H 2D"
    p2 = "10C 9C 8C 6C KD KH 2H 4H 4D AD"
    hand = run(deal(p1, p2, top="10D"), "discard 7C; draw; meld 10C 9C 8C; discard 6C")
    assert "take 2" in hand.legal_actions()
    run(hand, "take 2; play 7C; play 6C")
    assert [str(p) for p in hand.side(1)] == ["7C (off 8C)", "6C (off 7C)"]


def test_a_jack_can_never_be_discarded() -> None:
    hand = deal("JH 2S 4S KS 8S 10S AC 3C 5C 7C 9D", "KH KC 2H 4H 6H 8C 5S 9H AS 3D")
    assert hand.legal_actions() == ["play JH"]
    assert "you still have playable cards: play JH" in refused(hand, "discard JH")


def test_take_two_both_must_be_played_neither_discarded() -> None:
    p1 = "6D 7H 7C 8D 9D 2S 4S 10S QH AC 3C"
    p2 = "7D KS KC 2H 4H 6H 8C 5S 9H AS"
    hand = run(deal(p1, p2, top="10C"), "discard 6D; draw; discard 7D; take 2")
    legal = hand.legal_actions()
    # The group of sevens would strand 6D (nothing could take it), so it is refused;
    # and The Rule lays the whole run 9-8-7-6D, never a part of it.
    assert "meld 7H 7D 7C" not in legal
    assert legal == ["meld 9D 8D 7D 6D"]
    assert "both must be played this turn" in refused(hand, "meld 7H 7D 7C")
    assert "you still have playable cards" in refused(hand, "discard 6D")
    run(hand, "meld 9D 8D 7D 6D")
    assert "discard 7H" in hand.legal_actions()


def test_a_single_taken_card_may_not_be_discarded() -> None:
    hand = two_on_pile("8C")
    run(hand, "take")
    assert "discard 8C" not in hand.legal_actions()
    reason = refused(hand, "discard 8C")
    assert "you took 8C from the discard pile this turn" in reason
    run(hand, "discard 2S")


def test_a_single_taken_card_may_be_discarded_when_it_is_the_last() -> None:
    hand = deal(
        "5S 5H QD 2C 4C 6C 8C AD 3D 9D KS",
        "6S 7S 8S 9S 10S 6H 7H 8H 9H 5C",
        top="2H 5D",
    )
    run(hand, "discard KS; draw; meld 10S 9S 8S 7S 6S; meld 9H 8H 7H 6H; discard 2H")
    run(hand, "draw; meld 5S 5H 5D; discard QD; take")
    assert "you still have playable cards" in refused(hand, "discard QD")
    run(hand, "play 5C")
    assert set(hand.legal_actions()) == {"discard QD", "discard QD down"}
    run(hand, "discard QD")
    assert hand.went_out == 2


# Player 1 lays a run, discards KC and keeps the rest; player 2 draws 10C and discards
# KH onto it.
def kings_on_pile(run_cards: str, kept: str) -> object:
    p1 = f"{run_cards} {kept} KC"
    p2 = "KH 3H 5H 7H 9H 2C 4C 6C 8C 4D"
    script = f"meld {run_cards}; discard KC; draw; discard KH"
    return run(deal(p1, p2, top="10C"), script)


def test_take_two_counts_a_going_out_pair_after_one_discard() -> None:
    hand = kings_on_pile("9S 8S 7S 6S 5S 4S 3S 2S AS", "9D")
    assert hand.hand_of(1) == ["9D"]
    assert "take 2" in hand.legal_actions()
    run(hand, "take 2")
    # Neither king may be the discard; the 9D before the going-out pair may go face down.
    assert hand.legal_actions() == ["discard 9D", "discard 9D down"]
    assert "neither may be discarded" in refused(hand, "discard KC")
    assert "neither may be discarded" in refused(hand, "discard KC down")
    run(hand, "discard 9D; meld KH KC")
    assert hand.went_out == 1


def test_after_take_two_the_discard_before_the_pair_may_go_face_down() -> None:
    hand = kings_on_pile("9S 8S 7S 6S 5S 4S 3S 2S AS", "9D")
    run(hand, "take 2; discard 9D down; meld KH KC")
    assert hand.went_out == 1
    assert hand.legal_actions() == ["draw"]  # the opponent's last turn draws blind


def test_take_two_refused_when_the_pair_could_not_take_you_out() -> None:
    # Holding two cards nothing takes, one discard cannot bring the hand down to the pair.
    hand = kings_on_pile("8S 7S 6S 5S 4S 3S 2S AS", "9D 2H")
    assert set(hand.hand_of(1)) == {"9D", "2H"}
    assert hand.legal_actions() == ["draw", "take"]
    assert "cannot both be played" in refused(hand, "take 2")
