"""Stepping through a recorded game on the table view, both hands face up.

Enter shows the next action, ``b`` goes back one, ``n`` jumps to the next
hand, ``q`` leaves; anything else is answered with the keys.  In the full-screen
viewer every key acts (or is refused) as it is typed, without Enter, and the arrow
keys step as on the review board: → next, ← back, ↓ the next hand, ↑ the hand's
start (then the hand before); its toolbar lists them.  Each seat
stays where it sits all game long, the first player's at the bottom, whoever is to
move.  Each position is rebuilt by replaying the hand's actions from its deal, so
going back is as exact as going forward.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text

from umtali.engine.events import NOT_PLAYED
from umtali.engine.hand import Hand, replay
from umtali.engine.match import Game, Session
from umtali.engine.record import PlayerInfo
from umtali.ui.narrate import Forfeit, phrase
from umtali.ui.render import TableInfo, render_table
from umtali.ui.screen import OneKey, Screen
from umtali.ui.text import shown, visible
from umtali.ui.theme import Theme

#: The keys that step through a replay: back, next hand, quit (Enter, typed as
#: nothing, steps forward).
KEYS = "bnq"
#: ↑'s answer: to this hand's first position, or from there the hand before's.  No
#: letter, so a line screen's keys (``--plain``) stay as they were.
EARLIER = "↑"
#: What each arrow answers on the full-screen viewer, as the keys typed would.
ARROWS = {"right": "", "left": "b", "down": "n", "up": EARLIER}
#: The seat drawn at the bottom of the table, at every step.
BOTTOM = 1
MOVES = ("", *KEYS)


@dataclass(frozen=True, slots=True)
class Position:
    game: int  # index into the match's games
    hand: int  # index into that game's hands
    step: int  # actions played so far in that hand


class ReplayViewer:
    def __init__(
        self,
        match: Game | Session,
        players: tuple[PlayerInfo, PlayerInfo],
        screen: Screen,
        theme: Theme,
        resigned: bool = False,
    ) -> None:
        self.games = match.games if isinstance(match, Session) else [match]
        # A resigned game ended in the hand it stands at: that hand is over, and shown.
        self.resigned = resigned
        self.names = (visible(players[0].name), visible(players[1].name))
        self.screen = screen
        self.theme = theme

    def positions(self) -> list[Position]:
        """Every position of every finished hand.  A hand still in play is left out:
        its hands and its stock are secret until it ends (a hot-seat player must not
        replay the autosave to see the other's cards, nor anyone the bot's)."""
        out = []
        for g, game in enumerate(self.games):
            for h, hand in enumerate(game.hands):
                if hand.is_over or self._resigned_in(g, h):
                    out += [Position(g, h, k) for k in range(len(hand.played()) + 1)]
        return out

    def _resigned_in(self, game: int, hand: int) -> bool:
        """Whether the game was resigned in this hand: the record's last."""
        last = len(self.games) - 1
        return self.resigned and game == last and hand == len(self.games[last].hands) - 1

    def state_at(self, pos: Position) -> Hand:
        hand = self.games[pos.game].hands[pos.hand]
        return replay(hand.deal, hand.played()[: pos.step], hand.rules)

    def show(self, pos: Position) -> None:
        state = self.state_at(pos)
        game = self.games[pos.game]
        done = game.results[: pos.hand]
        totals = (sum(r.scores[0] for r in done), sum(r.scores[1] for r in done))
        mover = state.to_move
        info = TableInfo(self.names, totals, pos.hand + 1, pos.game + 1)
        width, height = self.screen.size()
        parts: list[RenderableType] = [
            render_table(
                state.view(BOTTOM),
                info,
                self.theme,
                width,
                height,
                reveal=state.cards_in_hand(3 - BOTTOM),
                turn=state.view(mover) if mover is not None and mover != BOTTOM else None,
            )
        ]
        moves = [e for e in state.events() if e.kind not in NOT_PLAYED]
        if moves:
            last = moves[-1]
            said = phrase(last, self.theme)
            parts.append(shown(f"{self.names[last.player - 1]} {said}.", "italic"))
        if state.is_over:
            final = pos.hand == len(game.hands) - 1
            parts += self._hand_over(state, game if final and game.is_over else None)
        elif self._resigned_in(pos.game, pos.hand) and pos.step == len(
            self.games[pos.game].hands[pos.hand].played()
        ):
            parts.append(Text("The game was resigned here.", style="bold"))
        self.screen.show(Group(*parts))

    def _hand_over(self, hand: Hand, game: Game | None) -> list[Text]:
        """A hand's end as its last position says it: who went out (or that nobody did),
        what the other was left holding and what it was worth, the hand's scores; and,
        where ``game`` ended with this hand, who won it."""
        names = self.names
        if hand.went_out is None:
            how = "Hand over: nobody went out, a dead hand."
        else:
            how = f"Hand over: {names[hand.went_out - 1]} went out"
            if hand.forfeited:
                by = 3 - hand.went_out
                forfeit = Forfeit(by, hand.forfeited, hand.rules).words(names, self.theme)
                how += f"; {names[by - 1]} {forfeit}"
            how += "."
        a, b = hand.scores
        lines = [shown(how, "bold"), shown(f"This hand: {names[0]} {a}, {names[1]} {b}.", "bold")]
        if game is not None and game.winner is not None:
            won, lost = sorted(game.totals, reverse=True)
            said = f"Game over: {names[game.winner - 1]} won, {won} to {lost}."
            lines.append(shown(said, "bold green"))
        return lines

    def prompt(self, at: int, of: int) -> str:
        dot = self.theme.dot
        return f"[{at}/{of}] Enter: next {dot} b: back {dot} n: next hand {dot} q: quit > "

    def toolbar(self, columns: int) -> str:
        """The full-screen viewer's keys, arrows first, in as few words as fit."""
        dot = self.theme.dot
        ascii_ = self.theme.ascii
        right, left, down, up = ("->", "<-", "down", "up") if ascii_ else ("→", "←", "↓", "↑")
        for words in (
            (f"{right} next", f"{left} back", f"{down} next hand", f"{up} hand before", "q quit"),
            (f"{right} next", f"{left} back", f"{down}{up} hand", "q quit"),
        ):
            text = f" {dot} ".join(words)
            if len(text) < columns:
                return text
        return text[: max(0, columns - 1)]

    def run(self) -> list[str]:
        """Step through the record; returns what to say once the screen is gone."""
        positions = self.positions()
        if not positions:
            return [
                "This record holds no finished hand yet: a hand in play is shown once it has ended."
            ]
        i = 0
        shown_at = None
        while True:
            if shown_at != i:
                self.show(positions[i])
                shown_at = i
            try:
                asked = OneKey(self.prompt(i + 1, len(positions)), keys=None, arrows=ARROWS)
                key = self.screen.ask(asked, self.toolbar).strip().lower()
            except (KeyboardInterrupt, EOFError):
                return []
            if key not in MOVES and key != EARLIER:
                dot = self.theme.dot
                self.screen.say(
                    shown(
                        f"{key!r} is not a replay key. Enter: next {dot} b: back {dot} "
                        f"n: next hand {dot} q: quit.",
                        "yellow",
                    )
                )
                continue
            if key == "q":
                return []
            if key == "b":
                i = max(0, i - 1)
            elif key == "n":
                here = positions[i]
                later = [
                    j
                    for j in range(i + 1, len(positions))
                    if (positions[j].game, positions[j].hand) != (here.game, here.hand)
                ]
                i = later[0] if later else len(positions) - 1
            elif key == EARLIER:
                i = hand_start(positions, i)
            else:
                i = min(len(positions) - 1, i + 1)


def hand_start(positions: list[Position], i: int) -> int:
    """The first position of the hand at ``i``, or where ``i`` is that already, the
    first of the hand before (as the review board's ↑)."""

    def hand_of(j: int) -> tuple[int, int]:
        return positions[j].game, positions[j].hand

    start = i
    while start > 0 and hand_of(start - 1) == hand_of(i):
        start -= 1
    if start < i or start == 0:
        return start
    before = start - 1
    while before > 0 and hand_of(before - 1) == hand_of(start - 1):
        before -= 1
    return before
