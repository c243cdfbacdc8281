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

from dataclasses import dataclass, field, replace
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

    # Facts resolved from the settings once, when the rule set is made, so that the
    # machines, bots and screens read plain flags instead of comparing strings.
    #: classic takes the top two discards together (``take 2``)
    take_two: bool = field(init=False, repr=False, compare=False)
    #: family's ``take next``
    take_next: bool = field(init=False, repr=False, compare=False)
    #: practical's ``take <card>`` from deep in the pile
    take_deep: bool = field(init=False, repr=False, compare=False)
    #: jacks are never in a meld and always playable alone (Umtali's melds)
    jacks_alone: bool = field(init=False, repr=False, compare=False)
    #: an addition extends the one meld it is played onto (not any solo card it touches)
    one_meld_additions: bool = field(init=False, repr=False, compare=False)
    #: a two-card run may go out like a pair
    final_two_run: bool = field(init=False, repr=False, compare=False)
    #: a player may go out by laying a final pair (or two-card run)
    final_pair: bool = field(init=False, repr=False, compare=False)
    #: the discard that takes a player out may go face up / face down
    out_up: bool = field(init=False, repr=False, compare=False)
    out_down: bool = field(init=False, repr=False, compare=False)
    #: a card taken from the pile may never be discarded that turn
    taken_kept: bool = field(init=False, repr=False, compare=False)
    #: the player who goes out scores the other hand (Rummy's scoring)
    hand_scoring: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problem = _unsupported(self)
        if problem:
            raise ValueError(f"rules {self.name!r}: {problem}")
        facts = {
            "take_two": self.take == "two",
            "take_next": self.take == "follow",
            "take_deep": self.take == "deep",
            "jacks_alone": self.melds == "umtali",
            "one_meld_additions": self.additions == "extend",
            "final_two_run": self.final_meld == "pair_or_run",
            "final_pair": self.final_meld != "none",
            "out_up": self.out_discard != "down",
            "out_down": self.out_discard != "up",
            "taken_kept": self.taken_discard == "never",
            "hand_scoring": self.scoring == "hand",
        }
        for name, value in facts.items():
            object.__setattr__(self, name, value)

    @property
    def machine(self) -> str:
        """The machine that plays these rules: ``classic`` (every playable card must be
        played) or ``optional`` (melding is the player's choice)."""
        return "classic" if self.mandatory_play else "optional"

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

    def left_points(self, mask: int) -> int:
        """What the cards of ``mask``, left in a hand when it ends, are worth to the
        player who went out: Rummy's values (ace 1, two to ten their number, J Q K 10)
        where the hand is scored, the plain ones (10 to K 5, the rest 1) where the table
        is.  Going rummy's doubling is the hand's, not the cards'.

        >>> from umtali.engine.cards import Card, mask_of
        >>> left = mask_of(Card.parse(c) for c in ("8S", "KC"))
        >>> CLASSIC.left_points(left), RUMMY.left_points(left)
        (6, 18)
        """
        # Imported here: the command line reads the rule sets to start, and loads no
        # card tables before a game needs them.
        from umtali.engine.cards import plain_points, rummy_points

        return rummy_points(mask) if self.hand_scoring else plain_points(mask)


def _unsupported(rules: RuleSet) -> str:
    """Why no machine can play these settings together, or ''.

    The classic machine plays compulsory melding with Umtali's melds and solo
    additions; the optional machine plays the written variants' settings.  Each
    setting either governs the machine chosen or is refused here.
    """
    if rules.big_hand < rules.small_hand or rules.small_hand < 1:
        return "the hands are dealt big_hand and small_hand cards, big_hand >= small_hand >= 1"
    if rules.big_hand + rules.small_hand > 50:
        return "the two hands must leave at least two cards for the stock"
    if rules.up_card and rules.big_hand != rules.small_hand:
        return "with an up-card both hands are dealt the same number of cards"
    if not rules.up_card and rules.big_hand != rules.small_hand + 1:
        return "without an up-card the first player holds one card more (big_hand = small_hand + 1)"
    if rules.last_turn_discard and not rules.last_turn:
        return "last_turn_discard needs a last turn (last_turn=True)"
    if rules.turn_limit < 2 or rules.marriage_card_points < 0:
        return "turn_limit must be at least 2 and marriage_card_points not negative"
    if rules.hands_per_game < 0 or rules.target < 0 or rules.games_per_session < 1:
        return "hands_per_game and target may not be negative, and a session has a game"
    if not rules.hands_per_game and not rules.target:
        return "a game needs hands_per_game or a target"
    if rules.mandatory_play:
        fixed = {
            "additions": ("solo", "additions extend one meld only where melding is optional"),
            "melds": ("umtali", "rummy melds are played only where melding is optional"),
            "final_meld": ("pair", "where play is compulsory a player goes out with a pair"),
            "taken_discard": (
                "last",
                # A player could be left holding only the card they took, unable to
                # play it and forbidden to discard it.
                "where play is compulsory, the card just taken must be discardable as the "
                "last card (taken_discard='last')",
            ),
            "scoring": ("table", "where play is compulsory each side scores its table"),
        }
        for name, (wanted, why) in fixed.items():
            if getattr(rules, name) != wanted:
                return why
        if rules.take not in ("two", "top"):
            return f"take={rules.take!r} is played only where melding is optional"
        if not (rules.last_turn and rules.last_turn_discard):
            return "where play is compulsory the other player has a last turn, ended by a discard"
        return ""
    if rules.additions != "extend":
        return "where melding is optional additions extend one meld (additions='extend')"
    if rules.take == "two":
        return "take 2 is played only where play is compulsory (mandatory_play=True)"
    return ""


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
