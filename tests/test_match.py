"""Hands in sequence: the cut, the deal passing to the winner, games and sessions."""

from __future__ import annotations

import itertools
import random

import pytest

import umtali
from umtali.engine.match import HandResult, next_dealer
from umtali.engine.state import HandEnd


def play_out(hand: umtali.Hand, rng: random.Random) -> None:
    while not hand.is_over:
        hand.play(rng.choice(hand.legal_actions()))


def play_game(game: umtali.Game, rng: random.Random) -> None:
    while not game.is_over:
        play_out(game.next_hand(eleven=rng.choice([1, 2])), rng)


def test_the_cut_lower_card_deals_and_ties_cut_again() -> None:
    for seed in range(300):
        (a, b), dealer = umtali.cut_for_deal(random.Random(seed))
        assert a.rank != b.rank
        assert dealer == (1 if a.rank < b.rank else 2)


def test_the_cut_repeats_on_a_tie() -> None:
    # Find a seed whose first cut ties, and check the result is a later, untied cut.
    for seed in range(2000):
        rng = random.Random(seed)
        first = rng.sample(umtali.engine.cards.CARDS, 2)
        if first[0].rank == first[1].rank:
            (a, b), _ = umtali.cut_for_deal(random.Random(seed))
            assert (a, b) != tuple(first) and a.rank != b.rank
            return
    pytest.fail("no tied cut found")


@pytest.mark.parametrize(
    "scores,dealer,expected",
    [((10, 4), 2, 1), ((3, 9), 1, 2), ((7, 7), 2, 2), ((7, 7), 1, 1)],
)
def test_the_winner_of_a_hand_deals_next_and_a_draw_keeps_the_dealer(
    scores: tuple[int, int], dealer: int, expected: int
) -> None:
    assert next_dealer(HandResult(1, dealer, scores, None, (), HandEnd.OUT)) == expected


def test_games_follow_the_dealing_and_length_rules() -> None:
    rng = random.Random(1)
    for seed in range(60):
        game = umtali.Game(seed=seed)
        assert game.cut is not None
        play_game(game, rng)
        results = game.results
        assert len(results) >= 4
        for before, after in itertools.pairwise(results):
            assert after.dealer == next_dealer(before)
        totals = game.totals
        assert totals[0] != totals[1]
        assert game.winner == (1 if totals[0] > totals[1] else 2)
        # Play went past four hands only while the totals were level.
        for n in range(4, len(results)):
            a = sum(r.scores[0] for r in results[:n])
            b = sum(r.scores[1] for r in results[:n])
            assert a == b


def test_a_game_level_after_four_hands_plays_on() -> None:
    rng = random.Random(7)
    for seed in range(3000):
        game = umtali.Game(seed=seed)
        play_game(game, rng)
        if len(game.results) > 4:
            assert game.is_over and game.totals[0] != game.totals[1]
            return
    pytest.fail("no level game found")


def test_no_hand_is_dealt_while_one_is_being_played_or_after_the_game() -> None:
    game = umtali.Game(seed=2, first_dealer=2)
    assert game.dealer == 2 and game.cut is None
    hand = game.next_hand()
    assert hand.to_move == 2  # the dealer keeps the extra card by default
    with pytest.raises(umtali.IllegalAction, match="not over"):
        game.next_hand()
    play_out(hand, random.Random(0))
    play_game(game, random.Random(0))
    with pytest.raises(umtali.IllegalAction, match="game is over"):
        game.next_hand()


def test_a_session_is_best_of_three_and_the_deal_passes_on() -> None:
    rng = random.Random(3)
    for seed in range(15):
        session = umtali.Session(seed=seed)
        while True:
            play_game(session.game, rng)
            if session.is_over:
                break
            before = session.game
            nxt = session.next_game()
            assert nxt.dealer == before.dealer and nxt.cut is None
            assert nxt.totals == (0, 0)  # scores do not carry over
        assert max(session.wins) == 2 and 2 <= len(session.games) <= 3
        assert session.winner == (1 if session.wins[0] == 2 else 2)
        with pytest.raises(umtali.IllegalAction):
            session.next_game()


def test_results_follow_the_hands_when_one_is_replaced() -> None:
    import random

    game = umtali.Game(seed=8)
    rng = random.Random(8)
    for _ in range(2):
        hand = game.next_hand()
        while not hand.is_over:
            hand.play(rng.choice(hand.legal_actions()))
    first = game.results
    assert [r.number for r in first] == [1, 2]
    # Replace the second hand by a replay of part of it (as undo does): its result goes.
    partial = umtali.replay(hand.deal, hand.actions()[:3])
    game.hands[-1] = partial
    assert [r.number for r in game.results] == [1]
    while not partial.is_over:
        partial.play(rng.choice(partial.legal_actions()))
    assert [r.scores for r in game.results] == [first[0].scores, partial.scores]
