"""The plain screen (``--plain``): the game said in short lines, for screen readers.

A screen reader reads every character a program prints, so this screen prints
words, never pictures: each turn of the other player as one line made from its
typed events (``Bot took 9♣ from the discard pile, melded 4♣ 3♣ 2♣, discarded
8♣.``, the move log's own phrases), each of your moves as it is made, then your
hand and what is asked.  The whole table is said only when asked for (the
``table`` command), and tables such as a hand's scores are printed without
their borders.  No card backs, no ruled lines, no toolbar.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from umtali.engine.cards import Card
from umtali.engine.events import Event
from umtali.engine.melds import PieceKind
from umtali.engine.view import Piece, PlayerView, Step
from umtali.ui.narrate import Forfeit, phrase
from umtali.ui.render import MIN_HEIGHT, MIN_WIDTH, TableInfo, playable_cards, step_text
from umtali.ui.screen import LineScreen, Toolbar
from umtali.ui.text import Trimmed
from umtali.ui.theme import Theme


def card_words(cards: Sequence[Card], theme: Theme) -> str:
    return " ".join(theme.plain(card) for card in cards)


def piece_words(piece: Piece, theme: Theme) -> str:
    """One piece on the table: ``run 5♠ 4♠ 3♠``, ``10♦ off J♦``."""
    cards = card_words(piece.cards, theme)
    if piece.kind is PieceKind.SOLO:
        return cards if piece.off is None else f"{cards} off {theme.plain(piece.off)}"
    return f"{piece.kind.label} {cards}"


def side_words(name: str, side: Sequence[Piece], theme: Theme) -> str:
    laid = ", ".join(piece_words(piece, theme) for piece in side) or "nothing"
    return f"{name} {'have' if name == 'You' else 'has'} laid {laid}."


def hand_words(view: PlayerView, theme: Theme) -> str:
    """The viewer's hand, a comma between suits, and which cards may be played."""
    suits: list[list[Card]] = []
    for card in view.hand:
        if suits and suits[-1][0].suit == card.suit:
            suits[-1].append(card)
        else:
            suits.append([card])
    held = ", ".join(card_words(suit, theme) for suit in suits) or "no cards"
    line = f"Your hand: {held}."
    playable = [card for card in view.hand if card in playable_cards(view)]
    if playable and view.step is Step.PLAY:
        line += f" Playable: {card_words(playable, theme)}."
    return line


def turn_words(events: Sequence[Event], names: tuple[str, str], theme: Theme) -> list[str]:
    """Each run of one player's moves as one line after their name."""
    runs: list[tuple[int, list[str]]] = []
    for event in events:
        words = phrase(event, theme)
        if runs and runs[-1][0] == event.player:
            runs[-1][1].append(words)
        else:
            runs.append((event.player, [words]))
    return [f"{names[player - 1]} {', '.join(said)}." for player, said in runs]


def table_words(view: PlayerView, info: TableInfo, theme: Theme) -> list[str]:
    """The whole table from the viewer's seat, as sentences."""
    me, opp = view.player - 1, 2 - view.player
    names = info.names

    def points(who: int) -> str:
        here = view.scores[who]
        return f"{here} points this hand, {info.totals[who] + here} in the game"

    held = view.opponent_hand_size
    lines = [
        f"{where(info)}.",
        f"{names[opp]}: {held} card{'s' if held != 1 else ''} in hand"
        + (f", {points(opp)}." if info.points else "."),
        side_words(names[opp], view.sides[opp], theme),
    ]
    if view.opponent_known:
        lines.append(
            f"{names[opp]} holds {card_words(view.opponent_known, theme)}, taken from the pile."
        )
    if view.discard_top is not None:
        pile = f"discard {theme.plain(view.discard_top)} ({view.discard_size} in the pile)"
    else:
        pile = "the discard is face down" if view.discard_down else "the discard pile is empty"
    lines.append(f"Stock {view.stock_size}, {pile}.")
    if view.rules.take_deep and len(view.discard_pile) > 1:
        lines.append(f"The pile, bottom to top: {card_words(view.discard_pile, theme)}.")
    lines.append(f"{names[me]}: {points(me)}." if info.points else "")
    lines.append(side_words(names[me], view.sides[me], theme))
    if view.hidden_hand is None:
        lines.append(hand_words(view, theme))
    lines.append(step_text(view, names, theme, info.seat == "you"))
    return [line for line in lines if line]


def where(info: TableInfo) -> str:
    """Which hand of which game (or which lesson) the table is."""
    return info.label or f"Hand {info.hand_number}, game {info.game_number}"


def unboxed(renderable: RenderableType) -> RenderableType:
    """``renderable`` without borders or columns: a panel's title becomes a line of its
    own, and a table one line a row (:func:`rows_said`)."""
    if isinstance(renderable, Panel):
        title = renderable.title
        inner = unboxed(renderable.renderable)
        return Group(Text(title) if isinstance(title, str) else title, inner) if title else inner
    if isinstance(renderable, Table):
        return rows_said(renderable)
    if isinstance(renderable, Group):
        return Group(*(unboxed(part) for part in renderable.renderables))
    return renderable


def rows_said(table: Table) -> Group:
    """A table as lines, for a screen reader: its title, then a line a row (the header's
    first), each the row's cells in order, ``first: second, third``.

    Columns laid side by side are read across, padding and all, and a title centred
    over them starts with a run of spaces; a line a row reads as it is meant.  Empty
    cells are left out, so a row that goes on a row above reads ``this hand: 25``.
    """
    lines: list[RenderableType] = []
    if table.title:
        lines.append(_cell(table.title))
    rows = [[_cell(column.header) for column in table.columns]] if table.show_header else []
    rows += [
        [_cell(cell) for cell in cells]
        for cells in zip(*(column.cells for column in table.columns), strict=True)
    ]
    for cells in rows:
        said = [cell for cell in cells if cell.plain.strip()]
        line = Text()
        for n, cell in enumerate(said):
            if n == 1 and line.plain.endswith((":", ".")):  # ``Legal now:``, `` 1.``
                line.append(" ")
            elif n == 1 and ":" not in line.plain:
                line.append(": ")
            elif n:
                line.append(", ")
            line.append_text(cell)
        lines.append(line)
    return Group(*lines)


def _cell(cell: RenderableType) -> Text:
    """One cell of a table as a line of text, its runs of spaces made one."""
    if isinstance(cell, Text):
        text = cell.copy()
    elif isinstance(cell, str):
        text = Text.from_markup(cell)  # as the table itself would read it
    else:
        console = Console(width=200, color_system=None, legacy_windows=False)
        with console.capture() as captured:
            console.print(cell)
        text = Text(captured.get())
    text.rstrip()
    text = text[len(text.plain) - len(text.plain.lstrip()) :]  # `` 1.`` lined up to ``10.``
    if "  " in text.plain:  # spaces that lined a column up (``draw  (d)``)
        text = Text(" ".join(text.plain.split()), style=text.style)
    return text


class SpokenScreen(LineScreen):
    """The line-by-line screen of ``--plain``: moves said in words, the table on request."""

    def __init__(
        self,
        console: Console,
        session: PromptSession[str] | None,
        theme: Theme,
        sleep: Callable[[float], None] = time.sleep,
        rules: Callable[[], None] | None = None,
        echo: bool = False,
    ) -> None:
        super().__init__(console, session, theme, sleep, rules, echo)
        # Events already said, by (lesson, game, hand, seat whose view it is).
        self._told: dict[tuple[str, int, int, int], int] = {}
        self._last: tuple[PlayerView, TableInfo] | None = None  # for the table command
        self._asked_of: PlayerView | None = None  # the view whose question was last said
        # The view whose hand and question the next prompt says, with its table's info.
        self._pending: tuple[PlayerView, TableInfo] | None = None
        self._out: set[tuple[str, int, int, int]] = set()  # hands whose going out was said
        self._ended: set[tuple[str, int, int, int]] = set()  # hands whose end was said

    def size(self) -> tuple[int, int]:
        # No table is drawn, so no terminal is too small for it.
        width, height = self.console.size
        return max(width, MIN_WIDTH), max(height, MIN_HEIGHT)

    def _line(self, words: str) -> None:
        # Never cut into lines here: the terminal wraps, a screen reader reads on.
        self.console.print(words, highlight=False, markup=False, soft_wrap=True)

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        # The note tells the last moves; they are said here from the events themselves.
        self._last = (view, info)
        self._pending = None
        key = (info.label, info.game_number, info.hand_number, view.player)
        if key not in self._told:
            self._line(f"{where(info)}.")
        told = min(self._told.get(key, 0), len(view.events))  # an undo takes events back
        fresh = view.events[told:]
        # A turn is said once it is over, as one line; only a person's own moves are
        # said as they are made (a watcher is told the watched bot's turns whole).
        end = len(fresh)
        mover = view.to_move
        live = mover == view.player and info.seat == "you"
        while end and mover is not None and not live and fresh[end - 1].player == mover:
            end -= 1
        self._told[key] = told + end
        for line in turn_words(fresh[:end], info.names, self.theme):
            self._line(line)
        if not info.label:  # a lesson's tutor says these in words of its own
            self._ending(key, view, info)
        if view.step is Step.OVER:
            # The prompt after it (or the scores' title) says that the hand is over.
            return
        asked = mover == view.player and view.hidden_hand is None and info.seat == "you"
        if asked and view != self._asked_of:
            if info.label:  # a lesson or a quiz: the table is what it is about
                self._asked_of = view
                for line in table_words(view, info, self.theme)[1:]:  # where was said
                    self._line(line)
                return
            # Said when the prompt asks, not now: ``all`` shows a table after each card
            # it plays, and only the last one is asked about.
            self._pending = (view, info)

    def _ending(self, key: tuple[str, int, int, int], view: PlayerView, info: TableInfo) -> None:
        """Said once a hand: who went out (before the other's last turn, which the
        prompt calls LAST TURN), and, as the hand ends, what was forfeited to them."""
        if view.went_out is not None and key not in self._out:
            self._out.add(key)
            self._line(f"{info.names[view.went_out - 1]} went out.")
        # The hand's last turn is shown before the loop knows the forfeit: it is said
        # by the first table that carries it.
        if view.step is Step.OVER and info.forfeited and key not in self._ended:
            self._ended.add(key)
            if view.went_out is not None:
                by = 3 - view.went_out
                forfeit = Forfeit(by, info.forfeited, view.rules).words(info.names, self.theme)
                self._line(f"{info.names[by - 1]} {forfeit}.")

    def whole_table(self, view: PlayerView) -> None:
        """The table as ``view`` (the asking seat's) has it, in words (the ``table``
        command); the names and scores around it are the last table's."""
        if self._last is None:
            self._line("No table yet.")
            return
        _, info = self._last
        for line in table_words(view, info, self.theme):
            self._line(line)

    def show(self, renderable: RenderableType) -> None:
        self.console.print(Trimmed(unboxed(renderable)))

    def page(self, renderable: RenderableType, title: str) -> None:
        super().page(Trimmed(unboxed(renderable)), title)

    def say_what_is_asked(self) -> None:
        """The hand and what is asked, where the last table asks the player to move:
        said as a prompt opens (a screen that asks its own way calls this first)."""
        pending, self._pending = self._pending, None
        if pending is not None:
            view, info = pending
            self._asked_of = view
            self._line(hand_words(view, self.theme))
            self._line(step_text(view, info.names, self.theme))

    def ask(
        self, message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        if self.session is not None:
            self.session.bottom_toolbar = None  # no toolbar: what is asked was said
        self.say_what_is_asked()
        try:
            return super().ask(message, None, completer)
        finally:
            # An empty line asks for the table again: the hand and question are said anew.
            self._asked_of = None
