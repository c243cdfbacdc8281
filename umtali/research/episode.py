"""One hand as a list of integer actions, chance's included: what the research doors step.

OpenSpiel's game and the PettingZoo environment both drive an :class:`Episode`;
it holds the engine's phase machine and adds what the engine leaves to a dealer:

* **The deal is chance, one card at a time** from what is left of the deck, in the
  engine's order (the non-dealer first, alternately, then the extra card, then the
  up-card where the variant turns one), so a chance outcome is a card index 0–51.
* **A stock draw is chance too.**  The player's ``draw`` (action 0) leaves the
  episode at a chance node whose outcomes are the cards the stock holds (or, when it
  is empty, the discard pile under its top, which the engine would shuffle into a
  new stock), each equally likely.  So the stock has no order until it is drawn:
  there is nothing hidden in a state that nobody could know, and a whole hand is the
  list of its actions, deal and draws included.
* **Seat 0 moves first** unless told otherwise: in classic it deals and keeps the
  eleventh card (as our bots do); where an up-card is turned, seat 1 deals and seat 0
  leads.  A whole game (:mod:`umtali.research.game_episode`) names each hand's dealer
  and, in classic, who takes the eleventh card.

Players' moves are ids of :mod:`umtali.research.action_ids`.  A seat sees the hand
through :meth:`Episode.view` (the engine's :class:`~umtali.engine.view.PlayerView`),
and nothing reads a hidden card but the engine itself.  An episode resampled for a
search (:mod:`umtali.research.resample`) remembers whose view it was made from: the
other seat's past is then told as that seat saw it (see :meth:`Episode.view`).
"""

from __future__ import annotations

from dataclasses import replace

from umtali.engine.actions import Action
from umtali.engine.cards import CARDS, cards_of
from umtali.engine.events import events_of
from umtali.engine.hand import deal_hand
from umtali.engine.moves import DRAW, Move
from umtali.engine.rules import RuleSet, rules_named
from umtali.engine.state import DRAW_MOVE, OVER, HandState
from umtali.engine.view import PlayerView, SeenMasks, seen_masks, view_of
from umtali.research.action_ids import NoActionId, action_id

#: What :meth:`Episode.current` says at a chance node and once the hand is over
#: (OpenSpiel's own numbers for them).
CHANCE = -1
TERMINAL = -4
#: The deal's recipient of the up-card, in :func:`deal_order`.
UP = 2


def first_dealer(rules: RuleSet) -> int:
    """The dealer of a lone hand: seat 0 in classic (it keeps the eleventh card and
    moves first), seat 1 where an up-card is turned (seat 0 leads)."""
    return 1 if rules.up_card else 0


def deal_order(
    rules: RuleSet, dealer: int | None = None, eleven: int | None = None
) -> tuple[int, ...]:
    """Who (seat 0 or 1, or :data:`UP`) receives each card of the deal, in order, when
    ``dealer`` deals (by default :func:`first_dealer`) and ``eleven`` takes the extra
    card (by default the dealer; where an up-card is turned there is none).

    >>> deal_order(rules_named("classic"))[:4], len(deal_order(rules_named("classic")))
    ((1, 0, 1, 0), 21)
    >>> deal_order(rules_named("classic"), dealer=1, eleven=0)[-3:]
    (0, 1, 0)
    >>> deal_order(rules_named("rummy"))[-3:]
    (0, 1, 2)
    """
    dealer = first_dealer(rules) if dealer is None else dealer
    eleven = dealer if eleven is None else eleven
    first = 1 - dealer  # the non-dealer is dealt to first
    order = [first if k % 2 == 0 else dealer for k in range(2 * rules.small_hand)]
    order += [eleven] * (rules.big_hand - rules.small_hand)  # the extra card
    if rules.up_card:
        order.append(UP)
    return tuple(order)


def max_length(rules: RuleSet) -> int:
    """A bound on the actions of a hand, chance's included.

    A turn is at most a draw or take, its chance outcome, a ``take next``, and a
    discard or ``end``; the turn limit bounds the turns (one last turn may follow it),
    and a card is put down once, so all the melds and plays of a hand are at most 52.
    """
    return len(deal_order(rules)) + 4 * (rules.turn_limit + 1) + 52


#: The id of each engine move played on a target (a card index, or None), as found.
_IDS: dict[tuple[Move, int | None], int] = {}


class Episode:
    """One hand in play, chance included (see the module docstring).  Mutable through
    :meth:`apply` only; :meth:`clone` is cheap."""

    __slots__ = (
        "_legal",
        "base",
        "dealer",
        "dealt",
        "drawing",
        "eleven",
        "hand_state",
        "order",
        "root",
        "rules",
    )

    def __init__(
        self, rules: str | RuleSet = "classic", dealer: int | None = None, eleven: int | None = None
    ) -> None:
        """A hand about to be dealt by ``dealer`` (seat 0 or 1; by default
        :func:`first_dealer`), ``eleven`` taking the extra card in classic (by default
        the dealer; where an up-card is turned the non-dealer leads)."""
        self.rules = rules_named(rules)
        self.dealer = first_dealer(self.rules) if dealer is None else dealer
        if self.dealer not in (0, 1):
            raise ValueError(f"the dealer is seat 0 or 1, not {dealer!r}")
        # Who moves first: the eleventh card's taker, or with an up-card the non-dealer.
        first = 1 - self.dealer if self.rules.up_card else self.dealer
        self.eleven: int = first if eleven is None else eleven
        if self.eleven not in (0, 1) or (self.rules.up_card and self.eleven != first):
            raise ValueError(f"seat {eleven!r} cannot take the eleventh card here")
        self.order = deal_order(self.rules, self.dealer, self.eleven)
        self.dealt: list[int] = []  # cards dealt so far, in order (until the deal is done)
        self.hand_state: HandState | None = None
        self.drawing = False  # the mover drew: the stock's card is chance's to choose
        # The legal ids and their moves (and targets) now, made when first asked for.
        self._legal: dict[int, tuple[Move, int | None]] | None = None
        # For an episode resampled from ``root``'s view: the log entries before ``base``
        # are told to the other seat as ``root`` saw them.
        self.base = 0
        self.root = -1

    def clone(self) -> Episode:
        c = object.__new__(Episode)
        c.rules = self.rules
        c.dealer = self.dealer
        c.eleven = self.eleven
        c.order = self.order
        c.dealt = self.dealt[:]
        c.hand_state = None if self.hand_state is None else self.hand_state.clone()
        c.drawing = self.drawing
        c._legal = self._legal
        c.base = self.base
        c.root = self.root
        return c

    def __deepcopy__(self, memo: dict[int, object]) -> Episode:
        # OpenSpiel clones a Python state with copy.deepcopy: a clone is all it needs.
        return self.clone()

    @staticmethod
    def from_machine(machine: HandState, root: int = -1) -> Episode:
        """An episode at a position the engine holds (a resampled one, from ``root``'s
        view, whose log so far is told to the other seat as ``root`` saw it)."""
        eleven = None if machine.rules.up_card else machine.first
        episode = Episode(machine.rules, machine.dealer, eleven)
        episode.dealt = []
        episode.hand_state = machine
        episode.root = root
        episode.base = len(machine.log) if root >= 0 else 0
        return episode

    # ---------------------------------------------------------------- questions

    @property
    def dealing(self) -> bool:
        return self.hand_state is None

    def current(self) -> int:
        """The seat to move (0 or 1), :data:`CHANCE` or :data:`TERMINAL`."""
        m = self.hand_state
        if m is None or self.drawing:
            return CHANCE
        if m.phase == OVER:
            return TERMINAL
        return m.mover

    def is_over(self) -> bool:
        return self.hand_state is not None and self.hand_state.phase == OVER

    def chance_outcomes(self) -> list[int]:
        """The cards chance may give now (each equally likely)."""
        m = self.hand_state
        if m is None:
            dealt = set(self.dealt)
            return [c for c in range(52) if c not in dealt]
        if not self.drawing:
            return []
        return sorted(m.stock if m.stock else m.pile[:-1])

    def legal(self) -> dict[int, tuple[Move, int | None]]:
        """The mover's legal ids, each with its engine move and the card it is played on."""
        found = self._legal
        if found is None:
            found = {}
            m = self.hand_state
            if m is not None and not self.drawing:
                for move in m.legal_moves():
                    action = m.action_of(move)
                    on = action.target
                    target = on.index if on is not None else None
                    # A move and its target make the action, so each id is found once
                    # (an Action is a dearer key to hash).
                    number = _IDS.get((move, target))
                    if number is None:
                        number = _IDS[move, target] = action_id(action)
                    found[number] = (move, target)
            self._legal = found
        return found

    def legal_ids(self) -> list[int]:
        """The mover's legal ids, lowest first (empty at chance nodes and at the end)."""
        return sorted(self.legal())

    def hand_of(self, seat: int) -> int:
        """The cards ``seat`` holds (or has been dealt so far), as a card set."""
        m = self.hand_state
        if m is None:
            return sum(
                1 << c for c, who in zip(self.dealt, self.order, strict=False) if who == seat
            )
        return m.hands[seat] if m.phase != OVER else 0

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see once the deal is done (the engine's view).

        In a resampled episode the other seat's past is what ``root`` saw of it (its
        own stock draws unnamed): the cards it really drew were never sampled.
        """
        m = self.hand_state
        if m is None:
            raise ValueError("the cards are still being dealt: there is no view yet")
        mine = not self.drawing and m.phase != OVER and m.mover == seat
        legal = tuple(m.action_of(move) for move, _ in self.legal().values()) if mine else ()
        view = view_of(m, seat + 1, legal)
        if self.root >= 0 and seat != self.root and self.base:
            told = events_of(m.log, self.root + 1)[: self.base] + view.events[self.base :]
            view = replace(view, events=told)
        return view

    def seen(self, seat: int) -> SeenMasks:
        """What ``seat`` may see once the deal is done, as card sets: :meth:`view`'s
        facts less the pieces' shapes and the history (the observers' hot path)."""
        m = self.hand_state
        if m is None:
            raise ValueError("the cards are still being dealt: there is no view yet")
        return seen_masks(m, seat + 1)

    def returns(self, margin: bool = False) -> tuple[float, float]:
        """Seat 0's and seat 1's result: +1 for the higher score of the hand, -1 for the
        lower, 0 each for a level hand (or, with ``margin``, the points between them).
        Zero until the hand is over."""
        m = self.hand_state
        if m is None or m.phase != OVER:
            return (0.0, 0.0)
        lead = m.score(0) - m.score(1)
        if not margin:
            lead = (lead > 0) - (lead < 0)
        return (float(lead), float(-lead))

    def action_text(self, seat: int, number: int) -> str:
        """An action in words: a card for chance, notation for a player."""
        if seat == CHANCE:
            if self.hand_state is None:
                who = self.order[len(self.dealt)] if len(self.dealt) < len(self.order) else 0
                place = "the up-card" if who == UP else f"seat {who}"
                return f"deal {CARDS[number]} to {place}"
            return f"draw {CARDS[number]} from the stock"
        from umtali.research.action_ids import action_of_id

        return str(action_of_id(number))

    # -------------------------------------------------------------------- acting

    def apply(self, number: int) -> None:
        """Play chance's card or the mover's action id (:class:`NoActionId` if illegal)."""
        m = self.hand_state
        if m is None:
            if number in self.dealt or not 0 <= number < 52:
                raise NoActionId(f"{number} is no card left to deal")
            self.dealt.append(number)
            if len(self.dealt) == len(self.order):
                self._deal_done()
        elif self.drawing:
            if not m.stock:
                m._rebuild_stock()  # as the engine's own draw would
            stock = m.stock
            i = stock.index(number)  # the card comes to the top of the stock, and is drawn
            stock[i], stock[-1] = stock[-1], stock[i]
            self.drawing = False
            m.apply_move(DRAW_MOVE)
        else:
            chosen = self.legal().get(number)
            if chosen is None:
                raise NoActionId(f"action {number} is not legal now: {self.legal_ids()}")
            move, target = chosen
            if move[0] == DRAW:
                self.drawing = True
            else:
                m.apply_move(move, target)
        self._legal = None

    def apply_action(self, action: Action) -> None:
        """Play an engine action for the mover."""
        self.apply(action_id(action))

    def _deal_done(self) -> None:
        hands: tuple[list[int], list[int]] = ([], [])
        up: list[int] = []
        for card, who in zip(self.dealt, self.order, strict=True):
            (up if who == UP else hands[who]).append(card)
        dealt = set(self.dealt)
        rest = up + [c for c in range(52) if c not in dealt]  # drawn in chance's order
        rules = self.rules
        hand = deal_hand(
            [CARDS[c] for c in hands[0]],
            [CARDS[c] for c in hands[1]],
            [CARDS[c] for c in rest],
            dealer=self.dealer + 1,
            eleven=None if rules.up_card else self.eleven + 1,
            seed=0,
            rules=rules,
        )
        self.hand_state = hand.state()  # the hand's machine, ours to play on


def card_list(mask: int) -> str:
    """A card set as text, for the strings of the observers."""
    return " ".join(str(c) for c in cards_of(mask)) or "-"


__all__ = [
    "CHANCE",
    "TERMINAL",
    "UP",
    "Episode",
    "card_list",
    "deal_order",
    "first_dealer",
    "max_length",
]
