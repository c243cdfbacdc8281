"""The door's bounds on what one connection, or many addresses together, may ask of the
host (issue #45): a flood of window changes, a connection gone in the middle of one,
and wrong codes guessed from many addresses.

Real SSH clients on the loopback interface; every wait is for a state.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from netplay import PATIENCE, Hosted, Loop, Terminal
from prompt_toolkit.data_structures import Size
from test_doors import table_part
from test_host import at_her_prompt

from umtali.host.codes import SPECTATOR, Role

pytestmark = pytest.mark.slow  # real connections: CI runs them

#: Window changes a hostile spectator sends, as fast as it can.
FLOOD = 2000


@pytest.fixture
def loop() -> Iterator[Loop]:
    clients = Loop()
    yield clients
    clients.stop()


def spectators_session(hosted: Hosted) -> Any:
    """The host's session for the one spectator, once its table runs."""
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        for door in list(hosted.server._doors):
            session = door.session
            if door.role == SPECTATOR and session is not None and session.table is not None:
                return session
        time.sleep(0.02)
    raise AssertionError("the spectator never reached a table")


def count_redraws(session: Any) -> list[int]:
    """Count each time the host redraws ``session``'s whole table for its window."""
    app = session.table.app
    counted = [0]
    redraw = app._on_resize

    def counting() -> None:
        counted[0] += 1
        redraw()

    app._on_resize = counting
    return counted


async def flood(proc: Any, last: tuple[int, int], then_cut: Any = None) -> None:
    """FLOOD window changes, ending at ``last``; then ``then_cut``, a connection, is cut
    at once (if given)."""
    for n in range(FLOOD - 1):
        proc.change_terminal_size(81 + n % 40, 25 + n % 10)
        if n % 100 == 0:
            await asyncio.sleep(0)  # let the client's loop send what it has
    proc.change_terminal_size(*last)
    if then_cut is not None:
        then_cut.abort()


def test_a_spectators_flood_of_window_changes_never_stalls_a_players_move(
    tmp_path: Path, loop: Loop
) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        watcher = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        watcher.wait_for(r"Stock")
        session = spectators_session(hosted)
        redraws = count_redraws(session)
        ann.type("hint")
        hint = ann.wait_for(r"Hint: (.+?) —").group(1)
        before = table_part(ann)
        started = time.monotonic()
        sending = asyncio.run_coroutine_threadsafe(flood(watcher.proc, (100, 30)), loop.loop)
        ann.type(hint)
        end = started + PATIENCE
        while table_part(ann) == before:  # her move is answered: her table changes
            assert time.monotonic() < end, f"Ann's move was never answered:\n{ann.text}"
            time.sleep(0.01)
        sending.result(PATIENCE)
        # The spectator's table follows its window to the last size it gave...
        while session.table.app.renderer._last_size != Size(rows=30, columns=100):
            assert time.monotonic() < end, "the spectator's table kept an old size"
            time.sleep(0.02)
        elapsed = time.monotonic() - started
        # ...with a few redraws a second, not one for each change (2,000 froze both
        # players' tables for 15-39 s): the coalescer's and prompt_toolkit's own poll.
        assert redraws[0] <= 3 + 10 * elapsed, (redraws[0], elapsed)
        # And the flood is answered as one of keys is: cut, and said so.
        watcher.wait_for(r"Too much was typed or pasted at once")
        assert session.input.gate.dropped > 0
        ann.type("say still here")
        watcher.wait_for(r"Ann: still here")
    finally:
        hosted.stop()
