"""The door's bounds on what one connection, or many addresses together, may ask of the
host (issue #45): a flood of window changes, a connection gone in the middle of one,
and wrong codes guessed from many addresses.

Real SSH clients on the loopback interface; every wait is for a state.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncssh
import pytest
from netplay import PATIENCE, CodeTries, Hosted, Loop, Terminal
from prompt_toolkit.data_structures import Size
from test_doors import table_part
from test_host import at_her_prompt

import umtali.host.codes as codes
from umtali.host.codes import DOOR_TRIES, SPECTATOR, Role, new_code
from umtali.host.ssh import _Door, _Session

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


def test_a_connection_gone_mid_flood_leaves_the_hosts_terminal_quiet(
    tmp_path: Path, loop: Loop, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's terminal once printed "socket.send() raised exception." 2,726 times:
    asyncio says so for each write to a socket that failed, and the host redrew the
    table for each window change still queued after the client had gone."""
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        watcher = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        watcher.wait_for(r"Stock")
        with caplog.at_level(logging.WARNING, logger="asyncio"):
            loop.run(flood(watcher.proc, (100, 30), then_cut=watcher.conn))
            end = time.monotonic() + PATIENCE
            while "A spectator left" not in hosted.lines:
                assert time.monotonic() < end, hosted.lines
                time.sleep(0.02)
            ann.type("say still here")  # the host goes on, and writes to Ann
            ann.wait_for(r"Ann: still here")
        spam = [r.getMessage() for r in caplog.records if "socket.send()" in r.getMessage()]
        assert spam == []
        about_it = [line for line in hosted.lines if line.startswith("a connection from")]
        assert len(about_it) <= 1, about_it
    finally:
        hosted.stop()


def test_nothing_is_written_to_a_connection_whose_socket_failed() -> None:
    """Between a socket failing and asyncssh hearing of it (a later turn of the event
    loop), a frame must not be written: asyncio would warn for each write."""
    said: list[str] = []
    server = SimpleNamespace(door=None, latencies=None, log=said.append)
    door = _Door(server)  # type: ignore[arg-type]
    transport = SimpleNamespace(closing=False)
    door._conn = SimpleNamespace(  # type: ignore[assignment]
        _transport=SimpleNamespace(is_closing=lambda: transport.closing)
    )
    written: list[bytes] = []
    chan = SimpleNamespace(get_write_buffer_size=lambda: 0, write=written.append)
    session = _Session(door)
    session._chan = chan
    session.send("a frame")
    assert written == [b"a frame"]
    transport.closing = True  # the socket failed: asyncio closes the transport
    for _ in range(100):
        session.send("another frame")
    assert written == [b"a frame"] and session.lost
    assert session.input.closed  # the table is ended: nothing more is drawn for it
    assert len(said) <= 1


def test_a_door_shut_by_wrong_codes_still_lets_a_player_back_to_her_seat(
    tmp_path: Path, loop: Loop, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many addresses together: here one (the test has only 127.0.0.1), its own limit
    raised so that only the door's counts."""
    monkeypatch.setattr(codes, "TRIES", DOOR_TRIES + 10)
    hosted = Hosted(tmp_path)
    tries = CodeTries(hosted.port)
    banners, attempt = tries.banners, tries.attempt

    try:
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
        ann.wait_for(r"Cut for the deal")
        for _ in range(DOOR_TRIES):
            with pytest.raises(asyncssh.PermissionDenied):
                loop.run(attempt(new_code()))
        assert re.search(r"this door takes no code for 30 s", banners[-1]), banners
        shut = [line for line in hosted.lines if "no code is taken" in line]
        assert len(shut) == 1, hosted.lines
        # Ben's right code, never given from here, is refused as a guess is.
        with pytest.raises(asyncssh.PermissionDenied):
            loop.run(attempt(hosted.code(Role(2))))
        assert "this door takes no code" in banners[-1]
        # Ann's connection drops; she comes back from where she joined, and sits down.
        ann.close()
        again = Terminal(loop, hosted.port, hosted.code(Role(1)))
        again.wait_for(r"Cut for the deal|Stock")
        assert len([line for line in hosted.lines if "no code is taken" in line]) == 1
        # The host opens the door at once: Ben joins.
        hosted.host.doorman.unlock()
        ben = Terminal(loop, hosted.port, hosted.code(Role(2)))
        ben.wait_for(r"Cut for the deal|Stock")
    finally:
        hosted.stop()
