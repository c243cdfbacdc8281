"""Umtali: the two-player rummy from old Rhodesia, for the terminal and for scripts.

>>> import umtali
>>> hand = umtali.deal_hand(seed=1)
>>> hand.to_move
1
"""

from umtali.bots import Bot, Decision, GameInfo, bot
from umtali.engine import *  # noqa: F403
from umtali.engine import __all__ as _engine_all

__version__ = "0.1.0"
__all__ = [*_engine_all, "Bot", "Decision", "GameInfo", "__version__", "bot"]
