"""Hosted play against strangers: every attack a spectator code (or an open port) allows.

Real SSH clients on the loopback interface (asyncssh's in-process, OpenSSH's where
installed) flood, paste without end, send bytes that are not UTF-8, ask for vast
windows, hold connections open without logging in or without a session, vanish,
freeze and leave; the two players keep playing, and every wait is for a state.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pexpect
import pytest
from netplay import (
    PATIENCE,
    CodeTries,
    Hosted,
    Loop,
    OpenSSH,
    Terminal,
    answer_a_pause,
    asking_a_move,
    caught_up,
    connect,
    gone,
)
from test_host import at_her_prompt, play_turns, secret_cards, shows_no_secret

from umtali.host.codes import SPECTATOR, TRIES, Role, new_code
from umtali.host.ssh import MAX_COLUMNS, MAX_ROWS

pytestmark = pytest.mark.slow  # real connections: CI runs them


@pytest.fixture
def loop() -> Iterator[Loop]:
    clients = Loop()
    yield clients
    clients.stop()


def rss_mb() -> float:
    """This process's resident memory now (the host runs in it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def table_part(term: Terminal) -> str:
    text = term.text
    cut = text.find("last moves")
    return text[:cut] if cut >= 0 else text


def timed_moves(hosted: Hosted, players: dict[int, Terminal], moves: int) -> list[float]:
    """Each player, when the host asks for their move and their screen shows the prompt,
    plays the hint; the seconds from each move's Enter to its table changing on the
    mover's screen."""
    took: list[float] = []
    deadline = time.monotonic() + 120
    while len(took) < moves and time.monotonic() < deadline:
        for number, term in players.items():
            name = "Ann" if number == 1 else "Ben"
            if asking_a_move(hosted, number) and re.search(rf"(?m)^{name}>\s*$", term.text):
                term.type("hint")
                hint = term.wait_for(r"Hint: (.+?) —").group(1)
                before = table_part(term)
                started = time.monotonic()
                term.type(hint)
                while table_part(term) == before and time.monotonic() - started < 30:
                    time.sleep(0.005)
                took.append(time.monotonic() - started)
                gone(term, "Hint:")
                break
            if answer_a_pause(hosted, number, term):
                break
        else:
            time.sleep(0.02)
    shown = "\n---\n".join(t.text for t in players.values())
    assert len(took) >= moves, f"only {len(took)} moves were played:\n{shown}"
    return took


def both_at_the_table(tmp_path: Path, loop: Loop) -> tuple[Hosted, Terminal, Terminal]:
    hosted = Hosted(tmp_path)
    ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
    ben = Terminal(loop, hosted.port, hosted.code(Role(2)))
    ann.wait_for(r"Cut for the deal")
    ben.wait_for(r"Cut for the deal")
    return hosted, ann, ben


# ------------------------------------------------------ 1. floods and pastes


def test_a_spectators_100_kb_paste_never_slows_the_players(tmp_path: Path, loop: Loop) -> None:
    hosted, ann, ben = both_at_the_table(tmp_path, loop)
    try:
        watcher = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        watcher.wait_for(r"You are watching|Stock")
        flood = b"\x1b[200~" + bytes(random.Random(1).randrange(32, 127) for _ in range(100_000))
        watcher.send(flood)  # a paste begun, 100 KB long, never ended
        watcher.send(b"x\r" * 10_000)  # and 20 KB of lines
        took = timed_moves(hosted, {1: ann, 2: ben}, 8)
        assert max(took) < 1.0, took
        watcher.wait_for(r"Too much was typed or pasted at once")
        # The door is not blocked either: a new spectator gets in at once.
        late = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        late.wait_for(r"Stock", timeout=10)
    finally:
        hosted.stop()


def test_a_players_own_70_kb_paste_costs_them_nothing(tmp_path: Path, loop: Loop) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        ann.send(b"\x1b[200~" + b"meld " * 14_000 + b"\x1b[201~")
        ann.wait_for(r"Too much was typed or pasted at once")
        ann.type("\x15score")  # Ctrl-U clears the pasted line, then a command
        ann.wait_for(r"This hand: you \d+")
        play_turns(hosted, {1: ann}, r"Bot: (drew|took)", moves=60)
    finally:
        hosted.stop()


# --------------------------------------------------------- 2. a vast window


def test_a_vast_window_is_drawn_at_a_sane_size_and_its_client_told(
    tmp_path: Path, loop: Loop
) -> None:
    hosted = Hosted(tmp_path)
    try:
        before = rss_mb()
        # The clients' screens are as big as the host draws at most, so the message in
        # its centred column is read where it lies (it wraps: any space may break a line).
        drawn = {"cols": MAX_COLUMNS, "rows": MAX_ROWS}
        huge = Terminal(
            loop, hosted.port, hosted.code(SPECTATOR), term_size=(10000, 10000), **drawn
        )
        huge.wait_for(r"Your\s+window\s+\(10000x10000\)\s+is\s+larger\s+than\s+the\s+table")
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)), **drawn)
        ann.wait_for(r"Cut for the deal")
        ann.resize(10000, 10000)  # a resize asks no more of the host than a join
        ann.wait_for(r"Your\s+window\s+\(10000x10000\)\s+is\s+larger")
        ann.resize(80, 24)
        ann.type("say still here")
        huge.wait_for_everything(r"Ann: still here")
        # Without the clamp the host reached 3.5 GB in 12 s.
        assert rss_mb() - before < 200
    finally:
        hosted.stop()


# ------------------------------------------- 3. connections that hold nothing


def test_idle_and_sessionless_connections_never_keep_a_player_out(
    tmp_path: Path, loop: Loop
) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    idle: list[socket.socket] = []
    sessionless: list[Any] = []
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        ann.close()  # her connection drops...
        for _ in range(60):  # ...while 60 connections sit at the door saying nothing
            idle.append(socket.create_connection(("127.0.0.1", hosted.port), timeout=5))

        async def no_session() -> Any:  # ssh -N: logged in, and nothing more
            return await connect(hosted.port, hosted.code(SPECTATOR))

        for _ in range(30):
            # One may be pushed out by the next ones: the door stays open.
            with contextlib.suppress(OSError, asyncssh.Error):
                sessionless.append(loop.run(no_session(), timeout=10))
        started = time.monotonic()
        back = Terminal(loop, hosted.port, hosted.code(Role(1)))
        back.wait_for(r"(?m)^Ann>\s*$", timeout=10)
        assert time.monotonic() - started < 10
        # The door sent the idle ones away, oldest first.
        assert len(hosted.server.lobby) <= 24
    finally:
        for sock in idle:
            sock.close()
        for conn in sessionless:
            loop.loop.call_soon_threadsafe(conn.close)
        hosted.stop()


def test_a_login_with_no_session_is_closed(
    tmp_path: Path, loop: Loop, monkeypatch: pytest.MonkeyPatch
) -> None:
    import umtali.host.ssh

    monkeypatch.setattr(umtali.host.ssh, "SESSION_WAIT", 0.5)
    hosted = Hosted(tmp_path)
    try:

        async def wait_to_be_closed() -> None:
            conn = await connect(hosted.port, hosted.code(SPECTATOR))
            await asyncio.wait_for(conn.wait_closed(), 10)

        loop.run(wait_to_be_closed(), timeout=15)
    finally:
        hosted.stop()


# ----------------------------------------------- 4. a paste that never ends


def test_a_paste_start_alone_holds_no_seat(tmp_path: Path, loop: Loop) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        ann.send(b"\x1b[200~zq")
        ann.type("")  # Enter ends the paste, and sends the line
        ann.wait_for(r"'zq' is not a command")
        ann.type("score")
        ann.wait_for(r"This hand: you \d+")
    finally:
        hosted.stop()


# ---------------------------------------------- 5. a byte that is not UTF-8


def test_a_byte_that_is_not_utf8_keeps_the_player_at_the_table(tmp_path: Path, loop: Loop) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        ann.send(b"\xff\xfe\r")
        ann.wait_for(r"is not a command")
        ann.type("score")
        ann.wait_for(r"This hand: you \d+")
        assert not ann.closed.is_set()
    finally:
        hosted.stop()


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed")
def test_openssh_sends_a_stray_byte_and_a_paste_start_and_stays(tmp_path: Path) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    ssh = OpenSSH(tmp_path, hosted.port, hosted.code(Role(1)))
    try:
        if "extra" in ssh.wait_for(r"(?m)^Ann>|extra \(11th\)").group(0):
            ssh.child.send("\r")
        ssh.wait_for(r"(?m)^Ann>\s*$")
        ssh.child.send(b"\xff\r")
        ssh.wait_for("is not a command")
        ssh.child.send(b"\x1b[200~score")
        ssh.child.send("\r")
        ssh.wait_for(r"This hand: you \d+")
        assert ssh.child.isalive()
    finally:
        ssh.child.close(force=True)
        hosted.stop()


# ------------------------------------------------- 6. Ctrl-D at a remote seat


def _asked_to_move(hosted: Hosted, players: dict[int, Terminal]) -> int:
    """The player the host waits on for a move, once it does (a pause on the way, the
    hand's end say, is answered)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        for number, term in players.items():
            if asking_a_move(hosted, number):
                return number
            answer_a_pause(hosted, number, term)
        assert time.monotonic() < deadline, "the host asked nobody for a move"
        time.sleep(0.02)


def test_ctrl_d_at_a_remote_prompt_asks_then_leaves_the_seat_not_the_game(
    tmp_path: Path, loop: Loop
) -> None:
    hosted, ann, ben = both_at_the_table(tmp_path, loop)
    try:
        play_turns(hosted, {1: ann, 2: ben}, r"(?m)^(Ann|Ben)>\s*$", moves=40)
        # Who moves is the host's to say: a screen can still show the prompt its player
        # has just answered (a flake under load took Ann, whose move was already sent).
        number = _asked_to_move(hosted, {1: ann, 2: ben})
        mover, other = (ann, ben) if number == 1 else (ben, ann)
        name = "Ann" if mover is ann else "Ben"
        mover.wait_for(rf"(?m)^{name}>\s*$")
        mover.send(b"\x04")
        mover.wait_for(r"Leave the table\? The game goes on")
        mover.type("n")  # stays: asked again for the move
        mover.wait_for(rf"(?m)^{name}>\s*$")
        mover.send(b"\x04")
        mover.wait_for(r"Leave the table\?")
        mover.type("y")
        mover.wait_for_everything(r"You left the table\. The game goes on")
        other.wait_for(rf"{name} left the table: their seat waits for them")
        assert hosted.thread.is_alive() and not hosted.outcome
        seat = Role(1) if mover is ann else Role(2)
        back = Terminal(loop, hosted.port, hosted.code(seat))
        back.wait_for(rf"(?m)^{name}>\s*$")
    finally:
        hosted.stop()


# -------------------------------------------- 7. a drop, heard at once


def test_the_other_player_hears_of_a_drop_at_once(tmp_path: Path, loop: Loop) -> None:
    hosted, ann, ben = both_at_the_table(tmp_path, loop)
    try:
        ben.close()
        # Heard now, though the game is waiting for Ann (the dealer's question).
        ann.wait_for(r"Ben's connection dropped: their seat waits for them", timeout=10)
        assert any("Ben's connection dropped" in line for line in hosted.lines)
    finally:
        hosted.stop()


class Proxy:
    """A TCP relay on the loopback interface that can freeze: a client whose network
    vanished without a word (no FIN, no RST)."""

    def __init__(self, loop: Loop, port: int) -> None:
        self.loop = loop
        self.target = port
        self.frozen = asyncio.Event()
        self.server = loop.run(asyncio.start_server(self._relay, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while not self.frozen.is_set():
                data = await src.read(65536)
                if not data or self.frozen.is_set():
                    break
                dst.write(data)
            await self.frozen.wait()  # frozen: hold both ends open, pass nothing

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def freeze(self) -> None:
        self.loop.loop.call_soon_threadsafe(self.frozen.set)

    def close(self) -> None:
        self.loop.loop.call_soon_threadsafe(self.server.close)


def test_a_frozen_client_is_noticed_and_its_player_rejoins(
    tmp_path: Path, loop: Loop, monkeypatch: pytest.MonkeyPatch
) -> None:
    import umtali.host.ssh

    monkeypatch.setattr(umtali.host.ssh, "KEEPALIVE", 1)
    monkeypatch.setattr(umtali.host.ssh, "KEEPALIVE_MISSES", 2)
    hosted = Hosted(tmp_path)
    proxy = Proxy(loop, hosted.port)
    try:
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
        ben = Terminal(loop, proxy.port, hosted.code(Role(2)))
        ben.wait_for(r"Cut for the deal")
        proxy.freeze()
        ann.wait_for(r"Ben's connection dropped", timeout=15)
        again = Terminal(loop, hosted.port, hosted.code(Role(2)))
        again.wait_for(r"Cut for the deal|Stock")
    finally:
        proxy.close()
        hosted.stop()


def test_a_rejoin_takes_the_seat_from_a_connection_still_open(tmp_path: Path, loop: Loop) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        started = time.monotonic()
        again = Terminal(loop, hosted.port, hosted.code(Role(1)))
        again.wait_for(r"(?m)^Ann>\s*$", timeout=10)
        assert time.monotonic() - started < 10
        ann.wait_for_everything(r"You joined this seat again from another terminal")
        assert not any("Error" in line for line in hosted.lines), hosted.lines
    finally:
        hosted.stop()


# ------------------------------------------------ 8. lines typed out of turn


def test_a_line_typed_out_of_turn_waits_shown_and_a_flood_keeps_one(
    tmp_path: Path, loop: Loop
) -> None:
    hosted, ann, ben = both_at_the_table(tmp_path, loop)
    try:
        play_turns(hosted, {1: ann, 2: ben}, r"(?m)^(Ann|Ben)>\s*$", moves=40)
        waiting = ben if _asked_to_move(hosted, {1: ann, 2: ben}) == 1 else ann
        waiting.type("draw")
        waiting.wait_for(r"Typed ahead: 'draw' answers your next move")
        waiting.send(b"".join(b"line %d\r" % n for n in range(540)))
        waiting.wait_for(r"Typed ahead: 'line \d+' answers your next move \(instead of")
        time_limit = time.monotonic() + PATIENCE
        while hosted.server.lobby and time.monotonic() < time_limit:
            time.sleep(0.05)
        assert hosted.thread.is_alive()
    finally:
        hosted.stop()


# ----------------------------------------------------- 9. the door speaks


def test_a_shut_out_client_is_told_for_how_long_and_the_host_can_let_it_in(
    tmp_path: Path, loop: Loop
) -> None:
    hosted = Hosted(tmp_path)
    tries = CodeTries(hosted.port)
    banners, attempt = tries.banners, tries.attempt

    try:
        for _ in range(TRIES):
            with pytest.raises(asyncssh.PermissionDenied):
                loop.run(attempt(new_code()))
        with pytest.raises(asyncssh.PermissionDenied):
            loop.run(attempt(hosted.code(Role(1))))
        assert any("may try again in 60 s" in b for b in banners), banners
        assert "a wrong code from 127.0.0.1 (1 of 5 a minute)" in hosted.lines
        assert any("shut out for 60 s ('unlock 127.0.0.1'" in line for line in hosted.lines)
        assert hosted.host.doorman.unlock() == ["127.0.0.1"]
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
        ann.wait_for(r"Cut for the deal")
    finally:
        hosted.stop()


# ------------------------------------------------------- 10. the small ones


def test_when_the_host_stops_everyone_is_told_and_nobody_has_left(
    tmp_path: Path, loop: Loop
) -> None:
    hosted, ann, ben = both_at_the_table(tmp_path, loop)
    watcher = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
    watcher.wait_for(r"You are watching|Stock")
    hosted.host.stop()
    hosted.thread.join(timeout=PATIENCE)
    hosted.server.stop("The host stopped the game.")
    for term in (ann, ben, watcher):
        term.wait_for_everything(r"The host stopped the game\. It is saved")
        assert term.closed.wait(PATIENCE)
    for term in (ann, ben, watcher):
        assert "left the table" not in term.everything()
        assert "left the game" not in term.everything()
    assert hosted.outcome and "The host stopped the game" in hosted.outcome[0][1][0]


def test_a_finished_hosted_games_last_words_give_the_score() -> None:
    from rich.text import Text

    import umtali
    from umtali.bots import NormalBot
    from umtali.bots.arena import play_game
    from umtali.engine.record import PlayerInfo
    from umtali.host.game import Host
    from umtali.ui.theme import Theme

    game = umtali.Game(seed=2)
    play_game(game, [NormalBot(), NormalBot()])
    players = (PlayerInfo("bot", "Ann", "normal"), PlayerInfo("bot", "Ben", "normal"))
    host = Host(game, players, Theme(), Text(""), [])
    a, b = game.totals
    winner = "Ann" if game.winner == 1 else "Ben"
    assert host.result_words() == f"Ann {a}, Ben {b}. {winner} wins."


# ------------------------------------------------- the prompt's fuzz, over SSH


def settle(ann: Terminal) -> None:
    """Bring Ann back to an empty move prompt: close a page, say no to a question,
    press Enter on a pause, clear a line a hostile key left unsent."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        text = ann.text
        if re.search(r"(?m)^Ann>\s*$", text):
            return
        if "q: back" in text:
            ann.send("q")
        elif "[y/N]" in text:
            ann.type("n")
        elif re.search(r"Press Enter|extra \(11th\)", text):
            ann.type("")
        elif re.search(r"(?m)^Ann> \S", text):
            ann.send("\x15")
        time.sleep(0.2)  # what was sent takes effect; then look again
    raise AssertionError(f"Ann never came back to her prompt:\n{ann.text}")


def test_the_prompt_fuzz_through_an_ssh_connection(tmp_path: Path, loop: Loop) -> None:
    """Hostile lines (the fuzzer's) typed at every prompt of an SSH player, then the
    hint's move: the game goes on, nothing hidden is shown, the record replays."""
    from umtali.lab.fuzzing import hostile_line
    from umtali.store.saves import read_saved

    rng = random.Random(11)
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        for _ in range(40):
            settle(ann)
            for _ in range(2):
                line = hostile_line(rng)
                ann.type("".join(ch for ch in line if ch not in "\r\n\x03\x04\x1a"))
            caught_up(ann, hosted)
            settle(ann)
            ann.type("hint")
            hint = ann.wait_for(r"Hint: (.+?) —").group(1)
            before = table_part(ann)
            ann.type(hint)
            deadline = time.monotonic() + PATIENCE
            while table_part(ann) == before and time.monotonic() < deadline:
                time.sleep(0.01)
            shows_no_secret(ann, secret_cards(hosted, 1))
        assert hosted.thread.is_alive()
        hosted.host.saver.save()
        saved = read_saved(tmp_path / "game.umtali").match
        assert [h.actions() for h in saved.hands] == [h.actions() for h in hosted.game.hands]
    finally:
        hosted.stop()


def test_a_host_whose_output_is_piped_ends_cleanly(tmp_path: Path, loop: Loop) -> None:
    """``umtali host | tee log``: once a thread blocked in Python's buffered stdin aborted
    the interpreter's shutdown ("Fatal Python error", exit 134) when the game ended."""
    from test_terminal import UMTALI

    assert UMTALI is not None
    command = (
        f"{UMTALI} host --names Ann Bob --bot normal --port 0 --seed 3 --delay 0 | cat; "
        'echo "EXIT=${PIPESTATUS[0]}"'
    )
    host = pexpect.spawn(
        "bash",
        ["-c", command],
        env={"UMTALI_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
        dimensions=(30, 100),
    )
    try:
        host.expect(r"seat 1 \(Ann\): ssh -p (\d+) ([a-z-]+)@localhost", timeout=PATIENCE)
        port, code = int(host.match.group(1)), host.match.group(2).decode()
        ann = at_her_prompt(Terminal(loop, port, code))
        ann.type("resign")
        ann.wait_for(r"Resign this game\?")
        ann.type("y")
        ann.wait_for(r"Press Enter to leave")
        ann.type("")
        host.expect(r"EXIT=(\d+)", timeout=PATIENCE)
        assert host.match.group(1) == b"0"
        assert b"Fatal Python error" not in host.before
    finally:
        host.close(force=True)


def test_bench_host_names_the_extra_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from umtali.lab.bench import main
    from umtali.lab.benches import host as load

    assert load.missing() is None  # the test extra installs host-load
    monkeypatch.setitem(sys.modules, "pyte", None)  # as if it were not installed
    assert "pip install 'umtali[host-load]'" in (load.missing() or "")
    assert main(["host", "--games", "1", "--seconds", "1"]) == 2  # at once, no traceback
