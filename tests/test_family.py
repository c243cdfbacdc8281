"""Family and practical: the rules they share where they differ from classic (RULES.md,
"Family and practical").  Each rule is tested on both sides: what it allows, what it
refuses, and (where it helps) what classic does instead."""

from __future__ import annotations

import dataclasses
import random

import pytest
from dealing import deal, deal_in, refused, run

import umtali
from umtali.bots.open_play import taken_with
from umtali.engine.cards import CARDS, JACK, Card
from umtali.engine.extend import Table
from umtali.engine.hand import machine_of
from umtali.engine.melds import PieceKind
from umtali.engine.moves import MELD, PLAY, TAKE_FROM
from umtali.engine.optional import OptionalState
from umtali.engine.state import DRAW_PHASE, PLAY_PHASE

SHARED = ["family", "practical"]

# Player 1 (the non-dealer) plays first.
P1 = "5H 6H 7H 9S 9D 2C 3D 4S KC QC"
P2 = "8H 8S 2S 3S 4D 6C 7C 10S AH AD"


def optional(hand: umtali.Hand) -> OptionalState:
    """The optional-melding machine a family, practical or rummy hand holds."""
    machine = machine_of(hand)
    assert isinstance(machine, OptionalState)
    return machine


def accepted(hand: umtali.Hand) -> set[str]:
    return {
        str(c) for c in umtali.engine.cards.cards_of(machine_of(hand).accept & ~optional(hand).laid)
    }


@pytest.mark.parametrize("rules", SHARED)
def test_the_deal_is_ten_each_with_an_up_card_and_the_non_dealer_draws_first(rules: str) -> None:
    for seed in range(20):
        hand = umtali.deal_hand(seed=seed, dealer=1 + seed % 2, rules=rules)
        assert len(hand.hand_of(1)) == len(hand.hand_of(2)) == 10
        assert (
            len(hand.pile) == 1
            and len(machine_of(hand).stock) == 31
            and not machine_of(hand).pile_down
        )
        assert hand.to_move == 3 - hand.deal.dealer
        assert hand.legal_actions()[:2] == ["draw", "take"]
    classic = umtali.deal_hand(seed=1)
    assert classic.pile == () and "draw" not in classic.legal_actions()


@pytest.mark.parametrize("rules", SHARED)
def test_the_dealer_cannot_be_named_to_play_first(rules: str) -> None:
    with pytest.raises(umtali.InvalidDeal, match="the non-dealer, player 2, plays first"):
        umtali.deal_hand(seed=1, dealer=1, eleven=1, rules=rules)


@pytest.mark.parametrize("rules", SHARED)
def test_melding_is_optional(rules: str) -> None:
    hand = run(deal_in(rules, P1, P2, "KD", "8C"), "draw")
    legal = hand.legal_actions()
    assert "meld 7H 6H 5H" in legal and "discard 2C" in legal and "discard 5H" in legal
    run(hand, "discard 7H")  # breaking the run up is the player's own business
    assert hand.to_move == 2
    # Classic: the same cards must be laid before anything is discarded.
    classic = deal(P1 + " 8C", P2)
    assert "discard 2C" not in classic.legal_actions()
    assert "playable cards" in refused(classic, "discard 2C")


@pytest.mark.parametrize("rules", SHARED)
def test_the_rule_does_not_apply_a_card_of_a_meld_may_be_added(rules: str) -> None:
    p2 = "8H 9H 10H 3S 4D 6C 7C 10S AH AD"
    hand = run(deal_in(rules, P1, p2, "KD", "8C 2D"), "draw; meld 7H 6H 5H; discard 2C; draw")
    # 8H sits in the run 10-9-8H that player 2 holds, and may still go off 7H.
    assert str(hand.play("play 8H")) == "play 8H on 7H"
    classic = deal("5H 6H 7H 9S 9D 2C 3D 4S KC QC 8C", p2)
    run(classic, "meld 7H 6H 5H; meld KC QC; discard 8C; take")
    assert "The Rule" in refused(classic, "play 8H")


@pytest.mark.parametrize("rules", SHARED)
def test_an_added_card_carries_a_run_on_and_takes_no_rank(rules: str) -> None:
    hand = run(deal_in(rules, P1, P2, "KD", "8C 2D"), "draw; meld 7H 6H 5H; discard 2C; draw")
    assert accepted(hand) == {"4H", "8H"}
    assert "play 8S" not in hand.legal_actions()  # a run takes no same-rank card
    assert str(hand.play("play 8H")) == "play 8H on 7H"
    assert accepted(hand) == {"4H", "9H"}
    # Classic's solo rule would take 8S off the lone 8H; here nothing takes it.
    assert "nothing on the table takes it" in refused(hand, "play 8S")


@pytest.mark.parametrize("rules", SHARED)
def test_groups_take_their_rank_and_jacks_their_ten_and_queen(rules: str) -> None:
    p1 = "9S 9D 9C JH 2C 3D 4S KC QC 6S"
    p2 = "9H 10H QH 8H 2S 3S 4D 7C AH AD"
    hand = run(deal_in(rules, p1, p2, "KD", "5C 5D"), "draw; meld 9S 9D 9C; play JH; discard 6S")
    assert accepted(hand) == {"9H", "10H", "QH"}
    run(hand, "draw")
    legal = hand.legal_actions()
    assert {"play 9H", "play 10H", "play QH"} <= set(legal)
    assert "play 8H" not in legal  # a group takes no suit neighbour
    assert str(hand.play("play 10H")) == "play 10H on JH"
    # A ten off a jack takes nothing further (not 9H as its neighbour) ...
    assert accepted(hand) == {"9H", "QH"}
    # ... and the fourth nine, added to the group, leaves nothing of its rank to take.
    assert str(hand.play("play 9H")) == "play 9H on 9S"
    assert accepted(hand) == {"QH"}


@pytest.mark.parametrize("rules", SHARED)
def test_a_marriage_takes_nothing(rules: str) -> None:
    hand = run(deal_in(rules, P1, "KH QS 2S 3S 4D 6C 7C 10S AH AD", "KD", "8C 2D"), "draw")
    run(hand, "meld KC QC; discard 2C")
    assert hand.side(1)[0].kind is PieceKind.MARRIAGE and hand.scores[0] == 20
    run(hand, "draw")
    assert "play QS" not in hand.legal_actions() and "play KH" not in hand.legal_actions()


# Going out: the two-card meld, the face-down last discard, and the last turn.
OUT_P1 = "5H 6H 7H 8H KC QC JS 9S 9D 4C"
OUT_P2 = "8S 2S 3S 4D 6C 7C 10S AH AD QS"
OUT_STOCK = "3C 2D 9H AS"


def going_out(rules: str) -> umtali.Hand:
    """Player 1 lays everything but 9S 9D 4C 3C on the first turn."""
    hand = deal_in(rules, OUT_P1, OUT_P2, "KD", OUT_STOCK)
    return run(hand, "draw; meld 8H 7H 6H 5H; meld KC QC; play JS")


@pytest.mark.parametrize("rules", SHARED)
def test_a_two_card_meld_may_leave_at_most_one_card(rules: str) -> None:
    hand = going_out(rules)
    assert hand.hand_of(1) == ["9S", "9D", "3C", "4C"]
    assert not any(a.startswith("meld") for a in hand.legal_actions())
    assert "allowed only to go out" in refused(hand, "meld 9S 9D")
    assert "allowed only to go out" in refused(hand, "meld 4C 3C")  # a two-card run
    run(hand, "discard 4C; draw; discard QS; draw; play 9H")
    assert "meld 9S 9D" in hand.legal_actions()
    run(hand, "meld 9S 9D")
    assert hand.side(1)[-1].kind is PieceKind.PAIR


@pytest.mark.parametrize("rules", SHARED)
def test_a_two_card_run_goes_out_too(rules: str) -> None:
    hand = run(going_out(rules), "discard 9S; draw; discard QS; draw; play 9H")
    assert hand.hand_of(1) == ["9D", "3C", "4C"]
    run(hand, "meld 4C 3C; discard 9D down")
    assert hand.went_out == 1 and hand.side(1)[-1].kind is PieceKind.RUN


def test_classic_knows_no_two_card_run() -> None:
    hand = deal(P1 + " 8C", P2)
    assert "is not a meld" in refused(hand, "meld 3D 4S")
    assert "is not a meld" in refused(hand, "meld QC KC 9S")


@pytest.mark.parametrize("rules", SHARED)
def test_the_going_out_discard_must_be_face_down(rules: str) -> None:
    hand = run(going_out(rules), "discard 4C; draw; discard QS; draw; play 9H; meld 9S 9D")
    assert hand.legal_actions() == ["discard 3C down"]
    assert "goes face down" in refused(hand, "discard 3C")
    run(hand, "discard 3C down")
    assert hand.went_out == 1 and hand.last_turn and hand.legal_actions() == ["draw"]
    assert "face down" in refused(hand, "take")


def test_classic_lets_the_last_card_go_face_up_or_down() -> None:
    hand = deal("10S 9S 8S 7S 6S 5S 4S 3S 2S AS 4D", "KH 8D 2D 3D 4C 6C 7C 10C AH AD")
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS")
    assert hand.legal_actions() == ["discard 4D", "discard 4D down"]


@pytest.mark.parametrize("rules", SHARED)
def test_the_last_turn_has_no_discard_and_ends_on_request(rules: str) -> None:
    hand = going_out(rules)
    run(hand, "discard 4C; draw; discard QS; draw; play 9H; meld 9S 9D; discard 3C down; draw")
    assert hand.to_move == 2 and hand.last_turn
    legal = hand.legal_actions()
    assert "end" in legal and not any(a.startswith("discard") for a in legal)
    assert "no discard" in refused(hand, "discard 10S")
    run(hand, "meld AS AH AD")
    assert hand.legal_actions() == ["play 10S", "end"]  # 10S may go off the jack
    run(hand, "end")
    assert hand.is_over and hand.went_out == 1
    assert [str(c) for c in hand.forfeited] == ["2S", "3S", "8S", "10S", "2D", "4D", "6C", "7C"]
    forfeit = 1 + 1 + 1 + 5 + 1 + 1 + 1 + 1
    assert hand.scores == (4 + 20 + 5 + 1 + 2 + forfeit, 3)


@pytest.mark.parametrize("rules", SHARED)
def test_a_last_turn_ends_by_itself_when_nothing_can_be_played(rules: str) -> None:
    hand = going_out(rules)
    run(hand, "discard 4C; draw; discard QS; draw; play 9H; meld 9S 9D; discard 3C down; draw")
    run(hand, "meld AS AH AD; play 10S")
    assert hand.is_over and len(hand.forfeited) == 7
    assert "end" not in " ".join(hand.actions())


def test_end_is_not_a_classic_action() -> None:
    assert "no end in classic" in refused(deal(P1 + " 8C", P2), "end")


@pytest.mark.parametrize("rules", SHARED)
def test_end_is_only_for_the_last_turn(rules: str) -> None:
    hand = run(deal_in(rules, P1, P2, "KD", "8C"), "draw")
    assert "end" not in hand.legal_actions()
    assert "a turn ends with a discard" in refused(hand, "end")


@pytest.mark.parametrize("rules", SHARED)
def test_the_card_just_taken_may_not_be_discarded(rules: str) -> None:
    hand = run(deal_in(rules, P1, P2, "KD", "8C"), "take")
    assert "discard KD" not in hand.legal_actions()
    assert "you may not discard it" in refused(hand, "discard KD")
    run(hand, "discard 2C")
    assert hand.to_move == 2


# Family's take next, and practical's take from deep in the pile.
TAKE_P1 = "5H 6H 8H 2C 3D 4S KC QC 9S 10C"
TAKE_P2 = "7H 8S 2S 3S 4D 6C 7C 10S AH AD"


def pile_8h_7h(rules: str, p1_discard: str = "8H") -> umtali.Hand:
    """The discard pile ends ... 8H 7H (7H on top), player 1 to draw."""
    hand = deal_in(rules, TAKE_P1, TAKE_P2, "KD", "JD 2D")
    return run(hand, f"draw; discard {p1_discard}; draw; discard 7H")


def test_family_take_next_after_playing_the_taken_card() -> None:
    hand = run(pile_8h_7h("family"), "take")
    assert "take next" not in hand.legal_actions()
    assert "play 7H first" in refused(hand, "take next")
    run(hand, "meld 7H 6H 5H")
    assert "take next" in hand.legal_actions()
    run(hand, "take next")
    assert "8H" in hand.hand_of(1) and hand.pile[-1:] != ()
    # The second card must be played this turn, and there is only one.
    assert not any(a.startswith("discard") for a in hand.legal_actions())
    assert "must play it before you discard" in refused(hand, "discard 2C")
    run(hand, "play 8H")
    assert "already taken the next discard" in refused(hand, "take next")
    run(hand, "discard 2C")


def test_family_take_next_needs_a_playable_card() -> None:
    hand = run(pile_8h_7h("family", p1_discard="9S"), "take; meld 7H 6H 5H")
    assert "take next" not in hand.legal_actions()
    assert "could not be played this turn" in refused(hand, "take next")


def test_family_take_next_follows_only_a_take() -> None:
    hand = run(deal_in("family", TAKE_P1, TAKE_P2, "KD", "JD 2D"), "draw")
    assert "drew from the stock" in refused(hand, "take next")


@pytest.mark.parametrize("rules", ["classic", "practical", "rummy"])
def test_take_next_is_family_only(rules: str) -> None:
    hand = deal(P1 + " 8C", P2) if rules == "classic" else run(pile_8h_7h(rules), "take")
    assert "take next is a family rule" in refused(hand, "take next")


def test_practical_takes_a_deep_card_with_all_above_it() -> None:
    hand = pile_8h_7h("practical")
    legal = hand.legal_actions()
    assert "take 8H" in legal  # 8H with 7H: both go on 6-5H
    assert "take KD" not in legal  # KD (with 8H 7H) could not be played
    assert "could not be" in refused(hand, "take KD")
    assert "not in the discard pile" in refused(hand, "take 9C")
    assert "the top discard: write take" in refused(hand, "take 7H")
    run(hand, "take 8H")
    assert {"7H", "8H"} <= set(hand.hand_of(1)) and [str(c) for c in hand.view(1).discard_pile] == [
        "KD"
    ]
    # The deepest card must be played; the top one may not be discarded.
    assert "must play it before you discard" in refused(hand, "discard 2C")
    run(hand, "meld 7H 6H 5H")
    assert "must play it" in refused(hand, "discard 8H")
    run(hand, "play 8H; discard 2C")
    assert hand.to_move == 2


def test_practical_may_discard_a_card_from_above_the_deepest() -> None:
    hand = deal_in("practical", TAKE_P1, TAKE_P2, "KD", "JD 2D AS")
    run(hand, "draw; discard 8H; draw; discard AH; take; discard 2C; draw; discard 7H")
    # The pile is KD 8H 2C 7H: take 8H brings 2C and 7H with it.
    run(hand, "take 8H; meld 7H 6H 5H; play 8H")
    assert "discard 2C" in hand.legal_actions()


def test_practical_may_not_discard_the_card_that_was_on_top() -> None:
    hand = deal_in("practical", TAKE_P1, TAKE_P2, "KD", "JD 2D")
    run(hand, "draw; discard JD; draw; discard 8S")
    run(hand, "take JD")  # a jack is always playable
    assert "must play it before you discard" in refused(hand, "discard 8S")
    run(hand, "play JD")
    assert "you may not discard it" in refused(hand, "discard 8S")
    assert "discard 8S" not in hand.legal_actions() and "discard 2C" in hand.legal_actions()


# Player 1 discards 5S and keeps 5D; player 2 discards 10C on top of it.  5S can then go
# down only in a going-out pair with 5D, with at most one other card left to discard.
PAIR_P2 = "10C 3S 7S 9H JD 4C 10D 6D AS 4D"


def pile_5s_10c(rules: str, p1: str) -> umtali.Hand:
    hand = deal_in(rules, p1, PAIR_P2, "QS", "KD 8S")
    return run(hand, "draw; discard 5S; draw; discard 10C")


HEARTS_CLUBS = "AH 2H 3H 4H 6C 7C 8C 9C 5S 5D"  # KD joins them: the one card left over
TWO_LEFT = "AH 2H 3H 2C 6C 7C 8C 9C 5S 5D"  # KD and 2C: one too many


def test_practical_deep_take_counts_a_going_out_pair() -> None:
    hand = pile_5s_10c("practical", HEARTS_CLUBS)
    assert "take 5S" in hand.legal_actions()
    run(hand, "take 5S; meld 4H 3H 2H AH; meld 10C 9C 8C 7C 6C; meld 5S 5D")
    assert hand.legal_actions() == ["discard KD down"]
    run(hand, "discard KD down")
    assert hand.went_out == 1


def test_practical_deep_take_refused_when_the_pair_would_leave_two_cards() -> None:
    hand = pile_5s_10c("practical", TWO_LEFT)
    assert "take 5S" not in hand.legal_actions()
    assert "could not be" in refused(hand, "take 5S")


def test_family_take_next_counts_a_going_out_pair() -> None:
    hand = run(pile_5s_10c("family", HEARTS_CLUBS), "take; meld 10C 9C 8C 7C 6C")
    assert "take next" in hand.legal_actions()
    run(hand, "take next; meld 4H 3H 2H AH; meld 5S 5D; discard KD down")
    assert hand.went_out == 1


def test_family_take_next_refused_when_the_pair_would_leave_two_cards() -> None:
    hand = run(pile_5s_10c("family", TWO_LEFT), "take; meld 10C 9C 8C 7C 6C")
    assert "take next" not in hand.legal_actions()
    assert "could not be played this turn" in refused(hand, "take next")


@pytest.mark.parametrize("rules", ["classic", "family", "rummy"])
def test_only_practical_takes_from_under_the_top(rules: str) -> None:
    hand = deal(P1 + " 8C", P2) if rules == "classic" else pile_8h_7h(rules)
    assert "only practical takes a card from under the top" in refused(hand, "take 8H")


def test_the_variant_actions_are_written_and_replayed() -> None:
    family = run(pile_8h_7h("family"), "take; meld 7H 6H 5H; take next; play 8H; discard 2C")
    practical = run(pile_8h_7h("practical"), "take 8H; meld 7H 6H 5H; play 8H; discard 2C")
    ended = going_out("family")
    run(ended, "discard 4C; draw; discard QS; draw; play 9H; meld 9S 9D; discard 3C down; draw")
    run(ended, "meld AS AH AD; end")
    for hand in (family, practical, ended):
        actions = hand.actions()
        again = umtali.replay(hand.deal, actions, rules=hand.rules)
        assert machine_of(again).log == machine_of(hand).log and again.scores == hand.scores
    assert "take next" in family.actions() and "take 8H" in practical.actions()
    assert ended.actions()[-1] == "end"
    assert [text for _, text in family.history()][-3:-1] == ["take next (8H)", "play 8H on 7H"]


# ---- what the table takes, checked against a slow, obvious reference ----


def reference_takes(hand: umtali.Hand) -> int:
    """Replay the log keeping each meld as (suit, low, high) for a run or a rank for a
    group; an added card joins the one meld its target card belongs to (RULES.md: an
    addition extends the meld it is announced onto)."""
    jacks_alone = hand.rules.jacks_alone
    runs: list[list[int]] = []  # [suit, low rank, high rank]
    groups: set[int] = set()  # ranks with a group or pair on the table
    jack_suits: set[int] = set()
    laid = 0

    def run_of(target: Card) -> list[int] | None:
        for run in runs:
            if run[0] == target.suit and run[1] <= target.rank <= run[2]:
                return run
        return None

    for _, kind, mask, detail in machine_of(hand).log:
        cards = [c for c in CARDS if c.bit & mask]
        if kind == MELD:
            shape = optional(hand).kind_of(mask)
            if shape is PieceKind.RUN:
                runs.append([cards[0].suit, min(c.rank for c in cards), max(c.rank for c in cards)])
            elif shape in (PieceKind.GROUP, PieceKind.PAIR):
                groups.add(cards[0].rank)
        elif kind == PLAY:
            c = cards[0]
            if jacks_alone and c.rank == JACK:
                jack_suits.add(c.suit)
            elif detail >= 0:
                onto = CARDS[detail]
                run = run_of(onto)
                if run is not None and onto.rank != c.rank:
                    run[1], run[2] = min(run[1], c.rank), max(run[2], c.rank)
        else:
            continue
        laid |= mask

    def fits_run(c: Card, run: list[int]) -> bool:
        if jacks_alone and c.rank == JACK:
            return False
        return c.suit == run[0] and (c.rank == run[1] - 1 or c.rank == run[2] + 1)

    takes = 0
    for c in CARDS:
        if laid & c.bit:
            continue
        by_jack = jacks_alone and c.suit in jack_suits and c.rank in (JACK - 1, JACK + 1)
        if c.rank in groups or by_jack or any(fits_run(c, run) for run in runs):
            takes |= c.bit
    return takes


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["family", "practical", "rummy"])
def test_the_table_takes_what_the_reference_says(rules: str) -> None:
    checked = 0
    for seed in range(40):
        hand = umtali.deal_hand(seed=seed, rules=rules)
        rng = random.Random(seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            plays = [a for a in legal if a.startswith(("meld", "play"))]
            hand.play(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal))
            assert machine_of(hand).accept & ~optional(hand).laid == reference_takes(hand), (
                seed,
                hand.actions(),
            )
            checked += 1
    assert checked > 1000


# An addition extends the one meld it goes onto (practical: "they must announce which
# meld it is being added to, this can not change"; family and rummy by ruling).
# Player 1 lays the group 5S 5D 5C and the run 4-3-2H; player 2 holds 5H and 6H.
ONTO_P1 = "5S 5D 5C 4H 3H 2H 8S 10D KC 7C"
ONTO_P2 = "5H 6H 2S 3S 9D 6C 8C 10S AD QS"
EXTENDING = ["family", "practical", "rummy"]


def five_of_hearts(rules: str) -> umtali.Hand:
    hand = deal_in(rules, ONTO_P1, ONTO_P2, "KD", "KH 2D")
    return run(hand, "draw; meld 5S 5D 5C; meld 4H 3H 2H; discard 7C; draw")


@pytest.mark.parametrize("rules", EXTENDING)
def test_a_card_two_melds_take_is_played_onto_the_one_named(rules: str) -> None:
    hand = five_of_hearts(rules)
    legal = hand.legal_actions()
    assert "play 5H on 5S" in legal and "play 5H on 4H" in legal and "play 5H" not in legal
    with pytest.raises(umtali.AmbiguousAction) as info:
        hand.play("play 5H")
    assert str(info.value) == (
        "5H goes on more than one meld: say which, play 5H on 5S or play 5H on 4H"
    )
    assert refused(hand, "play 5H").startswith("5H goes on more than one meld")


@pytest.mark.parametrize("rules", EXTENDING)
def test_added_to_the_group_a_card_does_not_carry_the_run_on(rules: str) -> None:
    hand = five_of_hearts(rules)
    assert str(hand.play("play 5H on 5S")) == "play 5H on 5S"
    assert "play 6H" not in " ".join(hand.legal_actions())
    assert "nothing on the table takes it" in refused(hand, "play 6H")
    assert accepted(hand) == {"AH"}  # the run still wants 5H, which is gone: it stops there


@pytest.mark.parametrize("rules", EXTENDING)
def test_added_up_the_run_a_card_carries_the_run_on(rules: str) -> None:
    hand = five_of_hearts(rules)
    run(hand, "play 5H on 4H")
    assert "play 6H" in hand.legal_actions()
    assert str(hand.play("play 6H")) == "play 6H on 5H"
    assert accepted(hand) == {"AH", "7H"}


@pytest.mark.parametrize("rules", EXTENDING)
def test_any_card_of_a_meld_names_it(rules: str) -> None:
    group = five_of_hearts(rules)
    assert str(group.play("play 5H on 5D")) == "play 5H on 5D"
    assert "play 6H" not in " ".join(group.legal_actions())
    the_run = five_of_hearts(rules)
    assert str(the_run.play("play 5H on 2H")) == "play 5H on 2H"
    assert "play 6H" in the_run.legal_actions()
    assert refused(five_of_hearts(rules), "play 5H on 7C") == "7C is not on the table"


@pytest.mark.parametrize("rules", EXTENDING)
def test_a_card_one_meld_takes_needs_no_target(rules: str) -> None:
    hand = five_of_hearts(rules)
    run(hand, "play 5H on 4H")
    assert str(hand.play("play 6H")) == "play 6H on 5H"  # only the run takes it


@pytest.mark.parametrize("rules", EXTENDING)
def test_the_named_meld_is_written_and_replayed(rules: str) -> None:
    for onto in ("5S", "4H"):
        hand = run(five_of_hearts(rules), f"play 5H on {onto}; discard 2S")
        assert f"play 5H on {onto}" in hand.actions()
        again = umtali.replay(hand.deal, hand.actions(), rules=hand.rules)
        assert (
            machine_of(again).log == machine_of(hand).log
            and optional(again).table() == optional(hand).table()
        )


def test_classic_needs_no_meld_named() -> None:
    # Classic's solo rule: a card goes off any card that takes it, and as a solo card it
    # takes its own rank and suit neighbours, whatever it went off.
    hand = deal("5S 5D 5C 4H 3H 2H 8S 10D KC 7C 9H", ONTO_P2, top="KD")
    run(hand, "meld 5S 5D 5C; meld 4H 3H 2H; discard 7C; draw")
    assert "play 5H" in hand.legal_actions()
    run(hand, "play 5H on 5S")
    assert "play 6H" in hand.legal_actions()


@pytest.mark.parametrize("rules", EXTENDING)
def test_a_card_between_two_runs_goes_up_one_or_down_the_other(rules: str) -> None:
    p1 = "4H 3H 2H 8H 7H 6H 9S 10D KC 7C"
    p2 = "5H 2S 3S 9D 6C 8C 10S AD QS 4C"
    for onto in ("4H", "6H"):
        hand = deal_in(rules, p1, p2, "KD", "KH 2D")
        run(hand, "draw; meld 4H 3H 2H; meld 8H 7H 6H; discard 7C; draw")
        assert {"play 5H on 4H", "play 5H on 6H"} <= set(hand.legal_actions())
        assert str(hand.play(f"play 5H on {onto}")) == f"play 5H on {onto}"
        assert accepted(hand) == {"AH", "9H"}
        assert [str(p) for p in hand.side(2)] == [f"5H (off {onto})"]


def test_practical_deep_take_counts_a_pair_reached_by_laying_what_takes_nothing() -> None:
    # Player 1 keeps 2H KC QC and discards 2C; player 2 discards 8S on top.  Taking 2C
    # brings 8S along: 8S goes up the spade run, the marriage goes down (it takes
    # nothing, but it empties the hand), and 2H 2C go out as a pair.
    p1 = "AS 2S 3S 4S 5S 6S 7S 2H KC QC"
    p2 = "8S 5C 6C 8C 9D QH 4H 6H 8H 3D"
    hand = deal_in("practical", p1, p2, "KD", "2C 7H")
    run(hand, "draw; meld 7S 6S 5S 4S 3S 2S AS; discard 2C; draw; discard 8S")
    assert "take 2C" in hand.legal_actions()
    run(hand, "take 2C")
    assert "meld 2H 2C" not in hand.legal_actions()  # not yet: it would leave three cards
    run(hand, "meld KC QC; play 8S; meld 2H 2C")
    assert hand.went_out == 1
    # With 9C for QC, neither KC nor 9C can be laid, and the pair would leave both.
    crowded = deal_in("practical", p1.replace("QC", "9C"), p2, "KD", "2C 7H")
    run(crowded, "draw; meld 7S 6S 5S 4S 3S 2S AS; discard 2C; draw; discard 8S")
    assert "take 2C" not in crowded.legal_actions()


def exhaustive_lay(state: OptionalState, hand: int, table: Table, card: int, left: int) -> bool:
    """Every order of plays, tried: can ``card`` be laid this turn?"""
    return not hand & card or any(
        exhaustive_lay(state, hand & ~move[1], state.after(table, move), card, left)
        for move in state.plays_from(hand, table, left)
    )


@pytest.mark.parametrize("rules", ["family", "practical", "rummy"])
def test_laying_a_card_agrees_with_an_exhaustive_search(rules: str) -> None:
    # The hands searched: random cards of the hand, or the whole hand with the top of
    # the pile (what a take from deep in the pile brings), to go out or keep a card.
    checked = refused_ = 0
    for seed in range(80):
        hand = umtali.deal_hand(seed=seed, rules=rules)
        rng = random.Random(seed)
        while not hand.is_over:
            held = machine_of(hand).hands[machine_of(hand).mover]
            machine = optional(hand)
            pile = machine.pile
            if rng.random() < 0.5:
                mask = held | sum(1 << i for i in pile[len(pile) - rng.randint(0, 5) :])
            else:
                cards = [c.bit for c in CARDS if c.bit & held]
                mask = sum(rng.sample(cards, min(len(cards), rng.randint(2, 7))))
            if 2 <= mask.bit_count() <= 11:
                card = rng.choice([c.bit for c in CARDS if c.bit & mask])
                table = machine.table()
                for left in (0, 1):
                    want = exhaustive_lay(machine, mask, table, card, left)
                    assert machine.can_lay(mask, table, card, left) == want, (seed, mask, card)
                    checked += 1
                    refused_ += not want
            legal = hand.legal_actions()
            plays = [a for a in legal if a.startswith(("meld", "play"))]
            hand.play(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal))
    assert checked > 2000 and refused_ > 200 and checked - refused_ > 200  # both answers


# The card taken from the discard pile: practical and rummy never let it be discarded
# that turn, not even as the last card (002: "you may not discard it during the same
# turn"; 004: "the drawn card cannot be discarded on the same turn"); family keeps
# classic's ruling, which lets the last card go.  Player 1 lays the spades A-9 and keeps
# 10S; player 2 discards 3D, which player 1 takes.
LAST_P1 = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"
LAST_P2 = "3D 5C 6C 8C 9H QC 2H 4H 6H 8H"


def holding_ten_and_three(rules: str) -> umtali.Hand:
    hand = deal_in(rules, LAST_P1, LAST_P2, "KD", "2C 7H")
    return run(hand, "draw; meld 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 2C; draw; discard 3D; take")


@pytest.mark.parametrize("rules", ["practical", "rummy"])
def test_the_card_taken_is_never_discarded_not_even_last(rules: str) -> None:
    hand = holding_ten_and_three(rules)
    assert hand.hand_of(1) == ["10S", "3D"]
    # 10S could go up the spade run, but 3D would then be the last card: never discardable.
    assert hand.legal_actions() == ["discard 10S"]
    assert refused(hand, "play 10S") == (
        "play 10S would leave you holding only 3D, which you took this turn and may not "
        "discard: keep another card to discard, or play 3D first"
    )
    assert refused(hand, "discard 3D") == (
        f"you took 3D from the discard pile this turn: in {rules} you may not discard it "
        "this turn, not even as your last card"
    )
    run(hand, "discard 10S")
    assert hand.to_move == 2 and hand.went_out is None


def test_family_lets_the_card_taken_go_as_the_last_card() -> None:
    hand = holding_ten_and_three("family")
    assert set(hand.legal_actions()) == {"play 10S", "discard 10S"}
    run(hand, "play 10S")
    assert hand.legal_actions() == ["discard 3D down"]
    run(hand, "discard 3D down")
    assert hand.went_out == 1


@pytest.mark.parametrize("rules", ["practical", "rummy"])
def test_the_card_taken_may_be_the_last_card_when_it_can_be_played(rules: str) -> None:
    # Player 1 keeps 7S beside the spades A-6 and has the run 4-5-6D down; the 3D taken
    # can go down that run, so 7S may go first and leave 3D to be played.
    p1 = "AS 2S 3S 4S 5S 6S 7S 4D 5D 6D"
    hand = deal_in(rules, p1, LAST_P2, "KD", "2C 7H")
    run(hand, "draw; meld 6S 5S 4S 3S 2S AS; meld 6D 5D 4D; discard 2C; draw; discard 3D")
    run(hand, "take")
    assert set(hand.legal_actions()) == {"play 7S", "play 3D", "discard 7S"}
    run(hand, "play 7S")
    assert hand.legal_actions() == ["play 3D"]  # it may not be discarded, but it may go down
    run(hand, "play 3D")
    assert hand.went_out == 1


# Practical's deep take brings the top card along, and that card may never be discarded
# that turn: a deep take is offered only if the turn can still end.  Player 1 keeps 2H
# and discards 2C; player 2 discards 9D or 10S on top of it.
DEEP_P1 = "AS 2S 3S 4S 5S 6S 7S 8S 9S 2H"
DEEP_P2 = "9D 10S 5C 6C 8C QC 4H 6H 8H 3D"


def pile_2c_under(top: str) -> umtali.Hand:
    hand = deal_in("practical", DEEP_P1, DEEP_P2, "KD", "2C 7H")
    return run(hand, f"draw; meld 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 2C; draw; discard {top}")


def test_practical_refuses_a_deep_take_that_would_strand_the_top_card() -> None:
    hand = pile_2c_under("9D")
    # 2H 2C would go out as a pair, but only by leaving 9D to discard, which it may not be.
    assert "take 2C" not in hand.legal_actions()
    assert refused(hand, "take 2C") == (
        "taking 2C brings 9D from the top with it, and you could then neither play 9D nor "
        "discard it this turn (in practical the card that was on top may not be discarded)"
    )


def test_practical_offers_a_deep_take_when_the_top_card_can_be_played() -> None:
    hand = pile_2c_under("10S")
    assert "take 2C" in hand.legal_actions()
    run(hand, "take 2C")
    # 10S (from the top) may not be discarded, but it can go down: before the pair or
    # after it.
    assert set(hand.legal_actions()) == {"play 10S", "meld 2H 2C"}
    run(hand, "meld 2H 2C")
    assert hand.legal_actions() == ["play 10S"]
    run(hand, "play 10S")
    assert hand.went_out == 1


def exhaustive_finish(
    state: OptionalState, hand: int, table: Table, req: int, keep: int, left: int
) -> bool:
    """Every order of plays, tried: can the turn end with ``req`` laid and then an empty
    hand or a card other than ``keep`` to discard?"""
    if not hand & req and (not hand or hand & ~keep):
        return True
    return any(
        exhaustive_finish(state, hand & ~move[1], state.after(table, move), req, keep, left)
        for move in state.plays_from(hand, table, left)
    )


def test_finishing_a_turn_agrees_with_an_exhaustive_search() -> None:
    checked = stranded = 0
    for seed in range(60):
        hand = umtali.deal_hand(seed=seed, rules="practical")
        rng = random.Random(seed)
        while not hand.is_over:
            held = machine_of(hand).hands[machine_of(hand).mover]
            if (
                machine_of(hand).phase == PLAY_PHASE
                and not hand.last_turn
                and held.bit_count() >= 2
            ):
                cards = [c.bit for c in CARDS if c.bit & held]
                some = rng.sample(cards, min(len(cards), rng.randint(2, 6)))
                mask = sum(some)
                keep, req = some[0], rng.choice([0, some[1]])
                machine = optional(hand)
                table, left = machine.table(), machine.cards_left_after_final()
                want = exhaustive_finish(machine, mask, table, req, keep, left)
                assert machine.finishes(mask, table, req, keep, left) == want, (seed, mask, req)
                checked += 1
                stranded += not want
            legal = hand.legal_actions()
            plays = [a for a in legal if a.startswith(("meld", "play"))]
            hand.play(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal))
    assert checked > 500 and stranded > 20  # both answers are met


def test_a_rule_set_may_not_forbid_the_last_taken_card_where_play_is_compulsory() -> None:
    with pytest.raises(ValueError, match="where play is compulsory"):
        dataclasses.replace(umtali.CLASSIC, taken_discard="never")
    assert dataclasses.replace(umtali.CLASSIC, name="kept").taken_discard == "last"
    assert [r.taken_discard for r in umtali.PRESETS.values()] == ["last", "last", "never", "never"]


def test_the_shallow_draws_are_the_legal_ones_no_deeper() -> None:
    # A policy that never takes more than a few cards from the pile asks only for
    # those takes: the same moves in the same order, the deeper ones left out.
    deep = 0
    for seed in range(40):
        hand = umtali.deal_hand(seed=seed, rules="practical")
        rng = random.Random(seed)
        while not hand.is_over:
            machine = optional(hand)
            if machine.phase == DRAW_PHASE:
                legal = machine.legal_moves()
                for most in (1, 3, 6):
                    want = [
                        m
                        for m in legal
                        if m[0] != TAKE_FROM or taken_with(machine.pile, m[1]).bit_count() <= most
                    ]
                    assert machine.draw_moves(most) == want
                deep += sum(m[0] == TAKE_FROM for m in legal)
            legal_actions = hand.legal_actions()
            plays = [a for a in legal_actions if a.startswith(("meld", "play"))]
            hand.play(
                rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal_actions)
            )
    assert deep > 100
