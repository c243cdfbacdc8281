"""Umtali's perft: thousands of complete games of random legal play, audited
after every single action (see umtali.engine.audit for the invariants)."""

from __future__ import annotations

import random

import pytest

import umtali
from umtali.engine.audit import audit
from umtali.engine.hand import machine_of

pytestmark = pytest.mark.slow  # long playouts / real terminals: CI runs them


GAMES = 2000
CHUNK = 100


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_random_games_keep_every_invariant(first: int) -> None:
    rng = random.Random(first)
    hands = actions = 0
    for seed in range(first, first + CHUNK):
        game = umtali.Game(seed=seed)
        while not game.is_over:
            hand = game.next_hand(eleven=rng.choice([1, 2]))
            hands += 1
            assert audit(hand, rng) == []
            while not hand.is_over:
                hand.play(rng.choice(hand.legal_actions()))
                actions += 1
                problems = audit(hand, rng)
                assert problems == [], (seed, hands, hand.actions(), problems)
            assert hand.turns <= hand.rules.turn_limit
            replayed = umtali.replay(hand.deal, hand.actions())
            assert (
                replayed.scores == hand.scores and machine_of(replayed).log == machine_of(hand).log
            )
        assert_ended_by_its_rules(game)
    assert actions > 100 * CHUNK  # every game was played through, a few hundred actions each


def assert_ended_by_its_rules(game: umtali.Game) -> None:
    """A game ends only when its rules say: four hands or more and one player ahead, or
    (Rummy) someone at the target and ahead."""
    a, b = game.totals
    assert game.is_over and game.winner == (1 if a > b else 2) and a != b
    if game.rules.target:
        assert max(a, b) >= game.rules.target
        before = [sum(r.scores[i] for r in game.results[:-1]) for i in (0, 1)]
        assert max(before) < game.rules.target or before[0] == before[1]
    else:
        assert len(game.results) >= game.rules.hands_per_game
        if len(game.results) > game.rules.hands_per_game:
            before = [sum(r.scores[i] for r in game.results[:-1]) for i in (0, 1)]
            assert before[0] == before[1]  # played on only while level


# The other presets, fewer games each (Rummy's random games are long: to 150).
VARIANT_GAMES = [("family", 0, 30), ("family", 30, 60), ("practical", 0, 30)]
VARIANT_GAMES += [("practical", 30, 60), ("rummy", 0, 3), ("rummy", 3, 6)]


@pytest.mark.parametrize(("rules", "first", "stop"), VARIANT_GAMES)
def test_random_variant_games_keep_every_invariant(rules: str, first: int, stop: int) -> None:
    rng = random.Random(first)
    hands = 0
    for seed in range(first, stop):
        game = umtali.Game(rules, seed=seed)
        while not game.is_over:
            hand = game.next_hand()
            hands += 1
            while not hand.is_over:
                hand.play(rng.choice(hand.legal_actions()))
                problems = audit(hand, rng)
                assert problems == [], (rules, seed, hands, hand.actions(), problems)
            replayed = umtali.replay(hand.deal, hand.actions(), rules=rules)
            assert (
                replayed.scores == hand.scores and machine_of(replayed).log == machine_of(hand).log
            )
        assert_ended_by_its_rules(game)


def test_the_audit_catches_a_broken_state() -> None:
    hand = umtali.deal_hand(seed=3)
    machine_of(hand).table_points[0] += 1
    machine_of(hand).stock.pop()
    problems = audit(hand, random.Random(0))
    assert "the 52 cards are not each in exactly one place" in problems
    assert any("player 1 has 1 points but the table says 0" in p for p in problems)


def test_the_audit_catches_a_stale_kept_answer() -> None:
    p1, p2 = "9S 8S 7S 2H 4H 6H 8H 10H QC KD AC", "AD 3D 5D 7D 9D 2C 4C 6C 8C 10C"
    hand = umtali.deal_hand(p1.split(), p2.split())
    assert hand.legal_actions() == ["meld 9S 8S 7S"]
    machine_of(hand).mel = 0  # as if the run were not there
    assert any("a kept answer is stale" in p for p in audit(hand, random.Random(0)))


def test_the_audit_catches_a_leaky_view() -> None:
    hand = umtali.deal_hand(seed=3)
    machine_of(hand).log.append(
        (1, 0, 0, machine_of(hand).hands[1].bit_length() - 1)
    )  # a draw that was never made
    machine_of(hand).log.append((1, 3, machine_of(hand).hands[1] & -machine_of(hand).hands[1], -1))
    assert any("view shows the opponent's" in p for p in audit(hand, random.Random(0)))
