"""Driving the real prompt and table loop through a pipe, as if a person were typing."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console

import umtali
from umtali.bots import NormalBot
from umtali.bots.seat import GameInfo
from umtali.engine.view import PlayerView
from umtali.lab.fuzzing import ScriptedSession
from umtali.ui.gate import LOCAL, GatedInput
from umtali.ui.human import HumanSeat
from umtali.ui.loop import TableLoop
from umtali.ui.screen import LineScreen
from umtali.ui.theme import Theme

Feeder = Callable[[str], str]


class TypingSession(ScriptedSession):
    """The real prompt, its keystrokes from a feeder, remembering what it was asked."""

    def __init__(self, pipe: GatedInput, feeder: Feeder) -> None:
        super().__init__(pipe, self._asked)
        self.feeder = feeder
        self.prompts: list[str] = []
        self.toolbars: list[tuple[str, object]] = []
        self._options: dict[str, object] = {}

    def _asked(self, message: str) -> str:
        self.prompts.append(message)
        # What the prompt shows: prompt(bottom_toolbar=None) keeps the session's last one.
        given = self._options.get("bottom_toolbar")
        self.toolbars.append((message, given if given is not None else self.bottom_toolbar))
        return self.feeder(message)

    def prompt(self, message: object = "", **kwargs: object) -> str:  # type: ignore[override]
        self._options = kwargs
        return super().prompt(message, **kwargs)


def recording_console() -> Console:
    return Console(width=80, height=24, record=True, color_system=None, file=io.StringIO())


ViewOf = Callable[[str], "PlayerView | None"]


def table(  # type: ignore[no-untyped-def]
    feeder_for: Callable[[ViewOf], Feeder],
    hotseat: bool = False,
    save: Callable[[], None] | None = None,
    game_over: Callable[[umtali.Game, int], None] | None = None,
    screen_type: type[LineScreen] = LineScreen,
):
    console = recording_console()
    pipe_cm = GatedInput(lines=LOCAL)
    pipe = pipe_cm.__enter__()
    by_name: dict[str, HumanSeat] = {}

    def view_of(prompt: str) -> PlayerView | None:
        return by_name[prompt[:-2]]._view  # the prompt is "<name>> "

    session = TypingSession(pipe, feeder_for(view_of))
    screen = screen_type(console, session, Theme(), sleep=lambda s: None)
    across = None if hotseat else ("Bot", "normal")
    seat = HumanSeat("Ann", screen, NormalBot(), lambda: console.print("RULES"), Theme(), across)
    by_name["Ann"] = seat
    if hotseat:
        other = HumanSeat("Ben", screen, NormalBot(), lambda: None)
        by_name["Ben"] = other
        seats = [seat, other]
        humans = (True, True)
    else:
        bot = umtali.bots.make_bot("normal")
        bot.name = "Bot"
        seats = [seat, bot]
        humans = (True, False)
    loop = TableLoop(screen, seats, humans, Theme(), delay=0, save=save, game_over=game_over)
    return loop, console, session, pipe_cm


def scripted_player(extra: list[str]) -> Callable[[ViewOf], Feeder]:
    """Type each line of ``extra`` at the first move prompts, then play as the bot would."""
    pending = list(extra)
    advisor = NormalBot()

    def make(view_of: ViewOf) -> Feeder:
        def feed(message: str) -> str:
            if message.endswith("> "):
                if pending:
                    return pending.pop(0) + "\r"
                view = view_of(message)
                assert view is not None
                return f"{advisor.choose(view, GameInfo()).action}\r"
            if "[y/N]" in message:
                return (pending.pop(0) if pending else "n") + "\r"
            return "\r"  # Enter at every pause and for the dealer's choice

        return feed

    return make
