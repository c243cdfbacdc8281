"""The full-screen table: a prompt_toolkit application on the terminal's alternate screen.

The game runs in a worker thread and speaks the :class:`~umtali.ui.screen.Screen`
protocol; the application, in the main thread, draws whatever was last shown
(re-drawn at the new size when the terminal is resized) and hands each line
typed at the command line to the question waiting for it.  On the alternate
screen nothing reaches the terminal's scrollback: a hot-seat hand cannot be
scrolled back to, and the screen a player left is gone when the game ends.

Every key comes through the input gate (:mod:`umtali.ui.gate`).  A line typed
while nothing is asked (the bot is thinking, the other player is moving) waits,
shown under the table, and answers the next move prompt; one more replaces it.
Nothing typed ahead answers any other question (leave? the extra card?), and a
spectator's lines are answered with a word, never played.

``rules`` and ``help`` open in a scrollable page inside the application;
``umtali watch`` adds keys to pause, step, speed up and stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from asyncio import AbstractEventLoop
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import Completer, DynamicCompleter
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import merge_key_bindings
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.layout.screen import Char, Screen, WritePosition
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth
from rich.console import RenderableType
from rich.text import Text

from umtali.engine.view import PlayerView
from umtali.ui.app_keys import Watching, bindings, page_toolbar, watch_toolbar
from umtali.ui.drawings import DRAWINGS
from umtali.ui.gate import GatedInput
from umtali.ui.keys import LIMITED
from umtali.ui.layout import (
    UNDER,
    PanelShown,
    Shown,
    TableShown,
    at_words,
    bounds,
    frame,
    lines_of,
)
from umtali.ui.render import TableInfo
from umtali.ui.screen import OneKey, Toolbar
from umtali.ui.text import visible
from umtali.ui.theme import Theme

T = TypeVar("T")
PROMPT_ROWS = 3
#: Seconds between two notices that typed input was dropped.
DROP_NOTICE = 10.0
#: Seconds after a key that answered a yes/no question alone in which an Enter on the
#: empty line is the one typed with it, by the habit of answering with a line: not an
#: answer.
HABIT = 0.5

STYLE = Style.from_dict(
    {
        "toolbar": "reverse",
        "toolbar.key": "reverse bold",
        "prompt": "bold",
    }
)


@dataclass(slots=True)
class _Question:
    message: str
    toolbar: Toolbar | None
    completer: Completer | None
    answer: str | BaseException | None = None


@dataclass(slots=True)
class _Page:
    renderable: RenderableType
    title: str
    top: int = 0
    lines: dict[int, list[str]] = field(default_factory=dict)  # drawn, by width
    closed: bool = False


class _Drawn(Container):
    """Lines already drawn, copied into prompt_toolkit's screen a row at a time.

    A prompt_toolkit window splits, measures and copies its text character by
    character at every redraw (a key typed, the cursor moved); the table changes far
    less often, so its rows of screen cells are made once per change and size.
    """

    def __init__(self, rows: Callable[[int, int], list[dict[int, Char]]]) -> None:
        self.rows = rows

    def write_to_screen(
        self,
        screen: Screen,
        mouse_handlers: MouseHandlers,
        write_position: WritePosition,
        parent_style: str,
        erase_bg: bool,
        z_index: int | None,
    ) -> None:
        x0, y0 = write_position.xpos, write_position.ypos
        buffer = screen.data_buffer
        for y, row in enumerate(self.rows(write_position.width, write_position.height)):
            target = buffer[y0 + y]
            if x0 == 0:
                target.update(row)
            else:
                for x, char in row.items():
                    target[x0 + x] = char

    def reset(self) -> None:
        pass

    def preferred_width(self, max_available_width: int) -> Dimension:
        return Dimension()

    def preferred_height(self, width: int, max_available_height: int) -> Dimension:
        return Dimension()

    def get_children(self) -> list[Container]:
        return []


#: Screen cells already made, by character and style (a few thousand at most: the
#: cards, the words and the table's few styles).
_CELLS: dict[tuple[str, str], Char] = {}
_MOST_CELLS = 20_000


def screen_row(fragments: StyleAndTextTuples, width: int) -> dict[int, Char]:
    """One drawn line as prompt_toolkit's screen cells, ``width`` columns at most."""
    row: dict[int, Char] = {}
    x = 0
    for style, text, *_ in fragments:
        for c in text:
            char = _CELLS.get((c, style))
            if char is None:
                if len(_CELLS) > _MOST_CELLS:  # chat can bring any character: stay small
                    _CELLS.clear()
                char = _CELLS.setdefault((c, style), Char(c, style))
            if char.width == 0:  # a combining mark: joins the cell before
                if x > 0 and x - 1 in row:
                    before = row[x - 1]
                    row[x - 1] = Char(before.char + c, before.style)
                continue
            if x + char.width > width:
                return row
            row[x] = char
            for extra in range(1, char.width):
                row[x + extra] = Char("", style)
            x += char.width
    return row


class _Worker(Generic[T]):
    """A body run in a thread of its own, its result or failure kept for whoever
    ran it; ``done`` is told when it ends either way."""

    def __init__(self, body: Callable[[], T], done: Callable[[], None]) -> None:
        self._body = body
        self._done = done
        self._outcome: list[T] = []
        self._failure: list[BaseException] = []
        self._thread = threading.Thread(target=self._work, name="umtali-game", daemon=True)

    def _work(self) -> None:
        try:
            self._outcome.append(self._body())
        except BaseException as err:  # handed to whoever runs it
            self._failure.append(err)
        finally:
            self._done()

    def start(self) -> None:
        self._thread.start()

    def join(self) -> None:
        if self._thread.is_alive():
            self._thread.join()

    def result(self) -> T:
        if self._failure:
            raise self._failure[0]
        return self._outcome[0]


class AppScreen:
    """The full-screen application, speaking the Screen protocol to a worker thread."""

    def __init__(
        self,
        theme: Theme,
        color_system: str | None,
        watching: Watching | None = None,
        input: GatedInput | None = None,
        output: Output | None = None,
        on_wait: Callable[[str, str], None] | None = None,
        remote: bool = False,
        spectating: bool = False,
    ) -> None:
        self.theme = theme
        if input is None and sys.platform != "win32":
            # Windows keeps prompt_toolkit's own console input: it has no descriptor
            # the gate can read.
            input = GatedInput.terminal()
        if input is not None:
            input.gate.on_drop = self._input_dropped
        self._dropped_at = -DROP_NOTICE
        # A spectator's lines are answered with a word: nothing is ever asked of them.
        self.spectating = spectating
        # What the player's terminal is told after the table closes (a hosted game),
        # and whether the player chose to leave (rather than being cut off).
        self.parting: str | None = None
        self.leaving = False
        # Told each time a new table (or panel) is shown: the host's latency probe.
        self.on_table: Callable[[], None] | None = None
        # At another terminal (over SSH) Ctrl-Z would stop the host's process: not there.
        self.suspends = not remote
        # Longest wait for an answer, in seconds (a hosted game), or None: no limit.
        self.answer_within: float | None = None
        # Where a ``say`` line goes at once (a hosted game); None: it is a command.
        self.on_say: Callable[[str], None] | None = None
        # Told of Ctrl-C while nothing is asked here, instead of waiting for the next
        # question (a hosted game, where the game may be waiting on another terminal).
        self.on_idle_interrupt: Callable[[], None] | None = None
        # Told ("question", its words) or ("page", its title) each time the game waits
        # for the person: the fuzz types its keys then.
        self.on_wait = on_wait
        self.color_system = color_system
        self.watching = watching
        self._cond = threading.Condition()
        self._shown: Shown = None
        self._messages: list[RenderableType] = []
        self._question: _Question | None = None
        self._page: _Page | None = None
        self._interrupted = False
        self._closed = False
        self._ahead: str | None = None  # a line entered before it was asked for
        self._ahead_said: Text | None = None  # the message that says so
        self._version = 0
        # The loop a redraw was asked of from another thread, until a frame is drawn.
        self._redraw_asked: AbstractEventLoop | None = None
        self._drawn: tuple[tuple[object, ...], list[dict[int, Char]]] | None = None
        self._rows: dict[str, dict[int, Char]] = {}  # the last frame's rows, by line
        self.buffer = Buffer(
            multiline=False,
            accept_handler=self._accept,
            completer=DynamicCompleter(
                lambda: self._question.completer if self._question else None
            ),
            complete_while_typing=False,
            history=InMemoryHistory(),
        )
        self.buffer.on_text_insert += self._one_key
        # When a key last answered a question alone (see _one_key).
        self._keyed_at = -HABIT
        self.app: Application[None] = Application(
            layout=self._layout(),
            key_bindings=merge_key_bindings([LIMITED, bindings(self)]),
            style=STYLE,
            full_screen=True,
            mouse_support=False,
            input=input,
            output=output,
        )

    @property
    def page_open(self) -> bool:
        return self._page is not None

    @property
    def asking(self) -> bool:
        return self._question is not None

    def arrow_answer(self, key: str) -> str | None:
        """What the arrow ``key`` answers the question waiting (a replay's step), on the
        empty command line; None where it only moves the cursor, as on any line."""
        question = self._question
        if question is None or self.buffer.text or not isinstance(question.message, OneKey):
            return None
        return question.message.arrows.get(key)

    def page_rows(self) -> int:
        """Rows a page scrolls by: a screenful, less the toolbar."""
        return max(1, self.size()[1] - 2)

    def _completer(self) -> Completer | None:
        question = self._question
        return question.completer if question is not None else None

    # ------------------------------------------------------------ running

    def run(self, body: Callable[[], T]) -> T:
        """Run ``body`` (the game) in a worker thread while the application shows it.

        Returns what ``body`` returns, or raises what it raised, once the
        application has left the alternate screen.  If the application ends
        first (the terminal went away), every question the game asks from then
        on is answered with end-of-input, so the game is saved and left.
        """
        worker = _Worker(body, lambda: self._on_loop(self._finish))
        try:
            # A failure inside the application goes up to the command, which says so
            # in a sentence (the game is saved), never as a traceback on the table.
            self.app.run(pre_run=worker.start, set_exception_handler=False)
        finally:
            self.close()
            worker.join()
        return worker.result()

    async def run_async(self, body: Callable[[], T]) -> T:
        """:meth:`run` on an event loop that is already running (a server's, with a
        connection each): the loop is never blocked waiting for ``body``."""
        worker = _Worker(body, lambda: self._on_loop(self._finish))
        try:
            await self.app.run_async(pre_run=worker.start, set_exception_handler=False)
        finally:
            self.close()
            await asyncio.get_running_loop().run_in_executor(None, worker.join)
        return worker.result()

    def close(self) -> None:
        """The application has ended (or its terminal went away): the question waiting,
        and every one asked from now on, is answered with end-of-input."""
        with self._cond:
            self._closed = True
            if self._question is not None and self._question.answer is None:
                self._question.answer = EOFError()
            self._cond.notify_all()

    def end(self) -> None:
        """Close, and end the application (from any thread): its connection is done."""
        self.close()
        self._on_loop(self._finish)

    @property
    def closed(self) -> bool:
        return self._closed

    def _finish(self) -> None:
        if self.app.is_running and self.app.future is not None and not self.app.future.done():
            self.app.exit()

    def _on_loop(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` in the application's thread (prompt_toolkit is not thread-safe)."""
        loop = self.app.loop
        if loop is not None and not loop.is_closed():
            # The loop may close (a local table ending) just after it was looked at:
            # then there is nothing left to run ``fn`` for.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(fn)

    def _changed(self) -> None:
        """What is shown changed (in any thread): the screen is redrawn."""
        with self._cond:
            self._version += 1
        loop = self.app.loop
        if loop is None or loop.is_closed():
            return  # not running: its first frame shows what is there
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is loop:
            self.app.invalidate()
            return
        # From the game's thread the redraw is asked for on the application's loop:
        # prompt_toolkit's invalidate reads ``app.loop`` twice, and a connection that
        # dropped between the two reads made it raise "no running event loop" in the
        # game's thread, which ended a hosted game for everyone.  Until the next
        # frame is drawn, further changes ride with the one request, as they rode
        # with the one redraw invalidate keeps waiting.
        with self._cond:
            if self._redraw_asked is loop:
                return
            self._redraw_asked = loop
        self._on_loop(self._redraw_if_asked)

    def _redraw_if_asked(self) -> None:
        """On the application's loop: a redraw, unless a frame drawn since the request
        already shows what changed (a key typed meanwhile redraws too)."""
        if self._redraw_asked is not None:
            self.app.invalidate()

    # ------------------------------------------------- the Screen protocol

    @property
    def interactive(self) -> bool:
        return True

    def size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        # The move log under the table says what the note would.
        self._shown = TableShown(view, info)
        self._changed()
        if self.on_table is not None:
            self.on_table()

    def show(self, renderable: RenderableType) -> None:
        self._shown = PanelShown(renderable)
        self._changed()
        if self.on_table is not None:
            self.on_table()

    def blank(self) -> None:
        self._shown = None
        self._messages = []
        self._ahead = None

        def forget() -> None:
            # What one player typed (a refused "discard K♥", say) is not the next
            # player's to recall with the arrow keys.
            self.buffer.reset()
            self.buffer.history = InMemoryHistory()

        self._on_loop(forget)
        self._changed()

    def say(self, message: RenderableType) -> None:
        self._messages = [*self._messages, message]
        self._changed()

    def ring(self) -> None:
        """The terminal's bell (BEL), once, on this screen's own output: news that
        calls the person to act (the club's lobby)."""
        self._on_loop(self.app.output.bell)

    def ask(
        self, message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        question = _Question(message, toolbar, completer)
        with self._cond:
            if self._closed:
                raise EOFError
            if self._interrupted:
                self._interrupted = False
                raise KeyboardInterrupt
            ahead, self._ahead = self._ahead, None
            if ahead is not None and completer is not None:
                # Typed while the game was busy: it answers this move prompt, so what
                # was said about the last one goes, as when a question is answered.
                self._messages = []
                self._version += 1
                return ahead
            if ahead is not None:
                unused = f"'{visible(ahead)}' was typed ahead for a move: not used here."
                self._messages = [*self._messages, Text(unused, "yellow")]
            self._question = question
        self._changed()
        if self.on_wait is not None:
            self.on_wait("question", message)
        limit = self.answer_within
        deadline = None if limit is None else time.monotonic() + limit
        with self._cond:
            while question.answer is None:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    question.answer = TimeoutError(f"no answer in {limit:g} seconds")
                    break
                self._cond.wait(left)
            self._question = None
        self._changed()
        if isinstance(question.answer, BaseException):
            raise question.answer
        return question.answer

    def page(self, renderable: RenderableType, title: str) -> None:
        page = _Page(renderable, title)
        with self._cond:
            if self._closed:
                return
            self._page = page
        self._changed()
        if self.on_wait is not None:
            self.on_wait("page", title)
        with self._cond:
            while not page.closed and not self._closed:
                self._cond.wait()
            self._page = None
            self._messages = []  # what was said before the page was about then
        self._changed()

    def ask_on_page(self, renderable: RenderableType, title: str, message: str) -> str:
        """A page with a question under it, answered as :meth:`ask` is: the arrow and
        page keys scroll the page, the other keys type the answer (a review that takes
        a decision's number); the page goes once the answer is given."""
        with self._cond:
            self._page = _Page(renderable, title)
        try:
            return self.ask(message)
        finally:
            with self._cond:
                self._page = None
                self._messages = []
            self._changed()

    def wait(self, seconds: float) -> None:
        watch = self.watching
        start = time.monotonic()
        with self._cond:
            while not self._closed:
                if self._interrupted or (watch is not None and watch.stop):
                    self._interrupted = False
                    raise KeyboardInterrupt
                if watch is not None and watch.paused:
                    if watch.steps:
                        watch.steps -= 1
                        return
                    self._cond.wait()
                    continue
                scale = watch.scale if watch is not None else 1.0
                left = start + seconds * scale - time.monotonic()
                if left <= 0:
                    if watch is not None:
                        # Nobody answers while watching, so what was said goes once read.
                        self._messages = []
                        self._version += 1
                    return
                self._cond.wait(left)

    # ------------------------------------------------- answers (main thread)

    def answer(self, answer: str | BaseException) -> None:
        with self._cond:
            question = self._question
            if question is None or question.answer is not None:
                return
            question.answer = answer
            self._messages = []  # what was said was about the question now answered
            self._version += 1
            self._cond.notify_all()

    def _accept(self, buffer: Buffer) -> bool:
        """Enter: the line answers the waiting question, or the next one asked (a
        line typed while the bot thinks, or while the last move is played)."""
        text = buffer.text
        if not text and time.monotonic() - self._keyed_at < HABIT:
            self._keyed_at = -HABIT  # "y" and Enter, by habit: the Enter is let go
            return False
        if text.strip():
            buffer.append_to_history()
        said = text.strip()
        if self.on_say is not None and said[:4].lower() == "say " and said[4:].strip():
            # A line to the other player goes at once, whoever's turn it is, and
            # answers no question.
            self.on_say(said[4:].strip())
            return False
        with self._cond:
            waiting = self._question is not None and self._question.answer is None
            if not waiting and said:
                self._typed_ahead(said)
        if waiting:
            self.answer(text)
        return False

    def _one_key(self, buffer: Buffer) -> None:
        """Typed on the command line: where the question waiting is one that a key
        answers alone (a :class:`~umtali.ui.screen.OneKey`) and the line is now that
        key, the key is the answer, at once."""
        with self._cond:
            question = self._question
            if question is None or question.answer is not None:
                return
            message = question.message
        if not isinstance(message, OneKey) or not message.answered_by(buffer.text):
            return
        key = buffer.text
        buffer.reset()
        if message.keys is not None:
            # A yes/no question used to take a line: an Enter typed just after the
            # key, by habit, must not answer the question that comes next (the list
            # of lessons would start one).  Where every key answers (the replay),
            # Enter is a key of its own, and answers.
            self._keyed_at = time.monotonic()
        self.answer(key)

    def _typed_ahead(self, said: str) -> None:
        """A line entered while nothing is asked (the lock is held): it waits, shown,
        for the next move prompt; a spectator is told that nothing is played."""
        if self.spectating:
            words = "You are watching: nothing typed here is played."
        else:
            before, self._ahead = self._ahead, said
            words = f"Typed ahead: '{visible(said)}' answers your next move"
            if before is not None:
                words += f" (instead of '{visible(before)}')"
            words += ". Ctrl-C drops it."
        message = Text(words, "cyan")
        if self._messages and self._messages[-1] is self._ahead_said:
            self._messages = [*self._messages[:-1], message]  # one line, however many
        else:
            self._messages = [*self._messages, message]
        self._ahead_said = message
        self._version += 1
        self.app.invalidate()

    def _input_dropped(self) -> None:
        """The input gate dropped part of what came (a flood, an endless paste): say so,
        once in a while."""
        now = time.monotonic()
        if now - self._dropped_at < DROP_NOTICE:
            return
        self._dropped_at = now
        self.say(Text("Too much was typed or pasted at once: some of it was dropped.", "yellow"))

    def interrupt(self) -> None:
        """Ctrl-C: closes a page; answers a question; otherwise tells the next pause."""
        with self._cond:
            dropped = self._ahead if self._page is None and self._question is None else None
            if dropped is not None:
                self._ahead = None  # Ctrl-C takes back a line typed ahead, and only that
                self._messages = [*self._messages, Text(f"Dropped '{visible(dropped)}'.")]
                self._version += 1
        if dropped is not None:
            self.app.invalidate()
            return
        idle = self.on_idle_interrupt
        if idle is not None and self._page is None and self._question is None:
            idle()
            return
        with self._cond:
            if self._page is not None:
                self._page.closed = True
            elif self._question is None:
                self._interrupted = True
                self._ahead = None
                if self.watching is None:
                    # While the other side moves (a bot, or a player at another
                    # terminal) the question comes when the game next waits here.
                    self._messages = [
                        *self._messages,
                        Text(
                            "Ctrl-C: you will be asked whether to leave at once when the "
                            "game comes back to you.",
                            "yellow",
                        ),
                    ]
                    self._version += 1
            self._cond.notify_all()
            answers = self._page is None and self._question is not None
        if answers:
            self.buffer.reset()
            # Marked as this screen's: a bare KeyboardInterrupt is the process's own
            # signal (the host's Ctrl-C, where a remote seat's question waits).
            self.answer(KeyboardInterrupt("ctrl-c"))

    def watch(self, change: Callable[[Watching], None]) -> None:
        if self.watching is None:
            return
        with self._cond:
            change(self.watching)
            self._cond.notify_all()
        self.app.invalidate()

    def scroll(self, by: int | None = None, to: int | None = None) -> None:
        page = self._page
        if page is None:
            return
        columns, rows = self.size()
        rows -= self._prompt_rows() if self._question is not None else 0  # ask_on_page
        most = max(0, len(self._page_lines(page, bounds(columns)[1])) - (rows - 1))
        top = page.top + by if by is not None else to if to is not None else page.top
        page.top = min(max(0, top), most)
        self.app.invalidate()

    def close_page(self) -> None:
        with self._cond:
            if self._page is not None:
                self._page.closed = True
            self._cond.notify_all()

    # ------------------------------------------------------------- drawing

    def _page_lines(self, page: _Page, width: int) -> list[str]:
        if width not in page.lines:
            page.lines[width] = lines_of(page.renderable, width, self.color_system)
        return page.lines[width]

    def _frame_rows(self, width: int, height: int) -> list[dict[int, Char]]:
        """What is shown above the command line (the table with its log and messages,
        or a page) as rows of screen cells: drawn by rich once per change and size,
        then handed to every redraw as they are."""
        self._redraw_asked = None  # what changes from now on asks for the next frame
        columns, rows = self.size()
        page = self._page
        if page is not None:
            rows -= self._prompt_rows() if self._question is not None else 0  # ask_on_page
            key: tuple[object, ...] = ("page", id(page), page.top, columns, rows, width)
        else:
            rows -= self._prompt_rows() - 1
            key = ("table", self._version, columns, rows, width)
        drawn = self._drawn
        if drawn is not None and drawn[0] == key:
            return drawn[1]
        if page is not None:
            # A page keeps to the column the table is drawn in.
            left, inner = bounds(columns)
            text = self._page_lines(page, inner)[page.top : page.top + rows - 1]
            text = [" " * left + line if line else line for line in text]
        else:
            text = frame(
                self._shown, self._messages, self.theme, columns, rows, self.color_system, DRAWINGS
            )
        # Most lines are as they were in the last frame: only the others are made anew.
        before: dict[str, dict[int, Char]] = self._rows
        made: dict[str, dict[int, Char]] = {}
        cells = []
        for line in text[:height]:
            row = before.get(line) or made.get(line)
            if row is None:
                row = screen_row(to_formatted_text(ANSI(line)), width)
            made[line] = row
            cells.append(row)
        self._rows = made
        self._drawn = (key, cells)
        return cells

    def _prompt_rows(self) -> int:
        """Rows the command line takes: a long question wraps (up to three rows)."""
        question = self._question
        if question is None:
            return 1
        columns = bounds(self.size()[0])[1]
        used = get_cwidth(at_words(question.message, columns)) + len(self.buffer.text) + 1
        return min(PROMPT_ROWS, max(1, -(-used // max(1, columns))))

    def _prompt(self) -> StyleAndTextTuples:
        question = self._question
        if question is None:
            return []
        return [("class:prompt", at_words(question.message, bounds(self.size()[0])[1]))]

    def _toolbar(self) -> StyleAndTextTuples:
        left, columns = bounds(self.size()[0])
        dot = self.theme.dot
        page = self._page
        if page is not None:
            _, rows = self.size()
            rows -= self._prompt_rows() if self._question is not None else 0  # ask_on_page
            total = len(self._page_lines(page, columns))
            last = min(total, page.top + rows - 1)
            back = "Enter: back" if self._question is not None else "q: back"
            text = page_toolbar(page.title, page.top + 1, last, total, dot, columns, back)
        elif self._question is not None and self._question.toolbar is not None:
            text = " " + self._question.toolbar(columns)
        elif self.watching is not None:
            text = watch_toolbar(self.watching, dot, columns)
        else:
            text = ""
        return [("", " " * left), ("class:toolbar", text[:columns].ljust(columns))]

    def _margin(self) -> int:
        """Columns left of the screen's one column (:func:`~umtali.ui.layout.bounds`)."""
        return bounds(self.size()[0])[0]

    def _layout(self) -> Layout:
        page_open = Condition(lambda: self._page is not None)
        asking = Condition(lambda: self._question is not None)
        prompt_row = Window(
            BufferControl(
                self.buffer,
                input_processors=[BeforeInput(self._prompt, style="class:prompt")],
            ),
            height=self._prompt_rows,
            wrap_lines=True,
        )
        # The command line starts where the table and its log do.
        prompt_line = VSplit([Window(width=self._margin), prompt_row], height=self._prompt_rows)
        above = FloatContainer(
            content=HSplit(
                [
                    _Drawn(self._frame_rows),
                    ConditionalContainer(prompt_line, filter=~page_open | asking),
                ]
            ),
            # Tab's menu floats over the frame and the command line only: where it
            # does not fit under the cursor it goes above, never over the toolbar.
            floats=[
                Float(
                    xcursor=True,
                    ycursor=True,
                    content=CompletionsMenu(max_height=8, scroll_offset=1),
                )
            ],
        )
        root = HSplit([above, Window(FormattedTextControl(self._toolbar), height=UNDER - 1)])
        return Layout(root, focused_element=self.buffer)
