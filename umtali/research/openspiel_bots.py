"""Bots for the OpenSpiel game: our levels, and OpenSpiel's ISMCTS with our inference.

:class:`LevelBot` is a ``pyspiel.Bot`` that plays one of our levels (from the
registry, :mod:`umtali.bots.levels`) from the mover's view.  :func:`ismcts_bot`
builds OpenSpiel's Python information-set MCTS
(``open_spiel.python.algorithms.ismcts``) with random rollouts, and gives it our
resampler (:mod:`umtali.research.resample`): each world it searches deals the
opponent a hand that fits their play, as our ``expert`` reads it, instead of
OpenSpiel's default (which our game does not provide).

>>> import pyspiel
>>> from umtali.research.openspiel_game import load
>>> game = load("classic")
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> LevelBot("normal").step(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from umtali.research.level_play import LevelChooser
from umtali.research.openspiel_game import UmtaliState


class LevelBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our levels as an OpenSpiel bot (it sees only the mover's view)."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.chooser = LevelChooser(level, seed)

    def step(self, state: UmtaliState) -> int:
        return self.chooser.choose(state.episode)

    def restart_at(self, state: UmtaliState) -> None:
        pass

    def inform_action(self, state: UmtaliState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def resampler(seed: int | None = None, read: bool = True) -> Any:
    """ISMCTS's resampler: ``(state, player) -> state``, dealing ``player``'s unseen
    cards anew from that player's view (``read``: weighted by our inference)."""
    rng = random.Random(seed)

    def resample(state: UmtaliState, player: int) -> UmtaliState:
        return state.resampled(player, rng, read)

    return resample


def ismcts_bot(
    game: pyspiel.Game,
    simulations: int,
    seed: int | None = None,
    read: bool = True,
    uct_c: float = 2.0,
) -> ismcts.ISMCTSBot:
    """OpenSpiel's ISMCTS bot, ``simulations`` simulations a move, each from a world
    our resampler deals, each leaf valued by one random rollout."""
    state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c, simulations, random_state=state)
    bot.set_resampler(resampler(seed, read))
    return bot


__all__ = ["LevelBot", "ismcts_bot", "resampler"]
