"""The hosted game: its seats, its invite codes, its chat, and the game thread.

The engine runs here, in the host's process, and is the only truth: each
player's screen is drawn from that player's own view (a spectator's from the
public one), so nothing reaches a connection that its seat may not see.  The game
is saved after every move, as at one keyboard.  A seat whose player stays away
(or silent) past the grace period is given to the adviser bot, and both
players are told.  A player at another terminal who leaves (``quit``, Ctrl-D)
leaves the table, not the game: their seat waits for them as after a dropped
connection.  Only the host ends a hosted game.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import RenderableType
from rich.text import Text

from umtali.bots import Seat, make_bot
from umtali.bots.seat import Decision, GameInfo
from umtali.engine.match import Game, Session
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.engine.view import PlayerView
from umtali.host.codes import SPECTATOR, Doorman, Role
from umtali.host.options import STAND_IN, HostOptions
from umtali.host.remote import HostInterrupt, RemoteScreen, SeatGone
from umtali.store.saves import Autosaver
from umtali.ui.app import AppScreen
from umtali.ui.human import HumanSeat, Resigned
from umtali.ui.loop import TableLoop
from umtali.ui.screen import QuitGame, Screen, ask_yes
from umtali.ui.seating import seat_players, stand_in
from umtali.ui.split import SplitScreen
from umtali.ui.text import shown, visible
from umtali.ui.theme import Theme

#: The longest chat line passed on.
MAX_CHAT = 200
#: Chat lines kept for a spectator or a player who comes back.
CHAT_KEPT = 50
#: Seconds a remote player's last screen stays up for them to read, at most.
FAREWELL = 120.0


@dataclass(frozen=True, slots=True)
class Invite:
    """Who a code is for, and the code."""

    role: Role
    name: str
    code: str


class RemoteSeat(HumanSeat):
    """A person at another terminal.  Leaving (``quit``, Ctrl-D, Ctrl-C) leaves the
    table, not the game: the connection ends and the seat waits for its player's
    return, as after a dropped connection."""

    def __init__(self, host: Host, screen: RemoteScreen, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.host = host
        self.remote = screen
        self.leave_question = (
            f"Leave the table? The game goes on: your seat waits {host.patience_words()} for "
            "you to come back, then the bot plays it."
        )

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        while True:
            try:
                return super().choose(view, info)
            except QuitGame:
                self._leave()

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        while True:
            try:
                return super().choose_eleven(player, info)
            except QuitGame:
                self._leave()

    def _leave(self) -> None:
        """The player left: the table, unless the game itself is closing."""
        if self.remote.closed or self.host.stopping:
            raise QuitGame(self.name)
        self.host.leaves_table(self.remote)


class Host:
    """One game served to players at other terminals (and maybe one at this one)."""

    def __init__(
        self,
        match: Game | Session,
        players: tuple[PlayerInfo, PlayerInfo],
        theme: Theme,
        rules: RenderableType,
        paths: list[Path],
        options: HostOptions | None = None,
        *,
        seed: int | None = None,
        local: dict[int, Screen] | None = None,
        log: Callable[[str], None] = lambda line: None,
        doorman: Doorman | None = None,
        game_over: Callable[[Game, int, int | None], None] | None = None,
    ) -> None:
        """Seat ``players`` for ``match``, saved to ``paths``, hosted as ``options`` say;
        the seats in ``local`` are played at this terminal, ``seed`` seeds the bots,
        ``log`` is the host's own terminal, and ``game_over`` is told of each game that
        ends."""
        if options is None:
            options = HostOptions()
        self.match = match
        self.players = players
        self.theme = theme
        self.rules = rules
        self.log = log  # what the host's own terminal is told: joins, leaves, the end
        # Told of each game that ends (or is resigned): the host's record, if they play.
        self.game_over = game_over or (lambda game, number, resigned_by: None)
        self.grace = options.grace
        self.doorman = doorman or Doorman(log=log)
        self.invites: list[Invite] = []
        self.remote: dict[int, RemoteScreen] = {}
        self.stopping = False  # the host is stopping the game
        self._ending = False  # the game is over: comings and goings are not news
        local = local or {}
        screens: dict[int, Screen] = {}
        for number, info in enumerate(players, 1):
            if info.kind is not PlayerKind.HUMAN:
                continue
            if number in local:
                screens[number] = local[number]
                continue
            remote = RemoteScreen(
                visible(info.name), options.grace, number, options.patience, self._away
            )
            self.remote[number] = screen = remote
            screens[number] = screen
            code = self.doorman.issue(Role(number), self)
            self.invites.append(Invite(Role(number), visible(info.name), code))
        if options.spectators:
            self.invites.append(Invite(SPECTATOR, "", self.doorman.issue(SPECTATOR, self)))
        self.split = SplitScreen(screens)
        self._watchers: list[RemoteScreen] = []
        self.local = dict(local)  # the seats played at the host's own terminal
        for mine in self.local.values():
            if isinstance(mine, AppScreen):
                mine.on_idle_interrupt = self._host_interrupts
        self.chat_log: list[str] = []
        self._lock = threading.Lock()
        hints = make_bot(options.hint, None)  # the coach's own seed: the hint and the coach agree

        def person(number: int, info: PlayerInfo, across: tuple[str, str] | None) -> Seat:
            opener = self._open_rules(number)
            seat: HumanSeat
            if number in self.remote:
                seat = RemoteSeat(
                    self,
                    self.remote[number],
                    info.name,
                    screens[number],
                    hints,
                    opener,
                    theme,
                    across,
                )
            else:
                seat = HumanSeat(info.name, screens[number], hints, opener, theme, across)
            seat.chat = self.chat
            return seat

        seats = seat_players(players, person, lambda number: seed)
        humans = (players[0].kind is PlayerKind.HUMAN, players[1].kind is PlayerKind.HUMAN)
        self.saver = Autosaver(
            match,
            players,
            paths,
            warn=lambda m: self.log(m),
            tell=lambda m: self.log(m),
        )
        self.loop = TableLoop(
            self.split,
            seats,
            humans,
            theme,
            delay=options.delay,
            save=self.saver.save,
            game_over=lambda game, number: self.game_over(game, number, None),
            apart=True,
        )

    def _open_rules(self, number: int) -> Callable[[], None]:
        def open_rules() -> None:
            screen = self.split.seats.get(number)
            if screen is not None:
                screen.page(self.rules, "rules")

        return open_rules

    # ------------------------------------------------------------- talking

    def chat(self, name: str, text: str) -> None:
        """A ``say`` line, to everyone at the table (players and spectators)."""
        line = f"{visible(name)}: {visible(text)[:MAX_CHAT]}"
        with self._lock:
            self.chat_log.append(line)
            del self.chat_log[:-CHAT_KEPT]
        self.split.say(Text(line, "magenta"))
        self.log(f"chat  {line}")

    def patience_words(self) -> str:
        """How long a seat waits for its player, in words."""
        return f"{round(self.grace / 60)} min" if self.grace >= 60 else f"{self.grace:g} s"

    def _away(self, number: int, name: str) -> None:
        message = shown(
            f"Waiting for {name} (up to {self.patience_words()}, then a bot takes the seat; "
            "the game is saved).",
            "yellow",
        )
        self.split.say_to_others(message, number)
        self.log(f"waiting for {name}")

    def joined(self, number: int | None, name: str, again: bool = False) -> None:
        who = name if number is not None else "A spectator"
        self.log(f"{who} joined" + (" again, from a new connection" if again else ""))
        if number is not None:
            self.split.say(shown(f"{who} is at the table.", "green"))

    def left(
        self,
        number: int | None,
        name: str,
        dropped: bool = False,
        stopped: bool = False,
        closed: bool = False,
    ) -> None:
        """A connection ended: a spectator's, or a player's (``dropped``: cut off;
        ``closed``: the client closed it, as a terminal window that is shut; neither:
        left by choice).  The other players are told at once."""
        who = name if number is not None else "A spectator"
        if stopped or self._ending or self.stopping:
            return  # the game ended: nobody is leaving it
        if number is None:
            self.log(f"{who} left")
            return
        if self.remote[number].closed:  # the bot has the seat: nothing waits for them
            self.log(f"{who} left: the bot plays their seat.")
            return
        if dropped:
            message = f"{who}'s connection dropped: their seat waits for them."
        elif closed:
            message = f"{who} closed the connection: their seat waits for them."
        else:
            message = f"{who} left the table: their seat waits for them."
        self.log(message)
        self.split.say_to_others(shown(message, "yellow"), number)

    def leaves_table(self, screen: RemoteScreen) -> None:
        """A remote player chose to leave: their connection ends, the game goes on."""
        screen.leave(
            f"You left the table. The game goes on: the same ssh command brings you back "
            f"to your seat within {self.patience_words()}; after that the bot plays it."
        )

    def watch(self, screen: RemoteScreen, most: int) -> bool:
        """A spectator joins, if fewer than ``most`` watch already."""
        with self._lock:
            if len(self._watchers) >= most or self._ending or self.stopping:
                return False
            self._watchers.append(screen)
        self.split.watch(screen)
        return True

    def unwatch(self, screen: RemoteScreen) -> None:
        with self._lock:
            if screen in self._watchers:
                self._watchers.remove(screen)
        self.split.unwatch(screen)

    def stop(self) -> None:
        """The host stops the game (Ctrl-C at the host's console): everyone is told, and
        every connection ends; the game is saved as it stands."""
        if self.stopping:
            return
        self.stopping = True
        words = "The host stopped the game. It is saved: the host can resume it."
        self.split.say(shown(words, "bold"))
        with self._lock:
            watchers = list(self._watchers)
        for screen in [*self.remote.values(), *watchers]:
            screen.close(words)

    # ---------------------------------------------------------------- play

    def play(self) -> tuple[int, list[str]]:
        """Play the match to its end (in the game thread); the exit code and the last
        words for the host's terminal."""
        try:
            self.saver.save()
            while True:
                try:
                    self.loop.play(self.match)
                except HostInterrupt:
                    self._leave_or_stay()
                    continue
                except SeatGone as gone:
                    self._stand_in(gone)
                    if not any(self.loop.humans):
                        words = "Nobody is left at the table. The game is saved."
                        self._end(words + " umtali resume hosts it again.")
                        return 0, [words, "umtali resume hosts it again."]
                    continue
                break
        except QuitGame as gone:
            # Said to every seat, a guest with nothing but ssh too: the game is kept on
            # the host's computer, and only the host can start it again.
            kept = "It is saved on the host's computer: umtali resume there hosts it again."
            if self.stopping:
                words = f"The host stopped the game. {kept}"
            else:
                who = visible(str(gone.args[0])) if gone.args else "A player"
                words = f"{who} left the game. {kept}"
            self._end(words)
            return 0, [words]
        except Resigned as gave_up:
            game = self.match.game if isinstance(self.match, Session) else self.match
            number = len(self.match.games) if isinstance(self.match, Session) else 1
            self.game_over(game, number, gave_up.player)
            name = visible(self.players[gave_up.player - 1].name)
            self._end(f"{name} resigned.")
            return 0, [f"{name} resigned."]
        except Exception as err:  # never a traceback at the host's or a player's terminal
            words = f"The game stopped ({type(err).__name__}: {err}). It is saved."
            self._end(words)
            return 1, [words]
        finally:
            self.saver.close()
        words = f"The game is over. {self.result_words()}"
        self._end(words + " Thank you for playing.")
        return 0, [words]

    def result_words(self) -> str:
        """The final score, in words: each player's points, and who won."""
        names = [visible(p.name) for p in self.players]
        if isinstance(self.match, Session):
            wins = self.match.wins
            winner = self.match.winner
            score = f"Games won: {names[0]} {wins[0]}, {names[1]} {wins[1]}."
        else:
            totals = self.match.totals
            winner = self.match.winner
            score = f"{names[0]} {totals[0]}, {names[1]} {totals[1]}."
        return score + (f" {names[winner - 1]} wins." if winner else "")

    def _host_interrupts(self) -> None:
        """Ctrl-C at the host's own seat while the game waits on another terminal."""
        for screen in self.remote.values():
            screen.step_aside()

    def _leave_or_stay(self) -> None:
        """Ask the host, at their own seat, whether to leave (the game is saved)."""
        for number, screen in self.local.items():
            if ask_yes(
                screen, "Leave the game? It is saved, and the others are told.", interrupted=True
            ):
                raise QuitGame(visible(self.players[number - 1].name))
            return

    def _stand_in(self, gone: SeatGone) -> None:
        number = gone.seat
        bot = stand_in(self.players[number - 1])
        self.loop.replace_seat(number, bot, STAND_IN.name)
        message = f"{gone}: the {STAND_IN.name} bot plays {gone.name}'s seat from now on."
        self.split.say(shown(message, "yellow"))
        self.split.seats.pop(number, None)
        # If that player is still connected, they read it (the game is not over for the
        # others), and then their table closes.
        screen = self.remote[number]
        if screen.given_up:
            words = "The host gave your seat to the bot: the game goes on without you."
        else:
            words = "The bot plays your seat now: the game goes on without you."
        threading.Thread(target=screen.hand_over, args=(words,), daemon=True).start()
        self.log(message)

    def _end(self, words: str) -> None:
        """Tell everyone how it ended; each remote player leaves with Enter (or after
        a while), and no code opens anything any more."""
        self._ending = True
        self.doorman.revoke(self)
        self.split.say(shown(words, "bold"))
        partings = [
            threading.Thread(target=screen.farewell, daemon=True) for screen in self.remote.values()
        ]
        for parting in partings:
            parting.start()
        for parting in partings:
            parting.join(timeout=FAREWELL + 5)
