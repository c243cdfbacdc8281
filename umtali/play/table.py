"""Starting a table: choose the screen, seat the players, play, save, and say goodbye.

The command line calls these once it has read its arguments and found the
game; they return the exit code.  What is said as the program ends (the game
is saved, or why it is not) is printed after the full-screen application has
left the terminal, so it stays in the terminal for the player to read.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.output import DummyOutput
from rich.console import Console, RenderableType
from rich.text import Text

from umtali.bots import Seat
from umtali.engine.match import Game, Session
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.store.door import FileRefused
from umtali.store.profile import (
    GameMode,
    add_game,
    entry_for,
    environ_clock,
    game_id,
    profile_path,
)
from umtali.store.saves import Autosaver, games_dir
from umtali.ui.app import AppScreen
from umtali.ui.app_keys import Watching
from umtali.ui.gate import GatedInput
from umtali.ui.human import HumanSeat, Resigned
from umtali.ui.loop import TableLoop
from umtali.ui.screen import QuitGame, Screen
from umtali.ui.seating import bots_watched, hint_bot, seat_players
from umtali.ui.spoken import SpokenScreen
from umtali.ui.text import rows_keeping_commands, shown, visible
from umtali.ui.theme import Theme

#: A result, and the last words to print once the screen is the terminal's again.
Outcome = tuple[int, list[str]]


def is_dumb(env: Mapping[str, str]) -> bool:
    """Whether the terminal cannot draw a full screen (it moves no cursor): the
    table is then printed line by line, as with --plain."""
    return env.get("TERM", "") in ("dumb", "unknown")


def say_last_words(console: Console, words: list[str]) -> None:
    """The words left on the terminal as the program ends, each line broken between
    words but never inside a command shown to type (``umtali stats``)."""
    for line in words:
        for row in rows_keeping_commands(line, console):
            console.print(row, highlight=False, markup=False, soft_wrap=True)


def make_screen(
    plain: bool,
    theme: Theme,
    show_rules: Callable[[Console], None],
    watching: Watching | None = None,
) -> tuple[Screen, Callable[[Callable[[], Outcome]], int]]:
    """The screen to play on, and how to run a game on it: the full-screen
    application, or with ``plain`` the table printed between prompts."""
    console = Console()

    def farewell(outcome: Outcome) -> int:
        code, words = outcome
        say_last_words(console, words)
        return code

    if plain or is_dumb(os.environ):
        keys = GatedInput.terminal()
        piped = not keys.from_terminal  # a script's lines: nothing drawn, all printed
        # Ctrl-Z suspends the game, as in any terminal program; fg brings it back.
        session: PromptSession[str] = PromptSession(
            enable_suspend=not piped, input=keys, output=DummyOutput() if piped else None
        )
        line = SpokenScreen(console, session, theme, rules=lambda: show_rules(console), echo=piped)
        return line, lambda body: farewell(body())
    app = AppScreen(theme, console.color_system, watching)
    return app, lambda body: farewell(app.run(body))


def play_table(
    plain: bool,
    theme: Theme,
    rules: RenderableType,
    show_rules: Callable[[Console], None],
    players: tuple[PlayerInfo, PlayerInfo],
    match: Game | Session,
    paths: list[Path],
    seed: int | None,
    delay: float,
    daily: str = "",
) -> int:
    """Seat the players, save after every move to ``paths``, and play ``match`` on;
    each game that ends (or is resigned) goes into the profile, once."""
    screen, run = make_screen(plain, theme, show_rules)
    hints = hint_bot()

    def open_rules() -> None:
        screen.page(rules, "rules")

    def person(number: int, info: PlayerInfo, across: tuple[str, str] | None) -> Seat:
        return HumanSeat(info.name, screen, hints, open_rules, theme, across)

    seats = seat_players(players, person, lambda number: seed)
    humans = (players[0].kind is PlayerKind.HUMAN, players[1].kind is PlayerKind.HUMAN)
    saver = Autosaver(
        match,
        players,
        paths,
        warn=lambda m: screen.say(shown(m, "yellow")),
        tell=lambda m: screen.say(shown(m, "green")),
    )

    discard = False  # a game left before its first move is not kept
    to_profile = Recorder(players, paths[0], daily, screen.say)

    def body() -> Outcome:
        nonlocal discard
        saver.save()
        loop = TableLoop(
            screen,
            seats,
            humans,
            theme,
            delay=delay,
            save=saver.save,
            game_over=to_profile,
            daily=bool(daily),
        )
        try:
            loop.play(match)
        except QuitGame:
            if all(humans):
                screen.blank()  # hot seat: the quitting player's hand stays on no screen
            if not any(hand.played() for game in _games(match) for hand in game.hands):
                # Nothing was played: resume would only offer the same deal back, and the
                # games folder would fill with games nobody began.
                discard = True
                return 0, ["You left the game before its first move, so it was not kept."]
            return _leave(saver, screen, paths[0])
        except Resigned as gave_up:
            if all(humans):
                screen.blank()
            game = match.game if isinstance(match, Session) else match
            to_profile(game, len(match.games) if isinstance(match, Session) else 1, gave_up.player)
            name = players[gave_up.player - 1].name
            # The record stays, to be looked at again; resume leaves it out (the profile
            # says it was resigned: umtali.store.resumable).
            saver.save()
            gave = f"{name} resigned: the game counts as a loss in the record (umtali stats)."
            if not saver.saved:
                return 0, [gave, f"Its record could not be saved ({_reasons(saver)})."]
            return 0, [gave, *record_words(paths[0])]
        names = (visible(players[0].name), visible(players[1].name))
        words = result_words(match, names)
        if saver.saved:
            return 0, [*words, *record_words(paths[0]), *to_profile.words()]
        words += to_profile.words()
        return 1, [*words, f"The finished game could not be saved ({_reasons(saver)})."]

    try:
        return run(body)
    finally:
        saver.close(discard=discard)


def watch_table(
    plain: bool,
    theme: Theme,
    levels: tuple[str, str],
    match: Game | Session,
    seed: int | None,
    delay: float,
) -> int:
    """Two bots play while a person watches from the first bot's seat (nothing saved)."""
    watching = None if plain else Watching()
    screen, run = make_screen(plain, theme, lambda console: None, watching)
    watched = bots_watched(levels)
    seats = seat_players(watched, _no_person, lambda n: None if seed is None else seed + n)

    def body() -> Outcome:
        seat = (lambda: watching.seat) if watching is not None else (lambda: 1)
        loop = TableLoop(screen, seats, (False, False), theme, delay=delay, watcher=seat)
        try:
            loop.play(match)
        except QuitGame:
            return 0, ["You stopped watching."]
        # The result stays on the terminal once the table has gone, as after a game played.
        return 0, result_words(match, (visible(watched[0].name), visible(watched[1].name)))

    return run(body)


def _no_person(number: int, info: PlayerInfo, across: tuple[str, str] | None) -> Seat:
    raise ValueError("only bots play a watched game")


class Recorder:
    """Adds a game that ended (or was resigned by a player) to the profile, under its
    saved ``record``'s id; if the profile cannot be written (or read whole: a FIFO, a
    file too large), it says so, once, and the game goes on."""

    def __init__(
        self,
        players: tuple[PlayerInfo, PlayerInfo],
        record: Path,
        daily: str,
        say: Callable[[Text], None],
        profile: Path | None = None,
        mode: GameMode | None = None,
        you: int | None = None,
    ) -> None:
        self.players = players
        self.record = record
        self.daily = daily
        self.say = say
        self.profile = profile
        self.mode = mode  # NET for a hosted game; else from who sits where
        self.you = you  # the owner's seat, where it is not the first person's
        self._said: set[str] = set()  # each problem is said once, not after every game
        self.added = 0  # games added to the profile

    def __call__(self, game: Game, number: int, resigned_by: int | None = None) -> None:
        when = environ_clock()
        the_id = game_id(self.record, number)
        entry = entry_for(
            game, self.players, the_id, when, resigned_by, self.daily, self.mode, self.you
        )
        try:
            add_game(entry, self.profile)
            self.added += 1
        except (OSError, FileRefused) as err:
            why = err.reason if isinstance(err, FileRefused) else err.strerror or str(err)
            where = self.profile or profile_path()
            line = f"This game could not be added to your record in {where} ({why})."
            if line not in self._said:
                self._said.add(line)
                self.say(shown(line, "yellow"))

    def words(self) -> list[str]:
        """Where the games went, for the last words: the profile and ``umtali stats``,
        or why a game could not be added."""
        said = sorted(self._said)
        if self.added and not said:
            games = "The game was" if self.added == 1 else f"The {self.added} games were"
            where = self.profile or profile_path()
            return [f"{games} added to your record in {where}: umtali stats shows it."]
        return said


def result_words(match: Game | Session, names: tuple[str, str]) -> list[str]:
    """The result of each finished game in ``match`` and its scores hand by hand, as
    lines to leave on the terminal (no card in them: a hot-seat player may read them)."""
    games = match.games if isinstance(match, Session) else [match]
    lines: list[str] = []
    for number, game in enumerate(games, 1):
        if not game.is_over:
            continue
        winner, totals = game.winner, game.totals
        if winner is None:  # a game over has a winner; a tie plays on
            continue
        won = winner - 1
        lines.append(
            f"Game {number} is over: {names[won]} won, {totals[won]} to {totals[1 - won]}."
        )
        for hand, (a, b) in enumerate((r.scores for r in game.results), 1):
            lines.append(f"  Hand {hand}: {names[0]} {a}, {names[1]} {b}.")
    if isinstance(match, Session) and match.is_over:
        wins = match.wins
        lines.append(
            f"{names[(match.winner or 1) - 1]} won the session, {max(wins)} games to {min(wins)}."
        )
    return lines


def record_words(record: Path) -> list[str]:
    """Where a finished game's record is, and the commands that open it: by its name
    alone where it is in the games folder (as those commands take it)."""
    name = record_name(record)
    return [
        visible(f"The game is saved in {record}:"),
        visible(f"  umtali replay {name}   shows it again,"),
        visible(f"  umtali review {name}   goes over its decisions with the coach."),
    ]


def record_name(record: Path) -> str:
    """How a command names ``record``: its name alone where it is in the games folder
    (resume, replay and review find it there), else its path, quoted for a shell."""
    return record.stem if record.parent == games_dir() else shlex.quote(str(record))


def _games(match: Game | Session) -> list[Game]:
    return match.games if isinstance(match, Session) else [match]


def _reasons(saver: Autosaver) -> str:
    return "; ".join(f"{path}: {why}" for path, why in saver.problems.items())


def _leave(saver: Autosaver, screen: Screen, record: Path) -> Outcome:
    """Leaving mid-game: save, and say truthfully whether it worked (offering retries)."""
    while True:
        saver.save()
        if saver.saved:
            # Named: with several games saved, resume alone only lists them.
            resume = visible(f"umtali resume {record_name(record)}")
            return 0, [f"You left the game. It is saved: {resume} continues it."]
        screen.say(shown(f"The game could not be saved ({_reasons(saver)}).", "bold red"))
        try:
            answer = screen.ask(
                "Press Enter to try again, or type 'lose' to leave without saving: "
            )
        except (KeyboardInterrupt, EOFError):
            answer = "lose"
        if answer.strip().lower() == "lose":
            return 1, [
                f"The game could not be saved ({_reasons(saver)}).",
                "You left the game. It was not saved.",
            ]
