"""The graph of a reviewed game: one player's chance of winning after every decision.

Drawn as lichess draws its evaluation graph: an area that rises with the chance
(block characters, eighths of a row; ``#`` under ``--ascii``), the hands marked
along the axis under it, the flagged decisions marked under the axis (``?`` an
inaccuracy, ``x`` a mistake, ``X`` a blunder), and a cursor over the decision
shown (on a short terminal the marks sit on the axis row, and a hand's name moves
along past them; the cursor keeps its row above the plot where one is spared, else
it sits on the axis row too, where a mark under it is drawn in its place, reversed,
never hidden).  A legend beside the plot says what the marks and the cursor are.  It
fits the width it is given (80 columns at the least terminal): where there are
more decisions than columns several share one, which shows the chance after the
last of them and the worst of their marks.  A pure function of its values: the
board and the tests draw the same lines.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.text import Text

from umtali.bots.coach import Label

#: Columns before the plot, for its scale ("100%").
GUTTER = 5
#: Columns after the plot for its legend, one mark a row ("? inaccuracy").
LEGEND = 17
MARK = {Label.INACCURACY: "?", Label.MISTAKE: "x", Label.BLUNDER: "X"}
MARK_STYLE = {Label.INACCURACY: "yellow", Label.MISTAKE: "dark_orange", Label.BLUNDER: "bold red"}
_ORDER = (None, Label.INACCURACY, Label.MISTAKE, Label.BLUNDER)
_EIGHTHS = " ▁▂▃▄▅▆▇█"


@dataclass(frozen=True, slots=True)
class Plot:
    """What the graph shows: a chance after each decision, where the hands start
    (index of the first decision, and the hand's name), and each decision's mark."""

    chances: tuple[float, ...]
    starts: tuple[tuple[int, str], ...] = ()
    marks: tuple[Label | None, ...] = ()


def columns(n: int, width: int) -> list[int]:
    """The plot column of each of ``n`` decisions in ``width`` columns: spread across
    the width when there are fewer, several to a column when there are more.

    >>> columns(4, 8), columns(6, 3)
    ([0, 2, 4, 6], [0, 0, 1, 1, 2, 2])
    """
    if n <= 0 or width <= 0:
        return []
    return [i * width // n for i in range(n)]


def shown_in(column: int, cols: Sequence[int]) -> int:
    """The decision whose chance column ``column`` shows: the last one at or before it."""
    last = 0
    for i, c in enumerate(cols):
        if c > column:
            break
        last = i
    return last


def legend(ascii_only: bool = False, compact: bool = False) -> list[Text]:
    """What the marks under the graph mean, and the cursor: a line each."""
    lines = [Text.assemble((MARK[label], MARK_STYLE[label]), f" {label.value}") for label in MARK]
    pointers = ("^", "▲") if compact else ("v", "▼")  # under the plot, or over it
    cursor = pointers[0] if ascii_only else pointers[1]
    lines.append(Text.assemble((cursor, "bold"), " this decision"))
    return lines


def render_graph(
    plot: Plot,
    width: int,
    height: int,
    cursor: int | None = None,
    ascii_only: bool = False,
    compact: bool = False,
    key: bool = False,
    cursor_row: bool = False,
) -> Text:
    """The graph in ``width`` columns: ``height`` rows of plot, an axis with the hands,
    and a row of marks; a ``cursor`` is pointed at from a row above the plot and its
    column drawn reversed.  ``compact`` (a short terminal) puts the marks on the axis
    row, a hand's name moved on past them, and the cursor there too unless
    ``cursor_row`` spares it its row above.  ``key`` puts the :func:`legend` at the
    right of the plot, in :data:`LEGEND` columns."""
    room = max(1, width - GUTTER - (LEGEND if key else 0))
    n = len(plot.chances)
    # Fewer decisions than columns: each gets the same whole number of columns.
    plot_width = n * max(1, room // n) if 0 < n <= room else room
    cols = columns(n, plot_width)
    here = cols[cursor] if cursor is not None and n else None
    pointer = "^" if ascii_only else "▲"
    above = not compact or cursor_row  # the cursor on its own row over the plot
    lines: list[Text] = []
    if here is not None and above:
        lines.append(Text(" " * (GUTTER + here) + ("v" if ascii_only else "▼")))
    values = [plot.chances[shown_in(c, cols)] if n else 0.5 for c in range(plot_width)]
    middle = height // 2 if height > 2 else -1
    for r in range(height):
        level = height - 1 - r  # rows counted from the bottom
        scale = "100%" if r == 0 else "  0%" if level == 0 else " 50%" if level == middle else ""
        line = Text(f"{scale:>4} ")
        for c, value in enumerate(values):
            fill = min(1.0, max(0.0, value * height - level))
            if ascii_only:
                char = "#" if fill >= 0.5 else ("-" if level == middle else " ")
            else:
                char = _EIGHTHS[round(fill * 8)]
                if char == " " and level == middle:
                    char = "┈"
            style = "reverse" if c == here else ("dim" if char in " ┈-" else "cyan")
            line.append(char, style)
        lines.append(line)
    marks = _marks(plot, cols)
    if not compact:
        lines.append(_row(_axis(plot, cols, plot_width, ascii_only), {}, "dim"))
        marked = _row({}, marks, "")
        marked.rstrip()
        lines.append(marked)
    else:
        on_axis = None if above else here
        taken = {*marks, *(() if on_axis is None else (on_axis,))}
        axis = _axis(plot, cols, plot_width, ascii_only, taken)
        lines.append(_row(axis, marks, "dim", on_axis, pointer))
    if key:
        first = 1 if above and here is not None else 0  # beside the plot, not its pointer
        edge = GUTTER + plot_width + 2
        for k, said in enumerate(legend(ascii_only, not above)):
            if first + k < len(lines):
                line = lines[first + k]
                line.rstrip()
                line.pad_right(edge - line.cell_len)
                line.append_text(said)
    return Text("\n").join(lines)


def _axis(
    plot: Plot,
    cols: Sequence[int],
    width: int,
    ascii_only: bool,
    taken: Collection[int] = (),
) -> dict[int, str]:
    """The axis under the plot, each hand's name where its first decision is, or just
    after the ``taken`` columns there (a mark or the cursor on the same row)."""
    row = dict.fromkeys(range(width), "-" if ascii_only else "─")
    free = 0  # the first column a name may start at
    for index, name in plot.starts:
        if index >= len(cols) or cols[index] < free:
            continue
        at = cols[index]
        while at < width and any(at + k in taken for k in range(len(name))):
            at += 1
        if at + len(name) > width:
            continue
        for k, char in enumerate(name):
            row[at + k] = char
        free = at + len(name) + 1
    return row


def _marks(plot: Plot, cols: Sequence[int]) -> dict[int, Label | None]:
    """The flagged decisions' marks by column, the worst where several share one."""
    worst: dict[int, Label | None] = {}
    for i, label in enumerate(plot.marks):
        if label is None or i >= len(cols):
            continue
        held = worst.get(cols[i])
        if held is None or _ORDER.index(label) > _ORDER.index(held):
            worst[cols[i]] = label
    return worst


def _row(
    axis: dict[int, str],
    marks: dict[int, Label | None],
    style: str,
    here: int | None = None,
    pointer: str = "",
) -> Text:
    """One row under the plot: the axis's characters, a mark over them, the cursor over
    both; a mark under the cursor is drawn in its place in the cursor's style, reversed
    as the plot's column over it is (the mark is what the decision is about)."""
    line = Text(" " * GUTTER)
    for c in range(max([*axis, *marks, -1]) + 1):
        label = marks.get(c)
        if c == here and label is not None:
            line.append(MARK[label], f"bold reverse {MARK_STYLE[label]}")
        elif c == here:
            line.append(pointer, "bold")
        elif label is not None:
            line.append(MARK[label], MARK_STYLE[label])
        else:
            line.append(axis.get(c, " "), style)
    return line
