"""Umtali: the two-player rummy from old Rhodesia, for the terminal and for scripts.

>>> import umtali
>>> hand = umtali.deal_hand(seed=1)
>>> hand.to_move
1

The names below are loaded the first time they are asked for, so that a command
(``umtali --help``, say) imports only the parts it uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from umtali.engine import __all__ as _engine_all

if TYPE_CHECKING:
    from umtali.bots import Bot, Decision, GameInfo, bot
    from umtali.engine import *  # noqa: F403

__version__ = "0.1.0"
__all__ = [*_engine_all, "Bot", "Decision", "GameInfo", "__version__", "bot"]

_FROM_BOTS = frozenset(("Bot", "Decision", "GameInfo", "bot"))


def _import_on_first_use(name: str) -> object:
    """A public name of the engine or the bots, imported on first use."""
    if name in _FROM_BOTS:
        home = "umtali.bots"
    elif name in _engine_all:
        home = "umtali.engine"
    else:
        raise AttributeError(f"module 'umtali' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next look-up is an ordinary one
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if not TYPE_CHECKING:
    # The module's __getattr__ (PEP 562).  Type checkers see the imports above
    # instead, so a name that is not among them is still an error to them.
    __getattr__ = _import_on_first_use
