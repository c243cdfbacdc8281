"""The Umtali rules engine: standard library only, pure, and quick.

See :func:`deal_hand` for one hand, :class:`Game` and :class:`Session` for
the hands in sequence.
"""

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
