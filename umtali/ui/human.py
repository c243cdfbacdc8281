"""The human seat: a prompt in front of a person, speaking the seat protocol.

It is handed its Screen (full-screen, line by line, or a recording one in tests).
A move typed is returned to the loop, which applies it or prints why it is
refused.  Any other word is a table command, looked up in the one registry
(:data:`umtali.ui.commands.COMMANDS`) and answered by its function in
:mod:`umtali.ui.answers`.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from umtali.bots.forced import forced_action
from umtali.bots.seat import Decision, GameInfo, Seat
from umtali.engine.errors import InvalidNotation
from umtali.engine.view import PlayerView, Step
from umtali.ui.answers import Asked, Resigned, Turn, UndoRequest, turn_of
from umtali.ui.commands import LegalCompleter, leaves, parse_command
from umtali.ui.render import MIN_HEIGHT, MIN_WIDTH, SizeNotice, playable_cards, too_small
from umtali.ui.screen import QuitGame, Screen, ask_yes
from umtali.ui.text import refused, shown, visible
from umtali.ui.theme import DEFAULT_THEME, Theme

__all__ = ["HumanSeat", "QuitGame", "Resigned", "UndoRequest", "move_prompt", "toolbar"]


class HumanSeat:
    """A person at the keyboard, typing actions at a prompt."""

    def __init__(
        self,
        name: str,
        screen: Screen,
        hint_bot: Seat,
        rules: Callable[[], None],
        theme: Theme = DEFAULT_THEME,
        opponent: tuple[str, str] | None = None,
    ) -> None:
        self.name = visible(name)  # shown at the prompt and on the table
        self.theme = theme
        self.screen = screen
        self.hint_bot = hint_bot
        self.show_rules = rules
        # The bot across the table (its name and level), for why; None for a person.
        self.opponent = opponent
        # Sends ``say`` lines to the other player (a hosted game); None at one keyboard.
        self.chat: Callable[[str, str], None] | None = None
        # Asked before the player leaves (quit, Ctrl-C, Ctrl-D).
        self.leave_question = "Leave the game?"
        self._view: PlayerView | None = None
        # The view whose move the prompt asks for, while it is open (None while any
        # other question is asked): what a script typing for the person reads.
        self.asking: PlayerView | None = None
        # Set by ``all``: the forced plays are made for the player until a choice is left.
        self.auto: Turn | None = None  # the turn ``all`` was asked in
        # Set by the loop: draws the table again (an empty line asks for it).
        self.redraw: Callable[[], None] | None = None
        self._completer = LegalCompleter(lambda: self._view, self)

    def _too_small(self) -> bool:
        """Whether the table cannot be shown now; says so, and that no move was made."""
        width, height = self.screen.size()
        if not too_small(width, height):
            return False
        x = self.theme.by
        self.screen.say(
            SizeNotice(
                f"This terminal is {width}{x}{height}, too small to show the table "
                f"(at least {MIN_WIDTH}{x}{MIN_HEIGHT}): no move was made. Make the window "
                "larger and press Enter.",
                style="yellow",
            )
        )
        return True

    # --------------------------------------------------------------- seat

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        self.screen.say(shown(f"Dealer: {self.name}.", "bold"))
        while True:
            try:
                answer = self.screen.ask(
                    "Who takes the extra (11th) card and plays first? "
                    "[Enter: you, o: your opponent] "
                )
            except (KeyboardInterrupt, EOFError):
                answer = "quit"  # asked, as quit is (a closed terminal answers yes)
            if not leaves(answer):
                break
            if ask_yes(self.screen, self.leave_question, interrupted=True):
                raise QuitGame(self.name) from None
        return 3 - player if answer.strip().lower() in ("o", "opponent", "them", "2") else player

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        self._view = view
        while True:
            if self.auto is not None:
                # ``all`` holds for the turn it was asked in, never for a later one.
                same_turn = self.auto == turn_of(view, info)
                forced = forced_action(view) if same_turn else None
                if forced is not None:
                    return Decision(forced, "forced")
                self.auto = None
                if same_turn and view.step is Step.PLAY:
                    self.screen.say(Text("A choice is left: the rest is up to you.", "yellow"))
            try:
                text = self._ask_move(view)
            except (KeyboardInterrupt, EOFError):
                # Ctrl-C or Ctrl-D: asked, as quit is (a closed terminal answers yes).
                if ask_yes(self.screen, self.leave_question, interrupted=True):
                    raise QuitGame(self.name) from None
                continue
            if not text.strip():
                if self.redraw is not None:
                    self.redraw()  # e.g. after the terminal was made larger
                continue
            try:
                command = parse_command(text, view)
            except InvalidNotation as err:
                self.screen.say(refused(str(err)))
                continue
            table = command.table
            moves = command.action is not None or (table is not None and table.moves)
            if moves and self._too_small():
                continue  # a move made blind, on a table that cannot be shown, is refused
            if command.action is not None:
                return Decision(command.action, "typed")
            assert table is not None  # a line is a move or a table command
            if table.allowed(self):
                table.answer(Asked(self, view, info, command.text))
            else:
                self.screen.say(Text(table.refusal))

    def _ask_move(self, view: PlayerView) -> str:
        """The move prompt: a line typed by the person (``asking`` while it is open)."""
        self.asking = view
        try:
            return self.screen.ask(
                move_prompt(self.name),
                toolbar=lambda width: toolbar(view, self.theme, width),
                completer=self._completer,
            )
        finally:
            self.asking = None


def move_prompt(name: str) -> str:
    """The prompt at which the player named ``name`` types a move.  A client at another
    terminal that knows its player's name knows the prompt (the host load test looks
    for it on its screen, at the cursor)."""
    return f"{name}> "


def toolbar(view: PlayerView, theme: Theme, width: int) -> str:
    """The line under the prompt: what this step asks for, shortened to fit ``width``."""
    if view.step is Step.DRAW:
        what = "draw: " + ", ".join(view.legal_actions)
    elif view.step is Step.PLAY:
        n = len(playable_cards(view))
        cards = f"{n} card{'s' if n != 1 else ''} playable"
        if not view.rules.mandatory_play:
            then = "'end' when done" if view.last_turn else "then discard"
            if view.must_play:  # what the status line says too: a taken card's duty
                must = " ".join(str(c) for c in view.must_play)
                what = f"play: {must} must go down this turn; {then}"
            else:
                what = f"play: {cards}, as you choose; {then}"
        elif forced_action(view) is not None:  # every playable card goes down, no choice
            held = f"{n} playable card{'s' if n != 1 else ''}"
            what = f"play: {held} must go down ('all' plays {'it' if n == 1 else 'them'})"
        else:  # where a card could go two ways, the player chooses; then plays on
            what = (
                f"play: {n} playable card{'s' if n != 1 else ''}; choose, and play on while you can"
            )
    else:
        what = "discard: one card ends your turn"
        if view.last_turn:
            what = "last turn: discard only to go out"
    dot = theme.dot
    for tail in (f" {dot} Tab: moves {dot} help", f" {dot} help", ""):
        line = what + tail
        if len(line) <= width - 2:
            return line
    return what[: max(0, width - 3)] + theme.ellipsis
