"""Random playouts of other card-game engines, timed like Umtali's, for ``--compare``.

OpenSpiel's ``gin_rummy`` is a C++ core driven from Python through its
bindings; RLCard's gin rummy is pure Python.  Both are optional (the
``bench`` extra); without them the comparison says how to get them.
Each is driven the way a search would drive it: list the legal actions,
pick one at random, apply it, until the hand ends.  Every applied action
counts, chance outcomes (OpenSpiel deals and draws) included.
"""

from __future__ import annotations

import random
import time
from typing import Any

INSTALL_HINT = (
    "the comparison needs OpenSpiel and RLCard: pip install 'umtali[bench]' "
    "(or, in a clone, pip install -e '.[bench]')"
)


def available() -> str | None:
    """None if both engines import, else what is missing and how to get it."""
    missing = []
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        missing.append("open_spiel")
    try:
        import rlcard  # noqa: F401
    except ImportError:
        missing.append("rlcard")
    if missing:
        return f"{' and '.join(missing)} not installed: {INSTALL_HINT}"
    return None


def openspiel_gin(seconds: float, seed: int) -> tuple[int, int, float]:
    """(hands, actions, elapsed) of random OpenSpiel gin rummy playouts."""
    import pyspiel

    return random_episodes(pyspiel.load_game("gin_rummy"), seconds, seed)


def random_episodes(game: Any, seconds: float, seed: int) -> tuple[int, int, float]:
    """(episodes, actions, elapsed) of random playouts of an OpenSpiel ``game`` for
    ``seconds``, chance and players alike picking with the same cheap choice."""
    pick = random.Random(seed).random  # the same cheap choice in every engine's loop
    episodes = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(pick() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(pick() * len(legal))])
            actions += 1
        episodes += 1
    return episodes, actions, time.perf_counter() - start


def rlcard_gin(seconds: float, seed: int) -> tuple[int, int, float]:
    """(hands, actions, elapsed) of random RLCard gin rummy playouts (its game object)."""
    from rlcard.games.gin_rummy.game import GinRummyGame

    game = GinRummyGame()
    game.np_random.seed(seed)
    rng = random.Random(seed)
    pick = rng.random  # the same cheap choice in every engine's loop
    hands = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            legal = game.judge.get_legal_actions()
            game.step(legal[int(pick() * len(legal))])
            actions += 1
        hands += 1
    return hands, actions, time.perf_counter() - start


def rlcard_gin_env(seconds: float, seed: int) -> tuple[int, int, float]:
    """(hands, actions, elapsed) of random RLCard gin rummy playouts through its RL
    environment (``rlcard.make``): each step also makes the next player's observation
    and legal actions, as a PettingZoo env's step and ``last()`` do."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    pick = random.Random(seed).random
    hands = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(pick() * len(legal))])
            actions += 1
        hands += 1
    return hands, actions, time.perf_counter() - start
