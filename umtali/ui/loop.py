"""The game loop: deals, asks each seat in turn, shows the table between moves.

Only this module and the human seat speak to the person, through the Screen
they are handed.  The loop applies what a seat chooses; an illegal choice is
explained and the same seat is asked again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from rich.text import Text

from umtali.bots.arena import Driver, info_for
from umtali.bots.coach import infos, review_hand
from umtali.bots.seat import GameInfo, Seat
from umtali.engine.actions import Action, ActionKind
from umtali.engine.errors import IllegalAction
from umtali.engine.events import Event
from umtali.engine.hand import Hand
from umtali.engine.match import Game, Session
from umtali.engine.record import Played, played
from umtali.engine.view import PlayerView
from umtali.ui.coaching import render_review
from umtali.ui.human import HumanSeat, UndoRequest
from umtali.ui.narrate import phrase
from umtali.ui.render import TableInfo, render_game_end, render_hand_end
from umtali.ui.retry import retry_loop
from umtali.ui.screen import QuitGame, Screen, ask_yes
from umtali.ui.text import shown, visible
from umtali.ui.theme import Theme

#: What undo may take back, for help and for a refused undo.
UNDO_RULE = (
    "undo takes back your moves of this turn, but never a draw from the stock (it showed "
    "you a card) nor anything before it, and never your opponent's reply"
)


def undo_point(actions: Sequence[tuple[int, Action]], player: int) -> int | None:
    """How many actions to keep to take back what ``player`` did this turn without
    unseeing anything: back to the start of the turn, or to just after the turn's draw
    from the stock (the card drawn was seen, and the stock's order with it).  None when
    there is nothing of this turn to take back: the opponent moved last (their reply
    was seen), or the turn so far is only a draw.
    """
    start = len(actions)
    while start and actions[start - 1][0] == player:
        start -= 1
    keep = start
    for i in range(start, len(actions)):
        if actions[i][1].kind is ActionKind.DRAW:
            keep = i + 1
    return keep if keep < len(actions) else None


class Save(Protocol):
    """Saves the game; ``played`` is the action just played, and its player, where that
    is all that happened since the last save (a record then appends its line)."""

    def __call__(self, played: Played | None = None) -> None: ...


def _no_save(played: Played | None = None) -> None:
    pass


class TableLoop:
    """Plays games and sessions between two seats, showing the table to the humans."""

    def __init__(
        self,
        screen: Screen,
        seats: Sequence[Seat],
        humans: tuple[bool, bool],
        theme: Theme,
        delay: float = 0.6,
        save: Save | None = None,
        watcher: Callable[[], int] | None = None,
        game_over: Callable[[Game, int], None] | None = None,
        apart: bool = False,
        daily: bool = False,
    ) -> None:
        self.screen = screen
        self.seats = list(seats)
        self.humans = humans
        self.names = (visible(seats[0].name), visible(seats[1].name))
        self.theme = theme
        self.delay = delay
        # Called after every deal, undo and action (handed the action it played).
        self.save: Save = save or _no_save
        # Told of each game that ends, with its number in the session.
        self.game_over = game_over or (lambda game, number: None)
        # Nobody plays, somebody watches: the table is shown from the seat this says
        # (umtali watch, where a key turns to the other bot's hand).
        self.watcher = watcher if not any(humans) else None
        # Each player at a screen of their own (a hosted game): after every move both
        # seats' tables are drawn, each from its own seat, and nothing is ever blanked.
        self.apart = apart
        self.daily = daily  # the deal of the day: the table says so
        self.driver = Driver(self.seats, [lambda hand, player, action: self.save((player, action))])
        # Undo is for practice against the bot, never between two people.
        self.allow_undo = humans.count(True) == 1
        self._shown_to: int | None = None  # whose hand is on screen
        self._seen = [0, 0]  # history entries each player has been told about

    def replace_seat(self, player: int, seat: Seat) -> None:
        """Hand ``player``'s seat to ``seat`` (a bot taking over from a player who left)."""
        self.seats[player - 1] = seat
        self.driver.seats[player - 1] = seat
        humans = list(self.humans)
        humans[player - 1] = isinstance(seat, HumanSeat)
        self.humans = (humans[0], humans[1])
        self.allow_undo = self.humans.count(True) == 1

    # ------------------------------------------------------------ top level

    def play(self, match: Game | Session) -> None:
        """Play ``match`` on: a single game, or a session's games."""
        if isinstance(match, Session):
            self.play_session(match)
        else:
            self.play_game(match)

    def play_session(self, session: Session) -> None:
        if session.game.is_over and not session.is_over:
            session.next_game()  # resumed between two games
        while True:
            number = len(session.games)
            self.play_game(session.game, number, session)
            if session.is_over:
                winner = session.winner or 1
                self.screen.say(
                    shown(f"Winner of the session: {self.names[winner - 1]}.", "bold green")
                )
                return
            self.pause(f"Press Enter to start game {number + 1}.")
            session.next_game()

    def play_game(self, game: Game, number: int = 1, session: Session | None = None) -> None:
        if game.cut is not None and number == 1 and not game.hands:
            a, b = game.cut
            self.screen.say(
                shown(
                    f"Cut for the deal: {self.names[0]} {self.theme.plain(a)}, "
                    f"{self.names[1]} {self.theme.plain(b)}. The lower card deals first: "
                    f"{self.names[game.dealer - 1]}."
                )
            )
            if game.rules.up_card or not self.humans[game.dealer - 1]:
                # No dealer's question follows: let the cut be read before the table.
                self.pause("Press Enter to deal.")
        while not game.is_over:
            info = info_for(game)
            if game.hand is None or game.hand.is_over:
                self.driver.deal(game)
                self.save()
            self._seen = [0, 0]
            self._shown_to = None
            for sitting in self.driver.seats:  # ``all`` never outlasts the hand it was asked in
                if isinstance(sitting, HumanSeat):
                    sitting.auto = None
            seat = "watched" if self.watcher is not None else "you"
            table = TableInfo(
                self.names, info.totals, info.hand_number, number, seat, daily=self.daily
            )
            self._play_hand(game, info, table)
            hand = game.hands[-1]
            if not game.rules.hand_scoring and game.results:
                table = replace(table, forfeited=game.results[-1].forfeited)
            self._last_look(hand, table)
            nxt = None if game.is_over else game.dealer
            self._end_of_hand(hand, table, nxt)
        self.game_over(game, number)
        winner = game.winner or 1
        wins = session.wins if session is not None else None
        # The last hand's scores and the game's would not fit one 80x24 screen together.
        self._hand_pause(game.hands[-1], infos(game)[-1], "Press Enter for the result of the game")
        self.screen.show(
            render_game_end(
                [r.scores for r in game.results], self.names, winner, number, wins, self.theme
            )
        )
        if session is None:
            self.pause("Press Enter to finish.")

    # ----------------------------------------------------------- one hand

    def _viewer(self, mover: int) -> int | None:
        """Whose cards may be on screen while ``mover`` plays."""
        if all(self.humans):
            return mover
        if self.humans[0]:
            return 1
        if self.humans[1]:
            return 2
        return self.watcher() if self.watcher is not None else None

    def _play_hand(self, game: Game, info: GameInfo, table: TableInfo) -> None:
        hand = game.hands[-1]
        redraw = True
        while not hand.is_over:
            mover = hand.to_move
            assert mover is not None
            human = self.humans[mover - 1]
            if self.apart:
                hand, redraw = self._apart_turn(game, hand, info, table, mover, redraw)
                continue
            viewer = self._viewer(mover)
            if viewer is not None and viewer != self._shown_to:
                self._hand_over_to(viewer)
                redraw = True
            if viewer is not None and redraw:
                view = hand.view(viewer)
                # At the start of a person's turn, recap what the other side did.
                self._show(view, table, self._news(view.events, viewer) if human else None)
            seat = self.seats[mover - 1]
            if isinstance(seat, HumanSeat) and viewer is not None:
                seat.redraw = lambda h=hand, v=viewer: self._show(h.view(v), table, None)
            try:
                decision = self.driver.decide(hand, info)
            except KeyboardInterrupt:
                # Ctrl-C while a bot thinks: ask, as anywhere else.
                self._leave_or_stay()
                redraw = False
                continue
            except UndoRequest:
                keep = self._undo_point(hand, mover)
                if keep is None:
                    redraw = False
                    continue
                self._seen = [0, 0]
                hand = game.rewind(keep)
                self.save()
                redraw = True
                continue
            try:
                self.driver.apply(hand, decision.action)  # the driver saves it
            except IllegalAction as refusal:
                if not human:
                    raise  # a bot must never choose an illegal action
                self.screen.say(shown(str(refusal), "red"))
                redraw = False  # keep the table and the message on screen
                continue
            if viewer is not None and not human:
                view = hand.view(viewer)
                said = phrase(view.events[-1], self.theme)
                self._show(view, table, shown(f"{self.names[mover - 1]} {said}.", "italic"))
                self._wait(self.delay)
            nxt = hand.to_move
            redraw = human or (nxt is not None and self.humans[nxt - 1])

    def _apart_turn(
        self, game: Game, hand: Hand, info: GameInfo, table: TableInfo, mover: int, redraw: bool
    ) -> tuple[Hand, bool]:
        """One move where each player has a screen of their own: both tables are drawn
        (each from its own seat), the mover is asked, and the move is applied."""
        human = self.humans[mover - 1]
        if redraw:
            for player in (1, 2):
                view = hand.view(player)
                self._show(view, table, self._news(view.events, player))
        seat = self.seats[mover - 1]
        if isinstance(seat, HumanSeat):
            seat.redraw = lambda: self._show(hand.view(mover), table, None)
        try:
            decision = self.driver.decide(hand, info)
        except UndoRequest:
            keep = self._undo_point(hand, mover)
            if keep is None:
                return hand, False
            self._seen = [0, 0]
            hand = game.rewind(keep)
            self.save()
            return hand, True
        try:
            self.driver.apply(hand, decision.action)
        except IllegalAction as refusal:
            if not human:
                raise
            # A refusal may name the mover's cards: it goes to their screen only.
            assert isinstance(seat, HumanSeat)
            seat.screen.say(shown(str(refusal), "red"))
            return hand, False
        if not human:
            for player in (1, 2):
                view = hand.view(player)
                said = phrase(view.events[-1], self.theme)
                note = shown(f"{self.names[mover - 1]} {said}.", "italic")
                self._seen[player - 1] = len(view.events)
                self._show(view, table, note)
            self._wait(self.delay)
        return hand, True

    def _undo_point(self, hand: Hand, player: int) -> int | None:
        """How many actions to keep to go back to the start of ``player``'s turn (or the
        one before); None, with the reason on screen, where there is nothing to undo."""
        if not self.allow_undo:
            self.screen.say(Text("undo is for games against the bot only.", "yellow"))
            return None
        target = undo_point(played(hand), player)
        if target is None:
            self.screen.say(Text(f"There is nothing to undo: {UNDO_RULE}.", "yellow"))
        return target

    def _hand_over_to(self, viewer: int) -> None:
        if all(self.humans) and self.screen.interactive:
            # Hot seat: never leave a hand on screen, or in the scrollback, while the
            # other player looks.
            self.screen.blank()
            dash = self.theme.dash
            self.pause(f"Pass to {self.names[viewer - 1]} {dash} press Enter when ready.")
        self._shown_to = viewer

    def _show(self, view: PlayerView, table: TableInfo, note: Text | None) -> None:
        self.screen.table(view, table, note)

    def _news(self, events: tuple[Event, ...], viewer: int, own: bool = False) -> Text | None:
        """What happened since this viewer last looked, as one line: the other player's
        moves (and with ``own``, the viewer's too), each run of moves after its name."""
        fresh = events[self._seen[viewer - 1] :]
        self._seen[viewer - 1] = len(events)
        said: list[str] = []
        last = 0  # the player of the run of moves being told
        for e in fresh:
            if e.player == viewer and not own:
                continue
            words = phrase(e, self.theme)
            if said and e.player == last:
                said[-1] += f", {words}"
            else:
                said.append(f"{self.names[e.player - 1]} {words}")
            last = e.player
        return shown(". ".join(said) + ".", "italic") if said else None

    def _last_look(self, hand: Hand, table: TableInfo) -> None:
        """The table as the hand ended, with the moves that ended it, before the scores
        replace it: a last turn (a bot's, or a draw that left nothing to play) is seen."""
        if not self._someone_looks():
            return
        if self.apart:
            for player in (1, 2):
                view = hand.view(player)
                self._show(view, table, self._news(view.events, player, own=True))
            self.pause("Hand over. Press Enter for the scores.")
            return
        viewer = self._shown_to or self._viewer(1) or 1
        view = hand.view(viewer)
        self._show(view, table, self._news(view.events, viewer, own=True))
        self.pause("Hand over. Press Enter for the scores.")

    def _end_of_hand(self, hand: Hand, table: TableInfo, next_dealer: int | None) -> None:
        self.screen.show(
            render_hand_end(
                (hand.side(1), hand.side(2)),
                hand.scores,
                hand.went_out,
                hand.forfeited,
                table,
                next_dealer,
                self.theme,
                hand.rules,
            )
        )
        if next_dealer is not None:
            info = GameInfo(
                table.hand_number, hand.rules.hands_per_game, table.totals, hand.deal.dealer
            )
            self._hand_pause(hand, info, "Press Enter to deal the next hand")

    def _hand_pause(self, hand: Hand, info: GameInfo, message: str) -> None:
        """The pause on a hand's scores; against the bot, 'review' there opens the
        coach's review of the player's decisions in that hand."""
        if not self.allow_undo:  # no review between two people: it shows a past hand
            self.pause(message + ".")
            return
        player = 1 if self.humans[0] else 2
        number = info.hand_number
        while self.pause(f"{message}, or type review for the coach.").strip().lower() == "review":
            self.screen.say(Text("The coach is weighing your decisions...", "dim"))
            review = review_hand(hand, player, number, info)
            page = render_review([(1, review)], self.names[player - 1], self.theme, retry=True)
            self.screen.page(page, "review")
            retry_loop(self.screen, review.verdicts, self.names)

    # -------------------------------------------------------------- pauses

    def _someone_looks(self) -> bool:
        return self.screen.interactive and (any(self.humans) or self.watcher is not None)

    def _leave_or_stay(self) -> None:
        """Ctrl-C: a player is asked whether to leave; a watcher leaves."""
        if not self.screen.interactive:
            return
        if not any(self.humans) or ask_yes(self.screen, "Leave the game?"):
            raise QuitGame from None

    def _wait(self, seconds: float) -> None:
        """The pause after a bot's move; Ctrl-C here asks to leave, like anywhere."""
        try:
            self.screen.wait(seconds)
        except KeyboardInterrupt:
            self._leave_or_stay()

    def pause(self, message: str) -> str:
        """Wait for Enter if a person is playing, and return what was typed; Ctrl-C or
        Ctrl-D ask to leave.  A watcher gets a longer look instead."""
        if not self._someone_looks():
            return ""
        if not any(self.humans):
            self._wait(max(2.0, 4 * self.delay))  # the hand's scores, say, stay a while
            return ""
        try:
            return self.screen.ask(message + " ")
        except (KeyboardInterrupt, EOFError):
            if ask_yes(self.screen, "Leave the game?"):
                raise QuitGame from None
            return ""
