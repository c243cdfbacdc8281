"""The engine's moves on the hot path: ``(kind, card set)`` pairs of ints, and their notation.

Every machine lists and applies moves of these kinds; :class:`umtali.Action`
is their public, typed face, and :func:`move_text` writes one in the notation
a player types.  Kinds 7 and 8 mark log entries that are not a player's move.

>>> from umtali.engine.cards import Card
>>> move_text((MELD, Card.parse("7S").bit | Card.parse("6S").bit | Card.parse("5S").bit))
'meld 7S 6S 5S'
>>> move_text((ADD_UP, Card.parse("8H").bit), Card.parse("7H").index)
'play 8H on 7H'
"""

from __future__ import annotations

from umtali.engine.cards import CARDS, format_cards

Move = tuple[int, int]

# Move kinds every machine knows.
DRAW, TAKE, TAKE_TWO, MELD, PLAY, DISCARD, DISCARD_DOWN = range(7)
DRAW_KINDS = (DRAW, TAKE, TAKE_TWO)
# Log entries that are not moves.
REBUILD = 7  # the discard pile (less its top) was shuffled into a new stock
SKIP_DRAW = 8  # a last turn with no card left to draw
#: Log entries that record no move of a player.
NOT_MOVES = (REBUILD, SKIP_DRAW)
# Move kinds of the optional-melding machine: family's take next, practical's take
# from deep in the pile, the end of a last turn.
TAKE_NEXT, TAKE_FROM, END = 9, 10, 11
# An addition that more than one meld takes, by the way it joins one of them (see
# :mod:`umtali.engine.extend`): to a group's rank, up or down a run, off a lone jack.
ADD_RANK, ADD_UP, ADD_DOWN, ADD_JACK = 12, 13, 14, 15
#: Every move kind that plays a single card.
SINGLE_PLAYS = (PLAY, ADD_RANK, ADD_UP, ADD_DOWN, ADD_JACK)

_WORDS = {DRAW: "draw", TAKE: "take", TAKE_TWO: "take 2", TAKE_NEXT: "take next", END: "end"}


def move_text(move: Move, target: int = -1) -> str:
    """A move in notation; ``target`` (a card index) names the card a single play goes on."""
    kind, mask = move
    words = _WORDS.get(kind)
    if words is not None:
        return words
    cards = format_cards(mask)
    if kind == MELD:
        return f"meld {cards}"
    if kind in SINGLE_PLAYS:
        return f"play {cards}" if target < 0 else f"play {cards} on {CARDS[target]}"
    if kind == TAKE_FROM:
        return f"take {cards}"
    if kind == DISCARD:
        return f"discard {cards}"
    return f"discard {cards} down"
