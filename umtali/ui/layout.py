"""The full-screen table's frame: what fills the rows above the command line.

Pure: given what is to be shown and the terminal's size, it returns the lines
(with their colours, as ANSI text) that fill the screen above the prompt.  The
table, the move log and the messages share the rows; the table gives way first,
so the last moves and what the game just said are always there to read, and the
rows the table leaves free go to the log.  On a terminal wider than
:data:`WIDEST` columns everything (the command line and the toolbar too, which
the application places by :func:`bounds`) keeps to one centred column.
"""

from __future__ import annotations

import io
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from prompt_toolkit.utils import get_cwidth
from rich.console import Console, RenderableType
from rich.text import Text

from umtali.engine.view import PlayerView
from umtali.ui.drawings import Drawings
from umtali.ui.narrate import Forfeit, log_needs, move_log, newest_turn
from umtali.ui.render import SizeNotice, TableInfo, draw_table, render_too_small, too_small
from umtali.ui.theme import Theme

#: Rows under the frame: the command line and the toolbar.
UNDER = 2
#: The words on the rule between the table and the move log.  A client at another
#: terminal tells the table from the log below it by them (the host load test does).
LOG_HEADING = "last moves"
#: Most rows messages may take; older lines give way to newer.
MESSAGE_ROWS = 5
#: Widest the screen is drawn: on a wider terminal the table, its log, the messages,
#: the command line and the toolbar keep to one column this wide, centred, their
#: rules and lines no longer stretched across the whole screen.
WIDEST = 100


@dataclass(frozen=True, slots=True)
class TableShown:
    """The table from one seat: ``view`` is that seat's, so is everything drawn."""

    view: PlayerView
    info: TableInfo


@dataclass(frozen=True, slots=True)
class PanelShown:
    """A whole-screen panel instead of the table: a hand's scores, the game's end."""

    renderable: RenderableType


#: What fills the screen; None is the blank screen of a hot-seat handover.
Shown = TableShown | PanelShown | None


def lines_of(renderable: RenderableType, width: int, color_system: str | None) -> list[str]:
    """``renderable`` drawn ``width`` columns wide, as lines of ANSI text."""
    out = io.StringIO()
    console = Console(
        file=out,
        width=width,
        force_terminal=True,
        color_system=color_system,  # type: ignore[arg-type]
        legacy_windows=False,
        emoji=False,
        highlight=False,
        soft_wrap=False,
    )
    console.print(renderable)
    return out.getvalue().rstrip("\n").split("\n")


def at_words(message: str, columns: int) -> str:
    """``message`` with spaces added so that the command line, which wraps a long
    question a character at a time, breaks it between words.

    >>> at_words("Who plays first? [Enter: you, o: opponent] ", 20)
    'Who plays first?    [Enter: you, o:     opponent] '
    """
    rows: list[str] = []
    row = ""
    for word in message.split(" "):
        longer = f"{row} {word}" if row else word
        if row and get_cwidth(longer) > columns:
            rows.append(row + " " * max(0, columns - get_cwidth(row)))
            row = word
        else:
            row = longer
    return "".join(rows) + row


def bounds(columns: int) -> tuple[int, int]:
    """Where the screen's one column starts on a terminal ``columns`` wide, and how
    wide it is: the whole width up to :data:`WIDEST`, centred beyond.

    >>> bounds(80), bounds(200)
    ((0, 80), (50, 100))
    """
    width = min(columns, WIDEST)
    return max(0, (columns - width) // 2), width


def placed(lines: Sequence[str], left: int) -> list[str]:
    """``lines`` moved ``left`` columns right, into the column :func:`bounds` places
    (an empty line stays empty: nothing is drawn there).

    >>> placed(["ab", "", "c"], 2)
    ['  ab', '', '  c']
    """
    margin = " " * left
    return [margin + line if line else line for line in lines]


def log_rows(height: int) -> int:
    """How many rows the move log keeps on a screen ``height`` rows high, however
    tall the table (it gets more where the table leaves rows free)."""
    return max(2, min(8, height - 21))


def frame(
    shown: Shown,
    messages: Sequence[RenderableType],
    theme: Theme,
    width: int,
    height: int,
    color_system: str | None,
    drawings: Drawings | None = None,
) -> list[str]:
    """The lines above the command line, exactly ``height - UNDER`` of them; on a
    terminal wider than :data:`WIDEST` columns they keep to that width, centred
    (:func:`bounds`), as the command line and the toolbar under them do.

    With ``drawings``, what was drawn before at this size (the table, a message) is
    taken from there rather than drawn again: the lines are the same."""
    rows = max(1, height - UNDER)
    if not too_small(width, height):
        # What was said of a terminal too small is no longer so: it goes.
        messages = [m for m in messages if not isinstance(m, SizeNotice)]
    left, inner = bounds(width)
    said: list[str] = []
    for message in messages:
        said += _drawn(drawings, (message,), ("said", inner), message, inner, color_system)
    # Beside the table, messages keep to a few rows; on a screen of their own they
    # take what they need.
    said = said[-(MESSAGE_ROWS if isinstance(shown, TableShown) else rows) :]
    top: Sequence[str]
    if too_small(width, height):
        top = lines_of(render_too_small(width, height, theme), width, color_system)
    elif isinstance(shown, TableShown):
        view, info, said_rows = shown.view, shown.info, max(1, len(said))

        def table() -> list[str]:
            return _table_rows(view, info, theme, inner, height, said_rows, color_system)

        if drawings is None:
            top = table()
        else:
            sizes = ("table", inner, height, said_rows, color_system)
            top = drawings.lines((view, info, theme), sizes, table)
    elif isinstance(shown, PanelShown):
        panel = shown.renderable
        top = _drawn(drawings, (panel,), ("panel", inner), panel, inner, color_system)
    else:
        top = []
    top = top[: rows - len(said)]
    return placed([*top, *[""] * (rows - len(top) - len(said)), *said], left)


def _drawn(
    drawings: Drawings | None,
    objects: tuple[object, ...],
    sizes: tuple[Hashable, ...],
    renderable: RenderableType,
    width: int,
    color_system: str | None,
) -> Sequence[str]:
    """``renderable``'s lines, from ``drawings`` where it was drawn before."""
    if drawings is None:
        return lines_of(renderable, width, color_system)
    return drawings.lines(
        objects, (*sizes, color_system), lambda: lines_of(renderable, width, color_system)
    )


def _table_rows(
    view: PlayerView,
    info: TableInfo,
    theme: Theme,
    width: int,
    height: int,
    said_rows: int,
    color_system: str | None,
) -> list[str]:
    """The table with the move log under it, ``width`` columns wide, in the rows that
    ``said_rows`` rows of messages leave on a screen ``height`` rows high.

    The log's heading follows the table, and every row under it down to the
    messages is the log's: the moves fill it from the top, the newest last, so a
    taller screen shows more of the hand."""
    below = max(1, height - UNDER) - said_rows - 1  # the table's and the log's rows
    forfeit = None
    if view.went_out is not None and info.forfeited:
        forfeit = Forfeit(3 - view.went_out, info.forfeited, view.rules)
    # The log keeps the latest turn of each player whole: it takes rows from the
    # table where it must, as far as the table can give them up.
    least = max(
        log_rows(height),
        log_needs(view.events, info.names, theme, width - 1, forfeit, view.went_out),
    )
    table = lines_of(draw_table(view, info, theme, width, below - least), width, color_system)
    if len(table) > below - least:
        # Drawn as tight as it goes, the table is still too tall (a lesson says a lot
        # under it at 64×20): the log keeps its newest line, and the table gives up
        # its blank rows, then its opponent's side, never the player's own.
        least = min(least, 1)
        table = _fitted(table, below - least)
    gap = 1 if below - len(table) - 1 >= least else 0  # a blank row sets the log apart
    log = below - len(table) - gap
    heading = Text(f"{theme.rule * 2} {LOG_HEADING} ", style="dim")
    heading.append(theme.rule * max(0, width - heading.cell_len - 1), style="dim")
    moves = move_log(view.events, info.names, theme, width - 1, log, forfeit, view.went_out)
    newest = newest_turn(view.events, info.names, theme, width - 1, forfeit, view.went_out)
    if len(newest) > log:  # squeezed: the newest turn's first lines, that name its player
        moves = newest[:log]
    shown = [line for text in moves for line in lines_of(text, width, color_system)][-log:]
    return [
        *table,
        *[""] * gap,
        *lines_of(heading, width, color_system),
        *shown,
        *[""] * (log - len(shown)),
    ]


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _fitted(table: list[str], room: int) -> list[str]:
    """``table``'s lines in ``room`` rows: its blank rows go first, then the rows
    under the opponent's header (their side), so that both headers with the scores,
    the player's own side and hand, and what is to be done now stay in sight."""
    over = len(table) - room
    blank = [i for i, line in enumerate(table) if not _ANSI.sub("", line).strip()]
    dropped = set(blank[:over])
    table = [line for i, line in enumerate(table) if i not in dropped]
    over = len(table) - room
    if over > 0:
        table = table[:1] + table[1 + over :] if room > 1 else table[-room:] if room else []
    return table
