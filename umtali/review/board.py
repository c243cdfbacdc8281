"""The review board: a full-screen application to study a reviewed game on.

←/→ step a decision, ↑/↓ a hand, ``n``/``p`` (or Tab, Shift-Tab) the next or
previous flagged decision, Home/End the first and last; digits then Enter jump to
that decision; ``r`` shows the words in full; ``t`` tries the decision again
(:mod:`umtali.ui.retry`: type a move, Enter; Enter alone shows the best, Escape
goes back); ``q`` leaves.  Every key comes through the input gate, as at the
table; the screen is drawn by :func:`umtali.review.board_view.board_lines` at the
terminal's size whenever it changes, a resize included.  The coach weighs a move
tried again in a worker thread, so the board still answers while it does.
"""

from __future__ import annotations

import threading
from dataclasses import replace

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from rich.text import Text

from umtali.engine.actions import Action
from umtali.review.analysis import GameAnalysis
from umtali.review.board_view import Shown, board_lines
from umtali.ui.retry import asked, best_of, judged, read_move
from umtali.ui.theme import Theme

#: The most digits a decision's number is typed with (a record has thousands at most).
DIGITS = 5


class Board:
    """What the board shows and how each key changes it."""

    def __init__(self, analysis: GameAnalysis, seat: int, theme: Theme) -> None:
        self.analysis = analysis
        self.seat = seat
        self.theme = theme
        self.shown = Shown()
        self._lock = threading.Lock()  # the worker's answer and the keys both change it

    # ------------------------------------------------------------ moving

    @property
    def count(self) -> int:
        return len(self.analysis.decisions)

    def go(self, index: int) -> None:
        if self.count:
            cursor = max(0, min(self.count - 1, index))
            self.shown = Shown(cursor)

    def step(self, by: int) -> None:
        self.go(self.shown.cursor + by)

    def hand(self, by: int) -> None:
        """To the first decision of the next hand, or of this hand (then the one before)."""
        starts = self.analysis.hand_starts()
        here = self.shown.cursor
        if by > 0:
            later = [s for s in starts if s > here]
            self.go(later[0] if later else self.count - 1)
        else:
            earlier = [s for s in starts if s < here]
            self.go(earlier[-1] if earlier else 0)

    def flagged(self, by: int) -> None:
        """To the next (or previous) decision with a label, either player's."""
        marked = [i for i, d in enumerate(self.analysis.decisions) if d.label is not None]
        here = self.shown.cursor
        if by > 0:
            ahead = [i for i in marked if i > here]
            if ahead:
                self.go(ahead[0])
        else:
            behind = [i for i in marked if i < here]
            if behind:
                self.go(behind[-1])

    def digit(self, char: str) -> None:
        if len(self.shown.typed) < DIGITS:
            self.shown = replace(self.shown, typed=self.shown.typed + char, said=())

    def enter(self) -> None:
        """Go to the decision whose number was typed."""
        typed = self.shown.typed
        if not typed:
            return
        number = int(typed)
        if 1 <= number <= self.count:
            self.go(number - 1)
        else:
            said = Text(f"{typed}: the decisions are numbered 1 to {self.count}.", "red")
            self.shown = replace(self.shown, typed="", said=(said,))

    def backspace(self) -> None:
        if self.shown.again is not None:
            self.shown = replace(self.shown, again=self.shown.again[:-1])
        else:
            self.shown = replace(self.shown, typed=self.shown.typed[:-1])

    def read(self) -> None:
        self.shown = replace(self.shown, full=not self.shown.full)

    # ------------------------------------------------------------ trying again

    def try_again(self) -> None:
        if not self.count:
            return
        decision = self.analysis.decisions[self.shown.cursor]
        question = asked(decision.verdict, self.analysis.voice(decision, self.seat), self.theme)
        said = Text(f"{question} Type a move and Enter (Enter alone: the best; Esc: back).")
        self.shown = replace(self.shown, typed="", again="", said=(said,), full=False)

    def type_move(self, char: str) -> None:
        if self.shown.again is not None and len(self.shown.again) < 40:
            self.shown = replace(self.shown, again=self.shown.again + char)

    def submit(self, weigh_later: bool = True) -> threading.Thread | None:
        """The move typed in a try again: refused at once, or weighed (in a thread,
        where ``weigh_later``); Enter alone shows the best."""
        text = self.shown.again or ""
        verdict = self.analysis.decisions[self.shown.cursor].verdict
        if not text.strip():
            self.shown = replace(self.shown, again=None, said=(best_of(verdict, self.theme),))
            return None
        action = read_move(text, verdict)
        if isinstance(action, Text):
            self.shown = replace(self.shown, again="", said=(self.shown.said[0], action))
            return None
        weighing = Text("The coach is weighing your move...", "dim")
        self.shown = replace(self.shown, again=None, said=(weighing,))
        cursor = self.shown.cursor
        if not weigh_later:
            self._answer(cursor, action)
            return None
        worker = threading.Thread(target=self._answer, args=(cursor, action), daemon=True)
        worker.start()
        return worker

    def _answer(self, cursor: int, action: Action) -> None:
        decision = self.analysis.decisions[cursor]
        verdict, voice = decision.verdict, self.analysis.voice(decision, self.seat)
        said = (judged(verdict, action, voice, self.theme), best_of(verdict, self.theme))
        with self._lock:
            if self.shown.cursor == cursor and self.shown.again is None:
                self.shown = replace(self.shown, said=said)

    def cancel(self) -> None:
        self.shown = replace(self.shown, again=None, typed="", said=())

    # ------------------------------------------------------------ drawing

    def lines(self, width: int, height: int, color_system: str | None) -> list[str]:
        return board_lines(
            self.analysis, self.seat, self.shown, self.theme, width, height, color_system
        )


def board_app(
    board: Board,
    input: Input,
    output: Output | None = None,
    color_system: str | None = "standard",
) -> Application[None]:
    """The board as a prompt_toolkit application on the alternate screen."""
    keys = KeyBindings()
    app: Application[None]

    def text() -> ANSI:
        size = app.output.get_size()
        return ANSI("\n".join(board.lines(size.columns, size.rows, color_system)))

    def trying() -> bool:
        return board.shown.again is not None

    @keys.add(Keys.Left)
    def _left(event: KeyPressEvent) -> None:
        if not trying():
            board.step(-1)

    @keys.add(Keys.Right)
    def _right(event: KeyPressEvent) -> None:
        if not trying():
            board.step(1)

    @keys.add(Keys.Up)
    def _up(event: KeyPressEvent) -> None:
        if not trying():
            board.hand(-1)

    @keys.add(Keys.Down)
    def _down(event: KeyPressEvent) -> None:
        if not trying():
            board.hand(1)

    @keys.add(Keys.Home)
    def _home(event: KeyPressEvent) -> None:
        if not trying():
            board.go(0)

    @keys.add(Keys.End)
    def _end(event: KeyPressEvent) -> None:
        if not trying():
            board.go(board.count - 1)

    @keys.add(Keys.Tab)
    def _tab(event: KeyPressEvent) -> None:
        if not trying():
            board.flagged(1)

    @keys.add(Keys.BackTab)
    def _backtab(event: KeyPressEvent) -> None:
        if not trying():
            board.flagged(-1)

    @keys.add(Keys.Enter)
    def _enter(event: KeyPressEvent) -> None:
        if trying():
            worker = board.submit()
            if worker is not None:  # redraw once the coach has answered
                threading.Thread(target=_redraw_after, args=(worker, app), daemon=True).start()
        else:
            board.enter()

    @keys.add(Keys.Backspace)
    def _backspace(event: KeyPressEvent) -> None:
        board.backspace()

    @keys.add(Keys.Escape, eager=True)
    def _escape(event: KeyPressEvent) -> None:
        board.cancel()

    @keys.add(Keys.ControlC)
    @keys.add(Keys.ControlD)
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit()

    @keys.add(Keys.Any)
    def _any(event: KeyPressEvent) -> None:
        char = event.data
        if trying():
            if char.isprintable():
                board.type_move(char)
            return
        if char.isdigit():
            board.digit(char)
        elif char == "q":
            event.app.exit()
        elif char in ("n", "p"):
            board.flagged(1 if char == "n" else -1)
        elif char == "t":
            board.try_again()
        elif char == "r":
            board.read()

    app = Application(
        layout=Layout(Window(FormattedTextControl(text, show_cursor=False))),
        key_bindings=keys,
        full_screen=True,
        input=input,
        output=output,
        mouse_support=False,
    )
    return app


def _redraw_after(worker: threading.Thread, app: Application[None]) -> None:
    worker.join()
    app.invalidate()  # safe from another thread: it schedules a redraw on the loop


def run_board(
    analysis: GameAnalysis,
    seat: int,
    theme: Theme,
    input: Input,
    color_system: str | None,
) -> None:
    """Show the board until the person leaves it."""
    board_app(Board(analysis, seat, theme), input, color_system=color_system).run()
