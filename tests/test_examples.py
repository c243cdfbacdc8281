"""The worked examples of the rule book (spec section 5), each played out."""

from __future__ import annotations

from dealing import deal, refused, run


def test_example_1_must_meld_run_and_group_then_discard() -> None:
    hand = deal("8S 7S 6S 9D 9C 9H 2C KD 4H QC AD", "AS 3S 5H 7H 2D 6D 8C 10C QH 4C")
    assert hand.legal_actions() == ["meld 8S 7S 6S", "meld 9H 9D 9C"]
    assert "you still have playable cards" in refused(hand, "discard 2C")
    run(hand, "meld 8S 7S 6S; meld 9H 9D 9C")
    assert all(a.startswith("discard") for a in hand.legal_actions())
    run(hand, "discard 2C")
    assert hand.to_move == 2


def test_example_2_additions_off_the_opponents_run_and_solo() -> None:
    hand = deal(
        "6H 5H 4H JC 10C 2D 4D 8D QS 5S 7C",
        "7H 3H 10D 9C KS AD 5C 8S 6D 2S",
        top="4S",
    )
    run(hand, "meld 6H 5H 4H; play JC; play 10C; discard 8D; draw")
    playable = {a for a in hand.legal_actions() if a.startswith("play")}
    assert playable == {"play 7H", "play 3H", "play 10D", "play 9C"}
    assert "nothing on the table takes it" in refused(hand, "play KS")
    run(hand, "play 7H on 6H; play 3H; play 10D on 10C; play 9C on 10C")
    assert hand.legal_actions() == [f"discard {c}" for c in hand.hand_of(2)]
    run(hand, "discard KS")
    # Everything played off player 1's cards lies on player 2's own side.
    assert [str(p) for p in hand.side(2)] == [
        "7H (off 6H)",
        "3H (off 4H)",
        "10D (off 10C)",
        "9C (off 10C)",
    ]
    assert len(hand.side(1)) == 3


def test_example_3_marriage_or_group_is_the_players_choice() -> None:
    p1 = "QH KH QS QD AS 3C 5D 7S 9H 2H 4C"
    p2 = "AD 2D 4D 6D 8D 10D 3S 5S 9S 6C"
    hand = deal(p1, p2)
    assert set(hand.legal_actions()) == {"meld KH QH", "meld QS QH QD"}
    run(hand, "meld KH QH")
    assert hand.scores == (20, 0)
    # The pair of queens left is not playable: it would not take the player out.
    assert all(a.startswith("discard") for a in hand.legal_actions())
    assert "only when it takes you out" in refused(hand, "meld QS QD")
    other = run(deal(p1, p2), "meld QS QH QD")
    assert other.scores == (15, 0)
    assert all(a.startswith("discard") for a in other.legal_actions())


def test_example_4_the_rule_melds_before_additions() -> None:
    hand = deal(
        "JD AS 3S 5S 7S 9S 2H 4H 6H 8H KC",
        "10D 10S 10H 4C 2C 6C 8C QH AD 5D",
        top="3D",
    )
    run(hand, "play JD; discard KC; draw")
    reason = refused(hand, "play 10D")
    assert reason == "10D is in the group 10S 10H 10D you hold: meld it first (The Rule)"
    assert hand.legal_actions() == ["meld 10S 10H 10D"]
    run(hand, "meld 10S 10H 10D")
    assert all(a.startswith("discard") for a in hand.legal_actions())


def test_example_5_a_pair_that_is_the_whole_hand_goes_out() -> None:
    hand = deal(
        "2C 4C 6C 8C 10C AD 3D 9D KS QH 2H",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 5C",
        top="4H 7D 5D",
    )
    run(hand, "discard KS; draw; meld 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4H")
    run(hand, "draw; discard 7D; draw")
    assert hand.hand_of(2) == ["5D", "5C"]
    assert hand.legal_actions() == ["meld 5D 5C"]
    assert "you still have playable cards" in refused(hand, "discard 5C")
    run(hand, "meld 5D 5C")
    assert hand.went_out == 2 and hand.to_move == 1 and not hand.is_over


def test_example_6_last_turn_after_a_face_down_discard_forfeits() -> None:
    hand = deal(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D",
        "JS KH QH 2H 3H 4H 7C 7D 7H 9D",
        top="KC",
    )
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D down")
    assert hand.went_out == 1
    assert hand.legal_actions() == ["draw"]
    assert "face down" in refused(hand, "take")
    run(hand, "draw; play JS; meld KH QH; meld 4H 3H 2H; meld 7H 7D 7C")
    assert hand.is_over
    assert [str(c) for c in hand.forfeited] == ["9D", "KC"]
    # Player 1: run A-10 of spades (14) and the forfeits at plain value (1 + 5).
    assert hand.scores == (14 + 6, 5 + 20 + 3 + 3)


def test_example_7_scoring_solos_run_and_marriage() -> None:
    hand = deal(
        "JH 10C 9C 4S 3S 2S KD QD QS AD",
        "JC AH 3H 5H 7H 9H 2D 4D 6D 8D KH",
        top="6C",
        eleven=2,
    )
    run(hand, "play JC; discard KH")
    run(hand, "draw; play JH; play 10C; play 9C; meld 4S 3S 2S; meld KD QD; discard 6C")
    assert hand.scores[0] == 5 + 5 + 1 + 3 + 20 == 34
