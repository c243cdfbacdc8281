"""Moves as words: one event after a name, and the move log of the full-screen table.

Both read events as one seat saw them, so they can say no more than that seat knows.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from umtali.engine.events import Event, EventKind
from umtali.ui.theme import Theme


def phrase(event: Event, theme: Theme) -> str:
    """An event as words after a name: ``played 10♦ off J♦``, ``drew from the stock``."""
    cards = [theme.plain(c) for c in event.cards]
    kind = event.kind
    if kind is EventKind.DRAW:
        return f"drew {cards[0]}" if cards else "drew from the stock"
    if kind is EventKind.TAKE_NEXT:
        return f"took the next discard too, {cards[0]}"
    if kind is EventKind.TAKE_FROM:
        assert event.onto is not None
        deepest = theme.plain(event.onto)
        return f"took {' '.join(cards)} from the discard pile, down to {deepest}"
    if kind.is_take:
        return f"took {' and '.join(cards)} from the discard pile"
    if kind is EventKind.END:
        return "ended the last turn"
    if kind is EventKind.MELD:
        return "melded " + " ".join(cards)
    if kind is EventKind.PLAY:
        if event.onto is not None:
            return f"played {cards[0]} off {theme.plain(event.onto)}"
        return f"played {cards[0]}"
    if kind is EventKind.DISCARD:
        if not cards:
            return "discarded face down"
        return f"discarded {cards[0]}{' face down' if event.down else ''}"
    return str(event).strip("()")


def move_log(
    events: Sequence[Event], names: tuple[str, str], theme: Theme, width: int, rows: int
) -> list[Text]:
    """The last moves as at most ``rows`` lines ``width`` wide, oldest first: one
    turn (a run of one player's moves) a line, wrapped rather than cut, so the card
    a turn ended on is always there to read."""
    turns: list[tuple[int, list[str]]] = []
    for event in events:
        words = phrase(event, theme)
        if turns and turns[-1][0] == event.player:
            turns[-1][1].append(words)
        else:
            turns.append((event.player, [words]))
    measure = Console(width=width, color_system=None, legacy_windows=False)
    lines: list[Text] = []
    for player, said in reversed(turns):
        line = Text.assemble((f" {names[player - 1]}:", "bold"), " " + ", ".join(said))
        first, *rest = line.wrap(measure, width)
        if rest:  # a long turn goes on, indented, on the lines under it
            rest = [
                Text("   ").append_text(more)
                for more in Text("\n").join(rest).wrap(measure, width - 3)
            ]
        turn = [first, *rest]
        for part in turn:
            part.rstrip()
        if lines and len(lines) + len(turn) > rows:
            break  # an older turn that does not fit whole is left out
        lines[:0] = turn
    return lines[-rows:] if rows > 0 else []
