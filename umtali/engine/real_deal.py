"""Deals typed in from real cards: a game played at a table, entered to be reviewed.

Most people who know Umtali play it with a deck of cards.  Such a game can be typed
into a record (:mod:`umtali.engine.record`) and then reviewed (``umtali review``)
or replayed like any other: instead of a seed, each hand gives the cards as they
were dealt, and the cards drawn from the stock in the order they were drawn.  The
header has no ``seed`` line; each hand is::

    hand 1 dealer 2 eleven 2          # who dealt, who took the eleventh card (classic)
    deal 1: 9H 7H 4H 8S 7S 3S 7C 3C 10D 6D
    deal 2: KS JS 5S 2S KC QC 10C 9C 8C 2C 5D
    drawn: 7D 9D 2D AC JD QH 2H 10H
    2: discard 2S
    1: take
    ...
    result: 12 23 out 2

``deal 1`` and ``deal 2`` are the players' hands as dealt (in any order), ``drawn``
the cards taken from the top of the stock, one for every ``draw`` in the hand, in
that order, on one line however long.  Under rules with an up-card (family,
practical, rummy) there is no ``eleven`` (the non-dealer plays first) and one more
line says which card was turned up: ``up: 6C``.

Cards never drawn stay unknown.  The engine wants a whole stock, so the rest of it
is filled with the cards placed nowhere else, in card order; nobody ever sees them
(a view shows only the stock's size), so they change neither the replay, nor the
result, nor a review, which reads only what a player could see.  When the stock runs
out and the discard pile under its top card becomes the new stock, the cards drawn
after that say its order too (:func:`umtali.engine.deal.told_stock`): a card can
then be drawn a second time, having been discarded in between.

Each fault is refused with the line at fault (:class:`RecordError`): a card dealt
twice, a card drawn that was in a hand, hands of the wrong size, a draw with no card
left on the ``drawn`` line (or cards left over at the hand's end), a card drawn from
a rebuilt stock that was not in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import CARDS, Card
from umtali.engine.deal import Deal
from umtali.engine.errors import RecordError
from umtali.engine.hand import Hand, machine_of
from umtali.engine.match import Game, Session
from umtali.engine.moves import DRAW
from umtali.engine.rules import RuleSet

#: The seed a deal typed in from real cards carries: nothing is shuffled by it.
NO_SEED = 0


def by_hand(match: Game | Session) -> bool:
    """Whether ``match`` is a game played with real cards (its deals typed in)."""
    games = match.games if isinstance(match, Session) else [match]
    return any(hand.deal.drawn is not None for game in games for hand in game.hands)


def _names(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def typed_deal_lines(number: int, deal: Deal, rules: RuleSet) -> list[str]:
    """A hand dealt with real cards as a record writes it (its deal lines)."""
    assert deal.drawn is not None
    eleven = "" if rules.up_card else f" eleven {deal.eleven}"
    lines = [
        f"hand {number} dealer {deal.dealer}{eleven}",
        f"deal 1: {_names(deal.p1)}",
        f"deal 2: {_names(deal.p2)}",
    ]
    if rules.up_card:
        lines.append(f"up: {deal.stock[0]}")
    return [*lines, f"drawn: {_names(deal.drawn)}".rstrip()]


def _place(where: str, player: int = 0) -> str:
    return {"deal": f"player {player}'s hand", "up": "the up-card", "drawn": "the stock"}[where]


def typed_deal(
    rules: RuleSet,
    hand: tuple[int, int, int],
    cards: tuple[Sequence[Card], Sequence[Card], Card | None, Sequence[Card]],
    lines: Mapping[str, int],
    source: str,
) -> Deal:
    """The deal a hand typed in from real cards describes, checked.

    ``hand`` is (number, dealer, eleven: 0 where not given), ``cards`` (player 1's
    hand, player 2's, the up-card or None, the cards drawn) and ``lines`` the line of
    each (keys ``hand``, ``deal 1``, ``deal 2``, ``up``, ``drawn``) for the messages.
    """
    number, dealer, eleven = hand
    p1, p2, up, drawn = cards

    def fault(key: str, what: str) -> RecordError:
        line = lines.get(key) or lines.get("hand", 0)
        return RecordError(f"{source}:{line}: {what}")

    if rules.up_card:
        if eleven not in (0, 3 - dealer):
            raise fault("hand", f"in {rules.name} the non-dealer, player {3 - dealer}, plays first")
        eleven = 3 - dealer
        if up is None:
            raise fault(
                "hand",
                f"hand {number} has no 'up:' line: in {rules.name} the dealer turns up the "
                "stock's top card to start the discard pile",
            )
    else:
        if eleven not in (1, 2):
            raise fault(
                "hand",
                f"say who took the eleventh card: 'hand {number} dealer {dealer} eleven 1' "
                "(or eleven 2)",
            )
        if up is not None:
            raise fault("up", f"{rules.name} has no up-card: leave out the 'up:' line")
    for player, held in ((1, p1), (2, p2)):
        size = rules.big_hand if player == eleven else rules.small_hand
        if len(held) != size:
            why = "" if rules.up_card else f" (player {eleven} took the eleventh card)"
            raise fault(
                f"deal {player}",
                f"player {player} is dealt {len(held)} cards, but should hold {size}{why}",
            )
    size = len(CARDS) - len(p1) - len(p2) - int(up is not None)  # the stock as dealt
    places: list[tuple[Card, str, int]] = [(c, "deal", 1) for c in p1]
    places += [(c, "deal", 2) for c in p2]
    places += [(up, "up", 0)] if up is not None else []
    places += [(c, "drawn", 0) for c in drawn[:size]]
    seen: dict[Card, tuple[str, int]] = {}
    for card, where, player in places:
        key = f"deal {player}" if where == "deal" else where
        if card in seen:
            was, who = seen[card]
            earlier = f"deal {who}" if was == "deal" else was
            at = f"line {lines.get(earlier, 0)}"
            if where == "drawn" and was == "drawn":
                raise fault(
                    key,
                    f"{card} is drawn twice from the stock: a card comes back only in a stock "
                    f"rebuilt from the discard pile, after the first {size} draws",
                )
            if where == "drawn":
                raise fault(
                    key, f"{card} is drawn from the stock, but it is in {_place(was, who)} ({at})"
                )
            now = _place(where, player)
            raise fault(key, f"{card} is dealt twice: in {_place(was, who)} ({at}) and in {now}")
        seen[card] = (where, player)
    stock = ([up] if up is not None else []) + list(drawn[:size])
    stock += [c for c in CARDS if c not in seen]  # the cards nobody saw, in card order
    return Deal(
        tuple(c.index for c in p1),
        tuple(c.index for c in p2),
        tuple(c.index for c in stock),
        dealer,
        eleven,
        NO_SEED,
        tuple(c.index for c in drawn),
    )


class DrawCheck:
    """Holds a hand typed in from real cards to its ``drawn`` line while it is
    replayed: every ``draw`` takes the next card of the line, and at the hand's end
    every card on it has been drawn."""

    def __init__(self, hand: Hand, number: int, lines: Mapping[str, int], source: str) -> None:
        drawn = hand.deal.drawn
        assert drawn is not None
        self.hand = hand
        self.drawn = drawn
        self.number = number
        self.line = lines.get("drawn", 0)
        self.source = source
        self.count = 0  # cards drawn so far
        self._logged = len(machine_of(hand).log)  # the hand's log entries looked at

    def _where(self) -> str:
        return f"the 'drawn:' line (line {self.line})" if self.line else "the hand's 'drawn:' line"

    def before(self, action: Action, line: int) -> None:
        """Refuse a draw for which no card is left on the ``drawn`` line."""
        if action.kind is ActionKind.DRAW and self.count >= len(self.drawn):
            raise RecordError(
                f"{self.source}:{line}: {str(action)!r} is draw {self.count + 1} from the stock "
                f"in hand {self.number}, but {self._where()} lists {len(self.drawn)} "
                "card(s): too few cards drawn for the draws recorded"
            )

    def after(self, line: int) -> None:
        """Check the card the action at ``line`` drew (if it drew) against the line."""
        log = machine_of(self.hand).log
        for entry in log[self._logged :]:
            if entry[1] != DRAW:
                continue
            expected, got = self.drawn[self.count], CARDS[entry[3]]
            self.count += 1
            if got != expected:
                held = sorted([got, *(CARDS[i] for i in machine_of(self.hand).stock)])
                raise RecordError(
                    f"{self.source}:{self.line}: card {self.count} drawn, {expected}, cannot "
                    f"be drawn at line {line}: the stock, rebuilt from the discard pile, then "
                    f"held only {_names(held)}"
                )
        self._logged = len(log)

    def finish(self, line: int) -> None:
        """Once the hand is over, refuse cards on the line that were never drawn."""
        if self.hand.is_over and self.count < len(self.drawn):
            raise RecordError(
                f"{self.source}:{self.line or line}: {self._where()} lists "
                f"{len(self.drawn)} cards, but hand {self.number} draws only {self.count} "
                f"from the stock (the first not drawn: {self.drawn[self.count]})"
            )
