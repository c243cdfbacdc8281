"""Our bot levels choosing an action id in an episode: the seat behind every door's bots.

A level (from the one registry, :mod:`umtali.bots.levels`) sees what it always
sees, the mover's :class:`~umtali.engine.view.PlayerView`, and answers with an
:class:`~umtali.Action`; :class:`LevelChooser` turns that into the id of
:mod:`umtali.research.action_ids`.  OpenSpiel's bots and PettingZoo's policy
functions (:mod:`umtali.research.openspiel_bots`, :mod:`umtali.research.umtali_v0`)
are thin wrappers around it.  In a whole game
(:class:`~umtali.research.game_episode.GameEpisode`) the level is told the game as
the program's table tells it (the hand's number, the totals, who dealt), and makes
the dealer's choice of who takes the eleventh card as it does there.
"""

from __future__ import annotations

from umtali.bots import make_bot
from umtali.bots.levels import named
from umtali.bots.seat import GameInfo
from umtali.engine.actions import Action, ActionKind
from umtali.research.action_ids import NoActionId, action_id
from umtali.research.episode import Episode
from umtali.research.game_episode import GIVE, KEEP, GameEpisode


def legal_id(episode: Episode, action: Action) -> int:
    """The legal id of ``action`` now.  A play that names the card it goes on where the
    engine lists it without one (classic, where the table's card is the engine's to
    find) is the play without it."""
    legal = episode.legal()
    number = action_id(action)
    if number not in legal and action.kind is ActionKind.PLAY and action.target is not None:
        number = action_id(Action(ActionKind.PLAY, action.cards))
    if number not in legal:
        raise NoActionId(f"{action} is not legal now")
    return number


class LevelChooser:
    """A bot of one level, choosing for whichever seat is to move."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        self.level = named(level).name  # a ValueError names the levels there are
        self.seat = make_bot(level, seed)

    def choose(self, episode: Episode | GameEpisode) -> int:
        """The level's action id for the seat to move."""
        seat = episode.current()
        if seat < 0:
            raise ValueError("no seat is to move (a chance node, or the episode is over)")
        rules = episode.rules
        if not isinstance(episode, GameEpisode):
            info = GameInfo(hands_per_game=rules.hands_per_game)
            decision = self.seat.choose(episode.view(seat), info)
            return legal_id(episode, decision.action)
        info = GameInfo(episode.number, rules.hands_per_game, episode.before, episode.dealer + 1)
        if episode.hand is None:  # the dealer chooses who takes the eleventh card
            return KEEP if self.seat.choose_eleven(seat + 1, info) == seat + 1 else GIVE
        decision = self.seat.choose(episode.view(seat), info)
        return legal_id(episode.hand, decision.action)


__all__ = ["LevelChooser", "legal_id"]
