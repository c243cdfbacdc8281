"""The human seat: a prompt in front of a person, speaking the seat protocol.

It is handed its Console and PromptSession, so tests pass recording ones.
Table commands (help, hint, score, rules, all) are answered here; an action
is returned to the loop, which applies it or prints why it is refused.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import HTML
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from rich.console import Console
from rich.table import Table
from rich.text import Text

from umtali.bots.seat import Decision, GameInfo, Seat
from umtali.engine.errors import InvalidNotation
from umtali.engine.view import PlayerView, Step
from umtali.ui.commands import LegalCompleter, forced_action, help_rows, parse_command
from umtali.ui.render import MIN_HEIGHT, MIN_WIDTH, playable_cards, too_small
from umtali.ui.text import shown, visible
from umtali.ui.theme import DEFAULT_THEME, Theme


class QuitGame(Exception):
    """The player asked to leave the game."""


class UndoRequest(Exception):
    """The player asked to take back their turn (the loop decides whether it may)."""


#: The longest line the prompt takes: far more than any command, and short enough
#: that holding a key down (or pasting a book) costs nothing.
MAX_LINE = 200


def _limited() -> KeyBindings:
    """Key bindings that stop a line growing past MAX_LINE characters, and that
    ignore mouse reports."""
    keys = KeyBindings()
    full = Condition(lambda: len(get_app().current_buffer.text) >= MAX_LINE)

    @keys.add(Keys.Any, filter=full)
    def _swallow(event: KeyPressEvent) -> None:
        """A character typed into a full line goes nowhere."""

    @keys.add(Keys.Vt100MouseEvent)
    @keys.add(Keys.WindowsMouseEvent)
    def _no_mouse(event: KeyPressEvent) -> None:
        """The line prompt takes no mouse input; a report typed by hand, or pasted
        malformed, must not reach prompt_toolkit's mouse handler, which fails on it."""

    @keys.add(Keys.BracketedPaste)
    def _paste(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        room = max(0, MAX_LINE - len(buffer.text))
        buffer.insert_text(event.data.replace("\r", " ").replace("\n", " ")[:room])

    return keys


LIMITED = _limited()


def plain_prompt(session: PromptSession[str], message: str) -> str:
    """A prompt with no toolbar and no completion.

    A PromptSession remembers the options of its last prompt, so without
    this a question would show the previous move's toolbar and completions.
    """
    # prompt(bottom_toolbar=None) means "as before", so the last ones are cleared here.
    session.bottom_toolbar = None
    session.completer = None
    return session.prompt(message, key_bindings=LIMITED)


def ask_yes(session: PromptSession[str], question: str) -> bool:
    """A yes/no question; Enter means no, and Ctrl-C or Ctrl-D mean yes (leave)."""
    try:
        answer = plain_prompt(session, f"{question} [y/N] ")
    except (KeyboardInterrupt, EOFError):
        return True
    return answer.strip().lower() in ("y", "yes")


class HumanSeat:
    """A person at the keyboard, typing actions at a prompt."""

    def __init__(
        self,
        name: str,
        console: Console,
        session: PromptSession[str],
        hint_bot: Seat,
        show_rules: Callable[[], None],
        theme: Theme = DEFAULT_THEME,
    ) -> None:
        self.name = visible(name)  # shown at the prompt and on the table
        self.theme = theme
        self.console = console
        self.session = session
        self.hint_bot = hint_bot
        self.show_rules = show_rules
        self._view: PlayerView | None = None
        self._auto = False
        # Set by the loop: draws the table again (an empty line asks for it).
        self.redraw: Callable[[], None] | None = None
        self._completer = LegalCompleter(lambda: self._view)

    def _too_small(self) -> bool:
        """Whether the table cannot be shown now; says so, and that no move was made."""
        width, height = self.console.size
        if not too_small(width, height):
            return False
        x = self.theme.by
        self.console.print(
            shown(
                f"This terminal is {width}{x}{height}, too small to show the table "
                f"(at least {MIN_WIDTH}{x}{MIN_HEIGHT}): no move was made. Make the window "
                "larger and press Enter.",
                "yellow",
            )
        )
        return True

    # --------------------------------------------------------------- seat

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        self.console.print(shown(f"Dealer: {self.name}.", "bold"))
        try:
            answer = plain_prompt(
                self.session,
                f"Who takes the extra (11th) card and plays first? [Enter: you ({self.name}), "
                "o: your opponent] ",
            )
        except (KeyboardInterrupt, EOFError):
            if ask_yes(self.session, "Leave the game?"):
                raise QuitGame from None
            return player
        return 3 - player if answer.strip().lower() in ("o", "opponent", "them", "2") else player

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        self._view = view
        while True:
            if self._auto:
                forced = forced_action(view)
                if forced is not None:
                    return Decision(forced, "forced")
                self._auto = False
                if view.step is Step.PLAY:
                    self.console.print(Text("A choice is left: the rest is up to you.", "yellow"))
            try:
                text = self.session.prompt(
                    f"{self.name}> ",
                    completer=self._completer,
                    complete_while_typing=False,
                    bottom_toolbar=lambda: self._toolbar(view, self.theme),
                    key_bindings=LIMITED,
                )
            except KeyboardInterrupt:
                if ask_yes(self.session, "Leave the game?"):
                    raise QuitGame from None
                continue
            except EOFError:
                raise QuitGame from None
            if not text.strip():
                if self.redraw is not None:
                    self.redraw()  # e.g. after the terminal was made larger
                continue
            try:
                command = parse_command(text, view)
            except InvalidNotation as err:
                self.console.print(shown(str(err), "red"))
                continue
            if (command.action is not None or command.meta == "all") and self._too_small():
                continue  # a move made blind, on a table that cannot be shown, is refused
            if command.action is not None:
                return Decision(command.action, "typed")
            if command.meta == "quit":
                if ask_yes(self.session, "Leave the game?"):
                    raise QuitGame
            elif command.meta == "undo":
                self._auto = False
                raise UndoRequest
            elif command.meta == "all":
                if forced_action(view) is None:
                    self.console.print(
                        Text("Nothing is forced here: choose a move yourself.", "yellow")
                    )
                else:
                    self._auto = True
            else:
                self._answer(command.meta or "help", view, info)

    # ------------------------------------------------------------- helpers

    def _answer(self, meta: str, view: PlayerView, info: GameInfo) -> None:
        if meta == "hint":
            decision = self.hint_bot.choose(view, info)
            self.console.print(
                Text.assemble(
                    ("Hint:", "cyan"), f" {decision.action} {self.theme.dash} {decision.reason}"
                )
            )
        elif meta == "score":
            me, opp = view.player - 1, 2 - view.player
            self.console.print(
                f"This hand: you {view.scores[me]}, opponent {view.scores[opp]}.  "
                f"Game: you {info.totals[me] + view.scores[me]}, "
                f"opponent {info.totals[opp] + view.scores[opp]}."
            )
        elif meta == "rules":
            self.show_rules()
        else:
            table = Table(show_header=False, box=None, padding=(0, 2))
            for what, why in help_rows(view.rules):
                table.add_row(Text(what, style="bold"), why)
            self.console.print(table)
            legal = ", ".join(view.legal_actions) or "nothing: wait for your turn"
            self.console.print(Text.assemble(("Legal now:", "cyan"), f" {legal}"))

    @staticmethod
    def _toolbar(view: PlayerView, theme: Theme) -> HTML:
        if view.step is Step.DRAW:
            what = "draw: " + ", ".join(view.legal_actions)
        elif view.step is Step.PLAY:
            n = len(playable_cards(view))
            cards = f"{n} card{'s' if n != 1 else ''} playable"
            if not view.rules.mandatory_play:
                then = "'end' when done" if view.last_turn else "then discard"
                what = f"play: {cards}, as you choose; {then}"
            else:
                what = f"play: {cards}, all must go down"
            if forced_action(view) is not None:
                what += " ('all' does it)"
        else:
            what = "discard: one card ends your turn"
            if view.last_turn:
                what = "last turn: discard only to go out"
        dot = theme.dot
        return HTML(f" <b>{_escape(what)}</b> {dot} Tab: moves {dot} help")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
