"""The screen a game is shown on: the one seam between the game loop and a terminal.

The loop and the human seat say *what* to show (a table from one seat, a
whole-screen panel, a message, a question, a long text to scroll) and a
:class:`Screen` decides *how*.  Two screens speak it:

- :class:`LineScreen`: the table printed between prompts (for scripts, the fuzzer and
  tests with a recording console); its ``--plain`` form for screen readers,
  :class:`umtali.ui.spoken.SpokenScreen`, says the moves in words instead;
- :class:`umtali.ui.app.AppScreen`: the full-screen application, the default.
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable, Mapping
from typing import Protocol

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer
from prompt_toolkit.formatted_text import HTML
from rich.console import Console, RenderableType
from rich.text import Text

from umtali.engine.view import PlayerView
from umtali.ui.keys import LIMITED
from umtali.ui.render import TableInfo, render_table
from umtali.ui.theme import Theme

#: A toolbar: the line under the prompt, for a screen so many columns wide.
Toolbar = Callable[[int], str]


class QuitGame(Exception):
    """The player asked to leave the game (or the watcher to stop watching); its one
    argument, where given, is the leaving player's name."""


class Screen(Protocol):
    """Where the game is shown and a person answers."""

    @property
    def interactive(self) -> bool:
        """Whether a person is there to answer questions (else nothing is asked)."""

    def size(self) -> tuple[int, int]:
        """Columns and rows the table may use."""

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        """The table from ``view.player``'s seat; ``note`` says what just happened
        (a screen with a move log of its own may leave it out)."""

    def show(self, renderable: RenderableType) -> None:
        """Something that replaces the table: the scores of a hand, the game's end."""

    def blank(self) -> None:
        """Hide everything, scrollback too: a hot-seat handover."""

    def say(self, message: RenderableType) -> None:
        """A message under what is shown: a refusal, a hint, a warning."""

    def ask(
        self, message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        """A line typed by the person; Ctrl-C raises KeyboardInterrupt, Ctrl-D EOFError."""

    def page(self, renderable: RenderableType, title: str) -> None:
        """A long text (the rules, the help) the person reads, scrolls and closes."""

    def wait(self, seconds: float) -> None:
        """The pause after a bot's move, so a person can follow it."""


class OneKey(str):
    """A question that one key answers: the full-screen table takes the key the moment
    it is typed on the empty command line, as if Enter followed it.  A line screen
    (``--plain``, a script) reads a whole line, as for any question.

    ``keys`` are the keys that answer alone (``y`` and ``n`` for a yes/no question),
    in lower case, either case typed; any other key is typed as usual and sent with
    Enter.  ``keys`` None: every key answers at once (the replay, which then refuses
    at once a key it does not know).  A question is text to every screen, so it passes
    unchanged through those that hand it on (a hosted game's, a hot seat's).

    ``arrows`` maps an arrow key (``left``, ``right``, ``up``, ``down``) to the answer
    it gives on the full-screen table (the replay's ``→`` is its Enter); a line screen
    has no such keys, and its arrows edit the line as ever.
    """

    keys: str | None
    arrows: Mapping[str, str]

    def __new__(
        cls, text: str, keys: str | None, arrows: Mapping[str, str] | None = None
    ) -> OneKey:
        question = super().__new__(cls, text)
        question.keys = keys
        question.arrows = arrows or {}
        return question

    def answered_by(self, line: str) -> bool:
        """Whether ``line``, typed so far on the empty command line, is the answer."""
        if self.keys is None:
            return line != ""
        return len(line) == 1 and line.lower() in self.keys


def ask_yes(screen: Screen, question: str, interrupted: bool = False) -> bool:
    """A yes/no question; Enter means no.  Ctrl-C, Ctrl-D or a dropped connection
    answer ``interrupted``: yes where the question is whether to leave (pressed twice,
    Ctrl-C leaves, as in any terminal program), and otherwise no, so that a question
    whose yes loses something (resigning) never takes a reflex or a hang-up for yes.
    On the full-screen table ``y`` or ``n`` answers alone, without Enter."""
    try:
        answer = screen.ask(OneKey(f"{question} [y/N] ", "yn"))
    except (KeyboardInterrupt, EOFError):
        return interrupted
    return answer.strip().lower() in ("y", "yes")


def wrapped(message: str, width: int) -> str:
    """``message`` broken between words into rows of ``width`` at most, its trailing
    spaces kept (the answer is typed after them).  A terminal breaks a prompt's long
    text wherever its row ends, in the middle of a word."""
    body = message.rstrip(" ")
    if len(message) < width:
        return message
    # The trailing spaces stay on the last row: the rows leave room for them, so the
    # cursor never sits past the terminal's last column.
    room = max(width - 1 - (len(message) - len(body)), 8)
    rows = [
        row
        for line in body.split("\n")
        for row in textwrap.wrap(line, room, break_long_words=False, break_on_hyphens=False) or [""]
    ]
    return "\n".join(rows) + message[len(body) :]


def plain_prompt(session: PromptSession[str], message: str) -> str:
    """A prompt with no toolbar and no completion.

    A PromptSession remembers the options of its last prompt, so without
    this a question would show the previous move's toolbar and completions.
    """
    # prompt(bottom_toolbar=None) means "as before", so the last ones are cleared here.
    session.bottom_toolbar = None
    session.completer = None
    return session.prompt(message, key_bindings=LIMITED)


def wipe(console: Console) -> None:
    """Clear the screen and the terminal's scrollback, where a hand could still be
    scrolled back to (xterm's ``CSI 3 J``, which tmux and most terminals honour)."""
    console.clear()
    if console.is_terminal:
        console.file.write("\x1b[3J")
        console.file.flush()


def toolbar_html(text: str) -> HTML:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return HTML(f" <b>{escaped}</b>")


class LineScreen:
    """The line-by-line screen: each table printed in full between prompts.

    Without a prompt session nobody is asked anything (bots playing on a
    recording console, in tests).
    """

    def __init__(
        self,
        console: Console,
        session: PromptSession[str] | None,
        theme: Theme,
        sleep: Callable[[float], None] = time.sleep,
        rules: Callable[[], None] | None = None,
        echo: bool = False,
    ) -> None:
        self.console = console
        self.session = session
        self.theme = theme
        self.sleep = sleep
        self._rules = rules
        # The lines come from a pipe (a script's): the session draws nothing, and each
        # question is printed with the answer read, so the output reads as a transcript.
        self.echo = echo

    @property
    def interactive(self) -> bool:
        return self.session is not None

    def size(self) -> tuple[int, int]:
        width, height = self.console.size
        return width, height

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        width, height = self.console.size
        self.console.clear()
        self.console.print(render_table(view, info, self.theme, width, height))
        if note is not None:
            self.console.print(note)

    def show(self, renderable: RenderableType) -> None:
        self.console.clear()
        self.console.print(renderable)

    def blank(self) -> None:
        wipe(self.console)

    def say(self, message: RenderableType) -> None:
        self.console.print(message)

    def ask(
        self, message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        if self.session is None:
            raise EOFError  # nobody is there to answer
        message = wrapped(message, self.console.size[0])
        if self.echo:
            try:
                answer = plain_prompt(self.session, message)
            except EOFError:
                self.console.print(message, markup=False, highlight=False)
                raise
            self.console.print(message + answer, markup=False, highlight=False)
            return answer
        if toolbar is None and completer is None:
            return plain_prompt(self.session, message)
        bar = toolbar
        return self.session.prompt(
            message,
            completer=completer,
            complete_while_typing=False,
            bottom_toolbar=(lambda: toolbar_html(bar(self.console.size[0]))) if bar else None,
            key_bindings=LIMITED,
        )

    def page(self, renderable: RenderableType, title: str) -> None:
        if title == "rules" and self._rules is not None:
            self._rules()  # the rules open in the pager
        else:
            self.console.print(renderable)

    def wait(self, seconds: float) -> None:
        self.sleep(seconds)
