"""One game on several screens: each player at their own, and spectators.

The loop (with ``apart``) draws the table once from each seat; :class:`SplitScreen`
sends each seat's table to that seat's screen only, and to the spectators a
public table made from it (no hand, no card drawn from the stock, no face-down
discard).  What is said to the table (the cut, a hand's scores, a chat line) goes
to everyone; a refusal or a hint goes only to the player's own screen, which the
human seat holds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping

from prompt_toolkit.completion import Completer
from rich.console import RenderableType
from rich.text import Text

from umtali.engine.view import PlayerView, public_view
from umtali.ui.render import TableInfo
from umtali.ui.screen import Screen, Toolbar


class SplitScreen:
    """The loop's screen when the players sit apart: routes each table to its seat."""

    def __init__(self, seats: Mapping[int, Screen]) -> None:
        self.seats = dict(seats)  # player (1 or 2) -> their screen; a bot has none
        self._lock = threading.Lock()
        self._watchers: list[Screen] = []
        self._public: tuple[PlayerView, TableInfo] | None = None
        self._panel: RenderableType | None = None

    # ------------------------------------------------------------ spectators

    def watch(self, screen: Screen) -> None:
        """A spectator joins: shown the public table as it is now."""
        with self._lock:
            self._watchers.append(screen)
            public, panel = self._public, self._panel
        if panel is not None:
            screen.show(panel)
        elif public is not None:
            screen.table(*public)
        else:
            screen.say(Text("You are watching. The table appears with the first deal."))

    def unwatch(self, screen: Screen) -> None:
        with self._lock:
            if screen in self._watchers:
                self._watchers.remove(screen)

    def _everyone(self) -> list[Screen]:
        with self._lock:
            return [*self.seats.values(), *self._watchers]

    # ------------------------------------------------------- the Screen protocol

    @property
    def interactive(self) -> bool:
        return bool(self.seats)

    def size(self) -> tuple[int, int]:
        return 80, 24

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        mine = self.seats.get(view.player)
        if mine is not None:
            mine.table(view, info, note)
        if view.player == 1:  # the spectators' table, from player 1's, less what is private
            public = (
                public_view(view),
                TableInfo(info.names, info.totals, info.hand_number, info.game_number, "spectator"),
            )
            with self._lock:
                self._public, self._panel = public, None
                watchers = list(self._watchers)
            for screen in watchers:
                screen.table(*public)  # no note: it tells a move as that player saw it

    def show(self, renderable: RenderableType) -> None:
        with self._lock:
            self._panel = renderable
        for screen in self._everyone():
            screen.show(renderable)

    def blank(self) -> None:
        """Nobody shares a screen, so nothing ever needs hiding."""

    def say(self, message: RenderableType) -> None:
        for screen in self._everyone():
            screen.say(message)

    def say_to_others(self, message: RenderableType, player: int) -> None:
        """To everyone but ``player`` (who is away, say)."""
        with self._lock:
            others = [s for n, s in self.seats.items() if n != player] + self._watchers
        for screen in others:
            screen.say(message)

    def ask(
        self, message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        """A pause ("Press Enter for the scores"): each player at their screen in turn
        (a line typed early answers at once). A player who has left, or presses Ctrl-C,
        does not hold the others up."""
        answer = ""
        for screen in list(self.seats.values()):
            if not getattr(screen, "present", True):
                continue
            try:
                answer = screen.ask(message, toolbar, completer)
            except (KeyboardInterrupt, EOFError, TimeoutError):
                continue
        return answer

    def page(self, renderable: RenderableType, title: str) -> None:
        for screen in self.seats.values():
            screen.page(renderable, title)
            return

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)
