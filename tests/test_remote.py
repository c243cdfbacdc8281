"""A seat's screen at another terminal keeps what its player would see, for their return.

No network here: the connections are applications on dummy outputs, attached to a
:class:`~umtali.host.remote.RemoteScreen` in turn.
"""

from __future__ import annotations

from prompt_toolkit.data_structures import Size
from prompt_toolkit.output import DummyOutput
from rich.text import Text

from umtali.host.remote import SAID_KEPT, RemoteScreen
from umtali.host.ssh import MAX_ROWS
from umtali.ui.app import AppScreen
from umtali.ui.gate import REMOTE, GatedInput
from umtali.ui.layout import UNDER, frame
from umtali.ui.theme import Theme


def connection(rows: int = 24) -> AppScreen:
    output = DummyOutput()
    output.get_size = lambda: Size(rows=rows, columns=80)  # type: ignore[method-assign]
    return AppScreen(Theme(), None, input=GatedInput(lines=REMOTE), output=output, remote=True)


def screen_text(app: AppScreen) -> list[str]:
    columns, rows = app.size()
    return frame(app._shown, app._messages, app.theme, columns, rows, None)


def test_a_player_back_before_the_first_table_sees_what_one_who_stayed_sees() -> None:
    """Ben's screen once came back blank: before the deal there is no table, only what
    was said, and the seat kept the last five lines of it, so the cut had gone."""
    seat = RemoteScreen("Ben", grace=600, seat=2)
    stayed = connection()
    seat.attach(stayed)
    said = [
        "Cut for the deal: Ann 4♣, Ben 9♥. The lower card deals first: Ann.",
        "Waiting for Ann (up to 10 min, then a bot takes the seat; the game is saved).",
        "Ann is at the table.",
        "Ann's connection dropped: their seat waits for them.",
        "Waiting for Ann (up to 10 min, then a bot takes the seat; the game is saved).",
        "Ann is at the table.",
    ]
    for line in said:
        seat.say(Text(line))
    back = connection()
    seat.attach(back, take_over=True)  # Ben's connection dropped, and he came back
    assert stayed.closed and back._messages == stayed._messages
    assert screen_text(back) == screen_text(stayed)
    assert any(line.startswith("Cut for the deal") for line in screen_text(back))


def test_a_seat_keeps_enough_lines_to_fill_the_tallest_window_drawn() -> None:
    seat = RemoteScreen("Ben", grace=600, seat=2)
    for n in range(SAID_KEPT + 10):
        seat.say(Text(f"line {n}"))
    back = connection(rows=MAX_ROWS)
    seat.attach(back)
    rows = screen_text(back)
    assert len(rows) == MAX_ROWS - UNDER and rows[-1] == f"line {SAID_KEPT + 9}"
    assert all(row.startswith("line") for row in rows)  # not one row left blank
