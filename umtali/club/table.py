"""A club game at a member's screen: load it, show it, take one decision, store it.

Nothing of the game lives between two decisions: each pass of :func:`open_game` loads
the stored game, shows the table as the member's seat sees it (a spectator's: public
cards only) with what happened since they last looked, and then either asks for their
decision and stores it (:meth:`Club.play`), or waits, prompt open for chat, until the
game changes (the hub wakes the prompt) or the member goes back to the lobby.

Against another member a turn is the member's moves one by one, each stored as it is
made, so the opponent, if connected, sees it at once.  Undo is as at home: against a
bot, within the turn; between two people, never.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from prompt_toolkit.completion import WordCompleter
from rich.text import Text

from umtali.bots import make_bot
from umtali.club import games
from umtali.club.club import Club
from umtali.club.games import ClubGameError, News, Stale, Stored
from umtali.club.members import Member
from umtali.engine.errors import IllegalAction
from umtali.engine.match import Session
from umtali.engine.progress import SPECTATOR, Asked, Deal, Decision, Move, Progress, Undo
from umtali.engine.view import public_view
from umtali.ui.answers import Resigned, UndoRequest
from umtali.ui.human import HumanSeat
from umtali.ui.narrate import phrase
from umtali.ui.render import TableInfo, render_game_end, render_hand_end
from umtali.ui.rulebook import RuleBook
from umtali.ui.screen import QuitGame, Screen, ask_yes
from umtali.ui.spoken import SpokenScreen
from umtali.ui.text import as_sentence, shown, visible
from umtali.ui.theme import DEFAULT_THEME, Theme

#: Words that leave a table for the lobby, at any prompt of it.
LEAVE_WORDS = ("lobby", "leave", "quit", "q", "back")


class Changed(Exception):
    """The game changed while its member waited (a move, a chat line): look again."""


#: Subscribes to a game's changes: ``watch(game_id, callback)`` returns the unsubscribe.
Watch = Callable[[int, Callable[[int], None]], Callable[[], None]]


@dataclass
class Sitting:
    """A member (or spectator) at one club game's table."""

    club: Club
    member: Member
    screen: Screen
    game_id: int
    watch: Watch | None = None
    theme: Theme = DEFAULT_THEME
    spectator: bool = False

    # ------------------------------------------------------------ the loop

    def run(self) -> None:
        """Show the game and take the member's decisions until they leave it."""
        unwatch = self.watch(self.game_id, self._wake) if self.watch is not None else None
        try:
            while self._one_pass():
                pass
        finally:
            if unwatch is not None:
                unwatch()

    def _wake(self, game_id: int) -> None:
        """The hub says the game changed: the open prompt gives way, so the table is
        shown afresh; not for a change already shown (the hub's poll finds this
        process's own changes again), so a line being typed is not cut for nothing."""
        answer = getattr(self.screen, "answer", None)
        if answer is None or not self._waiting or self._marks() == self._shown:
            return
        answer(Changed())

    def _marks(self) -> tuple[int, int]:
        """What changes a game's table: its decisions, and its chat."""
        with self.club.db.transaction(read_only=True) as tx:
            row = tx.one(
                "SELECT g.seq, (SELECT COALESCE(MAX(c.id), 0) FROM chat c WHERE c.game_id = g.id)"
                " FROM games g WHERE g.id = ?",
                (self.game_id,),
            )
        return (int(row[0]), int(row[1])) if row else (0, 0)

    _waiting = False
    _shown: tuple[int, int] = (-1, -1)  # the game's marks when its table was last shown
    _person: HumanSeat | None = None

    def __post_init__(self) -> None:
        self._carried: list[Text] = []
        self._chat_said = 0  # the last chat line shown

    def _one_pass(self) -> bool:
        """Load, show, decide or wait; False once the member leaves the table."""
        stored = self.club.game(self.game_id)
        seat = None if self.spectator else stored.seat_of(self.member.id)
        if seat is None and not self.spectator:
            raise ClubGameError("You do not play in that game.")
        progress = stored.progress()
        names = _names(progress)
        viewer = seat if seat is not None else SPECTATOR
        note, events = self._news(stored, progress, viewer, names)
        self._show(stored, progress, viewer, names, note)
        for line in events:  # what no move log shows: a bot's turn for a member, an end
            self.screen.say(Text(line, "yellow"))
        for said in self._carried:  # why the last decision was not stored, said again
            self.screen.say(said)
        self._carried = []
        asked = progress.pending()
        if stored.over or asked.kind is Asked.OVER:
            return self._ended(stored, progress, names)
        mine = (
            seat is not None
            and asked.player == seat
            and asked.bot is None
            and stored.to_move == self.member.id
        )
        if not mine or seat is None:
            return self._wait(stored, progress, names, seat)
        return self._decide(stored, progress, names, seat)

    # ----------------------------------------------------------- showing

    def _news(self, stored: Stored, progress: Progress, viewer: int,
              names: tuple[str, str]) -> tuple[Text | None, list[str]]:  # fmt: skip
        """What happened since the member last looked: the moves in one line, and the
        game's other events (a turn the bot played for a member, its end) in lines."""
        club = self.club
        if self.spectator:
            return None, []
        with club.db.transaction(read_only=True) as tx:
            since = games.last_seen(tx, self.member.id, stored.id)
            news = games.news_since(tx, stored, progress, viewer, since)
        if since < stored.seq:  # the write lock only when there is something new
            club.seen(self.member.id, stored.id, stored.seq)
        return _told(news, viewer, names, self.theme), _happened(news, viewer, names)

    def _show(self, stored: Stored, progress: Progress, viewer: int,
              names: tuple[str, str], note: Text | None) -> None:  # fmt: skip
        hand = progress.hand
        if hand is None:
            self.screen.show(Text(f"Game {stored.id}: {names[0]} against {names[1]}; "
                                  "the first hand is not dealt yet."))  # fmt: skip
        else:
            info = progress.pending().info
            table = TableInfo(
                (visible(names[0]), visible(names[1])),
                info.totals,
                info.hand_number,
                progress.game_number,
                "watched" if viewer == SPECTATOR else "you",
            )
            view = public_view(hand.view(1)) if viewer == SPECTATOR else hand.view(viewer)
            self.screen.table(view, table, note)
            if hand.is_over and progress.pending().kind is Asked.DEAL:
                # Between two hands: the one just ended, its scores and who deals next.
                self.screen.show(render_hand_end(
                    (hand.side(1), hand.side(2)), hand.scores, hand.went_out, hand.forfeited,
                    _ended_table(progress, table), progress.game.dealer, self.theme, hand.rules,
                ))  # fmt: skip
        if note is not None and hand is None:
            self.screen.say(note)
        chat = self._chat_lines()
        if chat is not None:
            self.screen.say(chat)

    def _chat_lines(self) -> Text | None:
        lines = self.club.chat(self.game_id, None if self.spectator else self.member.id)
        if self.spectator or not lines:
            return None
        if isinstance(self.screen, SpokenScreen):
            # Lines once printed stay: only what was said since is said.
            lines = [line for line in lines if line.id > self._chat_said]
        if not lines:
            return None
        self._chat_said = lines[-1].id
        text = Text()
        for line in lines[-3:]:
            text.append(f"{visible(line.name)}: ", "bold")
            text.append(visible(line.text) + "\n")
        text.rstrip()
        return text

    # ---------------------------------------------------------- deciding

    def _decide(self, stored: Stored, progress: Progress, names: tuple[str, str],
                seat: int) -> bool:  # fmt: skip
        asked = progress.pending()
        person = self._seat(names, seat, progress)
        decision: Decision
        try:
            if asked.kind is Asked.DEAL:
                eleven = person.choose_eleven(seat, asked.info) if asked.choices else None
                decision = Deal(eleven)
            else:
                hand = progress.hand
                assert hand is not None
                decision = Move(person.choose(hand.view(seat), asked.info).action)
        except UndoRequest:
            decision = Undo()
        except QuitGame:
            return False  # the game waits, stored, for the member's return
        except Resigned:
            self.club.resign(self.member.id, stored.id)
            return True
        try:
            self.club.play(self.member.id, stored.id, stored.seq, decision)
        except Stale as err:
            # Said under the table as it now stands (the next pass draws it first).
            self._carried.append(shown(str(err), "yellow"))
        except IllegalAction as err:
            self._carried.append(shown(as_sentence(str(err)), "red"))
        return True

    def _leaving_screen(self) -> Screen:
        """The screen the member's prompt asks on, where ``lobby`` (or ``leave``) at the
        move prompt goes back to the lobby at once, as it does while they wait."""
        return cast(Screen, _LobbyWord(self.screen))  # the member's screen, one word more

    def _seat(self, names: tuple[str, str], seat: int, progress: Progress) -> HumanSeat:
        """The prompt for the member's decision: the table's own, with its commands.
        One is kept while the member sits here, so ``all`` holds for the whole turn."""
        if self._person is not None and self._person.name == visible(names[seat - 1]):
            return self._person
        other = names[2 - seat]
        opponent = None
        level = progress.bot_for(3 - seat)
        if level is not None:
            opponent = (other, level)
        person = HumanSeat(
            names[seat - 1],
            self._leaving_screen(),
            make_bot("normal", 0),
            self._rules,
            self.theme,
            opponent,
        )
        person.chat = self._say_from_prompt
        person.leave_question = "Leave this game for the lobby? (it waits for you)"
        self._person = person
        return person

    def _rules(self) -> None:
        self.screen.page(RuleBook(self.theme.ascii), "rules")

    def _say_from_prompt(self, name: str, text: str) -> None:
        try:
            self.club.say(self.member.id, self.game_id, text)
        except ClubGameError as err:
            self.screen.say(shown(str(err), "red"))

    # ----------------------------------------------------------- waiting

    def _wait(self, stored: Stored, progress: Progress, names: tuple[str, str],
              seat: int | None) -> bool:  # fmt: skip
        """Not the member's decision: the prompt stays open for chat until the game
        changes (the hub answers it) or the member leaves."""
        words = _whose_turn(stored, progress, names, seat, self.club.now())
        self._shown = self._marks()
        if self._shown[0] != stored.seq:
            return True  # it moved while it was being shown: show it again
        self._waiting = True
        try:
            # A line typed while the table is drawn again answers this prompt too.
            line = self.screen.ask(words, completer=_WAITING_WORDS)
        except Changed:
            return True
        except (KeyboardInterrupt, EOFError):
            return False
        finally:
            self._waiting = False
        return self._waiting_command(line.strip(), stored, seat)

    def _waiting_command(self, line: str, stored: Stored, seat: int | None) -> bool:
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not word:
            return True  # Enter: look again
        if word in LEAVE_WORDS:
            return False
        if seat is None:
            self.screen.say(Text("Watching: Enter to look again, lobby to leave."))
            return True
        if word == "say":
            self._say_from_prompt("", rest)
        elif word == "mute":
            self.club.mute(self.member.id, stored.id, True)
            self.screen.say(Text("Chat muted in this game: unmute turns it back on."))
        elif word == "unmute":
            self.club.mute(self.member.id, stored.id, False)
            self.screen.say(Text("Chat is on in this game."))
        elif word == "resign":
            if ask_yes(self.screen, "Resign this game? It counts as lost."):
                self.club.resign(self.member.id, stored.id)
        else:
            self.screen.say(Text(
                f"'{visible(word)}' is not a word here: say TEXT chats, mute or unmute the "
                "chat, resign, lobby to leave; Enter looks again."
            ))  # fmt: skip
        return True

    # ------------------------------------------------------------- the end

    def _ended(self, stored: Stored, progress: Progress, names: tuple[str, str]) -> bool:
        winner = stored.winner
        if winner is not None and stored.ending == "played out":
            game = progress.game
            results = [r.scores for r in game.results]
            wins = progress.match.wins if isinstance(progress.match, Session) else None
            self.screen.show(render_game_end(
                results, (visible(names[0]), visible(names[1])), winner,
                progress.game_number, wins, self.theme,
            ))  # fmt: skip
        words = _ending_words(stored, names, not self.spectator)
        self.screen.say(Text(words, "bold"))
        with contextlib.suppress(KeyboardInterrupt, EOFError, Changed):
            self.screen.ask("Enter for the lobby: ")
        return False


#: What may be typed while the other side plays (Tab completes it).
_WAITING_WORDS = WordCompleter(["say", "mute", "unmute", "resign", *LEAVE_WORDS[:2]])


class _LobbyWord:
    """A screen that passes everything to the member's own, but takes ``lobby`` typed
    at a question as leaving the table (the game waits, stored)."""

    def __init__(self, screen: Screen) -> None:
        self._screen = screen

    def __getattr__(self, name: str) -> object:
        return getattr(self._screen, name)

    def ask(self, message: str, toolbar: object = None, completer: object = None) -> str:
        line = self._screen.ask(message, toolbar, completer)  # type: ignore[arg-type]
        if line.strip().lower() in ("lobby", "leave"):
            raise QuitGame()
        return line


# --------------------------------------------------------------- words


def _ended_table(progress: Progress, table: TableInfo) -> TableInfo:
    """The table of the hand that just ended (the pending deal's numbers are the next's)."""
    game = progress.game
    results = game.results
    if not results:
        return table
    done = results[:-1]
    totals = (sum(r.scores[0] for r in done), sum(r.scores[1] for r in done))
    return replace(table, totals=totals, hand_number=len(results), forfeited=results[-1].forfeited)


def _names(progress: Progress) -> tuple[str, str]:
    return (progress.players[0].name, progress.players[1].name)


def _told(news: list[News], viewer: int, names: tuple[str, str], theme: Theme) -> Text | None:
    """The other player's moves as one line: each run of one player's moves after their
    name ("Ann drew, melded 7♣ 6♣ 5♣, discarded K♦")."""
    said: list[str] = []
    last: tuple[int, bool] | None = None
    for item in news:
        for event in item.events:
            if event.player == viewer:
                continue
            words = phrase(event, theme)
            key = (event.player, item.by_bot)
            if said and last == key:
                said[-1] += f", {words}"
            else:
                said.append(f"{names[event.player - 1]} {words}")
            last = key
    return shown(". ".join(said) + ".", "italic") if said else None


def _happened(news: list[News], viewer: int, names: tuple[str, str]) -> list[str]:
    """The changes that are not moves, in words: a turn whose time ran out, played by
    the bot; a resignation or a forfeit."""
    lines = []
    for item in news:
        who = "Your" if item.player == viewer else f"{visible(names[item.player - 1])}'s"
        if item.text.startswith("stand-in ") and item.text != "stand-in ends":
            lines.append(f"{who} time ran out: the bot played the turn.")
    return lines


def _whose_turn(stored: Stored, progress: Progress, names: tuple[str, str],
                seat: int | None, now: int) -> str:  # fmt: skip
    asked = progress.pending()
    if asked.player is None:
        return "Enter to look again, lobby to leave: "
    mover = visible(names[asked.player - 1])
    if asked.bot is not None:
        who = f"{mover} (the bot) is thinking"
    elif stored.deadline is not None:
        who = f"{mover} to play, {_left(stored.deadline - now)} left"
    else:
        who = f"{mover} to play"
    tail = "say TEXT to chat, lobby to leave" if seat is not None else "lobby to leave"
    return f"{who}. {tail}: "


def _left(ms: int) -> str:
    """Time left in words: ``2 days 3 hours``, ``40 minutes``."""
    if ms <= 0:
        return "no time"
    minutes = ms // 60_000
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours and days < 3:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if not days and not hours:
        parts.append(f"{max(1, mins)} minute{'s' if mins != 1 else ''}")
    return " ".join(parts)


def _ending_words(stored: Stored, names: tuple[str, str], player: bool) -> str:
    """How the game ended, by the club's number for it (the end screen above counts the
    games of its match: "Winner of game 1"), and for a player where to see it again."""
    club_game = f"club game {stored.id}"
    if stored.winner is None:
        said = f"Club game {stored.id} is over."
    else:
        winner = visible(names[stored.winner - 1])
        loser = visible(names[2 - stored.winner])
        ending = stored.ending or ""
        if ending == "resigned":
            said = f"{loser} resigned: {winner} wins {club_game}."
        elif ending.startswith("forfeit"):
            why = ending.partition(": ")[2]
            said = f"{loser} forfeited ({why}): {winner} wins {club_game}."
        else:
            said = f"{winner} wins {club_game}."
    if not player:
        return said  # a spectator's lobby neither replays nor reviews another's game
    return f"{said} Type replay {stored.id} or review {stored.id} in the lobby to see it again."


__all__ = ["LEAVE_WORDS", "Changed", "Sitting", "Watch"]
