"""``why``: why the bot made the moves of its last turn, told from the player's seat.

A bot's own reasons come from its hand, which the player may not see, so they
are never shown.  What ``why`` says is built from the player's view alone: the
rule that made a move necessary, what a card taken was used for, what a discard
is worth and how it sits with the card under it and the cards the player has
shown, and how that bot level chooses (a sentence from its entry in
:mod:`umtali.bots.levels`).  So it can name no card the player has not seen (a
test checks every card it names).
"""

from __future__ import annotations

from umtali.bots.levels import find
from umtali.engine.cards import Card, rummy_points
from umtali.engine.events import NOT_PLAYED, Event, EventKind
from umtali.engine.view import PlayerView
from umtali.ui.narrate import phrase
from umtali.ui.theme import Theme


def last_turn(view: PlayerView) -> list[Event]:
    """The opponent's moves of their most recent turn (the player's own moves since
    are skipped), oldest first; empty if they have not moved in this hand."""
    events = [e for e in view.events if e.kind not in NOT_PLAYED]
    end = len(events)
    while end and events[end - 1].player == view.player:
        end -= 1
    start = end
    while start and events[start - 1].player != view.player:
        start -= 1
    return events[start:end]


def why_lines(view: PlayerView, level: str, name: str, theme: Theme) -> list[str]:
    """Why ``name`` (a bot of ``level``) made each move of its last turn."""
    turn = last_turn(view)
    if not turn:
        return [f"{name} has not moved yet in this hand."]
    found = find(level)
    # A bot that picks at random judged nothing: its choices are told without reasons,
    # and its method says how they were made (what the rules made it do is still told).
    at_random = found is not None and found.at_random
    lines = []
    downs: list[Event] = []  # a run of melds and plays, told in one line
    for event in [*turn, None]:
        if event is not None and event.kind in (EventKind.MELD, EventKind.PLAY):
            downs.append(event)
            continue
        if downs:
            said = ", ".join(phrase(e, theme) for e in downs)
            lines.append(f"{name} {said}: {_put_down(downs, view)}")
            downs = []
        if event is not None and at_random and _was_choice(event, view):
            lines.append(f"{name} {phrase(event, theme)}.")
        elif event is not None:
            lines.append(f"{name} {phrase(event, theme)}: {_reason(event, turn, view, theme)}")
    method = None if found is None else found.method
    if method is not None and any(_was_choice(e, view) for e in turn):
        lines.append(method)
    return lines


def _was_choice(event: Event, view: PlayerView) -> bool:
    """A move the rules did not make for the bot (so its method is worth telling)."""
    if event.kind is EventKind.DRAW:
        return True
    if event.kind is EventKind.DISCARD:
        return not event.down
    return event.kind.is_take or not view.rules.mandatory_play


def _reason(event: Event, turn: list[Event], view: PlayerView, theme: Theme) -> str:
    kind = event.kind
    if kind is EventKind.DRAW:
        return "a blind draw. " + _pile_then(event, view, theme)
    if kind is EventKind.TAKE_TWO:
        return (
            "two discards may be taken together only when both can go down this turn, and "
            "then both must: " + _where_went(event.cards, turn, theme)
        )
    if kind.is_take:
        return (
            "a card taken from the pile may not be discarded on the same turn, so it was "
            "taken to be used: " + _where_went(event.cards, turn, theme)
        )
    if kind is EventKind.DISCARD:
        if event.down:
            return "it went out, face down, so your last turn must draw from the stock."
        return _discard_facts(event.cards[0], view, theme)
    return "nothing more it wanted to put down, and a last turn may not discard."


def _put_down(events: list[Event], view: PlayerView) -> str:
    points = 0
    for event in events:
        married = event.kind is EventKind.MELD and _married(event.cards)
        points += 20 if married else sum(c.points for c in event.cards)
    must = (
        "every card that can go down must go down"
        if view.rules.mandatory_play
        else "putting cards down is optional here, and these score now"
    )
    return f"{must} ({points} point{'s' if points != 1 else ''} on its side)."


def _married(cards: tuple[Card, ...]) -> bool:
    if len(cards) != 2:
        return False
    a, b = cards
    return a.suit == b.suit and {a.rank, b.rank} == {11, 12}


def _pile_then(event: Event, view: PlayerView, theme: Theme) -> str:
    """What the pile offered when the bot drew blind instead."""
    before = [e for e in view.events[: view.events.index(event)] if e.kind not in NOT_PLAYED]
    last = before[-1] if before else None
    if last is not None and last.kind is EventKind.DISCARD and last.down:
        return "Your face-down discard left it no other draw."
    if last is not None and last.kind is EventKind.DISCARD and last.cards:
        return f"It judged your {theme.plain(last.cards[0])} worth less to it than an unseen card."
    return "The pile offered nothing to take."


def _where_went(cards: tuple[Card, ...], turn: list[Event], theme: Theme) -> str:
    told = []
    for card in cards:
        went = next(
            (e for e in turn if e.kind in (EventKind.MELD, EventKind.PLAY) and card in e.cards),
            None,
        )
        if went is None:
            told.append(f"{theme.plain(card)} is still in its hand")
        else:
            told.append(f"{theme.plain(card)} went down ({phrase(went, theme)})")
    return "; ".join(told) + "."


def _discard_facts(card: Card, view: PlayerView, theme: Theme) -> str:
    """Public facts about a face-up discard: its worth, the card under it, and the
    cards the player took from the pile and still holds."""
    name = theme.plain(card)
    if view.rules.hand_scoring:
        points = rummy_points(card.bit)
        facts = [f"{name} counts {points} against whoever holds it when the other goes out"]
    else:
        facts = [f"{name} is worth {card.points} to whoever lays it"]
    pile = view.discard_pile
    at = len(pile) - 1 - pile[::-1].index(card) if card in pile else -1
    # Where only the top card may be taken (Rummy), the card under it cannot follow.
    rules = view.rules
    below = rules.take_two or rules.take_next or rules.take_deep
    under = pile[at - 1] if at > 0 and below else None
    if under is not None:
        if _goes_with(card, under):
            facts.append(f"it goes with the {theme.plain(under)} under it, so both can be taken")
        else:
            facts.append(f"it does not go with the {theme.plain(under)} under it")
    shown = _shown_by(view)
    near = [c for c in shown if _goes_with(card, c)]
    if near:
        facts.append("it goes with your " + " ".join(theme.plain(c) for c in near))
    elif shown:
        facts.append("none of the cards you took from the pile goes with it")
    return "; ".join(facts) + "."


def _goes_with(a: Card, b: Card) -> bool:
    """Same rank, or neighbours in a suit: two cards one more card makes a column of."""
    return a.rank == b.rank or (a.suit == b.suit and abs(a.rank - b.rank) == 1)


def _shown_by(view: PlayerView) -> list[Card]:
    """Cards the player took from the pile and still holds (the bot saw them taken)."""
    taken = {c for e in view.events if e.player == view.player and e.kind.is_take for c in e.cards}
    return [c for c in view.hand if c in taken]
