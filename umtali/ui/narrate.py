"""Moves as words: one event after a name, and the move log of the full-screen table.

Both read events as one seat saw them, so they can say no more than that seat knows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import Card, by_rank_desc, mask_of
from umtali.engine.events import Event, EventKind
from umtali.engine.kinds import EVENT_OF_MOVE, MOVE_OF_ACTION
from umtali.engine.rules import RuleSet
from umtali.engine.view import PlayerView
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


def move_words(action: Action, view: PlayerView, theme: Theme) -> str:
    """``action``, chosen in ``view``, said as the move log says it once played, after
    a name: ``discarded 9♦``, ``took 3♥ from the discard pile``, ``drew from the
    stock`` (a review's decisions, told as the game told them).  The event it makes
    is read off what its mover saw: a take moves the pile's top cards."""
    pile = view.discard_pile
    cards, onto = action.cards, action.target
    kind = action.kind
    if kind is ActionKind.TAKE_FROM:
        onto = cards[0]
        cards = pile[pile.index(onto) :] if onto in pile else cards
    elif kind is ActionKind.TAKE_TWO:
        cards = pile[-2:]
    elif kind in (ActionKind.TAKE, ActionKind.TAKE_NEXT):
        cards = pile[-1:]
    made = EVENT_OF_MOVE[MOVE_OF_ACTION[kind]]
    event = Event(view.player, made, view.turns + 1, tuple(by_rank_desc(cards)), action.down, onto)
    return phrase(event, theme)


def taken_back(events: Sequence[Event], theme: Theme) -> str:
    """What an undo took back, said from the events it took (in the order they were
    made): ``Took back: melded K♠ Q♠, played J♠.``"""
    return "Took back: " + ", ".join(phrase(e, theme) for e in events) + "."


@dataclass(frozen=True, slots=True)
class Forfeit:
    """The cards a player was left holding when the other went out, and who got
    their points: said as the hand's last entry of the move log."""

    by: int  # the player left holding them
    cards: tuple[Card, ...]
    rules: RuleSet  # what they are worth: Rummy counts them otherwise

    def words(self, names: tuple[str, str], theme: Theme) -> str:
        points = self.rules.left_points(mask_of(self.cards))
        shown = " ".join(theme.plain(c) for c in self.cards)
        to = names[2 - self.by]
        return f"forfeited {shown} ({points} point{'s' if points != 1 else ''}) to {to}"


def _blocks(
    events: Sequence[Event],
    names: tuple[str, str],
    theme: Theme,
    width: int,
    forfeit: Forfeit | None,
    went_out: int | None,
) -> list[tuple[int, list[Text]]]:
    """Each turn (a run of one player's moves) as its wrapped lines, newest first; the
    turn a player went out in says so; a forfeit is an entry of its own, after the
    turn that ended the hand."""
    turns: list[tuple[int, list[str]]] = []
    for event in events:
        words = phrase(event, theme)
        if turns and turns[-1][0] == event.player:
            turns[-1][1].append(words)
        else:
            turns.append((event.player, [words]))
    # Going out is that player's last turn of the hand: nothing they do comes after it.
    out = next((said for who, said in reversed(turns) if who == went_out), None)
    if out is not None:
        out.append("went out")
    if forfeit is not None:
        turns.append((forfeit.by, [forfeit.words(names, theme)]))
    last_forfeit = forfeit is not None
    measure = Console(width=width, color_system=None, legacy_windows=False)
    blocks: list[tuple[int, list[Text]]] = []
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
        # The forfeit is nobody's turn (0): the turns before it are still each player's last.
        blocks.append((0 if last_forfeit and not blocks else player, turn))
    return blocks


def move_log(
    events: Sequence[Event],
    names: tuple[str, str],
    theme: Theme,
    width: int,
    rows: int,
    forfeit: Forfeit | None = None,
    went_out: int | None = None,
) -> list[Text]:
    """The last moves as at most ``rows`` lines ``width`` wide, oldest first: one
    turn (a run of one player's moves) a line, wrapped rather than cut, so the card
    a turn ended on is always there to read; then what was forfeited, if the hand
    ended so."""
    lines: list[Text] = []
    for _, turn in _blocks(events, names, theme, width, forfeit, went_out):
        if lines and len(lines) + len(turn) > rows:
            break  # an older turn that does not fit whole is left out
        lines[:0] = turn
    return lines[-rows:] if rows > 0 else []


def newest_turn(
    events: Sequence[Event],
    names: tuple[str, str],
    theme: Theme,
    width: int,
    forfeit: Forfeit | None = None,
    went_out: int | None = None,
) -> list[Text]:
    """The move log's newest entry alone, as its wrapped lines (none before a move):
    where the log has fewer rows than it, its first lines, which name the player."""
    blocks = _blocks(events, names, theme, width, forfeit, went_out)
    return blocks[0][1] if blocks else []


def log_needs(
    events: Sequence[Event],
    names: tuple[str, str],
    theme: Theme,
    width: int,
    forfeit: Forfeit | None = None,
    went_out: int | None = None,
) -> int:
    """Rows the move log needs to keep the latest turn of each player whole (and the
    forfeit, and any turn between them), ``width`` wide."""
    needed = 0
    seen: set[int] = set()  # the players whose last turn is counted
    for player, turn in _blocks(events, names, theme, width, forfeit, went_out):
        if len(seen) == 2:
            break
        needed += len(turn)
        if player:
            seen.add(player)
    return needed
