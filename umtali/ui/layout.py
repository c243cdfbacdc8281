"""The full-screen table's frame: what fills the rows above the command line.

Pure: given what is to be shown and the terminal's size, it returns the lines
(with their colours, as ANSI text) that fill the screen above the prompt.  The
table, the move log and the messages share the rows; the table gives way first,
so the last moves and what the game just said are always there to read.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from prompt_toolkit.utils import get_cwidth
from rich.console import Console, RenderableType
from rich.text import Text

from umtali.engine.view import PlayerView
from umtali.ui.drawings import Drawings
from umtali.ui.narrate import Forfeit, log_needs, move_log
from umtali.ui.render import SizeNotice, TableInfo, draw_table, render_too_small, too_small
from umtali.ui.theme import Theme

#: Rows under the frame: the command line and the toolbar.
UNDER = 2
#: The words on the rule between the table and the move log.  A client at another
#: terminal tells the table from the log below it by them (the host load test does).
LOG_HEADING = "last moves"
#: Most rows messages may take; older lines give way to newer.
MESSAGE_ROWS = 5
#: Widest the table is drawn: on a wider terminal it is centred, its rules and
#: lines no longer stretched across the whole screen.
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
    terminal wider than :data:`WIDEST` columns the table keeps to that width,
    centred (the messages stay by the command line, at the left).

    With ``drawings``, what was drawn before at this size (the table, a message) is
    taken from there rather than drawn again: the lines are the same."""
    rows = max(1, height - UNDER)
    if not too_small(width, height):
        # What was said of a terminal too small is no longer so: it goes.
        messages = [m for m in messages if not isinstance(m, SizeNotice)]
    said: list[str] = []
    for message in messages:
        said += _drawn(drawings, (message,), ("said", width), message, width, color_system)
    margin = " " * max(0, (width - WIDEST) // 2)
    width = min(width, WIDEST)
    # Beside the table, messages keep to a few rows; on a screen of their own they
    # take what they need.
    said = said[-(MESSAGE_ROWS if isinstance(shown, TableShown) else rows) :]
    top: Sequence[str]
    if too_small(width, height):
        top = lines_of(render_too_small(width, height, theme), width, color_system)
    elif isinstance(shown, TableShown):
        view, info, said_rows = shown.view, shown.info, max(1, len(said))

        def table() -> list[str]:
            return _table_rows(view, info, theme, width, height, said_rows, color_system)

        if drawings is None:
            top = table()
        else:
            sizes = ("table", width, height, said_rows, color_system)
            top = drawings.lines((view, info, theme), sizes, table)
    elif isinstance(shown, PanelShown):
        panel = shown.renderable
        top = _drawn(drawings, (panel,), ("panel", width), panel, width, color_system)
    else:
        top = []
    top = [margin + line if line else line for line in top[: rows - len(said)]]
    return top + [""] * (rows - len(top) - len(said)) + said


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
    ``said_rows`` rows of messages leave on a screen ``height`` rows high."""
    rows = max(1, height - UNDER)
    forfeit = None
    if view.went_out is not None and info.forfeited:
        forfeit = Forfeit(3 - view.went_out, info.forfeited)
    # The log keeps the latest turn of each player whole: it takes rows from the
    # table where it must, as far as the table can give them up.
    need = log_needs(view.events, info.names, theme, width - 1, forfeit)
    log = max(log_rows(height), need)
    table = lines_of(
        draw_table(view, info, theme, width, rows - log - 1 - said_rows),
        width,
        color_system,
    )
    free = rows - 1 - said_rows - len(table)  # under the table as drawn
    if free - 1 >= log:
        # Rows the table leaves (less one that sets it apart) show older turns, as
        # many as there are: the newest stay next to the command line.
        older = move_log(view.events, info.names, theme, width - 1, free - 1, forfeit)
        log = max(need, len(older), 1)
    else:
        log = max(log_rows(height), min(log, free))
    room = rows - log - 1 - said_rows
    top = table[:room]
    top += [""] * (room - len(top))
    heading = Text(f"{theme.rule * 2} {LOG_HEADING} ", style="dim")
    heading.append(theme.rule * max(0, width - heading.cell_len - 1), style="dim")
    top += lines_of(heading, width, color_system)
    moves = move_log(view.events, info.names, theme, width - 1, log, forfeit)
    top += [line for text in moves for line in lines_of(text, width, color_system)][-log:]
    top += [""] * (log - len(moves))
    return top
