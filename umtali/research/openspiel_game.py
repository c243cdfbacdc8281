"""Umtali as an OpenSpiel game: ``pyspiel.load_game("python_umtali(variant=family)")``.

Importing this module registers the game under the short name ``python_umtali``
(as OpenSpiel's own Python games register themselves).  Its parameters:

* ``variant``: ``classic`` (the default), ``family``, ``practical`` or ``rummy``;
* ``returns``: ``outcome`` (the default) or ``margin``.

**One episode is one hand.**  The engine bounds a hand (its turn limit), so the
game has a true ``max_game_length``; a whole game of four hands would need the
deal passed to the winner of each hand and play-on hands while the totals are
level, which no bound covers, and the hand is the unit our tournaments deal in
duplicate.  It matches OpenSpiel's own ``gin_rummy``, also one hand.

**Returns.**  With ``returns=outcome`` the seat that scored more in the hand gets
+1 and the other -1; a level hand (both sides scoring the same in classic, family
and practical, or a dead hand in Rummy, where nobody scores) is a draw, 0 each:
the rules know a level hand (the same player deals again), so it is a real outcome
and not a tie forced onto the game.  With ``returns=margin`` each seat gets its
points less the other's (in Rummy, the points of the one who went out).  Either
way the game is zero-sum.

Chance (the deal, one card at a time, and each stock draw) is explicit; see
:mod:`umtali.research.episode`.  The observer (:meth:`UmtaliGame.make_py_observer`)
gives the strings and tensors of :mod:`umtali.research.observe`; player actions are
the ids of :mod:`umtali.research.action_ids`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from umtali.engine.rules import PRESETS
from umtali.research.action_ids import NUM_ACTIONS
from umtali.research.episode import CHANCE, Episode, max_length
from umtali.research.observe import (
    INFO_SIZE,
    OBS_SIZE,
    fill,
    information_state_string,
    observation_string,
    pieces,
)

SHORT_NAME = "python_umtali"
RETURNS = ("outcome", "margin")
#: The most points a hand can be won by (every card scored, kings and queens married,
#: or, in Rummy, a whole other hand doubled): a bound for the margin's utility.
MOST_POINTS = 2 * 400

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Umtali (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "classic", "returns": "outcome"},
)


def _info(variant: str, margin: bool) -> pyspiel.GameInfo:
    rules = PRESETS[variant]
    bound = MOST_POINTS if margin else 1.0
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=52,
        num_players=2,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=max_length(rules),
    )


class UmtaliGame(pyspiel.Game):  # type: ignore[misc]
    """The game: a variant and a kind of return, fixed when it is made."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        variant = str(params.get("variant", "classic"))
        returns = str(params.get("returns", "outcome"))
        if variant not in PRESETS:
            raise ValueError(f"variant {variant!r}: choose from {', '.join(PRESETS)}")
        if returns not in RETURNS:
            raise ValueError(f"returns {returns!r}: choose from {', '.join(RETURNS)}")
        self.variant = variant
        self.margin = returns == "margin"
        super().__init__(_GAME_TYPE, _info(variant, self.margin), params)

    def new_initial_state(self) -> UmtaliState:
        return UmtaliState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> UmtaliObserver:
        if params:
            raise ValueError(f"the Umtali observer takes no parameters, not {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return UmtaliObserver(recall)


class UmtaliState(pyspiel.State):  # type: ignore[misc]
    """One play-through of a hand: an :class:`Episode` behind OpenSpiel's API."""

    def __init__(self, game: UmtaliGame, episode: Episode | None = None) -> None:
        super().__init__(game)
        self.episode = episode if episode is not None else Episode(game.variant)
        self._margin = game.margin

    def current_player(self) -> int:
        return self.episode.current()

    def _legal_actions(self, player: int) -> list[int]:
        return self.episode.legal_ids() if player == self.episode.current() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self.episode.chance_outcomes()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        self.episode.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.episode.action_text(CHANCE if player < 0 else player, int(action))

    def is_terminal(self) -> bool:
        return self.episode.is_over()

    def returns(self) -> list[float]:
        return list(self.episode.returns(self._margin))

    def resampled(self, player: int, rng: random.Random, read: bool = True) -> UmtaliState:
        """A state ``player`` cannot tell from this one, its hidden cards dealt anew from
        what ``player`` knows (see :mod:`umtali.research.resample`)."""
        from umtali.research.resample import resample

        return UmtaliState(self.get_game(), resample(self.episode, player, rng, read))

    def __str__(self) -> str:
        m = self.episode.machine
        if m is None:
            return f"dealing: {len(self.episode.dealt)} cards dealt"
        return "\n".join(f"{player}: {words}" for player, words in _history(self.episode))


def _history(episode: Episode) -> list[tuple[int, str]]:
    from umtali.engine.events import events_of

    assert episode.machine is not None
    return [(e.player, str(e)) for e in events_of(episode.machine.log)]


class UmtaliObserver:
    """OpenSpiel's py-observer: a flat float32 tensor, its named parts in ``dict``."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(INFO_SIZE if perfect_recall else OBS_SIZE, np.float32)
        self.dict = pieces(self.tensor, perfect_recall)

    def set_from(self, state: UmtaliState, player: int) -> None:
        fill(self.dict, state.episode, player)

    def string_from(self, state: UmtaliState, player: int) -> str:
        if self.perfect_recall:
            return information_state_string(state.episode, player)
        return observation_string(state.episode, player)


pyspiel.register_game(_GAME_TYPE, UmtaliGame)


def load(variant: str = "classic", returns: str = "outcome") -> UmtaliGame:
    """The game for ``variant`` (this module's import has registered it)."""
    game: UmtaliGame = pyspiel.load_game(SHORT_NAME, {"variant": variant, "returns": returns})
    return game


__all__ = ["RETURNS", "SHORT_NAME", "UmtaliGame", "UmtaliObserver", "UmtaliState", "load"]
