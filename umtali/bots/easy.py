"""The ``easy`` bot: any legal action, chosen at random (play is still mandatory)."""

from __future__ import annotations

import random

from umtali.bots.seat import Decision, GameInfo
from umtali.engine.view import PlayerView


class EasyBot:
    name = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        if not view.legal:
            raise ValueError("it is not this player's move")
        return Decision(self._rng.choice(view.legal), "picked at random")
