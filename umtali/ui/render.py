"""Views to rich renderables: the table, the end-of-hand panel, the game's end.

Pure functions: they read a view (never the full state) and return
something rich can print, so tests render to a recording console and
compare text.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.bots.seat import possessive
from umtali.engine.actions import ActionKind
from umtali.engine.cards import Card, mask_of, rummy_points
from umtali.engine.melds import PieceKind
from umtali.engine.rules import CLASSIC, RuleSet
from umtali.engine.view import Piece, PlayerView, Step
from umtali.ui.theme import DEFAULT_THEME, Theme

MIN_WIDTH = 64
MIN_HEIGHT = 20
COLUMN = 5  # characters per table column, gap included
RESERVED = 3  # lines kept free under the table: a message, the prompt, the toolbar

LABELS = {
    PieceKind.RUN: "run",
    PieceKind.GROUP: "grp",
    PieceKind.MARRIAGE: "marr",
    PieceKind.PAIR: "pair",
    PieceKind.SOLO: "solo",
}


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the table shows around a view: who sits where and the running totals.

    The names are shown as they are: whoever builds a TableInfo passes them through
    :func:`umtali.ui.text.visible` first.
    """

    names: tuple[str, str]
    totals: tuple[int, int] = (0, 0)  # game totals before this hand
    hand_number: int = 1
    game_number: int = 1
    seat: str = "you"  # who sits in the lower seat, after its name ("watched" for a watcher)
    label: str = ""  # said instead of the hand and game numbers (a lesson, a quiz question)
    points: bool = True  # False hides the scores (a quiz question that asks for them)
    daily: bool = False  # the deal of the day (``umtali play --daily``), said so
    # Once a hand is over: the cards the player who did not go out forfeited to the
    # one who did (the move log's last entry).
    forfeited: tuple[Card, ...] = ()


class SizeNotice(Text):
    """A message about the terminal's size (a move refused on a table too small to
    show): the full-screen table drops it once the terminal is large enough again."""


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


def render_too_small(width: int, height: int, theme: Theme = DEFAULT_THEME) -> RenderableType:
    x = theme.by
    return Text(
        f"This terminal is {width}{x}{height}; Umtali needs at least "
        f"{MIN_WIDTH}{x}{MIN_HEIGHT}.\nPlease make the window larger, then press Enter.",
        style="bold",
    )


def _column(piece: Piece, theme: Theme, cap: int) -> list[Text]:
    cards = list(piece.cards)
    cells = [theme.card(c) for c in cards]
    if len(cells) > cap:
        cells = [*cells[: cap - 2], Text(theme.cut, style="dim"), cells[-1]]
    label = LABELS[piece.kind]
    return [*cells, Text(label, style="dim italic")]


def render_side(side: Sequence[Piece], theme: Theme, width: int, rows: int) -> list[Text]:
    """A side of the table as lines: one overlapped column per piece, in play order."""
    if not side:
        return [Text("  (nothing laid yet)", style="dim")]
    per_row = max(1, (width - 2) // COLUMN)
    chunks = [side[i : i + per_row] for i in range(0, len(side), per_row)]
    # Share the rows among the wrapped chunks; each needs one line for labels.
    cap = max(3, rows // len(chunks) - 1)
    lines: list[Text] = []
    for chunk in chunks:
        columns = [_column(p, theme, cap) for p in chunk]
        depth = max(len(c) for c in columns)
        for r in range(depth):
            line = Text("  ")
            for col in columns:
                # Labels sit on the last line of every column so they line up.
                cell = col[-1] if r == depth - 1 else (col[r] if r < len(col) - 1 else Text(""))
                line.append_text(cell)
                line.append(" " * (COLUMN - cell.cell_len))
            lines.append(line)
    return lines


def _bar(left: Text, right: str, width: int, theme: Theme) -> Text:
    line = Text()
    line.append_text(left)
    gap = max(1, width - left.cell_len - len(right) - 2)
    line.append(" " + theme.rule * gap + " ", style="dim")
    line.append(right)
    return line


def playable_cards(view: PlayerView) -> set[Card]:
    cards: set[Card] = set()
    for action in view.legal:
        if action.kind in (ActionKind.MELD, ActionKind.PLAY):
            cards.update(action.cards)
    return cards


def render_hand(view: PlayerView, theme: Theme) -> Text:
    """The player's cards, by suit then rank, playable ones underlined."""
    return hand_line(view.hand, theme, playable_cards(view))


def hand_line(cards: Sequence[Card], theme: Theme, playable: Collection[Card] = ()) -> Text:
    """A hand's cards as they lie (by suit, then rank), a wider gap between suits, the
    ``playable`` ones underlined: how every hand face up is drawn."""
    line = Text("  ")
    suit = None
    for card in cards:
        if suit is not None:
            line.append("   " if card.suit != suit else " ")
        suit = card.suit
        line.append_text(theme.card(card, "underline" if card in playable else ""))
    if not cards:
        line.append("(no cards)", style="dim")
    return line


def step_text(
    view: PlayerView, names: tuple[str, str], theme: Theme = DEFAULT_THEME, you: bool = True
) -> str:
    """Whose turn it is and what they must do, from the viewer's side; ``you`` False
    names the seat instead (a replay or a watched game, where nobody is "you")."""
    if view.step is Step.OVER or view.to_move is None:
        return "The hand is over."
    dash = theme.dash
    your = "Your" if you else possessive(names[view.player - 1])
    last = f" {dash} LAST TURN" if view.last_turn else ""
    if view.to_move != view.player or view.hidden_hand is not None:
        return f"{names[view.to_move - 1]} is playing{last}."
    if view.step is Step.DRAW:
        if view.discard_down:
            return f"{your} turn: draw from the stock (the discard is face down){last}"
        return f"{your} turn: {', '.join(view.legal_actions)}{last}"
    optional = not view.rules.mandatory_play
    if view.step is Step.PLAY:
        n = len(playable_cards(view))
        cards = f"{n} card{'s' if n != 1 else ''}"
        if not optional:
            return f"{your} turn: play {dash} {cards} still playable{last}"
        if view.must_play:
            must = " ".join(str(c) for c in view.must_play)
            return f"{your} turn: play {dash} {must} must go down this turn{last}"
        if view.last_turn:
            return f"{your} turn: play what you like ({cards} playable), then end{last}"
        return f"{your} turn: play what you like ({cards} playable), then discard"
    if view.last_turn:
        return f"{your} last turn: discard only to go out"  # says LAST TURN already
    return f"{your} turn: discard one card to end it"


def render_pile(view: PlayerView, theme: Theme, width: int) -> Text | None:
    """Practical's fanned discard pile, bottom to top (the newest cards if it is long)."""
    if not view.rules.take_deep or len(view.discard_pile) < 2:
        return None
    line = Text("  Pile ", style="bold")
    room = (width - 12) // 3
    cards = list(view.discard_pile)
    if len(cards) > room:
        line.append(theme.ellipsis + " ", style="dim")
        cards = cards[-room:]
    line.append_text(theme.cards(cards))
    return line


def render_table(
    view: PlayerView,
    info: TableInfo,
    theme: Theme,
    width: int,
    height: int,
    reveal: Sequence[Card] | None = None,
    turn: PlayerView | None = None,
) -> RenderableType:
    """The whole table from ``view.player``'s seat: opponent on top, you below,
    leaving RESERVED lines of the ``height`` free for what goes under it.

    ``reveal`` shows the opponent's cards instead of their backs (a replay, where
    nothing is hidden any more, and nobody is "you"): both hands are then drawn
    alike, face up.  ``turn`` is the view of the player to move where that is the
    other seat (a replay keeps each seat where it sits): the line under the table
    says what they are to do.
    """
    if too_small(width, height):
        return render_too_small(width, height, theme)
    return draw_table(view, info, theme, width, height - RESERVED, reveal, turn=turn)


def draw_table(
    view: PlayerView,
    info: TableInfo,
    theme: Theme,
    width: int,
    rows: int,
    reveal: Sequence[Card] | None = None,
    on_top: bool = False,
    turn: PlayerView | None = None,
) -> RenderableType:
    """The table in ``rows`` lines (when it can be: the columns of cards shrink to
    fit), whatever the size; :func:`render_table` checks the size first.  ``on_top``
    draws the viewer's seat on top, its hand face up, and the other seat below (a
    review keeps the reviewed player at the bottom at the other seat's decisions)."""
    me, opp = view.player - 1, 2 - view.player
    names = info.names
    pile = render_pile(view, theme, width)
    fixed = 7 + (1 if view.opponent_known else 0) + (1 if reveal is not None else 0)
    fixed += 1 if pile is not None else 0
    room = rows - fixed
    # Each side gets the rows it needs when both fit; otherwise they share and
    # tall columns are shortened.
    natural = [len(render_side(side, theme, width, 99)) for side in view.sides]
    if sum(natural) <= room:
        rows_for = natural
    else:
        half = max(4, room // 2)
        rows_for = [min(n, max(half, room - natural[1 - i])) for i, n in enumerate(natural)]

    def header(who: int, extra: str) -> Text:
        pts = view.scores[who]
        right = f"{pts} points {theme.dot} {info.totals[who] + pts} in the game"
        if not info.points:
            right = "? points"
        elif info.label:
            right = f"{pts} points"  # a lesson is no game
        left = Text(f" {names[who]}", style="bold")
        left.append(extra, style="dim")
        return _bar(left, right, width, theme)

    def holding(count: int, backs: bool) -> str:
        """What a header says of a hand: how many cards, after their backs if hidden."""
        cards = f"{count} card{'s' if count != 1 else ''}"
        return f" {theme.back * count} {cards}" if backs else f" {cards}"

    lines: list[Text] = []
    theirs = [header(opp, holding(view.opponent_hand_size, reveal is None))]
    if reveal is not None:
        theirs.append(hand_line(reveal, theme))
    mark = "" if names[me] == "You" or reveal is not None else f" ({info.seat})"
    if view.hidden_hand is not None:  # a spectator's table: no hand is shown
        mine = [header(me, holding(view.hidden_hand, True))]
    elif reveal is not None:  # face up, as the hand across the table is
        mine = [header(me, holding(len(view.hand), False)), hand_line(view.hand, theme)]
    else:
        mine = [header(me, mark), render_hand(view, theme)]
    if on_top:
        lines += mine + render_side(view.sides[me], theme, width, rows_for[me])
    else:
        lines += theirs + render_side(view.sides[opp], theme, width, rows_for[opp])
    middle = Text(f"  Stock {view.stock_size:>2}", style="bold")
    middle.append("    Discard ", style="bold")
    if view.discard_top is not None:
        middle.append_text(theme.card(view.discard_top))
        middle.append(f"  ({view.discard_size} in the pile)", style="dim")
    elif view.discard_down:
        middle.append("face down", style="italic")
    else:
        middle.append("empty", style="dim")
    where = info.label or f"Hand {info.hand_number} {theme.dot} game {info.game_number}"
    if info.daily and not info.label:
        where = f"Daily deal {theme.dot} hand {info.hand_number}"
    middle.append(f"    {where}", style="dim")
    if view.rules is not CLASSIC:
        middle.append(f" {theme.dot} {view.rules.name}", style="dim")
    lines.append(Text(""))
    lines.append(middle)
    if pile is not None:
        lines.append(pile)
    if view.opponent_known:
        known = Text(f"  {names[opp]} holds ", style="dim")
        known.append_text(theme.cards(view.opponent_known))
        known.append(" (taken from the pile)", style="dim")
        lines.append(known)
    lines.append(Text(""))
    if on_top:
        lines += render_side(view.sides[opp], theme, width, rows_for[opp]) + theirs
    else:
        lines += render_side(view.sides[me], theme, width, rows_for[me]) + mine
    you = reveal is None and info.seat == "you"
    said = step_text(turn or view, names, theme, you)
    lines.append(Text(" " + said, style="bold cyan"))
    return Group(*lines)


def _piece_points(piece: Piece) -> int:
    return piece.points(CLASSIC)


def _piece_text(piece: Piece, theme: Theme) -> Text:
    """One laid piece with its points: ``run 4♠ 3♠ 2♠ (3)``, ``marriage K♦ Q♦ (20: 10 each)``
    (a king or queen is worth 5 alone, so a marriage says what its two score)."""
    out = Text()
    if piece.kind is not PieceKind.SOLO:
        out.append(f"{piece.kind.label} ", style="dim")
    out.append_text(theme.cards(piece.cards))
    points = _piece_points(piece)
    each = f": {points // 2} each" if piece.kind is PieceKind.MARRIAGE else ""
    out.append(f" ({points}{each})", style="dim")
    return out


def render_hand_end(
    sides: tuple[tuple[Piece, ...], tuple[Piece, ...]],
    scores: tuple[int, int],
    went_out: int | None,
    forfeited: Sequence[Card],
    info: TableInfo,
    next_dealer: int | None,
    theme: Theme,
    rules: RuleSet = CLASSIC,
) -> RenderableType:
    """Each side's cards and points, the forfeits, the totals and the next dealer.

    Each player's pieces share one wrapped row, so the panel stays short
    enough for an 80×24 terminal even after a long hand.
    """
    if rules.hand_scoring:
        return _rummy_hand_end(sides, scores, went_out, forfeited, info, next_dealer, theme)
    table = Table(title=f"Hand {info.hand_number} is over", expand=False, box=theme.box)
    table.add_column("player", style="bold")
    table.add_column("cards laid (points)", max_width=58)
    table.add_column("points", justify="right")
    for who in (0, 1):
        laid = Text(f" {theme.dot} ", style="dim").join(_piece_text(p, theme) for p in sides[who])
        if not sides[who]:
            laid = Text("nothing laid", style="dim")
        table_points = sum(_piece_points(p) for p in sides[who])
        table.add_row(Text(info.names[who]), laid, str(table_points))
        if went_out == who + 1 and forfeited:
            row = Text(f"forfeited by {info.names[1 - who]}: ", style="dim")
            row.append_text(theme.cards(list(forfeited)))
            table.add_row("", row, str(sum(c.points for c in forfeited)))
        table.add_row("", Text("this hand", style="bold"), Text(str(scores[who]), style="bold"))
        if who == 0:
            table.add_section()
    lines: list[RenderableType] = [table]
    if went_out is None:
        lines.append(Text("Nobody went out: a dead hand, nothing forfeited.", style="italic"))
    else:
        lines.append(Text(f"Went out first: {info.names[went_out - 1]}.", style="italic"))
    return Group(*lines, *_totals_lines(scores, info, next_dealer, theme))


def _totals_lines(
    scores: tuple[int, int], info: TableInfo, next_dealer: int | None, theme: Theme
) -> list[RenderableType]:
    totals = (info.totals[0] + scores[0], info.totals[1] + scores[1])
    lines: list[RenderableType] = []
    lines.append(
        Text(
            f"Game {info.game_number}: {info.names[0]} {totals[0]} {theme.dot} "
            f"{info.names[1]} {totals[1]}",
            style="bold",
        )
    )
    if next_dealer is not None:
        lines.append(Text(f"Next dealer: {info.names[next_dealer - 1]}."))
    return lines


def _rummy_hand_end(
    sides: tuple[tuple[Piece, ...], tuple[Piece, ...]],
    scores: tuple[int, int],
    went_out: int | None,
    left: Sequence[Card],
    info: TableInfo,
    next_dealer: int | None,
    theme: Theme,
) -> RenderableType:
    """Rummy: the melds laid, the cards left in the loser's hand and what they count."""
    table = Table(title=f"Hand {info.hand_number} is over", expand=False, box=theme.box)
    table.add_column("player", style="bold")
    table.add_column("melds and lay-offs", max_width=58)
    table.add_column("points", justify="right")
    for who in (0, 1):
        laid = Text(f" {theme.dot} ", style="dim").join(
            theme.cards(p.cards) if p.kind is PieceKind.SOLO else _labelled(p, theme)
            for p in sides[who]
        )
        if not sides[who]:
            laid = Text("nothing laid", style="dim")
        table.add_row(Text(info.names[who]), laid, Text(str(scores[who]), style="bold"))
        if who == 0:
            table.add_section()
    lines: list[RenderableType] = [table]
    if went_out is None:
        lines.append(Text("Nobody went out: a dead hand, nobody scores.", style="italic"))
    else:
        value = rummy_points(mask_of(left))
        other = info.names[2 - went_out]
        whose = "your" if other == "You" else f"{other}'s"
        row = Text(f"{info.names[went_out - 1]} went out. Left in {whose} hand: ")
        row.append_text(theme.cards(list(left)) if left else Text("nothing"))
        row.append(f" = {value}")
        if value and scores[went_out - 1] == 2 * value:
            row.append(", doubled for going rummy", style="bold")
        lines.append(row)
    return Group(*lines, *_totals_lines(scores, info, next_dealer, theme))


def _labelled(piece: Piece, theme: Theme) -> Text:
    out = Text(f"{piece.kind.label} ", style="dim")
    out.append_text(theme.cards(piece.cards))
    return out


def render_game_end(
    results: Sequence[tuple[int, int]],
    names: tuple[str, str],
    winner: int,
    game_number: int,
    wins: tuple[int, int] | None = None,
    theme: Theme = DEFAULT_THEME,
) -> RenderableType:
    """The per-hand scores of a finished game and its winner (and the session so far)."""
    table = Table(title=f"Game {game_number}", box=theme.box)
    table.add_column("hand")
    table.add_column(Text(names[0]), justify="right")
    table.add_column(Text(names[1]), justify="right")
    for n, (a, b) in enumerate(results, 1):
        table.add_row(str(n), str(a), str(b))
    total = (sum(r[0] for r in results), sum(r[1] for r in results))
    table.add_section()
    table.add_row("total", str(total[0]), str(total[1]), style="bold")
    lines: list[RenderableType] = [
        table,
        Text(f"Winner of game {game_number}: {names[winner - 1]}.", style="bold green"),
    ]
    if wins is not None:
        dot = theme.dot
        lines.append(Text(f"Session: {names[0]} {wins[0]} {dot} {names[1]} {wins[1]} games"))
    return Group(*lines)
