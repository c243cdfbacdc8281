"""Umtali: the two-player rummy from old Rhodesia, for the terminal and for scripts.

>>> import umtali
>>> hand = umtali.deal_hand(seed=1)
>>> hand.to_move
1

The names below are loaded the first time they are asked for, so that a command
(``umtali --help``, say) imports only the parts it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from umtali.engine import __all__ as _engine_all
from umtali.engine.lazy import first_use

if TYPE_CHECKING:
    from umtali.bots import Bot, Decision, GameInfo, bot
    from umtali.engine import *  # noqa: F403

__version__ = "0.1.0"
__all__ = [*_engine_all, "Bot", "Decision", "GameInfo", "__version__", "bot"]

_first_use, __dir__ = first_use(
    "umtali",
    {
        **{name: "umtali.engine" for name in _engine_all},
        **{name: "umtali.bots" for name in ("Bot", "Decision", "GameInfo", "bot")},
    },
    globals(),
)

if not TYPE_CHECKING:
    # The module's __getattr__ (PEP 562).  Type checkers see the imports above
    # instead, so a name that is not among them is still an error to them.
    __getattr__ = _first_use
