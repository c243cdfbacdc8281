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
from umtali.engine.progress import Asked, Deal, Move, Outcome, Progress, game_info
from umtali.engine.record import PlayerInfo, PlayerKind

# Called after each decision: (player, seconds it took).
Timer = Callable[[int, float], None]
# Called after each action applied: (the hand, the player who moved, the action as applied).
Listener = Callable[[Hand, int, Action], None]


#: The public game context for the hand being played (the engine's :func:`game_info`).
info_for = game_info


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
        start = time.perf_counter()
        decision = ask_seat(self.seats[player - 1], hand, player, info)
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

    def answer(self, progress: Progress) -> Outcome:
        """Put the match's pending decision to the seat it belongs to, and apply the
        answer: the dealer's choice of who takes the extra card, or a move (told to the
        listeners)."""
        asked = progress.pending()
        player = asked.player
        if player is None:
            raise ValueError("the match is over: nobody is to decide")
        seat = self.seats[player - 1]
        if asked.kind is Asked.DEAL:
            eleven = seat.choose_eleven(player, asked.info) if asked.choices else None
            return progress.decide(player, Deal(eleven))
        hand = progress.hand
        assert hand is not None
        decision = self.decide(hand, asked.info)
        outcome = progress.decide(player, Move(decision.action))
        assert outcome.played is not None
        for listener in self.listeners:
            listener(hand, player, outcome.played)
        return outcome

    def play(self, progress: Progress) -> Progress:
        """Answer every decision of ``progress`` until its match is over."""
        while not progress.is_over:
            self.answer(progress)
        return progress

    def play_game(self, game: Game) -> Game:
        """Deal and play every hand of ``game`` until it is over."""
        self.play(Progress(game, unnamed(self.seats)))
        return game


def ask_seat(seat: Seat, hand: Hand, player: int, info: GameInfo) -> Decision:
    """What ``seat`` chooses for ``player`` in ``hand``: from that player's view, or, for a
    research seat that declares it sees everything, from the whole hand."""
    if isinstance(seat, FullSight) and seat.sees_everything:
        return seat.choose_full(hand, info)
    return seat.choose(hand.view(player), info)


def unnamed(seats: Sequence[Seat]) -> tuple[PlayerInfo, PlayerInfo]:
    """The players of a match played by these seats, where nobody gave them: each seat
    is a bot of no level the registry knows, under its own name."""
    return (
        PlayerInfo(PlayerKind.BOT, seats[0].name, "seat"),
        PlayerInfo(PlayerKind.BOT, seats[1].name, "seat"),
    )


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
