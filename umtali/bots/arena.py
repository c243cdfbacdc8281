"""The one game driver: it asks seats for moves, applies them, and tells whoever listens.

The terminal, the tournaments, the soak and the tests all play through a
:class:`Driver`.  It knows nothing of screens or files: the table, a record
listen to what it applies; a person at another terminal is a seat like any other.

>>> import umtali
>>> from umtali.bots import EasyBot, NormalBot
>>> seen = []
>>> driver = Driver([NormalBot(), EasyBot(1)], [lambda hand, player, action: seen.append(action)])
>>> game = driver.play_game(umtali.Game(seed=3))
>>> game.is_over, len(seen) == sum(len(h.actions()) for h in game.hands)
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from umtali.bots.seat import Decision, FullSight, GameInfo, Seat
from umtali.engine.actions import Action
from umtali.engine.hand import Hand
from umtali.engine.match import Game

# Called after each decision: (player, seconds it took).
Timer = Callable[[int, float], None]
# Called after each action applied: (the hand, the player who moved, the action as applied).
Listener = Callable[[Hand, int, Action], None]


def info_for(game: Game) -> GameInfo:
    """The public game context for the hand being played."""
    # Results hold the finished hands only, so this is the hand in play (or next).
    return GameInfo(
        hand_number=len(game.results) + 1,
        hands_per_game=game.rules.hands_per_game,
        totals=game.totals,
        dealer=game.dealer,
    )


class Driver:
    """Seats (player 1's first) playing hands and games, with listeners told of each action.

    A seat sees only its player's view; a research seat that declares
    ``sees_everything`` (the tournament's oracle) is handed the whole hand
    through its ``choose_full``.
    """

    def __init__(
        self,
        seats: Sequence[Seat],
        listeners: Sequence[Listener] = (),
        timer: Timer | None = None,
    ) -> None:
        self.seats = list(seats)
        self.listeners = list(listeners)
        self.timer = timer

    def decide(self, hand: Hand, info: GameInfo) -> Decision:
        """What the seat to move chooses (nothing is applied)."""
        player = _mover(hand)
        seat = self.seats[player - 1]
        start = time.perf_counter()
        if isinstance(seat, FullSight) and seat.sees_everything:
            decision = seat.choose_full(hand, info)
        else:
            decision = seat.choose(hand.view(player), info)
        if self.timer is not None:
            self.timer(player, time.perf_counter() - start)
        return decision

    def apply(self, hand: Hand, action: Action | str) -> Action:
        """Play ``action`` for the player to move and tell the listeners.

        An illegal action raises :class:`~umtali.IllegalAction` and changes nothing.
        """
        player = _mover(hand)
        played = hand.play(action)
        for listener in self.listeners:
            listener(hand, player, played)
        return played

    def step(self, hand: Hand, info: GameInfo) -> Decision:
        """One action: ask the seat to move, apply its choice, tell the listeners."""
        decision = self.decide(hand, info)
        self.apply(hand, decision.action)
        return decision

    def play_hand(self, hand: Hand, info: GameInfo) -> Hand:
        """Play ``hand`` to its end."""
        while not hand.is_over:
            self.step(hand, info)
        return hand

    def deal(self, game: Game) -> Hand:
        """Deal the game's next hand, the dealer's seat choosing who takes the extra card."""
        if game.rules.up_card:
            return game.next_hand()  # no extra card: the non-dealer starts
        dealer = game.dealer
        return game.next_hand(eleven=self.seats[dealer - 1].choose_eleven(dealer, info_for(game)))

    def play_game(self, game: Game) -> Game:
        """Deal and play every hand of ``game`` until it is over."""
        while not game.is_over:
            if game.hand is None or game.hand.is_over:
                self.deal(game)
            hand = game.hand
            assert hand is not None
            self.play_hand(hand, info_for(game))
        return game


def _mover(hand: Hand) -> int:
    """The player to move; a hand that is over has none, and nothing may be asked of it."""
    player = hand.to_move
    if player is None:
        raise ValueError("the hand is over: nobody is to move")
    return player


def play_hand(
    hand: Hand, seats: Sequence[Seat], info: GameInfo, timer: Timer | None = None
) -> None:
    """Let the seats (player 1's first) play ``hand`` to its end."""
    Driver(seats, timer=timer).play_hand(hand, info)


def play_game(game: Game, seats: Sequence[Seat], timer: Timer | None = None) -> Game:
    """Deal and play every hand of ``game`` until it is over."""
    return Driver(seats, timer=timer).play_game(game)
