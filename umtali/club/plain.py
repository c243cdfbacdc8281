"""The club's plain screen, for screen readers: ``ssh -t -p PORT HOST plain``.

The same screen as ``umtali play --plain`` (:class:`~umtali.ui.spoken.SpokenScreen`):
lines that are printed once and never redrawn, each turn of the other player said in
one line, the table said in words when asked.  Over SSH its lines go down the
connection and its questions are asked with prompt_toolkit on the server's event loop,
reading the member's keys through the same input gate as the full-screen table; the
club's code runs in a worker thread and waits for each answer.

A question can be answered from another thread (:meth:`RemoteLines.answer`), as the
full-screen table's can: the hub does it when the game a member waits on moves.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console

from umtali.ui.screen import Toolbar, wrapped
from umtali.ui.spoken import SpokenScreen
from umtali.ui.theme import Theme


class _Lines:
    """A file for rich: what is printed goes down the connection, on its loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, send: Callable[[str], None]) -> None:
        self.loop = loop
        self.send = send

    def write(self, text: str) -> int:
        self.loop.call_soon_threadsafe(self.send, text.replace("\n", "\r\n"))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class _Interrupted(Exception):
    """Ctrl-C at a plain prompt, carried from the loop to the thread that asked."""


class RemoteLines(SpokenScreen):
    """The plain screen of one SSH session."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        send: Callable[[str], None],
        input: Input,
        output: Output,
        theme: Theme,
        width: Callable[[], int],
    ) -> None:
        console = Console(
            file=_Lines(loop, send),  # type: ignore[arg-type]
            width=max(40, width()),
            color_system=None,
            force_terminal=False,
            highlight=False,
            emoji=False,
        )
        super().__init__(console, None, theme)
        self.loop = loop
        self._send = send
        self.prompts: PromptSession[str] = PromptSession(input=input, output=output)
        # Longest wait for an answer, in seconds, or None (a newcomer's name has one).
        self.answer_within: float | None = None
        self.parting: str | None = None
        self._lock = threading.Lock()
        self._asking: concurrent.futures.Future[str] | None = None
        self._answered: BaseException | None = None
        self._task: asyncio.Task[str] | None = None
        self._closed = False

    @property
    def interactive(self) -> bool:
        return True

    def ask(
        self, message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        self.say_what_is_asked()
        try:
            return self._ask(wrapped(message, self.console.size[0]), completer)
        finally:
            self._asked_of = None  # an empty line says the hand and question again

    def _ask(self, message: str, completer: Completer | None) -> str:
        async def prompt() -> str:
            with self._lock:
                self._task = asyncio.current_task()
            ask = self.prompts.prompt_async(message, completer=completer)
            try:
                if self.answer_within is None:
                    return await ask
                return await asyncio.wait_for(ask, self.answer_within)
            except asyncio.TimeoutError:
                raise TimeoutError(f"no answer in {self.answer_within:g} seconds") from None
            except KeyboardInterrupt:
                # Ctrl-C answers the question, in the worker thread: raised in a task it
                # would stop the server's loop, and every member's session with it.
                raise _Interrupted() from None

        with self._lock:
            if self._closed:
                raise EOFError
            asking = asyncio.run_coroutine_threadsafe(prompt(), self.loop)
            self._asking = asking
        try:
            return asking.result()
        except _Interrupted:
            raise KeyboardInterrupt() from None
        except concurrent.futures.CancelledError:
            with self._lock:
                answered, self._answered = self._answered, None
            raise answered or EOFError() from None
        finally:
            with self._lock:
                self._asking = None
                self._task = None

    def answer(self, answer: BaseException) -> None:
        """End the question being asked, from any thread: it raises ``answer``.  (The
        prompt's task is cancelled on the loop: the future a thread waits on cannot be
        cancelled once its coroutine runs.)"""
        with self._lock:
            asking, task = self._asking, self._task
            if asking is None or asking.done():
                return
            self._answered = answer
        if task is not None:
            self.loop.call_soon_threadsafe(task.cancel)
        else:
            asking.cancel()  # not started yet: it never will

    def end(self) -> None:
        """The connection is going: the question ends, and every later one at once."""
        with self._lock:
            self._closed = True
        self.answer(EOFError())

    def wait(self, seconds: float) -> None:
        """No pause: every line stays where a screen reader can read it again."""

    def ring(self) -> None:
        """The terminal's bell (BEL), once, after the lines sent before it: the
        terminal sounds it and draws nothing, so there is nothing to read out."""
        self.loop.call_soon_threadsafe(self._send, "\a")


__all__ = ["RemoteLines"]
