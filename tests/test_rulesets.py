"""Rule sets of your own: every setting governs the game, or the rule set is refused."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

import umtali
from umtali import CLASSIC, PRESETS, RuleSet

RUN = "AS 2S 3S 4S 5S 6S 7S 8S"
OTHER = ["QS", "2H", "5H", "7C", "9C", "2D", "6D", "8D", "AC", "3C"]


def _three_cards(rules: RuleSet) -> umtali.Hand:
    """Player 1 lays a long run and holds KH KD 4C: discarding 4C leaves a going-out pair."""
    hand = umtali.deal_hand(f"{RUN} KH KD 4C".split(), OTHER, rules=rules)
    hand.play("meld 8S 7S 6S 5S 4S 3S 2S AS")
    return hand


def _last_card(rules: RuleSet) -> umtali.Hand:
    hand = umtali.deal_hand(f"{RUN} 9S 10S 4D".split(), OTHER, rules=rules)
    hand.play("meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS")
    return hand


def _before_take_two(rules: RuleSet) -> umtali.Hand:
    """Seed 0 played at random until classic offers take 2."""
    hand = umtali.deal_hand(seed=0, rules=rules)
    rng = random.Random(0)
    while True:
        classic = umtali.replay(hand.deal, hand.actions())
        if "take 2" in classic.legal_actions():
            return hand
        hand.play(rng.choice(classic.legal_actions()))


def test_classic_offers_both_ways_for_the_final_discard() -> None:
    assert _last_card(CLASSIC).legal_actions() == ["discard 4D", "discard 4D down"]
    assert _three_cards(CLASSIC).legal_actions() == [
        "discard KH",
        "discard KD",
        "discard 4C",
        "discard 4C down",
    ]


def test_out_discard_up_allows_no_face_down_discard() -> None:
    rules = replace(CLASSIC, name="open", out_discard="up")
    hand = _last_card(rules)
    assert hand.legal_actions() == ["discard 4D"]
    with pytest.raises(umtali.IllegalAction, match="in open every discard goes face up"):
        hand.play("discard 4D down")
    three = _three_cards(rules)
    assert three.legal_actions() == ["discard KH", "discard KD", "discard 4C"]
    with pytest.raises(umtali.IllegalAction, match="face up"):
        three.play("discard 4C down")


def test_out_discard_down_makes_the_going_out_discard_face_down() -> None:
    rules = replace(CLASSIC, name="blind", out_discard="down")
    hand = _last_card(rules)
    assert hand.legal_actions() == ["discard 4D down"]
    with pytest.raises(umtali.IllegalAction, match="goes face down: discard 4D down"):
        hand.play("discard 4D")
    three = _three_cards(rules)
    # Only the discard that leaves the going-out pair changes; the others stay face up.
    assert three.legal_actions() == ["discard KH", "discard KD", "discard 4C down"]
    with pytest.raises(umtali.IllegalAction, match="face down"):
        three.play("discard 4C")
    three.play("discard 4C down")
    assert three.legal_actions() == ["meld KH KD"]


def test_take_top_offers_no_take_two() -> None:
    rules = replace(CLASSIC, name="top only", take="top")
    hand = _before_take_two(rules)
    assert hand.legal_actions() == ["draw", "take"]
    with pytest.raises(umtali.IllegalAction, match="there is no take 2 in top only"):
        hand.play("take 2")
    # The same position under classic offers it: the setting made the difference.
    assert "take 2" in umtali.replay(hand.deal, hand.actions()).legal_actions()


@pytest.mark.parametrize(
    "settings,why",
    [
        ({"take": "follow"}, "take='follow' is played only where melding is optional"),
        ({"take": "deep"}, "take='deep' is played only where melding is optional"),
        ({"melds": "rummy"}, "rummy melds are played only where melding is optional"),
        ({"additions": "extend"}, "additions extend one meld only where melding is optional"),
        ({"final_meld": "pair_or_run"}, "goes out with a pair"),
        ({"final_meld": "none"}, "goes out with a pair"),
        ({"scoring": "hand"}, "each side scores its table"),
        ({"taken_discard": "never"}, "taken_discard='last'"),
        ({"last_turn": False, "last_turn_discard": False}, "has a last turn"),
        ({"last_turn": False}, "last_turn_discard needs a last turn"),
        ({"mandatory_play": False}, "additions='extend'"),
        ({"mandatory_play": False, "additions": "extend"}, "take 2 is played only where"),
        ({"big_hand": 12}, "big_hand = small_hand + 1"),
        ({"up_card": True}, "the same number of cards"),
        ({"big_hand": 27, "small_hand": 26}, "at least two cards for the stock"),
        ({"hands_per_game": 0}, "hands_per_game or a target"),
        ({"turn_limit": 1}, "turn_limit"),
    ],
)
def test_a_combination_no_machine_plays_is_refused_with_its_reason(
    settings: dict[str, Any], why: str
) -> None:
    with pytest.raises(ValueError, match=f"rules 'mine': .*{re.escape(why)}"):
        replace(CLASSIC, name="mine", **settings)


def test_every_preset_is_accepted_and_its_facts_follow_its_settings() -> None:
    for rules in PRESETS.values():
        assert rules.take_two == (rules.take == "two")
        assert rules.take_next == (rules.take == "follow")
        assert rules.take_deep == (rules.take == "deep")
        assert rules.out_up == (rules.out_discard != "down")
        assert rules.out_down == (rules.out_discard != "up")
        assert rules.machine == ("classic" if rules.mandatory_play else "optional")
        assert rules.one_meld_additions == (rules.additions == "extend")
        # The facts are recomputed, never copied, when a rule set is varied.
        varied = replace(rules, name="varied", out_discard="up")
        assert varied.out_up and not varied.out_down
