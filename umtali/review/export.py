"""``umtali review FILE --json``: the whole analysis as JSON, for other tools.

Built from the analysis's values (:mod:`umtali.review.analysis`), never from
text the review printed.  Cards, moves and positions are in the record's
notation (``KS``, ``discard 2C``); a position is what the mover could see then,
never a hidden card.
"""

from __future__ import annotations

from typing import Any

from umtali.bots.coach import BLUNDER, COSTLY_POINTS, INACCURACY, MISTAKE
from umtali.engine.cards import Card
from umtali.engine.view import PlayerView
from umtali.review.analysis import Decision, GameAnalysis

#: Bumped when a field changes meaning, so a reader can tell.
FORMAT = 1


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def position(view: PlayerView) -> dict[str, Any]:
    """What the mover could see, in the record's card notation."""
    return {
        "hand": _cards(view.hand),
        "table": [
            [{"kind": piece.kind.name.lower(), "cards": _cards(piece.cards)} for piece in side]
            for side in view.sides
        ],
        "discard_top": None if view.discard_top is None else str(view.discard_top),
        "discard_pile": _cards(view.discard_pile),
        "stock": view.stock_size,
        "opponent_cards": view.opponent_hand_size,
        "opponent_known": _cards(view.opponent_known),
        "scores": list(view.scores),
    }


def decision(d: Decision) -> dict[str, Any]:
    """One decision, as a JSON object."""
    label = d.label
    return {
        "number": d.number,
        "seat": d.seat,
        "game": d.game,
        "hand": d.hand,
        "turn": d.turn,
        "position": position(d.view),
        "move": str(d.played),
        "best": str(d.best),
        "chance_before": d.before,
        "chance_after": d.after,
        "chance_lost": d.verdict.cost if d.verdict.chances else None,
        "points_lost": d.verdict.points,
        "label": None if label is None else label.value,
        "reason": d.reason,
    }


def analysis_json(analysis: GameAnalysis) -> dict[str, Any]:
    """The whole analysis as one JSON object; a resigned record's also says the hand it
    was resigned in, whose decisions are among the others (it has no scores)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "players": list(analysis.names),
        "result": analysis.result(),
        "winner": analysis.winner,
        "games": [
            {"totals": list(totals), "winner": winner}
            for totals, winner in zip(analysis.totals, analysis.winners, strict=True)
        ],
        "hands": [
            {"game": h.game, "hand": h.hand, "scores": list(h.scores), "went_out": h.went_out}
            for h in analysis.hands
        ],
        "valued_by": "chance" if analysis.chances else "points",
        "thresholds": {
            "inaccuracy": INACCURACY,
            "mistake": MISTAKE,
            "blunder": BLUNDER,
            "points": COSTLY_POINTS,
        },
        "decisions": [decision(d) for d in analysis.decisions],
    }
    given_up = analysis.resigned
    if given_up is not None:  # only there: any other record's export is as it was
        out["resigned"] = {"game": given_up.game, "hand": given_up.hand}
    return out
