"""The Umtali rules engine: standard library only, pure, and quick.

See :func:`deal_hand` for one hand, :class:`Game` and :class:`Session` for
the hands in sequence.  Each name is imported from its module the first time
it is asked for, so that a part of the engine (its errors, its rule sets) can
be used without loading the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from umtali.engine.lazy import first_use

if TYPE_CHECKING:
    from umtali.engine.actions import Action, ActionKind
    from umtali.engine.cards import Card, Suit
    from umtali.engine.deal import Deal
    from umtali.engine.errors import (
        AmbiguousAction,
        IllegalAction,
        InvalidDeal,
        InvalidNotation,
        MalformedAction,
        UmtaliError,
    )
    from umtali.engine.events import Event, EventKind
    from umtali.engine.hand import Hand, deal_hand, replay
    from umtali.engine.match import Game, HandResult, Session, cut_for_deal
    from umtali.engine.melds import PieceKind
    from umtali.engine.moves import MoveKind
    from umtali.engine.rules import CLASSIC, PRESETS, RuleSet, rules_named
    from umtali.engine.view import Piece, PlayerView, Step

#: The module of :mod:`umtali.engine` that holds each public name.
HOMES: dict[str, str] = {
    "CLASSIC": "rules",
    "PRESETS": "rules",
    "Action": "actions",
    "ActionKind": "actions",
    "AmbiguousAction": "errors",
    "Card": "cards",
    "Deal": "deal",
    "Event": "events",
    "EventKind": "events",
    "Game": "match",
    "Hand": "hand",
    "HandResult": "match",
    "IllegalAction": "errors",
    "InvalidDeal": "errors",
    "InvalidNotation": "errors",
    "MalformedAction": "errors",
    "MoveKind": "moves",
    "Piece": "view",
    "PieceKind": "melds",
    "PlayerView": "view",
    "RuleSet": "rules",
    "Session": "match",
    "Step": "view",
    "Suit": "cards",
    "UmtaliError": "errors",
    "cut_for_deal": "match",
    "deal_hand": "hand",
    "replay": "hand",
    "rules_named": "rules",
}

__all__ = [
    "CLASSIC",
    "PRESETS",
    "Action",
    "ActionKind",
    "AmbiguousAction",
    "Card",
    "Deal",
    "Event",
    "EventKind",
    "Game",
    "Hand",
    "HandResult",
    "IllegalAction",
    "InvalidDeal",
    "InvalidNotation",
    "MalformedAction",
    "MoveKind",
    "Piece",
    "PieceKind",
    "PlayerView",
    "RuleSet",
    "Session",
    "Step",
    "Suit",
    "UmtaliError",
    "cut_for_deal",
    "deal_hand",
    "replay",
    "rules_named",
]


_first_use, __dir__ = first_use(
    "umtali.engine", {name: f"umtali.engine.{home}" for name, home in HOMES.items()}, globals()
)

if not TYPE_CHECKING:
    # The module's __getattr__ (PEP 562).  Type checkers see the imports above
    # instead, so a name that is not among them is still an error to them.
    __getattr__ = _first_use
