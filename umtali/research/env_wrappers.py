"""PettingZoo's two standard wrappers for our env, with their checks and a faster path.

:func:`umtali.research.umtali_v0.env` wraps the environment as PettingZoo's classic
games are: :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper` (nothing before
``reset``, ``agent_iter`` loops that step) around
:class:`~pettingzoo.utils.wrappers.AssertOutOfBoundsWrapper` (every action in the
action space).  Those read every attribute of the environment through both wrappers'
``__getattr__``: a step loop reads about ten a step (``agents``, ``agent_selection``,
``terminations``, ...), and in our env that cost more than the whole of its step,
observation and action mask together.  The subclasses here keep every check and the
types (they *are* PettingZoo's wrappers); they only forward the attributes a step loop
reads by property (``last()`` and ``observe()`` go straight to the environment too),
and let an int action inside the space through without building a NumPy scalar to
test it.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

_BEFORE_RESET = "{} cannot be accessed before reset"  # the base wrapper's words


class AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """Asserts that each action is in the action space (the base wrapper's test for
    anything but an int in ``range(n)``, which a ``Discrete(n)`` holds)."""

    def __init__(self, env: AECEnv, size: int) -> None:
        super().__init__(env)
        self.size = size

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self.size:
            self.env.step(action)
        else:
            super().step(action)


def _forwarded(name: str, checked: bool) -> property:
    """A property reading ``name`` from the wrapped environment itself (the innermost),
    refused before ``reset`` where PettingZoo's wrapper refuses it."""

    def read(self: OrderEnforcing) -> Any:
        if checked and not self._has_reset:
            raise AttributeError(_BEFORE_RESET.format(name))
        return getattr(self.inner, name)

    return property(read, doc=f"The environment's ``{name}``.")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order enforcing wrapper; the attributes a step loop reads go
    straight to the environment (``inner``), with the same refusals before reset."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self.inner: AECEnv = env.unwrapped

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            super().observe(agent)  # PettingZoo's refusal
        return self.inner.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError(_BEFORE_RESET.format("agent_selection"))
        return self.inner.last(observe)  # type: ignore[no-any-return]

    agents = _forwarded("agents", True)
    agent_selection = _forwarded("agent_selection", True)
    rewards = _forwarded("rewards", True)
    terminations = _forwarded("terminations", True)
    truncations = _forwarded("truncations", True)
    infos = _forwarded("infos", True)
    _cumulative_rewards = _forwarded("_cumulative_rewards", False)


__all__ = ["AssertOutOfBounds", "OrderEnforcing"]
