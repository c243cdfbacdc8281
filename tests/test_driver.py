"""The one game driver, and taking a hand back for undo."""

from __future__ import annotations

import pytest

import umtali
from umtali.bots import EasyBot, NormalBot
from umtali.bots.arena import Driver, info_for, unnamed
from umtali.bots.seat import Decision, GameInfo
from umtali.engine.progress import Progress
from umtali.engine.view import PlayerView


def test_listeners_hear_every_action_in_order_with_its_player() -> None:
    heard: list[tuple[int, str]] = []
    driver = Driver([NormalBot(), EasyBot(4)], [lambda h, who, a: heard.append((who, str(a)))])
    game = driver.play_game(umtali.Game(seed=4))
    assert game.is_over
    everything = [pair for hand in game.hands for pair in hand_actions(hand)]
    assert heard == everything


def hand_actions(hand: umtali.Hand) -> list[tuple[int, str]]:
    from umtali.engine.record import played

    return [(who, str(action)) for who, action in played(hand)]


def test_an_illegal_choice_changes_nothing_and_tells_no_listener() -> None:
    class Stubborn:
        name = "stubborn"

        def choose(self, view: PlayerView, info: GameInfo) -> Decision:
            return Decision(umtali.Action.parse("draw"), "always draws")

        def choose_eleven(self, player: int, info: GameInfo) -> int:
            return player

    heard: list[str] = []
    hand = umtali.deal_hand(seed=7)  # player 1 holds the extra card: no draw now
    driver = Driver([Stubborn(), Stubborn()], [lambda h, who, a: heard.append(str(a))])
    with pytest.raises(umtali.IllegalAction):
        driver.step(hand, GameInfo())
    assert heard == [] and hand.actions() == []


def test_a_seat_sees_only_its_view() -> None:
    seen: list[object] = []

    class Looker(NormalBot):
        def choose(self, view: PlayerView, info: GameInfo) -> Decision:
            seen.append(view)
            return super().choose(view, info)

    hand = umtali.deal_hand(seed=7)
    Driver([Looker(), Looker()]).step(hand, GameInfo())
    assert isinstance(seen[0], PlayerView)


def test_rewind_takes_the_hand_back_exactly() -> None:
    game = umtali.Game(seed=9)
    driver = Driver([NormalBot(), NormalBot()])
    driver.answer(Progress(game, unnamed(driver.seats)))  # the dealer deals
    hand = game.hand
    assert hand is not None
    for _ in range(12):
        driver.step(hand, info_for(game))
    before = hand.actions()
    again = game.rewind(5)
    assert game.hand is again and again is not hand
    assert again.actions() == before[:5]
    assert again.view(1) == umtali.replay(hand.deal, before[:5]).view(1)
    with pytest.raises(ValueError, match="cannot keep 6"):
        game.rewind(6)  # only five actions are left to keep
    with pytest.raises(umtali.IllegalAction):
        umtali.Game(seed=1).rewind(0)  # nothing dealt yet


def test_a_hand_that_is_over_is_asked_for_nothing_and_given_nothing() -> None:
    driver = Driver([NormalBot(), EasyBot(2)])
    game = driver.play_game(umtali.Game(seed=2))
    finished = game.hands[-1]
    with pytest.raises(ValueError, match="the hand is over"):
        driver.apply(finished, "draw")
    with pytest.raises(ValueError, match="the hand is over"):
        driver.decide(finished, info_for(game))
