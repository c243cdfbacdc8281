"""How the table answers its commands: one function a command.

Each function is handed what was :class:`Asked` (the seat that asked, its view,
the game around it, and the text after the command's word) and answers on that
seat's screen.  Asking to undo, to leave or to resign ends the seat's turn at
once, so those raise :class:`UndoRequest`, :class:`~umtali.ui.screen.QuitGame`
or :class:`Resigned` for the loop (and the table above it) to act on: a player
may leave at any question the game asks (a pause, the dealer's choice), and a
bot never asks any of these, so they are not part of a seat's answer.  The
registry in :mod:`umtali.ui.commands` names which word calls which function,
and where it may be used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from rich.text import Text

from umtali.bots.forced import forced_action
from umtali.bots.seat import GameInfo, Seat
from umtali.engine.actions import ActionKind
from umtali.engine.view import PlayerView
from umtali.ui.screen import QuitGame, Screen, ask_yes
from umtali.ui.spoken import SpokenScreen
from umtali.ui.theme import Theme
from umtali.ui.why import why_lines

__all__ = ["Asked", "AtTable", "Resigned", "UndoRequest", "forced_action"]


class UndoRequest(Exception):
    """The player asked to take back their turn (the loop decides whether it may)."""


class Resigned(Exception):
    """A player gave the game up (it ends, lost by them)."""

    def __init__(self, player: int) -> None:
        super().__init__(f"player {player} resigned")
        self.player = player


class AtTable(Protocol):
    """What a command's answer may use of the seat that asked it (a human seat)."""

    name: str
    screen: Screen
    theme: Theme
    hint_bot: Seat
    show_rules: Callable[[], None]
    # The bot across the table (its name and level); None for a person.
    opponent: tuple[str, str] | None
    # Sends a line to the other player (a hosted game); None at one keyboard.
    chat: Callable[[str, str], None] | None
    leave_question: str
    # The turn whose forced plays are being made for the player (``all``), or None.
    auto: Turn | None


#: A turn of a seat, told apart from every other turn it plays in a game: the hand's
#: number, the game's totals before it, and the turns already completed in the hand.
Turn = tuple[int, tuple[int, int], int]


def turn_of(view: PlayerView, info: GameInfo) -> Turn:
    """The turn ``view`` asks about (``all`` holds for that turn only)."""
    return (info.hand_number, info.totals, view.turns)


@dataclass(frozen=True, slots=True)
class Asked:
    """One command typed at a seat's prompt."""

    seat: AtTable
    view: PlayerView
    info: GameInfo
    text: str = ""  # what followed the command's word (``say``'s line)

    @property
    def screen(self) -> Screen:
        return self.seat.screen


# ---------------------------------------------------------------- answers

#: The word a hint is said with: ``Hint: <move> <dash> <why>``, the move in notation.
#: A client at another terminal reads its hint by it (the host load test does).
HINT_LABEL = "Hint:"


def hint(asked: Asked) -> None:
    """What the hint bot would do here, and why."""
    decision = asked.seat.hint_bot.choose(asked.view, asked.info)
    asked.screen.say(
        Text.assemble(
            (HINT_LABEL, "cyan"), f" {decision.action} {asked.seat.theme.dash} {decision.reason}"
        )
    )


def why(asked: Asked) -> None:
    """The reasons for the bot's moves of its last turn (a page, if there are several)."""
    assert asked.seat.opponent is not None  # the registry allows why against a bot only
    name, level = asked.seat.opponent
    lines = why_lines(asked.view, level, name, asked.seat.theme)
    if len(lines) == 1:
        asked.screen.say(Text(lines[0]))
    else:  # a turn's worth of reasons would push the table's messages away
        asked.screen.page(Text("\n\n".join(lines)), "why")


def score(asked: Asked) -> None:
    """This hand's points and the game's, the player's first."""
    view, info = asked.view, asked.info
    me, opp = view.player - 1, 2 - view.player
    asked.screen.say(
        f"This hand: you {view.scores[me]}, opponent {view.scores[opp]}.  "
        f"Game: you {info.totals[me] + view.scores[me]}, "
        f"opponent {info.totals[opp] + view.scores[opp]}."
    )


def table(asked: Asked) -> None:
    """The whole table in words (the plain screen says it only when asked)."""
    assert isinstance(asked.screen, SpokenScreen)  # the registry allows it there only
    asked.screen.whole_table(asked.view)


def rules(asked: Asked) -> None:
    """The rule book, as the table shows it."""
    asked.seat.show_rules()


def say(asked: Asked) -> None:
    """A line to the other player."""
    assert asked.seat.chat is not None  # the registry allows say in a hosted game only
    asked.seat.chat(asked.seat.name, asked.text)


def all_forced(asked: Asked) -> None:
    """Make the forced plays, one a turn of the seat, until a real choice is left."""
    if forced_action(asked.view) is None:
        plays = [str(a) for a in asked.view.legal if a.kind in (ActionKind.MELD, ActionKind.PLAY)]
        if len(plays) == len(asked.view.legal) > 1:  # plays alone, and they overlap
            named = plays[:3] if len(plays) <= 3 else [*plays[:2], f"{len(plays) - 2} more"]
            choice = ", ".join(named[:-1]) + f" or {named[-1]}"
            words = f"Nothing is forced here: you choose, {choice}."
        else:
            words = "Nothing is forced here: choose a move yourself."
        asked.screen.say(Text(words, "yellow"))
    else:
        asked.seat.auto = turn_of(asked.view, asked.info)


def undo(asked: Asked) -> None:
    """Ask the loop to take back this turn's moves."""
    asked.seat.auto = None
    raise UndoRequest


def leave(asked: Asked) -> None:
    """Leave the game, once the player says yes."""
    if ask_yes(asked.screen, asked.seat.leave_question, interrupted=True):
        raise QuitGame(asked.seat.name)


def resign(asked: Asked) -> None:
    """Give the game up, once the player says yes."""
    if ask_yes(asked.screen, "Resign this game? It counts as a loss in your record."):
        raise Resigned(asked.view.player)
