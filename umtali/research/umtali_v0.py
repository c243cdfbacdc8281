"""Umtali as a PettingZoo AEC environment (needs PettingZoo, not OpenSpiel).

>>> from umtali.research import umtali_v0
>>> env = umtali_v0.env(variant="family")
>>> env.reset(seed=1)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((489,), True)

Agents ``player_0`` and ``player_1`` are seats 0 and 1.  With ``scope="game"`` (the
default) an episode is a whole game (:mod:`umtali.research.game_episode`): the cut
for the first deal, the hands dealt in turn as the rules pass the deal, in classic
the dealer's choice of who takes the eleventh card as one step of the dealer (ids
928 and 929), until the rules end the game or the cap on hands (12, Rummy 40).  With
``scope="hand"`` an episode is one hand (:mod:`umtali.research.episode`: ``player_0``
moves first).  An agent acts as long as its turn lasts: a draw, the melds and plays,
a discard, each one step.  Its observation is a dict: ``observation``, the floats of
:mod:`umtali.research.observe` from its own view (489 in a game, with the game's six
numbers; 483 in a hand), and ``action_mask``, one int8 per id of
:mod:`umtali.research.action_ids` (all zero for the agent not to move).  Chance (the
cut, the deal, each stock draw) is the environment's, from the generator
``reset(seed=...)`` seeds.  When the episode ends each agent's reward is its result:
in a game +1 for the winner and -1 for the loser (0 each only for a game level at
the cap: the rules never draw one), in a hand +1, -1 or 0 for a level hand; with
``returns="margin"`` the points between the two (the game's totals, or the hand's).
``max_cycles`` (default: none) truncates the episode after that many agent steps;
the cap and the engine's turn limit end every one anyway.  An id the mask does not
allow raises :class:`~umtali.research.action_ids.NoActionId`.

``render_mode="ansi"`` returns the table as our terminal draws it (the renderer of
:mod:`umtali.ui.render`), from the seat of the agent to move.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from umtali.engine.rules import PRESETS
from umtali.research.action_ids import NUM_ACTIONS
from umtali.research.env_wrappers import AssertOutOfBounds, OrderEnforcing
from umtali.research.episode import CHANCE, TERMINAL, Episode
from umtali.research.game_episode import GameEpisode
from umtali.research.level_play import LevelChooser
from umtali.research.observe import observation, observation_high

AGENTS = ("player_0", "player_1")
_SEAT = {agent: seat for seat, agent in enumerate(AGENTS)}
Observation = dict[str, np.ndarray[Any, Any]]


class UmtaliEnv(AECEnv):  # type: ignore[misc]
    """A game (or one hand) of Umtali (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "umtali_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        render_mode: str | None = None,
        returns: str = "outcome",
        max_cycles: int | None = None,
        scope: str = "game",
    ) -> None:
        super().__init__()
        if variant not in PRESETS:
            raise ValueError(f"variant {variant!r}: choose from {', '.join(PRESETS)}")
        if scope not in ("game", "hand"):
            raise ValueError(f"scope {scope!r}: choose game or hand")
        if returns not in ("outcome", "margin"):
            raise ValueError(f"returns {returns!r}: choose outcome or margin")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is drawn")
        self.variant = variant
        self.render_mode = render_mode
        self.margin = returns == "margin"
        self.max_cycles = max_cycles
        self.scope = scope
        self.possible_agents = list(AGENTS)
        self.episode = self._new_episode()
        self._rng = random.Random()
        self._steps = 0
        high = observation_high(scope == "game")
        box = spaces.Box(np.zeros_like(high), high, dtype=np.float32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self._observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._action_space = spaces.Discrete(NUM_ACTIONS)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def _new_episode(self) -> Episode | GameEpisode:
        return GameEpisode(self.variant) if self.scope == "game" else Episode(self.variant)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.episode = self._new_episode()
        self._steps = 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._chance()
        self.agent_selection = AGENTS[self.episode.current()]

    def _chance(self) -> None:
        """Let chance act until a seat is to move or the episode is over."""
        episode = self.episode
        while episode.current() == CHANCE:
            outcomes = episode.chance_outcomes()
            episode.apply(outcomes[int(self._rng.random() * len(outcomes))])

    def observe(self, agent: str) -> Observation:
        seat = _SEAT[agent]
        episode = self.episode
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if episode.current() == seat:
            mask[list(episode.legal())] = 1
        return {"observation": observation(episode, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        episode = self.episode
        episode.apply(int(action))
        self._chance()
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        if episode.current() == TERMINAL:
            result = episode.returns(self.margin)
            self.rewards = {a: result[n] for n, a in enumerate(AGENTS)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = AGENTS[episode.current()]
            if self.max_cycles is not None and self._steps >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from rich.console import Console

        from umtali.ui.render import TableInfo, render_table
        from umtali.ui.theme import Theme

        episode = self.episode
        if episode.dealing:
            if isinstance(episode, GameEpisode) and episode.choosing:
                return f"(seat {episode.dealer} chooses who takes the eleventh card)"
            return "(the cards are being dealt)"
        seat = AGENTS.index(self.agent_selection)
        out = io.StringIO()
        console = Console(width=80, file=out, color_system=None, legacy_windows=False)
        info = TableInfo((AGENTS[0], AGENTS[1]), seat=AGENTS[seat])
        console.print(render_table(episode.view(seat), info, Theme(), 80, 40))
        return out.getvalue()

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv:
    """The environment, wrapped as PettingZoo's own classic games are (order enforced,
    actions checked against the action space), by the wrappers of
    :mod:`umtali.research.env_wrappers` (PettingZoo's, with a faster step)."""
    made: AECEnv = UmtaliEnv(**kwargs)
    made = AssertOutOfBounds(made, NUM_ACTIONS)
    made = OrderEnforcing(made)
    return made


raw_env = UmtaliEnv


def level_policy(
    environment: AECEnv, level: str, seed: int | None = None
) -> Callable[[Observation, str], int]:
    """A policy function ``policy(observation, agent) -> action`` playing one of our bot
    levels (``easy``, ``normal``, ``hard``, ``expert``) from the agent's view of
    ``environment``'s hand (and in a game, what the program's table tells it of the
    game)."""
    chooser = LevelChooser(level, seed)
    inner: UmtaliEnv = environment.unwrapped

    def policy(observation: Observation, agent: str) -> int:
        if AGENTS.index(agent) != inner.episode.current():
            raise ValueError(f"{agent} is not to move")
        return chooser.choose(inner.episode)

    return policy


__all__ = ["AGENTS", "UmtaliEnv", "env", "level_policy", "raw_env"]
