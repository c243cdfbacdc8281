"""The rule set a hand, game and session are played under.

Rules are data: every choice the engine makes that a variant could change
reads a field of :class:`RuleSet`, never a scattered ``if variant == ...``.
The presets are ``classic`` (the old rule book), ``family`` and
``practical`` (the two simpler written versions of Umtali) and ``rummy``
(plain two-player Rummy on the same engine).

>>> [r.name for r in PRESETS.values()]
['classic', 'family', 'practical', 'rummy']
>>> rules_named("Family").take
'follow'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

#: What may be drawn from the discard pile besides its top card.
#: ``two``: the top two cards together, if both can be played this turn;
#: ``follow``: after playing the taken top card, the next one if it is playable;
#: ``deep``: any card, with every card above it, the deepest to be played;
#: ``top``: nothing more.
Take = Literal["two", "follow", "deep", "top"]
#: ``solo``: classic additions (any card touching a solo card);
#: ``extend``: additions only lengthen runs and groups (and, in Umtali, go off jacks).
Additions = Literal["solo", "extend"]
#: ``umtali``: jacks stand alone, marriages count; ``rummy``: jacks are ordinary cards.
Melds = Literal["umtali", "rummy"]
#: The two-card meld allowed only to go out.
FinalMeld = Literal["pair", "pair_or_run", "none"]
#: How the last card may be discarded: either way, face down only, face up only.
OutDiscard = Literal["either", "down", "up"]
#: ``table``: each scores their own side (Umtali); ``hand``: the player who goes
#: out scores the cards left in the other hand (Rummy).
Scoring = Literal["table", "hand"]
#: Who deals the next hand: the winner of the last, or the players in turn.
DealPasses = Literal["winner", "alternate"]
#: When a single card just taken from the discard pile may be discarded in the same
#: turn: as the player's ``last`` card only, or ``never``.
TakenDiscard = Literal["last", "never"]


_TAKE_WORDS: dict[Take, str] = {
    "two": "you may take the top discard, or the top two if both can be played this turn",
    "follow": (
        "you may take the top discard, and once it is played, the next one if it can be"
        " played too (take next)"
    ),
    "deep": (
        "you may take the top discard, or any card of the pile with every card above it"
        " (take <card>), the deepest to be played this turn"
    ),
    "top": "you may take only the top discard",
}


_MELD_SHAPES: dict[Melds, str] = {
    "umtali": (
        "a run is three or more cards in sequence in one suit (ace low, no jacks), "
        "a group three or four cards of one rank, a marriage the king and queen of one suit"
    ),
    "rummy": (
        "a run is three or more cards in sequence in one suit (ace low, J between 10 and Q), "
        "a group three or four cards of one rank"
    ),
}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One way of playing Umtali."""

    name: str
    #: cards dealt to the player who takes the extra card, and to the other
    big_hand: int = 11
    small_hand: int = 10
    #: the stock's top card starts the discard pile and the non-dealer plays
    #: first, drawing as usual (otherwise the extra card's holder starts
    #: without drawing)
    up_card: bool = False
    #: every playable card must be played before the discard
    mandatory_play: bool = True
    take: Take = "two"
    additions: Additions = "solo"
    melds: Melds = "umtali"
    final_meld: FinalMeld = "pair"
    out_discard: OutDiscard = "either"
    taken_discard: TakenDiscard = "last"
    #: after someone goes out the other player has one last turn
    last_turn: bool = True
    #: that last turn may end by discarding (the last card, or down to a final meld)
    last_turn_discard: bool = True
    scoring: Scoring = "table"
    #: points each K and Q scores when laid together as a marriage
    marriage_card_points: int = 10
    #: a game is this many hands (more while level) ...
    hands_per_game: int = 4
    #: ... or, when this is set, lasts until someone reaches it
    target: int = 0
    deal_passes: DealPasses = "winner"
    games_per_session: int = 3
    #: a hand that reaches this many turns (both players counted) ends dead
    turn_limit: int = 200

    def __post_init__(self) -> None:
        if self.mandatory_play and self.taken_discard == "never":
            # With every playable card compulsory, a player could be left holding only
            # the card they took, unable to play it and forbidden to discard it.
            raise ValueError(
                f"rules {self.name!r}: where play is compulsory, the card just taken must "
                "be discardable as the last card (taken_discard='last')"
            )

    def __str__(self) -> str:
        return self.name

    @property
    def take_words(self) -> str:
        """What may be taken from the discard pile, as a player is told it."""
        return _TAKE_WORDS[self.take]

    @property
    def meld_shapes(self) -> str:
        """What a meld is, as a player is told it."""
        return _MELD_SHAPES[self.melds]

    @property
    def jacks_alone(self) -> bool:
        """Jacks are never in a meld and are always playable alone."""
        return self.melds == "umtali"


CLASSIC = RuleSet(name="classic")

FAMILY = RuleSet(
    name="family",
    big_hand=10,
    small_hand=10,
    up_card=True,
    mandatory_play=False,
    take="follow",
    additions="extend",
    final_meld="pair_or_run",
    out_discard="down",
    last_turn_discard=False,
)

# Practical differs from family in what may be taken from the discard pile, and in
# never letting the card taken be discarded that turn (002: "you may not discard it
# during the same turn").
PRACTICAL = replace(FAMILY, name="practical", take="deep", taken_discard="never")

RUMMY = RuleSet(
    name="rummy",
    big_hand=10,
    small_hand=10,
    up_card=True,
    mandatory_play=False,
    take="top",
    additions="extend",
    melds="rummy",
    final_meld="none",
    out_discard="up",
    last_turn=False,
    last_turn_discard=False,
    taken_discard="never",  # 004: "the drawn card cannot be discarded on the same turn"
    scoring="hand",
    hands_per_game=0,
    target=150,
    deal_passes="alternate",
)

PRESETS: dict[str, RuleSet] = {r.name: r for r in (CLASSIC, FAMILY, PRACTICAL, RUMMY)}


def rules_named(name: str | RuleSet) -> RuleSet:
    """Look a preset up by name (a RuleSet passes through unchanged)."""
    if isinstance(name, RuleSet):
        return name
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(PRESETS)
        raise ValueError(f"unknown rules {name!r}: the presets are {known}") from None
