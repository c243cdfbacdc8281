"""The errors the engine raises, each narrow enough to catch on its own.

Every message is written for a player: it quotes what was typed and says
what would be legal instead.
"""

from __future__ import annotations


class UmtaliError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidNotation(UmtaliError, ValueError):
    """Text that is not a card or an action in Umtali notation."""


class IllegalAction(UmtaliError, ValueError):
    """A well-formed action that the rules do not allow now."""


class MalformedAction(IllegalAction, InvalidNotation):
    """Text given as an action that cannot be read as one.

    It is both an :class:`IllegalAction` (so a caller of ``hand.play`` needs
    to catch only one error) and an :class:`InvalidNotation`.
    """


class AmbiguousAction(IllegalAction):
    """An action that could mean more than one legal move; the message lists them.

    Where an addition extends one meld, ``play 5H`` is ambiguous when both a
    group of fives and a run ending at 4H would take it: ``play 5H on 5S`` or
    ``play 5H on 4H`` says which.
    """


class InvalidDeal(UmtaliError, ValueError):
    """An explicit deal that is not a shuffled deck split the way the rules say."""


class RecordError(UmtaliError):
    """A record that cannot be read or does not replay; the message names file and line."""
