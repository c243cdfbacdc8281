"""Which plays are forced: the ones no choice of the player's can change.

Read from a player's view alone, so the table (``all`` and its toolbar), the lessons
and the bots' analysis share one answer.
"""

from __future__ import annotations

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import Card
from umtali.engine.view import PlayerView


def forced_action(view: PlayerView) -> Action | None:
    """The next play if the rest of the turn's plays are forced, else None.

    Forced means no choice changes which cards go down: only plays and melds are
    open, and either no card is in two of them (each goes down, in an order that
    is no choice), or one meld holds every card that any of them would put down
    (a pair that takes you out, beside playing its two cards one by one): laying
    it puts down all that any choice could.  Where two melds share a card and
    neither holds the other (Q♥ with K♥, or with Q♠ Q♦), the player chooses.
    """
    if not view.rules.mandatory_play:
        return None  # where melding is optional, no play is ever forced
    actions = view.legal
    if not actions or any(a.kind not in (ActionKind.MELD, ActionKind.PLAY) for a in actions):
        return None
    used: set[Card] = set()
    overlap = False
    for a in actions:
        overlap = overlap or bool(used & set(a.cards))
        used.update(a.cards)
    if not overlap:
        return actions[0]
    return next((a for a in actions if a.kind is ActionKind.MELD and set(a.cards) >= used), None)
