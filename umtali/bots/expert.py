"""The ``expert`` bot: the one analysis (:mod:`umtali.bots.analysis`) at its full budget.

It reads the opponent's hand from their play, deals the cards it cannot see to
match, plays each of its candidate moves out in every one of those deals, and
keeps the move with the best chance of winning the game (the hand's points
breaking ties).  The hint, the seat that stands in for a player who left a
hosted game, and the coach run the same search: what the expert plays is what
they advise.
"""

from __future__ import annotations

from umtali.bots.analysis import MIN_WORLDS, analyse
from umtali.bots.seat import Decision, GameInfo
from umtali.engine.view import PlayerView


class ExpertBot:
    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: int | None = None,
        min_worlds: int = MIN_WORLDS,
        confidence: float | None = None,
        points_only: bool = False,
    ) -> None:
        """``seed`` is mixed into each position's own seed (None: the adviser's, 0);
        ``budget`` (simulated moves a decision), ``min_worlds`` (deals searched at the
        least) and ``confidence`` (standard errors by which the search must beat
        ``normal``'s habit; 0 trusts the search alone) default to the level's own; a
        script or a test may choose others.  ``points_only`` plays for the hand's margin
        alone, as the expert did before it played for the game (the lab's yardstick)."""
        self.salt = seed or 0
        self.budget = budget
        self.min_worlds = min_worlds
        self.confidence = confidence
        self.points_only = points_only

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        return analyse(
            view,
            info,
            budget=self.budget,
            salt=self.salt,
            min_worlds=self.min_worlds,
            confidence=self.confidence,
            points_only=self.points_only,
        ).decision


__all__ = ["ExpertBot"]
