"""The table at a terminal: it drives a match's progress one decision at a time and
shows each step to the people at the screen.

The game itself (whose decision is due, the deal, the moves, undo's limits, the next
dealer) lives in :class:`~umtali.engine.progress.Progress`; this loop asks the seat
whose decision is pending, hands the answer over, and draws what came of it.  An
illegal choice is explained and the same seat is asked again.  The coach's review
(and the search stack behind it) is loaded the first time a player asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from rich.text import Text

from umtali.bots.arena import ask_seat
from umtali.bots.seat import GameInfo, Seat
from umtali.engine.actions import Action
from umtali.engine.errors import IllegalAction
from umtali.engine.events import Event
from umtali.engine.hand import Hand
from umtali.engine.match import Game, Session
from umtali.engine.progress import (
    UNDO_RULE as UNDO_RULE,  # help says it too
)
from umtali.engine.progress import (
    Asked,
    Deal,
    Move,
    Outcome,
    Pending,
    Progress,
    Undo,
    UndoRefused,
    hand_infos,
)
from umtali.engine.progress import (
    undo_point as undo_point,  # its home is the engine
)
from umtali.engine.record import Played, PlayerInfo, PlayerKind
from umtali.engine.view import PlayerView
from umtali.ui.commands import leaves
from umtali.ui.human import HumanSeat, UndoRequest
from umtali.ui.narrate import phrase, taken_back
from umtali.ui.render import TableInfo, render_game_end, render_hand_end
from umtali.ui.screen import QuitGame, Screen, ask_yes
from umtali.ui.text import refused, shown, visible
from umtali.ui.theme import Theme


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
        # Who sits where, until a match's progress says (a seat stood in for by a bot).
        self._players = (_player(seats[0], humans[0]), _player(seats[1], humans[1]))
        self.progress: Progress | None = None
        self._shown_to: int | None = None  # whose hand is on screen
        self._seen = [0, 0]  # history entries each player has been told about
        self._hand_key: tuple[int, int] | None = None  # (game, hand) the table is set for
        self._table = TableInfo(self.names, (0, 0), 1, 1, "you")
        self._redraw = True  # the next turn draws the table afresh
        self._ended = False  # a game ended while this loop played it

    @property
    def humans(self) -> tuple[bool, bool]:
        """Which seats a person sits in at this table now (a seat a bot took from a
        player who left is a bot's)."""
        return (isinstance(self.seats[0], HumanSeat), isinstance(self.seats[1], HumanSeat))

    @property
    def allow_undo(self) -> bool:
        """Undo is for practice against the bot, never between two people."""
        if self.progress is not None:
            return self.progress.undo_allowed
        return self.humans.count(True) == 1

    def replace_seat(self, player: int, seat: Seat, level: str) -> None:
        """Hand ``player``'s seat to ``seat``, a bot of ``level`` standing in for a player
        who left; the match's progress is told, so the game (and its record) knows who
        decides."""
        self.seats[player - 1] = seat
        if self.progress is None:
            raise ValueError("no match is being played: there is no seat to stand in for")
        self.progress.stand_in(player, level)

    # ------------------------------------------------------------ top level

    def play(self, match: Game | Session | Progress) -> None:
        """Play ``match`` on (a single game, a session's games, or a match's progress)
        until it is over: each pending decision is put to its seat, one at a time."""
        if isinstance(match, Progress):
            progress = match
        elif self.progress is not None and self.progress.match is match:
            progress = self.progress  # played on after a pause (a seat stood in for)
        else:
            progress = Progress(match, self._players)
        self.progress = progress
        while True:
            asked = progress.pending()
            if asked.kind is Asked.OVER:
                if not self._ended:  # resumed after its end: the result is shown again
                    self._game_ended(progress)
                return
            if asked.kind is Asked.DEAL:
                self._deal(progress, asked)
                continue
            outcome = self._turn(progress, asked)
            if outcome is not None and outcome.hand_over is not None:
                self._hand_ended(progress, outcome)

    def play_game(self, game: Game) -> None:
        """Play a single game on (:meth:`play`)."""
        self.play(game)

    def play_session(self, session: Session) -> None:
        """Play a session's games on (:meth:`play`)."""
        self.play(session)

    # ------------------------------------------------------------- the deal

    def _deal(self, progress: Progress, asked: Pending) -> None:
        """The dealer deals: the cut is shown before a match's first deal, and the
        dealer says who takes the extra card where the rules deal one."""
        dealer = asked.player
        assert dealer is not None
        if asked.cut is not None:
            a, b = asked.cut
            self.screen.say(
                shown(
                    f"Cut for the deal: {self.names[0]} {self.theme.plain(a)}, "
                    f"{self.names[1]} {self.theme.plain(b)}. The lower card deals first: "
                    f"{self.names[dealer - 1]}."
                )
            )
            if not asked.choices or not self.humans[dealer - 1]:
                # No dealer's question follows: let the cut be read before the table.
                self.pause("Press Enter to deal.")
        eleven = None
        if asked.choices:
            eleven = self.seats[dealer - 1].choose_eleven(dealer, asked.info)
        self._answered(progress, dealer)
        progress.decide(dealer, Deal(eleven))
        self.save()

    def _set_table(self, progress: Progress, asked: Pending) -> None:
        """A new hand (dealt now, or met on resuming): nothing of it has been told yet."""
        self._hand_key = (asked.game, asked.info.hand_number)
        self._seen = [0, 0]
        self._shown_to = None
        self._redraw = True
        for sitting in self.seats:  # ``all`` never outlasts the hand it was asked in
            if isinstance(sitting, HumanSeat):
                sitting.auto = None
        seat = "watched" if self.watcher is not None else "you"
        info = asked.info
        self._table = TableInfo(
            self.names, info.totals, info.hand_number, asked.game, seat, daily=self.daily
        )

    # ----------------------------------------------------------- one turn

    def _viewer(self, mover: int) -> int | None:
        """Whose cards may be on screen while ``mover`` plays."""
        humans = self.humans
        if all(humans):
            return mover
        if humans[0]:
            return 1
        if humans[1]:
            return 2
        return self.watcher() if self.watcher is not None else None

    def _turn(self, progress: Progress, asked: Pending) -> Outcome | None:
        """Ask the player to move and apply their move: None where nothing was played
        (an illegal move, an undo, Ctrl-C while a bot thinks)."""
        if self._hand_key != (asked.game, asked.info.hand_number):
            self._set_table(progress, asked)
        hand = progress.hand
        mover = asked.player
        assert hand is not None and mover is not None
        if self.apart:
            return self._apart_turn(progress, hand, asked, mover)
        table = self._table
        human = self.humans[mover - 1]
        viewer = self._viewer(mover)
        if viewer is not None and viewer != self._shown_to:
            self._hand_over_to(viewer)
            self._redraw = True
        if viewer is not None and self._redraw:
            view = hand.view(viewer)
            # At the start of a person's turn, recap what the other side did.
            self._show(view, table, self._news(view.events, viewer) if human else None)
        seat = self.seats[mover - 1]
        if isinstance(seat, HumanSeat) and viewer is not None:
            seat.redraw = lambda h=hand, v=viewer: self._show(h.view(v), table, None)
        try:
            decision = ask_seat(seat, hand, mover, asked.info)
        except KeyboardInterrupt:
            # Ctrl-C while a bot thinks: ask, as anywhere else.
            self._leave_or_stay()
            self._redraw = False
            return None
        except UndoRequest:
            self._redraw = self._undo(progress, mover)
            return None
        outcome = self._apply(progress, mover, decision.action, self.screen)
        if outcome is None:
            return None
        if viewer is not None and not human:
            view = hand.view(viewer)
            said = phrase(view.events[-1], self.theme)
            self._show(view, table, shown(f"{self.names[mover - 1]} {said}.", "italic"))
            self._wait(self.delay)
        nxt = hand.to_move
        self._redraw = human or (nxt is not None and self.humans[nxt - 1])
        return outcome

    def _apart_turn(
        self, progress: Progress, hand: Hand, asked: Pending, mover: int
    ) -> Outcome | None:
        """One move where each player has a screen of their own: both tables are drawn
        (each from its own seat), the mover is asked, and the move is applied."""
        table = self._table
        human = self.humans[mover - 1]
        if self._redraw:
            for player in (1, 2):
                view = hand.view(player)
                self._show(view, table, self._news(view.events, player))
        seat = self.seats[mover - 1]
        if isinstance(seat, HumanSeat):
            seat.redraw = lambda: self._show(hand.view(mover), table, None)
        try:
            decision = ask_seat(seat, hand, mover, asked.info)
        except UndoRequest:
            self._redraw = self._undo(progress, mover)
            return None
        # A refusal may name the mover's cards: it goes to their screen only.
        told = seat.screen if isinstance(seat, HumanSeat) else self.screen
        outcome = self._apply(progress, mover, decision.action, told)
        if outcome is None:
            return None
        if not human:
            for player in (1, 2):
                view = hand.view(player)
                said = phrase(view.events[-1], self.theme)
                note = shown(f"{self.names[mover - 1]} {said}.", "italic")
                self._seen[player - 1] = len(view.events)
                self._show(view, table, note)
            self._wait(self.delay)
        self._redraw = True
        return outcome

    def _answered(self, progress: Progress, player: int) -> None:
        """A person answered for ``player``: where a bot had stood in for them (a hosted
        game resumed after they left), they are back, and the game notes it."""
        if isinstance(self.seats[player - 1], HumanSeat) and progress.bot_for(player):
            progress.stand_in(player, None)

    def _apply(
        self, progress: Progress, mover: int, action: Action, told: Screen
    ) -> Outcome | None:
        """Play the mover's ``action`` and save it (the record appends its line); an
        illegal one is explained on ``told`` and nothing is played (None)."""
        self._answered(progress, mover)
        try:
            outcome = progress.decide(mover, Move(action))
        except IllegalAction as refusal:
            if not self.humans[mover - 1]:
                raise  # a bot must never choose an illegal action
            told.say(refused(str(refusal)))
            self._redraw = False  # keep the table and the message on screen
            return None
        assert outcome.played is not None
        self.save((mover, outcome.played))
        return outcome

    def _undo(self, progress: Progress, player: int) -> bool:
        """Take back ``player``'s moves of this turn; the reason on screen where the game
        does not allow it.  Whether the table is to be drawn again."""
        hand = progress.hand
        before = hand.view(player).events if hand is not None else ()
        try:
            progress.decide(player, Undo())
        except UndoRefused as refusal:
            self.screen.say(Text(str(refusal), "yellow"))
            return False
        after = progress.hand
        # The hand is played again up to the undo: its events are the first of those
        # before it, and the rest are what was taken back.
        taken = before[len(after.view(player).events) if after is not None else 0 :]
        if taken:
            self.screen.say(Text(taken_back(taken, self.theme), "yellow"))
        self._seen = [0, 0]
        self.save()
        return True

    # ------------------------------------------------- a hand's, a game's end

    def _hand_ended(self, progress: Progress, outcome: Outcome) -> None:
        """The table as the hand ended, then its scores; at a game's end, its result."""
        hand = outcome.hand
        assert hand is not None
        game = progress.game
        table = self._table
        if not game.rules.hand_scoring and game.results:
            table = replace(table, forfeited=game.results[-1].forfeited)
        self._last_look(hand, table)
        self._end_of_hand(hand, table, None if game.is_over else game.dealer)
        if game.is_over:
            self._game_ended(progress)

    def _game_ended(self, progress: Progress) -> None:
        """A game is over: the profile is told, the result shown, and a session's next
        game (or its winner) announced."""
        self._ended = True
        game = progress.game
        number = progress.game_number
        match = progress.match
        session = match if isinstance(match, Session) else None
        self.game_over(game, number)
        winner = game.winner or 1
        wins = session.wins if session is not None else None
        # The last hand's scores and the game's would not fit one 80x24 screen together.
        self._hand_pause(
            game.hands[-1], hand_infos(game)[-1], "Press Enter for the result of the game"
        )
        self.screen.show(
            render_game_end(
                [r.scores for r in game.results], self.names, winner, number, wins, self.theme
            )
        )
        if session is None:
            self.pause("Press Enter to finish.")
        elif session.is_over:
            winner = session.winner or 1
            self.screen.say(
                shown(f"Winner of the session: {self.names[winner - 1]}.", "bold green")
            )
        else:
            self.pause(f"Press Enter to start game {number + 1}.")

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
        # The coach and the search behind it are loaded when a player first asks.
        from umtali.bots.coach import review_hand
        from umtali.ui.coaching import render_review
        from umtali.ui.retry import retry_by_number

        player = 1 if self.humans[0] else 2
        number = info.hand_number
        while self.pause(f"{message}, or type review for the coach.").strip().lower() == "review":
            self.screen.say(Text("The coach is weighing your decisions...", "dim"))
            review = review_hand(hand, player, number, info)
            page = render_review([(1, review)], self.names[player - 1], self.theme, retry=True)
            retry_by_number(
                self.screen, review.verdicts, self.names, theme=self.theme, page=(page, "review")
            )

    # -------------------------------------------------------------- pauses

    def _someone_looks(self) -> bool:
        return self.screen.interactive and (any(self.humans) or self.watcher is not None)

    def _leave_or_stay(self) -> None:
        """Ctrl-C: a player is asked whether to leave; a watcher leaves."""
        if not self.screen.interactive:
            return
        if not any(self.humans) or ask_yes(self.screen, "Leave the game?", interrupted=True):
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
        # A player who says no to leaving is back at the same pause (where review, say,
        # may still be typed), not past it.
        while True:
            try:
                answer = self.screen.ask(message + " ")
            except (KeyboardInterrupt, EOFError):
                if ask_yes(self.screen, "Leave the game?", interrupted=True):
                    raise QuitGame from None
                continue
            # quit leaves here as at the table, while there is a game left to save for
            # later; once the match is over, the pause only waits to be read.
            over = self.progress is not None and self.progress.match.is_over
            if leaves(answer) and not over:
                if ask_yes(self.screen, self._leave_question(), interrupted=True):
                    raise QuitGame
                continue
            return answer

    def _leave_question(self) -> str:
        """What a person who types quit is asked: their seat's question (a hosted game
        words it otherwise)."""
        people = (s for s in self.seats if isinstance(s, HumanSeat))
        return next((s.leave_question for s in people), "Leave the game?")


def _player(seat: Seat, human: bool) -> PlayerInfo:
    """Who sits in ``seat``, where the loop is handed seats rather than players."""
    if human:
        return PlayerInfo(PlayerKind.HUMAN, seat.name)
    return PlayerInfo(PlayerKind.BOT, seat.name, "seat")
