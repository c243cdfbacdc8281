"""The play step: melds, jacks, additions by the solo rule, The Rule, mandatory play."""

from __future__ import annotations

from dealing import deal, deal_in, refused, run

DEAD_P2 = "AD 2D 4D 6D 8D 10D 3S 5S 9S 6C"


def test_meld_shapes_through_the_engine() -> None:
    hand = deal("AS 2S 3S 5S KS QH 9H 9C 9D 7C 4D", "AH 2H 4H 6H 8H 10H 3C 5C JC KD")
    assert set(hand.legal_actions()) == {"meld 3S 2S AS", "meld 9H 9D 9C"}
    assert "is not a meld" in refused(hand, "meld 5S 3S 2S")
    assert "is not a meld" in refused(hand, "meld KS QH")  # a marriage is one suit
    assert "is not a meld" in refused(hand, "meld AS 2S 3S 5S")
    assert "is not in your hand" in refused(hand, "meld KH QH")
    run(hand, "meld 3S 2S AS; meld 9H 9D 9C")
    assert hand.view(1).sides[0][0].cards[0].rank_name == "3"  # highest card on top


def test_ace_is_low_so_a_king_does_not_run_into_it() -> None:
    hand = deal("AS KS QS 5H 7H 9H 2D 4D 6D 8C 10C", "AH 3H 2C 4C 6C 10D 3S 5S 9S 7D")
    assert hand.legal_actions() == ["meld KS QS"]
    assert "is not a meld" in refused(hand, "meld AS KS QS")


def test_jacks_are_always_playable_alone_and_never_meld() -> None:
    hand = deal("JS JH JD 10S 9S 2H 4H 6C 8C AD 3D", "AH 3H 5H 7H 9H KS 2C 4C 6D 8D")
    assert set(hand.legal_actions()) == {"play JS", "play JH", "play JD"}
    assert "jacks are never part of a meld" in refused(hand, "meld JS JH JD")
    assert "is not a meld" in refused(hand, "meld 10S 9S")
    assert "a jack is played alone" in refused(hand, "play JS on 10S")
    run(hand, "play JS; play JH; play JD")
    # JS takes 10S; 9S then goes off 10S: the run J-10-9 is played solo by solo.
    assert set(hand.legal_actions()) == {"play 10S"}
    run(hand, "play 10S on JS; play 9S on 10S")
    assert [str(p) for p in hand.side(1)] == ["JS", "JH", "JD", "10S (off JS)", "9S (off 10S)"]


def test_a_run_takes_its_two_end_cards_only() -> None:
    hand = deal(
        "6C 5C 4C 2S 4S 8S 10S QH AD 3D 9D",
        "7C 3C 5H 5D 8C KS 2H 10H 6H 9H",
        top="KH",
    )
    run(hand, "meld 6C 5C 4C; discard 9D; draw")
    assert {a for a in hand.legal_actions() if a.startswith("play")} == {"play 7C", "play 3C"}
    assert "nothing on the table takes it" in refused(hand, "play 5H")
    assert "nothing on the table takes it" in refused(hand, "play 8C")
    run(hand, "play 7C on 6C")
    assert "play 8C" in hand.legal_actions()  # 7C is a solo card now, and takes 8C
    assert "KH (off" not in str(hand.side(2))


def test_a_group_takes_its_rank_and_nothing_else() -> None:
    hand = deal(
        "9S 9H 9D 2S 4S KS QH AD 3D 6C 7H",
        "9C 10S 8S 2H 4H 6H 10H QC AS 5C",
        top="KD",
    )
    run(hand, "meld 9S 9H 9D; discard 7H; draw")
    assert {a for a in hand.legal_actions() if a.startswith("play")} == {"play 9C"}
    assert "nothing on the table takes it" in refused(hand, "play 10S")


def test_solo_card_takes_rank_and_suit_neighbours_from_either_side() -> None:
    hand = deal(
        "JC 2S 4S 6S 8S 10H QH AD 3D 5D 7D",
        "QC 10C 10D JH 2H 4H 6H 8H AS 3C",
        top="KD",
    )
    run(hand, "play JC; discard 7D; draw")
    # Off player 1's JC: QC, 10C (suit neighbours) and JH (a jack anyway); then
    # 10D off 10C (same rank).
    legal = {a for a in hand.legal_actions() if a.startswith("play")}
    assert legal == {"play QC", "play 10C", "play JH"}
    assert "nothing on the table takes it" in refused(hand, "play 10D")
    run(hand, "play 10C on JC; play 10D on 10C")
    assert [str(p) for p in hand.side(2)] == ["10C (off JC)", "10D (off 10C)"]
    assert "10D does not take QC" in refused(hand, "play QC on 10D")
    assert "AS is not on the table" in refused(hand, "play QC on AS")
    run(hand, "play QC on JC")


def test_the_rule_forbids_an_addition_while_the_card_can_meld_in_hand() -> None:
    # Table: a solo 8H.  Hand: 7H 6H 5H (a run) - 7H would go off 8H, but must
    # be melded.
    hand = deal(
        "JH 2S 4S 6S 8S 10C QC AD 3D 5D 9D",
        "7H 6H 5H KS KC 2C 4C 6C 10S 3S",
        top="8H",
    )
    run(hand, "play JH; discard 9D")
    hand.play("draw")  # 8H is now in player 2's hand too: run 8-7-6-5
    reason = refused(hand, "play 8H")
    assert reason.endswith("you hold: meld it first (The Rule)")
    # The Rule covers the whole column: 7-6-5H may not go down leaving 8H to follow
    # as an addition.
    assert hand.legal_actions() == ["meld 8H 7H 6H 5H"]
    assert "would leave 8H in your hand" in refused(hand, "meld 7H 6H 5H")


def test_mandatory_play_no_discard_while_anything_is_playable() -> None:
    hand = deal("JS 9C 9H 9D 2S 4S 6S QH AC 3D 5D", DEAD_P2.replace("9S", "KS"))
    assert not [a for a in hand.legal_actions() if a.startswith("discard")]
    assert refused(hand, "discard 2S") == "you still have playable cards: meld 9H 9D 9C, play JS"
    run(hand, "play JS; meld 9H 9D 9C")
    assert sorted(hand.legal_actions()) == sorted(f"discard {c}" for c in hand.hand_of(1))


# The Rule covers the whole column (spec 3.2): a run or group laid from the hand takes
# in every hand card that extends it, unless that card can still meld with the rest.
WHOLE_P1 = "5C 4C 3C 2C 9H 9D 9S 9C KD 7H AS"
WHOLE_P2 = "2H 8S 5H 7S 4D 6H 10D 10S QH 4S"


def test_the_rule_lays_the_whole_run_and_the_whole_group() -> None:
    hand = deal(WHOLE_P1, WHOLE_P2, top="3S")
    assert hand.legal_actions() == ["meld 5C 4C 3C 2C", "meld 9S 9H 9D 9C"]
    assert refused(hand, "meld 5C 4C 3C") == (
        "meld 5C 4C 3C would leave 2C in your hand, but it belongs in that column: "
        "The Rule lays the whole column (meld 5C 4C 3C 2C)"
    )
    assert "would leave 5C in your hand" in refused(hand, "meld 4C 3C 2C")
    assert "would leave 9S in your hand" in refused(hand, "meld 9H 9D 9C")
    run(hand, "meld 5C 4C 3C 2C; meld 9S 9H 9D 9C; discard KD; draw")
    # No 2C or 9S went down alone, so nothing on the table takes 2H or 8S.
    assert hand.legal_actions() == [f"discard {c}" for c in hand.hand_of(2)]
    assert "nothing on the table takes it" in refused(hand, "play 2H")
    assert "nothing on the table takes it" in refused(hand, "play 8S")


def test_the_rule_lets_a_card_of_the_column_go_into_another_meld() -> None:
    # 5-4-3-2C with 2H 2D: the four-card run (keeping the pair), or 5-4-3C and the
    # group of twos.  Never 4-3-2C, which would strand 5C.
    hand = deal("5C 4C 3C 2C 2H 2D KD 7H AS 9S 6D", WHOLE_P2.replace("2H", "KS"))
    assert set(hand.legal_actions()) == {"meld 5C 4C 3C", "meld 5C 4C 3C 2C", "meld 2H 2D 2C"}
    assert "would leave 5C" in refused(hand, "meld 4C 3C 2C")
    run(hand, "meld 5C 4C 3C")
    assert hand.legal_actions() == ["meld 2H 2D 2C"]  # 2C melds: it may not go alone
    assert "meld it first (The Rule)" in refused(hand, "play 2C")
    other = run(
        deal("5C 4C 3C 2C 2H 2D KD 7H AS 9S 6D", WHOLE_P2.replace("2H", "KS")), "meld 5C 4C 3C 2C"
    )
    assert all(a.startswith("discard") for a in other.legal_actions())  # the pair stays


def test_the_rule_lets_the_fourth_card_of_a_group_go_into_a_run() -> None:
    hand = deal("9S 9H 9D 9C 10C 8C KD 7H AS 2S 6D", WHOLE_P2)
    legal = set(hand.legal_actions())
    assert {"meld 9S 9H 9D", "meld 9S 9H 9D 9C", "meld 10C 9C 8C"} <= legal
    assert "meld 9H 9D 9C" not in legal  # it would strand 9S, which melds with nothing else
    run(hand, "meld 9S 9H 9D")
    assert hand.legal_actions() == ["meld 10C 9C 8C"]


def test_the_rule_splits_a_long_run_only_into_runs() -> None:
    # 7-6-5C leaves 4C, which still makes the run 4-3-2-AC: both are overlapped columns.
    hand = deal("7C 6C 5C 4C 3C 2C AC KD 7H 9S 6D", WHOLE_P2)
    legal = set(hand.legal_actions())
    assert "meld 7C 6C 5C" in legal and "meld 7C 6C 5C 4C 3C 2C AC" in legal
    assert "meld 7C 6C 5C 4C 3C 2C" not in legal  # AC alone could not meld
    assert "meld 6C 5C 4C" not in legal  # 7C alone could not meld
    run(hand, "meld 7C 6C 5C")
    assert hand.legal_actions() == ["meld 4C 3C 2C AC"]


def test_cards_that_make_no_meld_are_told_so_in_one_line_with_what_is_legal() -> None:
    hand = deal("AS 2S 3S 5S KS QH 9H 9C 9D 7C 4D", "AH 2H 4H 6H 8H 10H 3C 5C JC KD")
    legal = "legal now: meld 3S 2S AS, meld 9H 9D 9C"
    assert refused(hand, "meld KS QH") == (
        f"KS QH is not a meld: a marriage is a king and queen of one suit; {legal}"
    )
    assert refused(hand, "meld 5S 3S 2S") == (
        f"5S 3S 2S is not a meld: a run goes in sequence, ace low; {legal}"
    )
    assert refused(hand, "meld 9H 7C 4D") == (
        f"9H 7C 4D is not a meld: a run is of one suit, a group of one rank; {legal}"
    )
    # The newcomer's: two cards in a row of one suit, with one jack to play.
    hand = deal("10S 2H 3H AD 5D QD 3C 4C 8C 9C JC", "AH 4H 6H 8H 10H 5C 7C KC 2S 6S")
    said = refused(hand, "meld 8C 9C")
    assert said == "9C 8C is not a meld: a meld is three cards, or a marriage; legal now: play JC"
    assert len(said) < 78  # one line on the smallest table


def test_two_cards_of_two_ranks_are_told_what_two_card_melds_the_rules_allow() -> None:
    # Classic: a marriage is a meld of two, so "a meld takes three cards" was untrue.
    hand = deal("10S 2D AD 5D QD 3C 4C 8C 9C JC KH", "AH 4H 6H 8H 10H 5C 7C KC 2S 6S")
    said = refused(hand, "meld 2D AD")
    assert said.startswith("2D AD is not a meld: a meld is three cards, or a marriage; ")
    assert said.endswith("legal now: play JC")
    # Family: a two-card run may go out as well, and the message says so.
    hand = deal_in(
        "family", "10S 2H 5D QD 3C 4C 8C 9C 7S KH", "AH 4H 6H 8H 10H 5C 7C KC 2S 6S", "9D"
    )
    run(hand, "draw")
    said = refused(hand, "meld 2H 4C")
    assert said.startswith(
        "4C 2H is not a meld: a meld is three cards, or a marriage; "
        "a two-card run only to go out; legal now: "
    )
