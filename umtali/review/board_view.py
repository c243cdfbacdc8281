"""The review board drawn: a pure function from what it shows to rich renderables.

One screen, top to bottom: the players, the result and the graph's whose-chance;
the graph (:mod:`umtali.ui.graph`) with its legend and its cursor at the decision
shown; the table as the mover saw it then (:func:`umtali.ui.render.draw_table`),
the reviewed player always at the bottom (at the other seat's decision that seat's
hand is face up on top and the reviewed player's hand is backs, as that seat saw
it); the move played, the best move, the chance before and after, and the reason,
the other seat's told by its name; what a try again said; the keys.  The table
gets the rows the rest leaves, so the board fits 80×24; a taller terminal gives
the graph and the table more room, and rows still spare list the hand's decisions
around the one shown.  A wide terminal's board keeps to the one centred column the
game's table keeps to (:func:`umtali.ui.layout.bounds`), its graph and rules no longer
stretched across the screen.  The board application (:mod:`umtali.review.board`) and
its golden screens draw through here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text

from umtali.bots.seat import possessive
from umtali.review.analysis import Decision, GameAnalysis
from umtali.ui.coaching import label_style
from umtali.ui.graph import MARK, MARK_STYLE, Plot, render_graph
from umtali.ui.layout import bounds, lines_of, placed
from umtali.ui.narrate import move_words
from umtali.ui.render import TableInfo, draw_table
from umtali.ui.theme import DEFAULT_THEME, Theme

#: Below this many rows the graph is compact (marks and cursor on its axis row).
ROOMY = 30
KEYS = "←→ move  ↑↓ hand  n/p flagged  12 Enter: go to 12  r read  t try again  q quit"
ASCII_KEYS = "<- -> move  up/down hand  n/p flagged  12 Enter: go to 12  r read  t try  q quit"
MIN_WORDS = 3  # rows kept under the table for the decision in words
#: Rows a short terminal's graph may take beyond its least: the cursor's, a plot row.
SHORT_EXTRA = 2
MORE = "... (r: read it all)"
#: Rows spare under the words that are worth a list of the hand's decisions.
AROUND = 4


@dataclass(frozen=True, slots=True)
class Shown:
    """The board's state as drawn: the decision at the cursor, the number being typed,
    the move being typed in a try again (None: not trying), what was said."""

    cursor: int = 0
    typed: str = ""
    again: str | None = None
    said: tuple[Text, ...] = ()
    full: bool = False  # the words in full, in the table's place ('r')


def plot_of(analysis: GameAnalysis, seat: int) -> Plot:
    """The graph's values: ``seat``'s chance after each decision, the hands, the marks."""
    chances: list[float] = []
    last = 0.5
    for d in analysis.decisions:
        chance = d.chance_for(seat)
        last = last if chance is None else chance
        chances.append(last)
    names = []
    for i in analysis.hand_starts():
        d = analysis.decisions[i]
        names.append((i, f"{d.game}.{d.hand}" if analysis.session else str(d.hand)))
    return Plot(tuple(chances), tuple(names), tuple(d.label for d in analysis.decisions))


def header(analysis: GameAnalysis) -> Text:
    """'Ann v Bot: Bot won 125 to 106. Hands 35-22 40-23 18-39 13-41.'"""
    a, b = analysis.names
    hands = " ".join(f"{h.scores[0]}-{h.scores[1]}" for h in analysis.hands)
    line = Text.assemble((f"{a} v {b}: ", "bold"), (analysis.result(), "bold"))
    if hands:
        line.append(f" Hands {hands}.")
    return line


def whose(analysis: GameAnalysis, seat: int) -> str:
    """What the graph shows, said on the board and in the plain numbers."""
    if not analysis.chances:
        return "These rules have no table of chances: the graph is left out."
    graphed = possessive(analysis.names[seat - 1])
    return f"Graph: {graphed} chance of winning the game after each decision."


def describe(decision: Decision, analysis: GameAnalysis, seat: int, theme: Theme) -> list[Text]:
    """The decision at the cursor in words: where, who played what, the best, why;
    told to ``seat``, the reviewed player, and of the other seat by name."""
    total = len(analysis.decisions)
    name = analysis.names[decision.seat - 1]
    resigned = " (resigned)" if analysis.was_resigned_in(decision.game, decision.hand) else ""
    where = f"hand {decision.hand}{resigned}, turn {decision.turn}"
    if analysis.session:
        where = f"game {decision.game}, " + where
    first = Text.assemble(
        (f"{decision.number}/{total}", "bold"),
        f" {where}: {name} ",
        (move_words(decision.played, decision.view, theme), "bold"),
    )
    label = decision.label
    if label is not None:
        first.append(f" ({label.value})", label_style(label))
    if decision.played != decision.best:
        first.append(f"; best {theme.move(decision.best)}")
    lines = [first]
    # The reason says the chances before and after, where measured; its cards are
    # the table's (the theme's), as on the board above it.
    reason = decision.verdict.reason(analysis.voice(decision, seat), theme.plain)
    lines.append(Text(reason[0].upper() + reason[1:] + ".", "dim" if label is None else ""))
    return lines


def board_lines(
    analysis: GameAnalysis,
    seat: int,
    shown: Shown,
    theme: Theme,
    width: int,
    height: int,
    color_system: str | None = None,
) -> list[str]:
    """The whole board in ``width`` × ``height``, as lines of ANSI text (plain text
    without a ``color_system``): the table is cut to the rows the rest leaves it.  On
    a wide terminal it keeps to the column the game's table keeps to, centred."""
    left, inner = bounds(width)
    return placed(_board(analysis, seat, shown, theme, inner, height, color_system), left)


def _board(
    analysis: GameAnalysis,
    seat: int,
    shown: Shown,
    theme: Theme,
    width: int,
    height: int,
    color_system: str | None,
) -> list[str]:
    """The board in ``width`` columns, from its left edge (see :func:`board_lines`)."""
    if not analysis.decisions:
        empty = Group(header(analysis), Text("This record holds no decision to review yet."))
        return lines_of(empty, width, color_system)[:height]
    decision = analysis.decisions[shown.cursor]
    roomy = height >= ROOMY
    # What was asked and said comes before the reason, which is cut first.
    first, *reason = describe(decision, analysis, seat, theme)
    bottom: list[RenderableType] = [first, *shown.said]
    if shown.again is not None:
        bottom.append(Text.assemble(("again> ", "bold"), shown.again))
    elif shown.typed:
        bottom.append(Text.assemble(("go to decision: ", "bold"), shown.typed))
    if not shown.said or shown.full:
        bottom += reason
    foot = lines_of(Group(*bottom), width, color_system)
    keys = lines_of(Text(ASCII_KEYS if theme.ascii else KEYS, "reverse"), width, color_system)

    def head_of(extra: int) -> list[str]:
        return lines_of(Group(*_head(analysis, seat, shown, theme, width, height, extra)),
                        width, color_system)  # fmt: skip

    head = head_of(0)
    room = max(0, height - len(head) - len(keys))
    if shown.full:  # the reason in full, in the table's place
        return (head + foot[:room] + [""] * (room - len(foot)) + keys)[:height]
    info = TableInfo(
        analysis.names, decision.verdict.info.totals, decision.hand, decision.game, seat="to move"
    )
    # The table as it needs to be seen, then the words in the rows it leaves: what does
    # not fit is cut, and 'r' shows it all.
    # The reviewed player stays at the bottom: the other seat's view is drawn upside.
    upside = decision.seat != seat
    # A short terminal's title is paid for by a row nothing needs or, failing that, one
    # of the table's blank rows: the table is drawn as if it took none.
    titled = 0 if roomy else 1
    rows = max(1, room + titled - MIN_WORDS)
    table = draw_table(decision.view, info, theme, width, rows, on_top=upside)
    drawn = lines_of(table, width, color_system)
    # The words keep at least their least rows, however few they need: the table is
    # cut to leave them those.
    words = max(len(foot), MIN_WORDS)
    blank = _blank(drawn)
    if titled and height - len(head) - len(drawn) - words - len(keys) < 0 and blank:
        del drawn[blank[0]]
    if not roomy and analysis.chances:
        # A short terminal's graph gets the rows nothing else needs, then the table's
        # blank ones: the cursor's row over the plot first (on the axis row it would
        # stand on a mark), then a fourth row of plot.
        free = height - len(head) - len(drawn) - words - len(keys)
        blank = _blank(drawn)
        extra = min(SHORT_EXTRA, max(0, free) + len(blank)) if free >= 0 else 0
        for i in reversed(blank[: max(0, extra - max(0, free))]):
            del drawn[i]
        head = head_of(extra)
        room = max(0, height - len(head) - len(keys))
    drawn = drawn[: max(0, room - MIN_WORDS)]
    left = room - len(drawn)
    if len(foot) > left:
        foot = foot[: max(0, left - 1)] + lines_of(Text(MORE, "dim"), width, color_system)
    spare = height - len(head) - len(drawn) - len(foot) - len(keys)
    if spare >= AROUND:
        listed = around(analysis, shown.cursor, spare - 1, theme)
        foot += ["", *lines_of(Group(*listed), width, color_system)[: spare - 1]]
    gap = [""] * max(0, height - len(head) - len(drawn) - len(foot) - len(keys))
    return (head + drawn + foot + gap + keys)[:height]  # the keys on the last row


def _head(
    analysis: GameAnalysis,
    seat: int,
    shown: Shown,
    theme: Theme,
    width: int,
    height: int,
    extra: int = 0,
) -> list[RenderableType]:
    """The board's top: the result, what the graph shows, and the graph.  On a short
    terminal the graph is compact (its marks on the axis row); of its ``extra`` rows the
    first is the cursor's own, over the plot, and the second a fourth row of plot."""
    top: list[RenderableType] = [header(analysis)]
    roomy = height >= ROOMY
    title = Text(whose(analysis, seat), "dim")
    if not roomy:  # one row, whatever the names: the rows are counted
        title.no_wrap, title.overflow = True, "ellipsis"
    top.append(title)
    if analysis.chances:
        plot_rows = max(3, min(12, height // 4)) if roomy else 3 + max(0, extra - 1)
        plot = plot_of(analysis, seat)
        graph = render_graph(plot, width, plot_rows, shown.cursor, theme.ascii, not roomy, True,
                             cursor_row=extra > 0)  # fmt: skip
        top.append(graph)
    return top


def _plain(line: str) -> str:
    """A drawn line without its colours' escape sequences."""
    return re.sub(r"\x1b\[[0-9;]*m", "", line)


def _blank(drawn: list[str]) -> list[int]:
    """Where the drawn table's blank rows are: the rows it can give up."""
    return [i for i, line in enumerate(drawn) if not _plain(line).strip()]


def around(analysis: GameAnalysis, cursor: int, rows: int, theme: Theme) -> list[Text]:
    """The hand's decisions around the one at ``cursor``, a line each (the one shown
    marked), in at most ``rows`` lines: where a learner is in the hand, and what came
    just before and after."""
    here = analysis.decisions[cursor]
    same = [
        i for i, d in enumerate(analysis.decisions) if (d.game, d.hand) == (here.game, here.hand)
    ]
    title = f"Hand {here.hand}" if not analysis.session else f"Game {here.game}, hand {here.hand}"
    if analysis.was_resigned_in(here.game, here.hand):
        title += " (resigned)"
    lines = [Text(f"{title}: {len(same)} decisions", "bold")]
    room = max(0, rows - 1)
    at = same.index(cursor)
    start = max(0, min(at - room // 2, len(same) - room))
    width = len(str(len(analysis.decisions)))
    for i in same[start : start + room]:
        d = analysis.decisions[i]
        mark = (">" if theme.ascii else "▶") if i == cursor else " "
        line = Text(f"{mark} {d.number:>{width}}. turn {d.turn:>2} {analysis.names[d.seat - 1]}: ")
        line.append(theme.move(d.played), "bold" if i == cursor else "")
        if d.label is not None:
            line.append(" ")
            line.append(MARK[d.label], MARK_STYLE[d.label])
            line.append(f" {d.label.value}", label_style(d.label))
        if d.played != d.best:
            line.append(f"; best {theme.move(d.best)}", "dim")
        lines.append(line)
    return lines


def graph_numbers(analysis: GameAnalysis, seat: int, theme: Theme = DEFAULT_THEME) -> list[Text]:
    """The graph as plain numbers, a line a decision (plain mode, scripts): who played
    what, and ``seat``'s chance of winning the game after it, with the decision's label."""
    lines = [header(analysis)]
    if not analysis.decisions:
        return lines
    lines.append(Text(whose(analysis, seat).replace("Graph: ", "Below: ")))
    width = len(str(len(analysis.decisions)))
    game = 0
    for d in analysis.decisions:
        if analysis.session and d.game != game:
            game = d.game
            lines.append(Text(f"Game {game}", "bold"))
        chance = d.chance_for(seat)
        said = f"{d.number:>{width}}. hand {d.hand} turn {d.turn:>2} "
        said += f"{analysis.names[d.seat - 1]}: {theme.move(d.played)}"
        if chance is not None:
            said += f"; {100 * chance:.0f}%"
        if d.label is not None:
            said += f" ({d.label.value})"
        lines.append(Text(said))
    return lines
