"""Umtali as an OpenSpiel game: ``pyspiel.load_game("python_umtali(variant=family)")``.

Importing this module registers the game under the short name ``python_umtali``
(as OpenSpiel's own Python games register themselves).  Its parameters:

* ``variant``: ``classic`` (the default), ``family``, ``practical`` or ``rummy``;
* ``scope``: ``game`` (the default) or ``hand``;
* ``returns``: ``outcome`` (the default) or ``margin``.

**With** ``scope=game`` **one episode is a whole game**, the outcome the rules
reward (:mod:`umtali.research.game_episode`): chance's cut for the first deal (seat 0
or 1 deals), then the hands dealt in turn as :mod:`umtali.engine.match` passes the
deal, in classic each one after the dealer's choice of who takes the eleventh card
(ids 928 and 929), until the rules end the game (four hands and one player ahead,
playing on while level; in Rummy someone at 150 and ahead) or the machines' cap on
hands (12, Rummy 40, as the lab's tournaments play a game), so ``max_game_length``
is a true bound.  ``returns=outcome`` gives +1 to the game's winner and -1 to the
loser; the rules never draw a game, so 0 each only for a game still level at the
cap.  ``returns=margin`` gives each seat its total less the other's.

**With** ``scope=hand`` **one episode is one hand**, as OpenSpiel's own
``gin_rummy`` is: seat 0 moves first (in classic it deals and keeps the eleventh
card; where an up-card is turned seat 1 deals).  ``returns=outcome`` gives +1 to the
seat that scored more in the hand and -1 to the other; a level hand (both sides
scoring the same in classic, family and practical, or a dead hand in Rummy, where
nobody scores) is 0 each: the rules know a level hand (the same player deals again).
``returns=margin`` gives each seat its points less the other's (in Rummy, the points
of the one who went out).  Either way, and in either scope, the game is zero-sum.

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

from umtali.engine.match import hand_cap
from umtali.engine.rules import PRESETS
from umtali.research.action_ids import NUM_ACTIONS
from umtali.research.episode import CHANCE, Episode, max_length
from umtali.research.game_episode import GameEpisode, max_game_length
from umtali.research.observe import (
    fill,
    information_state_string,
    observation_string,
    pieces,
    sizes,
)

SHORT_NAME = "python_umtali"
RETURNS = ("outcome", "margin")
SCOPES = ("game", "hand")
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
    parameter_specification={"variant": "classic", "scope": "game", "returns": "outcome"},
)


def _info(variant: str, game: bool, margin: bool) -> pyspiel.GameInfo:
    rules = PRESETS[variant]
    hands = hand_cap(rules) if game else 1
    bound = MOST_POINTS * hands if margin else 1.0
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=52,
        num_players=2,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=max_game_length(rules) if game else max_length(rules),
    )


class UmtaliGame(pyspiel.Game):  # type: ignore[misc]
    """The game: a variant, a scope and a kind of return, fixed when it is made."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        variant = str(params.get("variant", "classic"))
        scope = str(params.get("scope", "game"))
        returns = str(params.get("returns", "outcome"))
        if variant not in PRESETS:
            raise ValueError(f"variant {variant!r}: choose from {', '.join(PRESETS)}")
        if scope not in SCOPES:
            raise ValueError(f"scope {scope!r}: choose from {', '.join(SCOPES)}")
        if returns not in RETURNS:
            raise ValueError(f"returns {returns!r}: choose from {', '.join(RETURNS)}")
        self.variant = variant
        self.whole = scope == "game"
        self.margin = returns == "margin"
        super().__init__(_GAME_TYPE, _info(variant, self.whole, self.margin), params)

    def new_episode(self) -> Episode | GameEpisode:
        """A new episode of the game's scope."""
        return GameEpisode(self.variant) if self.whole else Episode(self.variant)

    def new_initial_state(self) -> UmtaliState:
        return UmtaliState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> UmtaliObserver:
        if params:
            raise ValueError(f"the Umtali observer takes no parameters, not {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return UmtaliObserver(recall, self.whole)


class UmtaliState(pyspiel.State):  # type: ignore[misc]
    """One play-through of a game or a hand: a :class:`GameEpisode` or an
    :class:`Episode` behind OpenSpiel's API."""

    def __init__(self, game: UmtaliGame, episode: Episode | GameEpisode | None = None) -> None:
        super().__init__(game)
        self.episode = episode if episode is not None else game.new_episode()
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

        episode = self.episode
        if isinstance(episode, GameEpisode):
            if episode.hand is None:  # the dealer's choice: nothing is dealt, nothing hidden
                return UmtaliState(self.get_game(), episode.clone())
            hand = resample(episode.hand, player, rng, read)
            return UmtaliState(self.get_game(), episode.with_hand(hand))
        return UmtaliState(self.get_game(), resample(episode, player, rng, read))

    def __str__(self) -> str:
        episode = self.episode
        if not isinstance(episode, GameEpisode):
            return _told(episode)
        lines = [f"cut: seat {episode.first} deals first"] if episode.first >= 0 else []
        for n, finished in enumerate(episode.past, 1):
            lines.append(f"hand {n} scored {finished.scores[0]}-{finished.scores[1]}")
        if episode.hand is not None and not episode.over:
            lines.append(f"hand {episode.number}, seat {episode.hand.dealer} deals:")
            lines.append(_told(episode.hand))
        return "\n".join(lines)


def _told(episode: Episode) -> str:
    """A hand's history, every card named."""
    from umtali.engine.events import events_of

    m = episode.hand_state
    if m is None:
        return f"dealing: {len(episode.dealt)} cards dealt"
    return "\n".join(f"{e.player}: {e}" for e in events_of(m.log))


class UmtaliObserver:
    """OpenSpiel's py-observer: a flat float32 tensor, its named parts in ``dict``."""

    def __init__(self, perfect_recall: bool, game: bool = False) -> None:
        self.perfect_recall = perfect_recall
        obs, info = sizes(game)
        self.tensor = np.zeros(info if perfect_recall else obs, np.float32)
        self.dict = pieces(self.tensor, perfect_recall, game)

    def set_from(self, state: UmtaliState, player: int) -> None:
        fill(self.dict, state.episode, player)

    def string_from(self, state: UmtaliState, player: int) -> str:
        if self.perfect_recall:
            return information_state_string(state.episode, player)
        return observation_string(state.episode, player)


pyspiel.register_game(_GAME_TYPE, UmtaliGame)


def load(variant: str = "classic", returns: str = "outcome", scope: str = "game") -> UmtaliGame:
    """The game for ``variant`` (this module's import has registered it)."""
    params = {"variant": variant, "scope": scope, "returns": returns}
    game: UmtaliGame = pyspiel.load_game(SHORT_NAME, params)
    return game


__all__ = [
    "RETURNS",
    "SCOPES",
    "SHORT_NAME",
    "UmtaliGame",
    "UmtaliObserver",
    "UmtaliState",
    "load",
]
