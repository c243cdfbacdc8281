"""``umtali replay``: the table it draws (each seat where it sits, both hands alike)
and its keys, which act as they are typed."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from prompting import recording_console

import umtali
from umtali.bots import NormalBot
from umtali.bots.arena import play_game
from umtali.engine.record import PlayerInfo, format_record
from umtali.ui.replay import Position, ReplayViewer
from umtali.ui.screen import LineScreen
from umtali.ui.theme import Theme

PLAYERS = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (normal)", "normal"))
ROOT = Path(__file__).resolve().parent.parent
ASCII = Theme(ascii=True)


def finished(seed: int = 2) -> umtali.Game:
    return play_game(umtali.Game(seed=seed), [NormalBot(), NormalBot()])


def saved(data: Path, name: str, game: umtali.Game, when: int) -> Path:
    """``game``'s record in the games folder under ``data``, last written at ``when``."""
    games = data / "games"
    games.mkdir(exist_ok=True)
    path = games / f"{name}.umtali"
    path.write_text(format_record(game, PLAYERS), encoding="utf-8")
    os.utime(path, (when, when))
    return path


# ------------------------------------------------------------- the table


def screens(game: umtali.Game, steps: range) -> list[str]:
    """The replay's table at each of ``steps`` of the first hand, as text."""
    console = recording_console()
    viewer = ReplayViewer(game, PLAYERS, LineScreen(console, None, ASCII), ASCII)
    out = []
    for step in steps:
        viewer.show(Position(0, 0, step))
        out.append(console.export_text())
    return out


def grouped(cards: list[umtali.Card]) -> str:
    """A hand as the player's own is drawn: suits apart, a wider gap between them."""
    suits: dict[str, list[str]] = {}
    for card in cards:
        suits.setdefault(str(card.suit), []).append(ASCII.plain(card))
    return "  " + "   ".join(" ".join(group) for group in suits.values())


def test_each_seat_stays_where_it_sits_and_both_hands_are_drawn_alike() -> None:
    from umtali.engine.hand import replay

    game = finished()
    hand = game.hands[0]
    movers = set()
    for step, text in zip(range(12), screens(game, range(12)), strict=True):
        rows = text.splitlines()
        top = next(n for n, row in enumerate(rows) if row.startswith(" Bot (normal) "))
        bottom = next(n for n, row in enumerate(rows) if row.startswith(" Ann "))
        assert top < bottom, text  # the first seat at the bottom, whoever is to move
        state = replay(hand.deal, hand.played()[:step], hand.rules)
        movers.add(state.to_move)
        # Both hands face up, grouped by suit the same way; no card backs anywhere.
        assert rows[top + 1] == grouped(state.cards_in_hand(2)), text
        assert rows[bottom + 1] == grouped(state.cards_in_hand(1)), text
        assert ASCII.back not in rows[top] and ASCII.back not in rows[bottom]
        # The line under the table says whose turn it is, from either seat.
        if state.to_move is not None:
            whose = "Ann's" if state.to_move == 1 else "Bot (normal)'s"
            assert f"{whose} turn" in text, text
    assert movers == {1, 2}  # both players moved in the steps looked at


# ------------------------------------------------------------- the keys

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")
PATIENCE = 60.0


class Pty:
    """``python -m umtali`` (this checkout's) in an 80×24 pseudo-terminal, read as a
    screen."""

    def __init__(self, data: Path, *args: str) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        env = {
            **os.environ,
            "TERM": "xterm",
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "COLUMNS": "80",
            "LINES": "24",
            "UMTALI_DATA_DIR": str(data),
            "PYTHONPATH": str(ROOT),
        }
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(
            sys.executable, ["-m", "umtali", *args], dimensions=(24, 80), env=env, cwd=str(data)
        )
        self.everything = bytearray()

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str) -> str:
        return self.wait_until(lambda text: re.search(pattern, text) is not None, pattern)

    def wait_until(self, holds: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + PATIENCE
        while time.monotonic() < end:
            if holds(self.text):
                return self.text
            try:
                data = self.child.read_nonblocking(65536, timeout=0.1)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                break
            self.everything += data
            self.stream.feed(data)
        if holds(self.text):
            return self.text
        raise AssertionError(f"{what!r} never came; the screen was:\n{self.text}")

    def ended(self) -> str:
        """What the program left on the terminal once it ended."""
        self.child.expect(pexpect.EOF, timeout=PATIENCE)
        self.everything += self.child.before or b""
        return self.everything.decode("utf-8", "replace")

    def close(self) -> None:
        self.child.terminate(force=True)


@pytest.mark.slow  # a real terminal
def test_every_replay_key_acts_as_it_is_typed(tmp_path: Path) -> None:
    game = finished()
    path = saved(tmp_path, "20260101-100000", game, 1_000_000)
    total = sum(len(h.actions()) + 1 for h in game.hands)
    term = Pty(tmp_path, "replay", str(path))
    try:
        term.wait_for(rf"\[1/{total}\]")
        term.child.send("x")  # not a replay key: refused at once, no Enter
        term.wait_for(r"'x' is not a replay key")
        assert f"[1/{total}]" in term.text
        term.child.send("\r")
        term.wait_for(rf"\[2/{total}\]")
        term.child.send("b")
        term.wait_for(rf"\[1/{total}\]")
        term.child.send("q")
        term.ended()
    finally:
        term.close()


@pytest.mark.slow  # a real terminal
def test_leave_the_game_takes_y_without_enter(tmp_path: Path) -> None:
    term = Pty(tmp_path, "play", "--seed", "5", "--delay", "0")
    try:
        term.wait_for(r"extra \(11th\) card")
        term.child.send("\r")
        term.wait_for(r"(?m)^You>")
        term.child.send("quit\r")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.child.send("n")  # no: the game goes on, at once
        term.wait_until(lambda text: "Leave the game?" not in text, "the question answered")
        term.wait_for(r"(?m)^You>")
        term.child.send("quit\r")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.child.send("y")
        assert "You left the game. It is saved" in term.ended()
    finally:
        term.close()
