"""The public face of one hand: notation in, notation out, reasons on refusal.

>>> import umtali
>>> hand = umtali.deal_hand(seed=7)
>>> hand.to_move, len(hand.hand_of(1)), len(hand.hand_of(2))
(1, 11, 10)
>>> try:
...     hand.play("draw")
... except umtali.IllegalAction as refusal:
...     print(refusal)
you hold the extra card and play first: there is no draw on this turn
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from dataclasses import dataclass

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import CARDS, JACKS, Card, cards_of, mask_of_indices
from umtali.engine.errors import (
    AmbiguousAction,
    IllegalAction,
    InvalidDeal,
    InvalidNotation,
    MalformedAction,
)
from umtali.engine.events import Event, events_of
from umtali.engine.explain import explain
from umtali.engine.moves import (
    NOT_MOVES,
    PLAY,
    SINGLE_PLAYS,
    TAKE_FROM,
    Move,
    move_text,
    to_move,
    way_onto,
)
from umtali.engine.optional import OptionalState
from umtali.engine.rand import shuffle
from umtali.engine.rules import CLASSIC, RuleSet, rules_named
from umtali.engine.state import OVER, HandState
from umtali.engine.view import Piece, PlayerView, Step, pieces_of, step_of, view_of

CardLike = Card | str


def _card(c: CardLike) -> Card:
    return c if isinstance(c, Card) else Card.parse(c)


@dataclass(frozen=True, slots=True)
class Deal:
    """How a hand was dealt: enough, with the actions, to replay it exactly.

    The cards are kept as indices (a deal is made for every simulated hand,
    so it must be cheap); ``p1``, ``p2`` and ``stock`` give them as cards.
    """

    p1_index: tuple[int, ...]
    p2_index: tuple[int, ...]
    stock_index: tuple[int, ...]  # top first
    dealer: int  # 1 or 2
    eleven: int  # who was dealt the extra card and plays first
    seed: int  # also fixes how an exhausted stock is rebuilt

    @property
    def p1(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in self.p1_index)

    @property
    def p2(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in self.p2_index)

    @property
    def stock(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in self.stock_index)


# p1, p2 and stock (top first) as card indices, dealer, eleven, seed.
_DealParts = tuple[list[int], list[int], list[int], int, int, int]


class Hand(HandState):
    """One hand in play.  Players are numbered 1 and 2; cards and actions are notation."""

    __slots__ = ("_deal",)

    # The Deal, or until it is first asked for the parts to make it from:
    # a simulated hand is dealt and played out without anyone looking.
    _deal: Deal | _DealParts

    def clone(self) -> Hand:
        c = super().clone()
        assert isinstance(c, Hand)
        c._deal = self._deal
        return c

    @property
    def deal(self) -> Deal:
        """How this hand was dealt (with :meth:`actions`, enough to replay it)."""
        made = self._deal
        if isinstance(made, Deal):
            return made
        p1, p2, stock, dealer, eleven, seed = made
        made = self._deal = Deal(tuple(p1), tuple(p2), tuple(stock), dealer, eleven, seed)
        return made

    # ---------------------------------------------------------- questions

    @property
    def to_move(self) -> int | None:
        """1 or 2; None once the hand is over."""
        return None if self.phase == OVER else self.mover + 1

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def went_out(self) -> int | None:
        """The first player who went out, or None (hand still on, or a dead hand)."""
        return self.out + 1 if self.out >= 0 else None

    @property
    def scores(self) -> tuple[int, int]:
        """Points so far; once the hand is over, forfeits included."""
        return (self.score(0), self.score(1))

    @property
    def step(self) -> Step:
        return step_of(self)

    @property
    def forfeited(self) -> list[Card]:
        """The cards the last-turn player could not get rid of (after the hand)."""
        return cards_of(self.forfeit)

    def hand_of(self, player: int) -> list[str]:
        """That player's cards, as notation, in suit then rank order."""
        return [str(c) for c in self.cards_in_hand(player)]

    def cards_in_hand(self, player: int) -> list[Card]:
        return cards_of(self.hands[_seat(player)])

    def side(self, player: int) -> tuple[Piece, ...]:
        """The pieces on a player's side of the table, in the order laid."""
        return pieces_of(self, _seat(player))

    def legal(self) -> list[Action]:
        """Every legal action now.

        A single play leaves its target to the engine, unless more than one meld
        takes the card (where additions extend one meld): then each is listed with
        the card it goes on.
        """
        return [self.action_of(m) for m in self.legal_moves()]

    def legal_actions(self) -> list[str]:
        """Every legal action now, in notation (:meth:`legal` as text)."""
        return [str(a) for a in self.legal()]

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see: never the opponent's hand or the stock order."""
        seat = _seat(player)
        legal = tuple(self.legal()) if self.mover == seat else ()
        return view_of(self, player, legal)

    def events(self, viewer: int | None = None) -> tuple[Event, ...]:
        """Everything that happened, as ``viewer`` (1 or 2) saw it; None shows every card."""
        if viewer is not None:
            _seat(viewer)
        return events_of(self.log, viewer)

    def history(self) -> list[tuple[int, str]]:
        """Everything that happened, in words, seen by nobody in particular (all cards shown)."""
        return [(e.player, str(e)) for e in self.events()]

    def actions(self) -> list[str]:
        """The actions played so far, in notation; with the deal they replay the hand."""
        out = []
        for _, kind, mask, detail in self.log:
            if kind == PLAY and detail >= 0:
                out.append(f"{move_text((kind, mask))} on {CARDS[detail]}")
            elif kind == TAKE_FROM:
                out.append(f"take {CARDS[detail]}")
            elif kind not in NOT_MOVES:
                out.append(move_text((kind, mask)))
        return out

    # ------------------------------------------------------------- acting

    def play(self, action: str | Action) -> Action:
        """Apply one action for the player to move; returns it as applied.

        Raises :class:`IllegalAction` (a ValueError) with the reason, and
        changes nothing, if the action is malformed or not legal now.
        """
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except InvalidNotation as e:
                raise MalformedAction(str(e)) from None
        legal = self.legal_moves()
        target = None
        if action.kind is ActionKind.PLAY:
            move, target = self._single_play(action, legal)
        else:
            move = to_move(action)
            if move not in legal:
                raise IllegalAction(explain(self, action, legal))
        self.apply_move(move, target)
        if target is None and action.kind is ActionKind.PLAY:
            found = self.log[-1][3] if self.log and self.log[-1][1] == PLAY else -1
            if found >= 0:
                action = Action(ActionKind.PLAY, action.cards, CARDS[found])
        return action

    def _single_play(self, action: Action, legal: list[Move]) -> tuple[Move, int | None]:
        """The legal move a typed ``play`` asks for, and the target it names, if any.

        Where several melds take the card, the target says which; naming none
        raises :class:`AmbiguousAction` listing the choices.
        """
        bit = action.cards[0].bit
        options = [m for m in legal if m[1] == bit and m[0] in SINGLE_PLAYS]
        if not options:
            raise IllegalAction(explain(self, action, legal))
        target = self._checked_target(action)
        if (PLAY, bit) in options:
            return (PLAY, bit), target
        if target is None:
            choices = " or ".join(str(self.action_of(m)) for m in options)
            raise AmbiguousAction(
                f"{action.cards[0]} goes on more than one meld: say which, {choices}"
            )
        move = (way_onto(bit, target, self.rules.jacks_alone), bit)
        if move not in options:
            raise IllegalAction(explain(self, action, legal))
        return move, target

    def _checked_target(self, action: Action) -> int | None:
        card, named = action.cards[0], action.target
        if named is None:
            return None
        if card.bit & JACKS and self.rules.jacks_alone:
            raise IllegalAction(f"a jack is played alone: write play {card}")
        piece = self.piece_holding(named.index)
        if piece is None:
            raise IllegalAction(f"{named} is not on the table")
        if not piece[3] & card.bit:
            return_target = self.find_target(card.bit)
            hint = f"; it can go off {CARDS[return_target]}" if return_target >= 0 else ""
            raise IllegalAction(f"{named} does not take {card}{hint}")
        return named.index


class OptionalHand(Hand, OptionalState):
    """A hand played under optional melding (family, practical, rummy)."""

    __slots__ = ()


_DECK = list(range(52))


def _seat(player: int) -> int:
    if player not in (1, 2):
        raise ValueError(f"players are 1 and 2, not {player!r}")
    return player - 1


def deal_hand(
    p1: Sequence[CardLike] | None = None,
    p2: Sequence[CardLike] | None = None,
    stock: Sequence[CardLike] | None = None,
    *,
    dealer: int = 1,
    eleven: int | None = None,
    seed: int | None = None,
    rules: str | RuleSet = CLASSIC,
) -> Hand:
    """Deal a hand, from a seed or explicitly.

    With ``p1`` and ``p2`` the deal is explicit; ``stock`` (listed top first)
    may then be left out, and the rest of the deck is shuffled by ``seed``.
    Without them the whole deck is shuffled by ``seed`` and dealt one card
    at a time, starting with the non-dealer.  ``eleven`` (the dealer by
    default) gets the extra card and plays first, without drawing.  Under
    rules with an up-card both hands are the same size, the stock's top card
    starts the discard pile and the non-dealer plays first (``eleven``, if
    given, must name them).
    """
    rs = rules_named(rules)
    _seat(dealer)
    if rs.up_card:
        if eleven not in (None, 3 - dealer):
            raise InvalidDeal(f"in {rs.name} the non-dealer, player {3 - dealer}, plays first")
        eleven = 3 - dealer
    eleven = dealer if eleven is None else eleven
    _seat(eleven)
    if seed is None:
        seed = random.SystemRandom().getrandbits(63)
    # An int seeds the generator's C core exactly as random.Random would, only
    # sooner; anything else goes through random.Random's own seeding.
    rng = _random.Random(seed) if type(seed) is int else random.Random(seed)
    if p1 is None and p2 is None:
        if stock is not None:
            raise InvalidDeal("a stock can be given only with both hands")
        deck = _DECK[:]
        shuffle(deck, rng)
        small, big = rs.small_hand, rs.big_hand
        # One card at a time, the non-dealer first; then the extra card.
        non_dealer = deck[0 : 2 * small : 2]
        dealers = deck[1 : 2 * small : 2]
        extra = deck[2 * small : small + big]
        if eleven == dealer:
            dealers += extra
        else:
            non_dealer += extra
        if dealer == 1:
            return _make(rs, dealers, non_dealer, deck[small + big :], dealer, eleven, seed)
        return _make(rs, non_dealer, dealers, deck[small + big :], dealer, eleven, seed)
    if p1 is None or p2 is None:
        raise InvalidDeal("give both hands, p1 and p2, or neither")
    hands = ([_card(c) for c in p1], [_card(c) for c in p2])
    rest = [] if stock is None else [_card(c) for c in stock]
    used = hands[0] + hands[1] + rest
    if len(set(used)) != len(used):
        dup = sorted({str(c) for c in used if used.count(c) > 1})
        raise InvalidDeal(f"a card is dealt twice: {', '.join(dup)}")
    if stock is None:
        rest = [c for c in CARDS if c not in set(used)]
        shuffle(rest, rng)
    elif len(used) != 52:
        raise InvalidDeal(f"the deal holds {len(used)} cards, not 52")
    sizes = {eleven: rs.big_hand, 3 - eleven: rs.small_hand}
    for who in (1, 2):
        if len(hands[who - 1]) != sizes[who]:
            raise InvalidDeal(
                f"player {who} is dealt {len(hands[who - 1])} cards, not {sizes[who]}"
                f" (player {eleven} takes the extra card)"
            )
    return _make(
        rs,
        [c.index for c in hands[0]],
        [c.index for c in hands[1]],
        [c.index for c in rest],
        dealer,
        eleven,
        seed,
    )


def _make(
    rules: RuleSet,
    p1: list[int],
    p2: list[int],
    stock: list[int],
    dealer: int,
    eleven: int,
    seed: int,
) -> Hand:
    cls = Hand if rules.mandatory_play else OptionalHand
    masks = (mask_of_indices(p1), mask_of_indices(p2))
    hand = cls(rules, masks, stock, dealer - 1, eleven - 1, seed)
    if rules.up_card:
        hand.deal_up_card()
    hand._deal = (p1, p2, stock, dealer, eleven, seed)
    return hand


def replay(deal: Deal, actions: Sequence[str], rules: str | RuleSet = CLASSIC) -> Hand:
    """Deal ``deal`` again and play ``actions`` on it (raising on the first illegal one)."""
    hand = deal_hand(
        deal.p1,
        deal.p2,
        deal.stock,
        dealer=deal.dealer,
        eleven=deal.eleven,
        seed=deal.seed,
        rules=rules,
    )
    for text in actions:
        hand.play(text)
    return hand
