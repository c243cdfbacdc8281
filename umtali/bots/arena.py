"""Seats playing whole hands and games with no terminal: tests, tournaments, soaks."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from umtali.bots.seat import GameInfo, Seat
from umtali.engine.hand import Hand
from umtali.engine.match import Game

# Called after each decision: (player, seconds it took).
Timer = Callable[[int, float], None]


def info_for(game: Game) -> GameInfo:
    """The public game context for the hand being played."""
    # Results hold the finished hands only, so this is the hand in play (or next).
    return GameInfo(
        hand_number=len(game.results) + 1,
        hands_per_game=game.rules.hands_per_game,
        totals=game.totals,
    )


def play_hand(
    hand: Hand, seats: Sequence[Seat], info: GameInfo, timer: Timer | None = None
) -> None:
    """Let the seats (player 1's first) play ``hand`` to its end."""
    while not hand.is_over:
        player = hand.to_move
        assert player is not None
        start = time.perf_counter()
        decision = seats[player - 1].choose(hand.view(player), info)
        if timer is not None:
            timer(player, time.perf_counter() - start)
        hand.play(decision.action)


def play_game(game: Game, seats: Sequence[Seat], timer: Timer | None = None) -> Game:
    """Deal and play every hand of ``game`` until it is over."""
    while not game.is_over:
        dealer = game.dealer
        info = info_for(game)
        eleven = None if game.rules.up_card else seats[dealer - 1].choose_eleven(dealer, info)
        play_hand(game.next_hand(eleven=eleven), seats, info, timer)
    return game
