"""What happened in a hand, as typed values: the one stream every reader shares.

The machines keep a compact log of int tuples (see :mod:`umtali.engine.state`);
:func:`events_of` turns it into :class:`Event` values, as one seat (or nobody in
particular) may see them.  Narration, the bots' inference, the replay viewer, undo,
the records, the tournament's fingerprint and the history's words all read these
(or the actions they give); nothing parses prose back into data.

>>> import umtali
>>> hand = umtali.deal_hand(seed=7)
>>> for action in ("meld KS QS", "play JS", "discard 9S", "draw"):
...     _ = hand.play(action)
>>> [str(e) for e in hand.events()][2:], hand.events(viewer=1)[-1].cards
(['discard 9S', 'draw (5C)'], ())
>>> hand.events(viewer=1)[-1].kind, hand.events(viewer=1)[-1].source
(<EventKind.DRAW: 'draw'>, 'stock')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import CARDS, Card, by_rank_desc, cards_of
from umtali.engine.kinds import ACTION_OF_EVENT, EVENT_OF_MOVE, NOT_PLAYED, EventKind
from umtali.engine.moves import DISCARD_DOWN, DRAW, PLAY, REBUILD, TAKE_FROM

# One log entry of a machine: (seat 0/1, move kind, card set, detail).
LogEntry = tuple[int, int, int, int]


_SOURCE = {
    EventKind.DRAW: "stock",
    EventKind.TAKE: "pile",
    EventKind.TAKE_TWO: "pile",
    EventKind.TAKE_NEXT: "pile",
    EventKind.TAKE_FROM: "pile",
    EventKind.MELD: "hand",
    EventKind.PLAY: "hand",
    EventKind.DISCARD: "hand",
}


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, as one viewer may see it.

    ``cards`` are the cards that moved, highest first; empty where the viewer
    may not see them (the opponent's stock draw, a face-down discard) and for
    events that move no card.  ``onto`` is the table card a single play went
    off, or the deepest card of a practical take.  ``count`` is the size of a
    rebuilt stock.  ``turn`` counts the hand's turns from 1.
    """

    player: int  # 1 or 2
    kind: EventKind
    turn: int
    cards: tuple[Card, ...] = ()
    down: bool = False
    onto: Card | None = None
    count: int = 0

    @property
    def source(self) -> str | None:
        """Where the cards came from: ``stock``, ``pile`` or ``hand`` (None for the rest)."""
        return _SOURCE.get(self.kind)

    @property
    def hidden(self) -> bool:
        """Cards moved that this viewer may not see."""
        return not self.cards and (self.kind is EventKind.DRAW or self.down)

    @property
    def action(self) -> Action | None:
        """The action this event played, as a record writes it; None for what the table
        did (a rebuilt stock, a turn with nothing to draw) or where a card is hidden."""
        kind = self.kind
        if kind in NOT_PLAYED or (self.hidden and kind is not EventKind.DRAW):
            return None
        if kind is EventKind.TAKE_FROM:
            assert self.onto is not None
            return Action(ActionKind.TAKE_FROM, (self.onto,))
        if kind is EventKind.PLAY:
            return Action(ActionKind.PLAY, self.cards, self.onto)
        if kind in (EventKind.MELD, EventKind.DISCARD):
            return Action(ACTION_OF_EVENT[kind], self.cards, down=self.down)
        return Action(ACTION_OF_EVENT[kind])

    def __str__(self) -> str:
        """The event in words close to the notation (``take 2 (9C 9D)``)."""
        return _words(self)


def _words(e: Event) -> str:
    cards = " ".join(str(c) for c in e.cards)
    kind = e.kind
    if kind is EventKind.DRAW:
        return f"draw ({cards})" if cards else "draw"
    if kind is EventKind.TAKE_FROM:
        return f"take {e.onto} ({cards})"
    if kind.is_take:
        return f"{kind.value} ({cards})"
    if kind is EventKind.PLAY and e.onto is not None:
        return f"play {cards} on {e.onto}"
    if kind is EventKind.DISCARD and e.down:
        return f"discard {cards} down" if cards else "discard face down"
    if kind is EventKind.REBUILD:
        return f"(the discard pile, less its top, is shuffled into a new stock of {e.count})"
    if kind is EventKind.NO_DRAW:
        return "(no card is left to draw)"
    if kind is EventKind.END:
        return "end"
    return f"{kind.value} {cards}"


@lru_cache(maxsize=32768)
def _event(entry: LogEntry, turn: int, sees: bool) -> Event:
    # Log entries are shared between clones and never change, so each event is made once.
    seat, code, mask, detail = entry
    kind = EVENT_OF_MOVE[code]
    cards = tuple(by_rank_desc(cards_of(mask)))
    onto = None
    count = 0
    down = code == DISCARD_DOWN
    if code == DRAW:
        cards = (CARDS[detail],) if sees else ()
    elif down and not sees:
        cards = ()
    elif code in (PLAY, TAKE_FROM) and detail >= 0:
        onto = CARDS[detail]
    elif code == REBUILD:
        count = detail
    return Event(seat + 1, kind, turn, cards, down, onto, count)


def events_of(log: list[LogEntry], viewer: int | None = None) -> tuple[Event, ...]:
    """A machine's log as events seen by ``viewer`` (1 or 2; None sees every card)."""
    out = []
    turn = 0
    last = -1
    for entry in log:
        seat = entry[0]
        if seat != last:
            turn += 1  # turns alternate, so a new player is a new turn
            last = seat
        out.append(_event(entry, turn, viewer is None or viewer == seat + 1))
    return tuple(out)


def public_events(events: Sequence[Event], player: int) -> tuple[Event, ...]:
    """``player``'s events with what only they saw taken out (their stock draws, their
    face-down discard): what a spectator sees of the same hand."""
    return tuple(
        replace(e, cards=())
        if e.player == player
        and (e.kind is EventKind.DRAW or (e.kind is EventKind.DISCARD and e.down))
        else e
        for e in events
    )


__all__ = ["NOT_PLAYED", "Event", "EventKind", "LogEntry", "events_of", "public_events"]
