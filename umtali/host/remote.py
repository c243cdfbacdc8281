"""A seat's screen at another terminal, which outlives a dropped connection.

The game thread speaks the Screen protocol to a :class:`RemoteScreen` whatever
happens to the connection behind it.  It keeps what it last showed and what was
said since, so a player who comes back gets the table as it was; a question
asked while nobody is connected waits for the player's return, up to a grace
period, and a question nobody answers waits as long; after either the seat is
given up (:class:`SeatGone`) and the host hands it to a bot.
"""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from enum import Enum

from prompt_toolkit.completion import Completer
from rich.console import RenderableType
from rich.text import Text

from umtali.engine.view import PlayerView
from umtali.ui.app import AppScreen
from umtali.ui.render import TableInfo
from umtali.ui.screen import Toolbar

#: Lines said to a seat that are kept for its player's return: as many as the tallest
#: window the host draws can show (umtali.host.ssh's MAX_ROWS), since with no table
#: on the screen (before the deal, or under a panel) the messages fill it.
SAID_KEPT = 150


class Joined(Enum):
    """How a connection came to a seat."""

    JOINED = "joined"  # the seat was free
    AGAIN = "again"  # it took the seat from the player's older connection
    TAKEN = "taken"  # another connection holds it
    CLOSED = "closed"  # the game is over


class SeatGone(TimeoutError):
    """A seat's player was away, or gave no answer, for longer than the grace period."""

    def __init__(self, name: str, why: str, seat: int) -> None:
        super().__init__(f"{name} {why}")
        self.name = name
        self.seat = seat


class HostInterrupt(Exception):
    """The host pressed Ctrl-C at their own seat while the game waited on this one:
    the question here is withdrawn (it is asked again) so the host can be asked."""


class RemoteScreen:
    """One seat's (or one spectator's) screen, attached to at most one connection."""

    def __init__(
        self,
        name: str,
        grace: float,
        seat: int = 0,
        patience: float | None = None,
        on_away: Callable[[int, str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.grace = grace  # how long the player may be away
        self.patience = grace if patience is None else patience  # or silent
        self.seat = seat  # 1 or 2; 0 for a spectator
        self.clock = clock
        # Told (seat, name) each time a question waits for a player not connected.
        self.on_away = on_away or (lambda seat, name: None)
        self._cond = threading.Condition()
        self._app: AppScreen | None = None
        self._shown: tuple[PlayerView, TableInfo] | RenderableType | None = None
        # What was said since the last answer, as a connection that stayed shows it.
        self._said: deque[RenderableType] = deque(maxlen=SAID_KEPT)
        self.away_since: float = clock()  # not yet joined counts as away
        self.closed = False
        # What a connection that comes to the closed seat is told.
        self.closed_words = "This game is over: its seats are closed."
        self.given_up = False  # the host gave the seat to a bot
        # Connections a newer one took the seat from: their end is not the player's.
        self._replaced: weakref.WeakSet[AppScreen] = weakref.WeakSet()
        self._host_wants = False  # the host pressed Ctrl-C: step aside once

    # -------------------------------------------------------- connections

    @property
    def present(self) -> bool:
        return self._app is not None

    def attach(self, app: AppScreen, take_over: bool = False) -> Joined:
        """A connection takes the seat and is shown what the seat last saw.

        If another connection holds the seat, it keeps it (:attr:`Joined.TAKEN`),
        unless ``take_over``: the player came back on a new connection (only the
        seat's code opens it), so the old one, frozen or forgotten, is ended."""
        with self._cond:
            if self.closed:
                return Joined.CLOSED
            old = self._app
            if old is not None and not take_over:
                return Joined.TAKEN
            self._app = app
            shown, said = self._shown, list(self._said)
            if old is not None:
                self._replaced.add(old)
            self._cond.notify_all()
        if old is not None:
            old.parting = "You joined this seat again from another terminal: this one is closed."
            old.end()
        app.answer_within = self.patience
        if isinstance(shown, tuple):
            app.table(*shown)
        elif shown is not None:
            app.show(shown)
        for message in said:
            app.say(message)
        return Joined.AGAIN if old is not None else Joined.JOINED

    def detach(self, app: AppScreen) -> bool:
        """``app``'s connection is gone; whether it held the seat to the end (it was not
        taken over by a newer connection).  The game's thread may have let it go first,
        when a question asked there found it closed: that is still the player's end."""
        with self._cond:
            if self._app is not app:
                return app not in self._replaced
            self._app = None
            self.away_since = self.clock()
            self._cond.notify_all()
        return True

    def leave(self, parting: str) -> None:
        """The player leaves the table (the game goes on): their connection ends,
        telling them ``parting``, and the seat waits for their return."""
        with self._cond:
            app = self._app
        if app is not None:
            app.leaving = True
            app.parting = parting
            app.end()
            self.detach(app)

    def farewell(self, seconds: float = 120.0) -> None:
        """The table has closed (the game over, or stopped and saved): let a connected
        player read the last screen and press Enter (or wait ``seconds``), then end the
        connection.  It does not say the game is over: one stopped is only saved."""
        self._last_question("This table is closed. Press Enter to leave. ", seconds)
        self.close()

    def hand_over(self, words: str, seconds: float = 120.0) -> None:
        """The seat is the bot's from now on, and the game goes on: a connected player
        reads ``words`` and presses Enter (or waits ``seconds``), and their connection
        ends, telling them ``words`` again; a later one to this seat is told them too."""
        self.closed_words = words
        self._last_question(f"{words} Press Enter to leave. ", seconds)
        self.close(words)

    def _last_question(self, question: str, seconds: float) -> None:
        app = self._app
        if app is not None and not self.closed:
            app.answer_within = seconds
            with contextlib.suppress(EOFError, KeyboardInterrupt, TimeoutError):
                app.ask(question)

    def step_aside(self) -> None:
        """Withdraw the question waiting here (or the next one) with HostInterrupt."""
        with self._cond:
            self._host_wants = True
            app = self._app
            self._cond.notify_all()
        if app is not None:
            app.answer(HostInterrupt())

    def give_up(self) -> None:
        """The host gives the seat to a bot: the question waiting (or the next one
        asked) ends in SeatGone."""
        with self._cond:
            self.given_up = True
            app = self._app
            self._cond.notify_all()
        if app is not None:
            app.answer(SeatGone(self.name, "was given to the bot by the host", self.seat))

    def close(self, parting: str | None = None) -> None:
        """The game is over (or the host stopped it): nothing more is asked, and the
        connection ends, telling its client ``parting`` if given."""
        with self._cond:
            self.closed = True
            app = self._app
            self._cond.notify_all()
        if app is not None:
            if parting is not None:
                app.parting = parting
            app.end()

    # ---------------------------------------------------- the Screen protocol

    @property
    def interactive(self) -> bool:
        return True

    def size(self) -> tuple[int, int]:
        app = self._app
        return app.size() if app is not None else (80, 24)

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        with self._cond:
            self._shown = (view, info)
            app = self._app
        if app is not None:
            app.table(view, info, note)

    def show(self, renderable: RenderableType) -> None:
        with self._cond:
            self._shown = renderable
            app = self._app
        if app is not None:
            app.show(renderable)

    def blank(self) -> None:
        """Nobody else looks at this screen: there is nothing to hide."""

    def say(self, message: RenderableType) -> None:
        with self._cond:
            self._said.append(message)
            app = self._app
        if app is not None:
            app.say(message)

    def ask(
        self, message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        while True:
            try:
                app = self._wait_for_player()
            except KeyboardInterrupt:
                raise HostInterrupt from None  # the host's own Ctrl-C (a --plain table)
            try:
                answer = app.ask(message, toolbar, completer)
            except KeyboardInterrupt as pressed:
                if not pressed.args:  # the host's signal, not this player's Ctrl-C
                    raise HostInterrupt from None
                raise
            except EOFError:
                if not app.closed:
                    raise  # Ctrl-D: the player leaves
                self.detach(app)  # the connection went: wait for the player again
                continue
            except (SeatGone, HostInterrupt):
                with self._cond:
                    self._host_wants = False
                raise
            except TimeoutError:
                raise SeatGone(self.name, "gave no answer", self.seat) from None
            with self._cond:
                self._said.clear()
            return answer

    def _wait_for_player(self) -> AppScreen:
        told = False
        with self._cond:
            if self._host_wants:
                self._host_wants = False
                raise HostInterrupt
            if self.given_up:
                raise SeatGone(self.name, "was given to the bot by the host", self.seat)
            while self._app is None:
                if self._host_wants:
                    self._host_wants = False
                    raise HostInterrupt
                if self.closed:
                    raise EOFError
                if self.given_up:
                    raise SeatGone(self.name, "was given to the bot by the host", self.seat)
                left = self.away_since + self.grace - self.clock()
                if left <= 0:
                    raise SeatGone(self.name, "did not come back", self.seat)
                if not told:
                    told = True
                    self._cond.release()
                    try:
                        self.on_away(self.seat, self.name)
                    finally:
                        self._cond.acquire()
                    continue
                self._cond.wait(min(left, 1.0))
            return self._app

    def page(self, renderable: RenderableType, title: str) -> None:
        app = self._app
        if app is not None:
            app.page(renderable, title)

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)
