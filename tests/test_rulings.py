"""The rulings for what the old sources leave open (spec 3.5)."""

from __future__ import annotations

import random

import pytest
from dealing import deal, run

import umtali
from umtali.engine.hand import machine_of
from umtali.engine.moves import REBUILD, SKIP_DRAW
from umtali.engine.state import HandEnd


def random_hand(
    seed: int, rules: umtali.RuleSet = umtali.CLASSIC, *, stock_only: bool = False
) -> umtali.Hand:
    """A hand of random legal play; ``stock_only`` always draws from the stock when it can
    (so the stock runs out far more often)."""
    rng = random.Random(seed)
    hand = umtali.deal_hand(seed=seed, rules=rules)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.play("draw" if stock_only and "draw" in legal else rng.choice(legal))
    return hand


def hands_with_a_rebuild(limit: int = 2) -> list[umtali.Hand]:
    found = []
    for seed in range(3000):
        hand = random_hand(seed, stock_only=True)
        if machine_of(hand).rebuilds:
            found.append(hand)
            if len(found) == limit:
                break
    assert found, "no random hand ran through its stock"
    return found


def test_an_empty_stock_is_rebuilt_from_the_discards_under_the_top() -> None:
    for hand in hands_with_a_rebuild():
        # Replay up to the draw that rebuilt the stock and look at the pile first.
        actions = hand.actions()
        at = next(i for i, e in enumerate(machine_of(hand).log) if e[1] == REBUILD)
        moves_before = sum(1 for e in machine_of(hand).log[:at] if e[1] <= 6)
        before = umtali.replay(hand.deal, actions[:moves_before])
        assert machine_of(before).stock == [] and len(machine_of(before).pile) >= 2
        top, under = machine_of(before).pile[-1], sorted(machine_of(before).pile[:-1])
        before.play("draw")
        assert machine_of(before).pile == [top]
        rebuilt = machine_of(before).rebuilds[0]
        assert sorted(c for c in rebuilt) == under
        # The card drawn is the rebuilt stock's top; the rest remains in order.
        assert [*machine_of(before).stock[::-1]] == list(rebuilt[1:])


def test_the_rebuilt_order_is_reproduced_by_a_replay() -> None:
    for hand in hands_with_a_rebuild():
        again = umtali.replay(hand.deal, hand.actions())
        assert machine_of(again).rebuilds == machine_of(hand).rebuilds
        assert again.scores == hand.scores and machine_of(again).log == machine_of(hand).log


def test_a_hand_ends_dead_when_no_card_can_be_drawn() -> None:
    hand = deal("AS 3S 5S 7S 9S 2H 4H 6H 8H 10H QC", "AD 3D 5D 7D 9D 2C 4C 6C 8C 10C")
    run(hand, "discard QC")
    # Empty the stock and leave one face-down card on the pile: nothing to draw.
    machine_of(hand).stock.clear()
    machine_of(hand).pile_down = True
    machine_of(hand)._next_turn()
    assert hand.is_over and hand.end is HandEnd.NO_CARDS
    assert hand.went_out is None and hand.forfeited == ()
    assert hand.scores == (0, 0)


def test_one_face_up_discard_and_no_stock_still_allows_a_take() -> None:
    hand = deal("AS 3S 5S 7S 9S 2H 4H 6H 8H 10H QC", "AD 3D 5D 7D 9D 2C 4C 6C 8C 10C")
    run(hand, "discard QC")
    machine_of(hand).stock.clear()
    assert hand.legal_actions() == ["take"]


def test_a_last_turn_with_nothing_to_draw_is_played_from_the_hand() -> None:
    hand = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D", "JH KH QS 2H 5H 7C 9C 2D 6D 8D", top="3C")
    machine_of(hand).stock[:] = []  # as if the stock had run out
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D down")
    assert machine_of(hand).log[-1][1] == SKIP_DRAW
    assert hand.legal_actions() == ["play JH"]
    run(hand, "play JH")
    assert hand.is_over and hand.went_out == 1 and len(hand.forfeited) == 9


@pytest.mark.parametrize("limit", [2, 7])
def test_every_hand_ends_by_the_turn_limit(limit: int) -> None:
    short = umtali.RuleSet(name="short", turn_limit=limit)
    dead = 0
    for seed in range(40):
        hand = random_hand(seed, short)
        assert hand.is_over and hand.turns <= limit
        if hand.end is HandEnd.TURN_LIMIT:
            dead += 1
            assert hand.turns == limit
            assert hand.went_out is None and hand.forfeited == ()
    assert dead > 0


def test_the_classic_turn_limit_is_two_hundred() -> None:
    assert umtali.CLASSIC.turn_limit == 200


def test_the_table_is_permanent() -> None:
    for seed in range(5):
        done = random_hand(seed)
        hand = umtali.deal_hand(
            done.deal.p1,
            done.deal.p2,
            done.deal.stock,
            dealer=done.deal.dealer,
            eleven=done.deal.eleven,
            seed=done.deal.seed,
        )
        for action in done.actions():
            before = (hand.side(1), hand.side(2))
            hand.play(action)
            after = (hand.side(1), hand.side(2))
            for old, new in zip(before, after, strict=True):
                assert new[: len(old)] == old  # earlier pieces stay, unchanged


def test_how_a_hand_ended_is_a_type_that_says_whether_it_died() -> None:
    short = umtali.RuleSet(name="short", turn_limit=2)
    ends = {random_hand(seed, short).end for seed in range(40)}
    assert HandEnd.TURN_LIMIT in ends and None not in ends
    assert HandEnd.TURN_LIMIT.dead and HandEnd.NO_CARDS.dead and not HandEnd.OUT.dead
    assert umtali.deal_hand(seed=1).end is None  # a hand that goes on has not ended
    # The words stay those the machine always gave, for anyone who prints them.
    assert HandEnd.TURN_LIMIT.value == "dead: turn limit"
