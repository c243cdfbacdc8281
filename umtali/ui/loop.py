"""The game loop: deals, asks each seat in turn, shows the table between moves.

Only this module and the human seat touch the terminal, through the Console
and PromptSession they are handed.  The loop applies what a seat chooses;
an illegal choice is explained and the same seat is asked again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from prompt_toolkit import PromptSession
from rich.console import Console
from rich.text import Text

from umtali.bots.arena import Driver, info_for
from umtali.bots.seat import GameInfo, Seat
from umtali.engine.errors import IllegalAction
from umtali.engine.events import Event, EventKind
from umtali.engine.hand import Hand
from umtali.engine.match import Game, Session
from umtali.engine.record import played
from umtali.engine.view import PlayerView
from umtali.ui.human import HumanSeat, QuitGame, UndoRequest, ask_yes, plain_prompt
from umtali.ui.render import TableInfo, render_game_end, render_hand_end, render_table
from umtali.ui.text import shown, visible
from umtali.ui.theme import Theme


def phrase(event: Event, theme: Theme) -> str:
    """An event as words after a name: ``played 10♦ off J♦``, ``drew from the stock``."""
    cards = [theme.plain(c) for c in event.cards]
    kind = event.kind
    if kind is EventKind.DRAW:
        return f"drew {cards[0]}" if cards else "drew from the stock"
    if kind is EventKind.TAKE_NEXT:
        return f"took the next discard too, {cards[0]}"
    if kind is EventKind.TAKE_FROM:
        assert event.onto is not None
        deepest = theme.plain(event.onto)
        return f"took {' '.join(cards)} from the discard pile, down to {deepest}"
    if kind.is_take:
        return f"took {' and '.join(cards)} from the discard pile"
    if kind is EventKind.END:
        return "ended the last turn"
    if kind is EventKind.MELD:
        return "melded " + " ".join(cards)
    if kind is EventKind.PLAY:
        if event.onto is not None:
            return f"played {cards[0]} off {theme.plain(event.onto)}"
        return f"played {cards[0]}"
    if kind is EventKind.DISCARD:
        if not cards:
            return "discarded face down"
        return f"discarded {cards[0]}{' face down' if event.down else ''}"
    return str(event).strip("()")


def wipe(console: Console) -> None:
    """Clear the screen and the terminal's scrollback, where a hand could still be
    scrolled back to (xterm's ``CSI 3 J``, which tmux and most terminals honour)."""
    console.clear()
    if console.is_terminal:
        console.file.write("\x1b[3J")
        console.file.flush()


#: What undo may take back, for help and for a refused undo.
UNDO_RULE = (
    "undo takes back your moves of this turn, but never a draw from the stock (it showed "
    "you a card) nor anything before it, and never your opponent's reply"
)


def undo_point(actions: list[tuple[int, str]], player: int) -> int | None:
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
        if actions[i][1] == "draw":
            keep = i + 1
    return keep if keep < len(actions) else None


class TableLoop:
    """Plays games and sessions between two seats, showing the table to the humans."""

    def __init__(
        self,
        console: Console,
        session: PromptSession[str] | None,
        seats: Sequence[Seat],
        humans: tuple[bool, bool],
        theme: Theme,
        delay: float = 0.6,
        sleep: Callable[[float], None] = time.sleep,
        save: Callable[[], None] | None = None,
    ) -> None:
        self.console = console
        self.session = session
        self.seats = list(seats)
        self.humans = humans
        self.names = (visible(seats[0].name), visible(seats[1].name))
        self.theme = theme
        self.delay = delay
        self.sleep = sleep
        self.save = save or (lambda: None)  # called after every deal and action
        self.driver = Driver(self.seats, [lambda hand, player, action: self.save()])
        # Undo is for practice against the bot, never between two people.
        self.allow_undo = humans.count(True) == 1
        self._shown_to: int | None = None  # whose hand is on screen
        self._seen = [0, 0]  # history entries each player has been told about

    # ------------------------------------------------------------ top level

    def play_session(self, session: Session) -> None:
        if session.game.is_over and not session.is_over:
            session.next_game()  # resumed between two games
        while True:
            number = len(session.games)
            self.play_game(session.game, number, session)
            if session.is_over:
                winner = session.winner or 1
                self.console.print(
                    shown(f"Winner of the session: {self.names[winner - 1]}.", "bold green")
                )
                return
            self.pause(f"Press Enter to start game {number + 1}.")
            session.next_game()

    def play_game(self, game: Game, number: int = 1, session: Session | None = None) -> None:
        if game.cut is not None and number == 1 and not game.hands:
            a, b = game.cut
            self.console.print(
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
            table = TableInfo(self.names, info.totals, info.hand_number, number)
            self._play_hand(game, info, table)
            hand = game.hands[-1]
            self._last_look(hand, table)
            nxt = None if game.is_over else game.dealer
            self._end_of_hand(hand, table, nxt)
        winner = game.winner or 1
        wins = session.wins if session is not None else None
        if self.session is not None and any(self.humans):
            # The last hand's scores and the game's would not fit one 80x24 screen together.
            self.pause("Press Enter for the result of the game.")
            self.console.clear()
        self.console.print(
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
        return None

    def _play_hand(self, game: Game, info: GameInfo, table: TableInfo) -> None:
        hand = game.hands[-1]
        redraw = True
        while not hand.is_over:
            mover = hand.to_move
            assert mover is not None
            human = self.humans[mover - 1]
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
                if self.session is not None and ask_yes(self.session, "Leave the game?"):
                    raise QuitGame from None
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
                self.console.print(shown(str(refusal), "red"))
                redraw = False  # keep the table and the message on screen
                continue
            if viewer is not None and not human:
                view = hand.view(viewer)
                said = phrase(view.events[-1], self.theme)
                self._show(view, table, shown(f"{self.names[mover - 1]} {said}.", "italic"))
                self._wait(self.delay)
            nxt = hand.to_move
            redraw = human or (nxt is not None and self.humans[nxt - 1])

    def _undo_point(self, hand: Hand, player: int) -> int | None:
        """How many actions to keep to go back to the start of ``player``'s turn (or the
        one before); None, with the reason on screen, where there is nothing to undo."""
        if not self.allow_undo:
            self.console.print(Text("undo is for games against the bot only.", "yellow"))
            return None
        target = undo_point(played(hand), player)
        if target is None:
            self.console.print(Text(f"There is nothing to undo: {UNDO_RULE}.", "yellow"))
        return target

    def _hand_over_to(self, viewer: int) -> None:
        if all(self.humans) and self.session is not None:
            # Hot seat: never leave a hand on screen, or in the scrollback, while the
            # other player looks.
            wipe(self.console)
            dash = self.theme.dash
            self.pause(f"Pass to {self.names[viewer - 1]} {dash} press Enter when ready.")
        self._shown_to = viewer

    def _show(self, view: PlayerView, table: TableInfo, note: Text | None) -> None:
        width, height = self.console.size
        self.console.clear()
        self.console.print(render_table(view, table, self.theme, width, height))
        if note is not None:
            self.console.print(note)

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
        if self.session is None or not any(self.humans):
            return
        viewer = self._shown_to or (1 if self.humans[0] else 2)
        view = hand.view(viewer)
        self._show(view, table, self._news(view.events, viewer, own=True))
        self.pause("Hand over. Press Enter for the scores.")

    def _end_of_hand(self, hand: Hand, table: TableInfo, next_dealer: int | None) -> None:
        self.console.clear()
        self.console.print(
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
            self.pause("Press Enter to deal the next hand.")

    # -------------------------------------------------------------- pauses

    def _wait(self, seconds: float) -> None:
        """The pause after a bot's move; Ctrl-C here asks to leave, like anywhere."""
        try:
            self.sleep(seconds)
        except KeyboardInterrupt:
            if self.session is not None and ask_yes(self.session, "Leave the game?"):
                raise QuitGame from None

    def pause(self, message: str) -> None:
        """Wait for Enter if a person is playing; Ctrl-C or Ctrl-D ask to leave."""
        if self.session is None or not any(self.humans):
            return
        try:
            plain_prompt(self.session, message + " ")
        except (KeyboardInterrupt, EOFError):
            if ask_yes(self.session, "Leave the game?"):
                raise QuitGame from None
