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

from collections.abc import Sequence

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import CARDS, Card, cards_of, mask_of_indices
from umtali.engine.deal import CardLike, Deal, Dealt, deal_cards, seat_of
from umtali.engine.errors import (
    AmbiguousAction,
    IllegalAction,
    InvalidNotation,
    MalformedAction,
)
from umtali.engine.events import Event, events_of
from umtali.engine.explain import ambiguous_play, explain, target_refusal
from umtali.engine.moves import (
    PLAY,
    SINGLE_PLAYS,
    Move,
    to_move,
)
from umtali.engine.optional import state_class
from umtali.engine.rules import CLASSIC, RuleSet
from umtali.engine.state import OVER, HandEnd, HandState
from umtali.engine.view import Piece, PlayerView, Step, pieces_of, step_of, view_of


class Hand:
    """One hand in play.  Players are numbered 1 and 2; cards and actions are notation.

    A hand holds its machine (the classic one, or the optional-melding one, as its
    rules say) and checks, explains and narrates what the machine plays.  The
    machine is the hand's own: everything read here is a value (a number, a tuple,
    a frozen dataclass, or a list or a machine made afresh for the caller), so
    outside the engine nothing done to an answer changes the game; only
    :meth:`play` does.  A search, which works on the machine's ints (its seats
    counted from 0), asks :meth:`state` for a copy of the machine to play on, cheap
    by design.  The engine's own modules that must see the live machine (the audit,
    the record, real deals) reach it through :func:`machine_of`, and nothing outside
    the engine does (a test checks it).
    """

    __slots__ = ("_deal", "_machine")

    def __init__(self, machine: HandState, deal: Deal | Dealt) -> None:
        self._machine = machine
        # The Deal, or until it is first asked for the cards to make it from.
        self._deal = deal

    def clone(self) -> Hand:
        """An independent copy (for a search, :meth:`state` is cheaper)."""
        return Hand(self._machine.clone(), self._deal)

    def state(self) -> HandState:
        """A copy of the machine, for a search to play on with its ints (seats from 0):
        ``legal_moves`` / ``apply_move`` / ``clone``.  It is the machine's own
        ``clone``, lists copied, so playing on it leaves this hand as it was."""
        return self._machine.clone()

    @property
    def deal(self) -> Deal:
        """How this hand was dealt (with :meth:`actions`, enough to replay it)."""
        made = self._deal
        if isinstance(made, Dealt):
            made = self._deal = made.deal()
        return made

    @property
    def rules(self) -> RuleSet:
        return self._machine.rules

    # ---------------------------------------------------------- questions
    # Each answer is a value: a fresh list, a tuple or a frozen dataclass, never
    # one of the machine's own lists (see the class docstring).

    @property
    def to_move(self) -> int | None:
        """1 or 2; None once the hand is over."""
        m = self._machine
        return None if m.phase == OVER else m.mover + 1

    @property
    def is_over(self) -> bool:
        return self._machine.phase == OVER

    @property
    def step(self) -> Step:
        """Where the player to move is in their turn."""
        return step_of(self._machine)

    @property
    def turns(self) -> int:
        """Turns completed in this hand."""
        return self._machine.turns

    @property
    def last_turn(self) -> bool:
        """Whether this is the last turn, the other player having gone out."""
        return self._machine.last_turn

    @property
    def went_out(self) -> int | None:
        """The first player who went out, or None (hand still on, or a dead hand)."""
        out = self._machine.out
        return out + 1 if out >= 0 else None

    @property
    def end(self) -> HandEnd | None:
        """How the hand ended (None while it goes on)."""
        return self._machine.end

    @property
    def scores(self) -> tuple[int, int]:
        """Points so far; once the hand is over, forfeits included."""
        m = self._machine
        return (m.score(0), m.score(1))

    @property
    def forfeited(self) -> tuple[Card, ...]:
        """The cards the last-turn player could not get rid of (after the hand)."""
        return tuple(cards_of(self._machine.forfeit))

    @property
    def pile(self) -> tuple[Card, ...]:
        """The discard pile, its top last (its top may lie face down: see :meth:`view`)."""
        return tuple(CARDS[i] for i in self._machine.pile)

    def hand_of(self, player: int) -> list[str]:
        """That player's cards, as notation, in suit then rank order."""
        return [str(c) for c in self.cards_in_hand(player)]

    def cards_in_hand(self, player: int) -> list[Card]:
        """That player's cards (hidden information: not for the opponent's eyes)."""
        return cards_of(self._machine.hands[seat_of(player)])

    def side(self, player: int) -> tuple[Piece, ...]:
        """The pieces on a player's side of the table, in the order laid."""
        return pieces_of(self._machine, seat_of(player))

    def legal(self) -> list[Action]:
        """Every legal action now.

        A single play leaves its target to the engine, unless more than one meld
        takes the card (where additions extend one meld): then each is listed with
        the card it goes on.
        """
        machine = self._machine
        return [machine.action_of(m) for m in machine.legal_moves()]

    def legal_actions(self) -> list[str]:
        """Every legal action now, in notation (:meth:`legal` as text)."""
        return [str(a) for a in self.legal()]

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see: never the opponent's hand or the stock order."""
        seat = seat_of(player)
        legal = tuple(self.legal()) if self._machine.mover == seat else ()
        return view_of(self._machine, player, legal)

    def events(self, viewer: int | None = None) -> tuple[Event, ...]:
        """Everything that happened, as ``viewer`` (1 or 2) saw it; None shows every card."""
        if viewer is not None:
            seat_of(viewer)
        return events_of(self._machine.log, viewer)

    def history(self) -> list[tuple[int, str]]:
        """Everything that happened, in words, seen by nobody in particular (all cards shown)."""
        return [(e.player, str(e)) for e in self.events()]

    def played(self) -> list[Action]:
        """The actions played so far, as applied (read from the events): a single play
        names the card it went on, a practical take the card it reached down to."""
        return [a for a in (e.action for e in self.events()) if a is not None]

    def actions(self) -> list[str]:
        """The actions played so far, in notation; with the deal they replay the hand."""
        return [str(a) for a in self.played()]

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
        machine = self._machine
        legal = machine.legal_moves()
        target = None
        if action.kind is ActionKind.PLAY:
            move, target = self._single_play(action, legal)
        else:
            move = to_move(action)
            if move not in legal:
                raise IllegalAction(explain(machine, action, legal))
        made = len(machine.log)  # the move's own entry (a table's entry may follow it)
        machine.apply_move(move, target)
        if target is None and action.kind is ActionKind.PLAY:
            log = machine.log
            found = log[made][3] if log[made][1] == PLAY else -1
            if found >= 0:
                action = Action(ActionKind.PLAY, action.cards, CARDS[found])
        return action

    def _single_play(self, action: Action, legal: list[Move]) -> tuple[Move, int | None]:
        """The legal move a typed ``play`` asks for, and the target it names, if any.

        Where several melds take the card, the target says which; naming none
        raises :class:`AmbiguousAction` listing the choices.
        """
        plain = to_move(action)  # (PLAY, card): where one meld takes it
        options = [m for m in legal if m[1] == plain[1] and m[0] in SINGLE_PLAYS]
        if not options:
            raise IllegalAction(explain(self._machine, action, legal))
        target = self._checked_target(action)
        if plain in options:
            return plain, target
        if target is None:
            choices = [self._machine.action_of(m) for m in options]
            raise AmbiguousAction(ambiguous_play(action.cards[0], choices))
        move = to_move(action, self.rules)  # the addition to the meld it names
        if move not in options:
            raise IllegalAction(explain(self._machine, action, legal))
        return move, target

    def _checked_target(self, action: Action) -> int | None:
        named = action.target
        if named is None:
            return None
        refusal = target_refusal(self._machine, action.cards[0], named)
        if refusal:
            raise IllegalAction(refusal)
        return named.index


def machine_of(hand: Hand) -> HandState:
    """The live machine behind ``hand``: the engine's own way in, for its modules
    that read what no public answer gives (the audit checks the machine's kept
    answers, the record and real deals read its log as it grows).  Only modules of
    :mod:`umtali.engine` call it (a test checks that); everyone else asks
    :meth:`Hand.state` for a copy."""
    return hand._machine


def deal_hand(
    p1: Sequence[CardLike] | None = None,
    p2: Sequence[CardLike] | None = None,
    stock: Sequence[CardLike] | None = None,
    *,
    dealer: int = 1,
    eleven: int | None = None,
    seed: int | None = None,
    rules: str | RuleSet = CLASSIC,
    drawn: Sequence[CardLike] | None = None,
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

    ``drawn`` (with the whole ``stock``) makes a deal typed in from real cards: the
    cards drawn from the stock in the order drawn, the dealt stock's first, then those
    drawn from stocks rebuilt from the discard pile, whose order they fix instead of
    the seed (see :mod:`umtali.engine.real_deal`).
    """
    dealt = deal_cards(rules, p1, p2, stock, dealer, eleven, seed, drawn)
    rs = dealt.rules
    masks = (mask_of_indices(dealt.p1), mask_of_indices(dealt.p2))
    state = state_class(rs)(rs, masks, dealt.stock, dealt.dealer - 1, dealt.eleven - 1, dealt.seed)
    if dealt.drawn is not None:  # the dealt stock's own draws are its top cards already
        state.told = dealt.drawn[len(dealt.stock) - int(rs.up_card) :]
    if rs.up_card:
        state.deal_up_card()
    return Hand(state, dealt)


def replay(deal: Deal, actions: Sequence[str | Action], rules: str | RuleSet = CLASSIC) -> Hand:
    """Deal ``deal`` again and play ``actions`` on it (raising on the first illegal one)."""
    hand = deal_hand(
        deal.p1,
        deal.p2,
        deal.stock,
        dealer=deal.dealer,
        eleven=deal.eleven,
        seed=deal.seed,
        rules=rules,
        drawn=deal.drawn,
    )
    for text in actions:
        hand.play(text)
    return hand
