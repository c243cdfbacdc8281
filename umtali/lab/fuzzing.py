"""Typing hostile lines at the real prompt: nothing a player types may break a game.

A fuzzed game is a real game (the real prompt, reading a pipe; the real table loop;
a bot opponent) in which the human seat types random and adversarial lines at its
prompts: square brackets, cards named twice, control characters and escape
sequences, long lines, words from every variant, nonsense.  Between them it plays
what a bot would, so the game moves on and ends.  A *crash* is anything but the
game ending; a *hang* is a game that no longer ends; an *escape* is a control
character reaching the screen (only a player's own text could put one there).

The test suite plays a few short seeded games; ``umtali bench fuzz`` plays many.
"""

from __future__ import annotations

import io
import random
import string
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from prompt_toolkit import PromptSession
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.output import DummyOutput
from rich.console import Console, RenderableType

from umtali.bots import NormalBot
from umtali.bots.seat import GameInfo
from umtali.engine.match import Game
from umtali.engine.rules import PRESETS
from umtali.ui.app import AppScreen
from umtali.ui.gate import LOCAL, GatedInput
from umtali.ui.human import HumanSeat, QuitGame
from umtali.ui.loop import TableLoop
from umtali.ui.screen import LineScreen, Screen
from umtali.ui.theme import Theme

_COMMANDS = "draw take take2 2 next end meld play discard down on all hint help score undo"
_ALIASES = "rules x m p d t e tn a h ? scores"
_CARDS = "AS 10h T♥ qd JC 9S 2c K♦ a♠ 10 1S 11H ZZ ♠ AA 0D 10X"
_MARKUP = "[/] [bold] [red]x[/red] [/red] [link=http://x] [#ff0000] \\[ ]"
WORDS = [
    *f"{_COMMANDS} {_ALIASES} {_CARDS} {_MARKUP}".split(),
    "\x1b[31m",
    "\x1b]0;pwned\x07",
    "\x1b]52;c;ZWNobyBoaQ==\x07",
    "\x00",
    "\x08",
    "\x7f",
    "\t",
    "\x0c",
    "\x1b",
    "\x1bb",
    "\u202e",
    "\ufeff",
    "Zoë",
    "名前",
    "%s",
    "{}",
    "'",
    '"',
    "\\",
    "-1",
    "1e309",
    "nan",
]
# Never typed: Enter ends the line early; Ctrl-C asks to leave and Ctrl-D on an empty
# line leaves (as they should); Ctrl-Z would stop the process running the fuzz; and
# quoted insert (Ctrl-V, Ctrl-Q), search (Ctrl-R, Ctrl-S), character search (Ctrl-])
# and the Ctrl-X prefix take the Enter that follows as their own, so the line goes on
# until a person presses Enter again.
_NEVER = set("\r\n\x03\x04\x1a\x16\x11\x12\x13\x1d\x18")
_PRINTABLE = string.printable.replace("\r", "").replace("\n", "").replace("\x0b", "")


#: Keys pressed on an open page (help, rules) before q closes it.
PAGE_KEYS = [
    " ",
    "j",
    "k",
    "g",
    "G",
    "b",
    "x",
    "7",
    "\x1b[A",
    "\x1b[B",
    "\x1b[5~",
    "\x1b[6~",
    "\x1b[H",
    "\x1b[F",
    "\t",
    "\x1b[200~help\x1b[201~",
]


def hostile_line(rng: random.Random) -> str:
    """One line a careless or hostile player might type."""
    roll = rng.random()
    if roll < 0.04:
        return "".join(rng.choice(_PRINTABLE) for _ in range(rng.randint(300, 3000)))
    if roll < 0.08:
        return "".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 12)))
    if roll < 0.12:
        card = rng.choice(["AS", "10h", "QS", "5c"])
        return " ".join([card] * rng.randint(2, 4))
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 5))]
    return rng.choice([" ", "", "  ", ","]).join(words)


def _clean(line: str) -> str:
    return "".join(ch for ch in line if ch not in _NEVER)


class ScriptedSession(PromptSession[str]):
    """A real PromptSession whose answers come from ``answer``, one line per prompt.

    If a prompt is still waiting ``patience`` seconds after its line was sent, Enter is
    pressed again (as a person would), and :attr:`nudges` counts it.
    """

    def __init__(
        self, pipe: PipeInput, answer: Callable[[str], str], patience: float = 5.0
    ) -> None:
        super().__init__(input=pipe, output=DummyOutput())
        self.pipe = pipe
        self.answer = answer
        self.patience = patience
        self.nudges = 0

    def prompt(self, message: object = "", **kwargs: object) -> str:
        self.pipe.send_text(self.answer(str(message)))
        # An exception inside a key binding must surface as a crash, not be printed
        # by prompt_toolkit, which then waits for an Enter that a pipe never sends.
        kwargs.setdefault("set_exception_handler", False)
        answered = threading.Event()

        def nudge() -> None:
            while not answered.wait(self.patience):
                self.nudges += 1
                self.pipe.send_text("\r")

        watchdog = threading.Thread(target=nudge, daemon=True)
        watchdog.start()
        try:
            return super().prompt(message, **kwargs)  # type: ignore[arg-type]
        finally:
            answered.set()
            watchdog.join()


@dataclass
class FuzzReport:
    games: int = 0
    lines: int = 0  # hostile lines typed
    prompts: int = 0
    crashes: list[str] = field(default_factory=list)
    hangs: int = 0
    nudges: int = 0  # prompts that needed Enter pressed again
    escapes: int = 0  # control characters that reached the screen
    seconds: float = 0.0
    slowest_line_s: float = 0.0

    def add(self, other: FuzzReport) -> None:
        self.games += other.games
        self.lines += other.lines
        self.prompts += other.prompts
        self.crashes += other.crashes
        self.hangs += other.hangs
        self.nudges += other.nudges
        self.escapes += other.escapes
        self.seconds += other.seconds
        self.slowest_line_s = max(self.slowest_line_s, other.slowest_line_s)


def fuzz_game(
    seed: int, per_prompt: int = 3, variant: str = "classic", app: bool = False
) -> FuzzReport:
    """Play one game against the bot typing up to ``per_prompt`` hostile lines at each
    of the person's prompts before a real move: on the line-by-line screen, or with
    ``app`` in the full-screen application (its keys through a pipe)."""
    rng = random.Random(seed)
    report = FuzzReport(games=1)
    console = Console(width=80, height=24, color_system=None, file=io.StringIO())
    advisor = NormalBot()
    seat: HumanSeat | None = None
    pending = [0]  # hostile lines still to type at this prompt
    started = [0.0]
    budget = 20_000  # prompts: a game that needs more has hung

    def answer(message: str) -> str:
        now = time.perf_counter()
        if started[0]:
            report.slowest_line_s = max(report.slowest_line_s, now - started[0])
        started[0] = now
        report.prompts += 1
        if report.prompts > budget:
            raise _Hung
        view = None if seat is None else seat.asking
        if view is not None:  # the seat's move prompt
            if pending[0] == 0:
                pending[0] = rng.randint(0, per_prompt)
                if not pending[0]:
                    return f"{advisor.choose(view, GameInfo()).action}\r"
            pending[0] -= 1
            report.lines += 1
            return _clean(hostile_line(rng)) + "\r"
        # Any other question: no to a yes/no one (leave? resign?), and at a pause or
        # the dealer's question a word that does what Enter does.
        return "n\r"

    start = time.perf_counter()
    game = Game(variant, seed=seed)

    def play(screen: Screen) -> None:
        nonlocal seat
        seat = HumanSeat("Ann", screen, NormalBot(), lambda: None)
        loop = TableLoop(screen, [seat, NormalBot()], (True, False), Theme(), delay=0)
        try:
            loop.play_game(game)
        except _Hung:
            report.hangs += 1
        except QuitGame:
            report.crashes.append(f"seed {seed}: the game was left")
        except Exception as err:  # what the fuzz is here to find
            report.crashes.append(f"seed {seed}: {type(err).__name__}: {err}")
        else:
            if not game.is_over:
                report.crashes.append(f"seed {seed}: the loop returned before the game ended")

    with GatedInput(lines=LOCAL) as pipe:
        if app:
            report.nudges = _in_app(pipe, answer, play, seed, report, console)
        else:
            session = ScriptedSession(pipe, answer)
            play(LineScreen(console, session, Theme()))
            report.nudges = session.nudges
    report.seconds = time.perf_counter() - start
    output = console.file.getvalue()  # type: ignore[attr-defined]
    report.escapes = sum(output.count(ch) for ch in ("\x1b", "\x07", "\x00", "\x08"))
    return report


def _in_app(
    pipe: GatedInput,
    answer: Callable[[str], str],
    play: Callable[[Screen], None],
    seed: int,
    report: FuzzReport,
    console: Console,
    patience: float = 5.0,
) -> int:
    """Play in the full-screen application, its keys typed into ``pipe`` as each
    question is asked; returns how many questions needed Enter pressed again.
    Every message the app shows is also printed on ``console``, where the escapes
    are counted."""
    output = DummyOutput()
    asked = [0]  # questions asked so far
    nudges = [0]
    done = threading.Event()

    rng = random.Random(seed)

    def type_answer(kind: str, words: str) -> None:
        asked[0] += 1
        if kind == "page":  # a few keys of any kind, then q, as a person leaves a page
            keys = "".join(rng.choice(PAGE_KEYS) for _ in range(rng.randint(0, 6)))
            pipe.send_text(_clean(keys) + "q")
        else:
            pipe.send_text(answer(words))

    def nudge() -> None:
        seen = -1
        while not done.wait(patience):
            if asked[0] == seen and (screen.asking or screen.page_open):
                nudges[0] += 1
                pipe.send_text("q\r" if screen.page_open else "\r")
            seen = asked[0]

    with create_app_session(input=pipe, output=output):
        screen = AppScreen(Theme(), None, input=pipe, output=output, on_wait=type_answer)
        shown = screen.say

        def say(message: RenderableType) -> None:
            console.print(message)
            shown(message)

        screen.say = say  # type: ignore[method-assign]
        watchdog = threading.Thread(target=nudge, daemon=True)
        watchdog.start()
        try:
            screen.run(lambda: play(screen))
        except Exception as err:  # the application itself failed
            report.crashes.append(f"seed {seed}: the app: {type(err).__name__}: {err}")
        finally:
            done.set()
            watchdog.join()
    return nudges[0]


class _Hung(Exception):
    """A fuzzed game ran past its budget of prompts."""


def fuzz(games: int, seed: int = 1, per_prompt: int = 3, app: bool = False) -> FuzzReport:
    """Fuzz ``games`` games, the variants taking turns."""
    total = FuzzReport()
    variants = tuple(PRESETS)
    for n in range(games):
        total.add(fuzz_game(seed + n, per_prompt, variants[n % len(variants)], app))
    return total


__all__ = ["FuzzReport", "ScriptedSession", "fuzz", "fuzz_game", "hostile_line"]
