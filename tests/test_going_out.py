"""Going out (all played, last discard, or a pair), the last turn and forfeits."""

from __future__ import annotations

from dealing import deal, refused, run

import umtali

# Player 2 melds two runs on the first turn and keeps a pair and one card.
PAIR_P1 = "2C 4C 6C 8C 10C AD 3D 9D KS QH 2H"
PAIR_P2 = "6S 7S 8S 9S 10S 6H 7H 8H 5C 5D"


def pair_and_one() -> umtali.Hand:
    hand = deal(PAIR_P1, PAIR_P2, top="AH 4S")
    run(hand, "discard KS; draw; meld 10S 9S 8S 7S 6S; meld 8H 7H 6H")
    assert hand.hand_of(2) == ["AH", "5D", "5C"]
    return hand


def test_discard_then_lay_the_pair_to_go_out() -> None:
    hand = pair_and_one()
    reason = refused(hand, "meld 5D 5C")
    assert reason == (
        "a pair may be laid only when it takes you out: you would still hold 1 card "
        "(discard the other card first, then lay the pair)"
    )
    assert hand.legal_actions() == ["discard AH", "discard 5D", "discard 5C", "discard AH down"]
    run(hand, "discard AH")
    # Down to a pair: it is playable, so it must be laid.
    assert hand.legal_actions() == ["meld 5D 5C"]
    assert "discarded down to a pair" in refused(hand, "discard 5C")
    run(hand, "meld 5D 5C")
    assert hand.went_out == 2 and hand.to_move == 1
    assert hand.view(1).discard_top is not None  # a face-up discard may be taken
    assert hand.legal_actions() == ["draw", "take"]


def test_only_a_discard_that_takes_you_out_may_go_face_down() -> None:
    hand = pair_and_one()
    # Discarding 5C keeps AH 5D: no pair, so no way out and no face-down discard.
    assert refused(hand, "discard 5C down") == (
        "only a discard that takes you out may go face down: your last card, "
        "or the card you discard before laying your last pair"
    )
    # With more than three cards in hand no discard can leave a going-out pair.
    six = deal(PAIR_P1, PAIR_P2.replace("8H", "2D"), top="AH 4S")
    run(six, "discard KS; draw; meld 10S 9S 8S 7S 6S")
    assert six.hand_of(2) == ["AH", "6H", "7H", "2D", "5D", "5C"]
    assert six.legal_actions() == [f"discard {c}" for c in six.hand_of(2)]
    assert "may go face down" in refused(six, "discard 2D down")


# The rule book's lesson game, hand 3: "Discards the 2-Diamonds, face down, and goes out
# with a pair of 3's".  Player 2 draws 2D, lays two runs and holds 3C 3D 2D.
BOOK_P1 = "2C 4C 6C 8C 10C AD 4D 9D KS QH 2H"
BOOK_P2 = "6S 7S 8S 9S 10S 6H 7H 8H 3C 3D"


def test_the_discard_before_a_going_out_pair_may_go_face_down() -> None:
    hand = deal(BOOK_P1, BOOK_P2, top="2D KC")
    run(hand, "discard KS; draw; meld 10S 9S 8S 7S 6S; meld 8H 7H 6H")
    assert hand.hand_of(2) == ["2D", "3D", "3C"]
    assert "discard 2D down" in hand.legal_actions()
    run(hand, "discard 2D down")
    assert hand.legal_actions() == ["meld 3D 3C"]
    run(hand, "meld 3D 3C")
    assert hand.went_out == 2 and hand.to_move == 1
    # The book's self-test, question 9: can you draw this discard from the pile?  No.
    view = hand.view(1)
    assert view.discard_top is None and view.discard_down
    assert (2, "discard face down") in view.history  # player 1 never learns the card
    assert hand.legal_actions() == ["draw"]
    assert refused(hand, "take") == "the top discard is face down: draw from the stock"
    run(hand, "draw")
    assert hand.is_over and hand.went_out == 2
    assert "KC" in [str(c) for c in hand.forfeited]  # nothing to play: all forfeited


def test_keeping_the_pair_by_discarding_one_of_it_ends_the_turn() -> None:
    hand = pair_and_one()
    run(hand, "discard 5C")
    assert hand.to_move == 1 and hand.went_out is None


def test_going_out_by_playing_every_card_needs_no_discard() -> None:
    hand = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "AH 3H 5H 7H 9H 2C 4C 6C 8C 10C", top="KD")
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; play JS")
    assert hand.went_out == 1 and hand.to_move == 2 and hand.view(2).last_turn
    assert hand.view(2).discard_size == 0


def test_last_turn_both_go_out_and_nothing_is_forfeited() -> None:
    hand = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D", "JH JD JC AH 2H 3H KD QD QC 4C")
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D")
    assert hand.went_out == 1
    assert hand.legal_actions() == ["draw", "take"]  # a face-up discard may be taken
    run(hand, "take; play JH; play JD; play JC; play QC; meld 3H 2H AH; meld KD QD")
    assert hand.hand_of(2) == ["4D", "4C"] and hand.legal_actions() == ["meld 4D 4C"]
    run(hand, "meld 4D 4C")
    assert hand.is_over and hand.forfeited == () and hand.went_out == 1
    assert hand.scores == (14, 15 + 5 + 3 + 20 + 2)


def test_last_turn_with_nothing_to_do_ends_the_hand_at_once() -> None:
    hand = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D", "KH QS 2H 5H 7C 9C 2D 6D 8D AC", top="3C")
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D down; draw")
    assert hand.is_over and hand.to_move is None
    assert len(hand.forfeited) == 11
    assert hand.scores == (14 + 5 + 5 + 1 * 9, 0)
    assert refused(hand, "discard KH") == "the hand is over"


def test_last_turn_may_discard_only_to_leave_a_pair() -> None:
    hand = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D", "JH JD JC AH 2H 3H KD QD 5C 5H", top="9C")
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D; draw")
    run(hand, "play JH; play JD; play JC; meld 3H 2H AH; meld KD QD")
    assert hand.hand_of(2) == ["5H", "5C", "9C"]
    assert hand.legal_actions() == ["discard 9C", "discard 9C down"]
    assert "this is your last turn" in refused(hand, "discard 5C")
    assert "this is your last turn" in refused(hand, "discard 5C down")
    run(hand, "discard 9C; meld 5H 5C")
    assert hand.is_over and hand.forfeited == ()


def test_the_discard_before_a_last_turn_pair_may_go_face_down() -> None:
    hand = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D", "JH JD JC AH 2H 3H KD QD 5C 5H", top="9C")
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D; draw")
    run(hand, "play JH; play JD; play JC; meld 3H 2H AH; meld KD QD")
    run(hand, "discard 9C down")
    assert hand.legal_actions() == ["meld 5H 5C"]
    run(hand, "meld 5H 5C")
    assert hand.is_over and hand.forfeited == () and hand.went_out == 1


def test_the_opponent_plays_off_a_pair_on_the_last_turn() -> None:
    hand = deal(
        "4C 6C 8C 10C AD 3D 9D KS QH AH QC",
        "6S 7S 8S 9S 10S 6H 7H 8H 2C 2D",
        top="5D 2S",
    )
    run(hand, "discard KS; draw; meld 10S 9S 8S 7S 6S; meld 8H 7H 6H; discard 5D")
    run(hand, "meld 2D 2C")
    assert hand.went_out == 2
    run(hand, "draw")
    assert hand.legal_actions() == ["play 2S"]
    run(hand, "play 2S")
    assert [str(p) for p in hand.side(1)] == ["2S (off 2D)"]
    assert hand.is_over and len(hand.forfeited) == 10
