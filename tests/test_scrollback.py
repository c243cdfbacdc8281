"""Hot seat in a real tmux window: no card of one player reaches the other through the
scrollback, at a handover or after leaving the game."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

UMTALI = shutil.which("umtali", path=str(Path(sys.executable).parent)) or shutil.which("umtali")
TMUX = shutil.which("tmux")
pytestmark = [
    pytest.mark.skipif(UMTALI is None or TMUX is None, reason="needs tmux and umtali"),
    pytest.mark.slow,  # a real terminal: CI runs it
]
SUITS = set("♠♥♦♣")
#: Seconds a wait for the screen lasts before the test fails (only then does it matter).
PATIENCE = 60.0


class Window:
    """One detached tmux session at 80x24 running umtali."""

    def __init__(self, *args: str, data: str | None = None) -> None:
        assert UMTALI is not None and TMUX is not None
        self.name = f"umtali-{uuid.uuid4().hex[:8]}"
        self.data = data or tempfile.mkdtemp()
        command = " ".join([f"UMTALI_DATA_DIR={self.data}", UMTALI, *args])
        # The window stays after umtali exits, so its last screen can still be read.
        subprocess.run(
            [TMUX, "new-session", "-d", "-s", self.name, "-x", "80", "-y", "24"], check=True
        )
        self.tmux("set-option", "-t", self.name, "remain-on-exit", "on")
        self.tmux("respawn-pane", "-k", "-t", self.name, command)

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, *args], capture_output=True, text=True, check=True)
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def everything(self) -> str:
        """The screen and all its scrollback."""
        return self.tmux("capture-pane", "-p", "-S", "-2000", "-t", self.name)

    def wait_for(self, text: str, timeout: float = PATIENCE) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.everything()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{self.everything()}")

    def table(self) -> str:
        """The table on the screen, without the move log, the messages and the prompt."""
        screen = self.screen()
        cut = screen.find("last moves")
        return screen[:cut] if cut >= 0 else screen

    def asked_again(self, prompt: str, before: str) -> bool:
        """After a move typed at ``prompt`` on the table ``before``: True once the table
        shows the move and ``prompt`` asks again, False once the turn is handed over.
        (The question answered stays on the screen while the move is played; the game
        clears it, and the hint, before it plays the move.)"""
        end = time.monotonic() + PATIENCE
        while True:
            screen = self.screen()
            if "Pass to" in screen:
                return False
            table = self.table()
            if (
                table != before
                and SUITS & set(table)
                and "Hint: " not in screen
                and re.search(rf"(?m)^{re.escape(prompt)}\s*$", screen)
            ):
                return True
            assert time.monotonic() < end, f"neither {prompt!r} nor a handover:\n{screen}"
            time.sleep(0.1)

    def type(self, line: str) -> None:
        if line:
            self.tmux("send-keys", "-t", self.name, "-l", line)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def close(self) -> None:
        subprocess.run([TMUX, "kill-session", "-t", self.name], capture_output=True)
        shutil.rmtree(self.data, ignore_errors=True)


def test_no_card_of_one_player_is_left_in_the_scrollback_for_the_other() -> None:
    win = Window("play", "--hotseat", "--names", "Ann", "Ben", "--seed", "9")
    try:
        win.wait_for("extra (11th) card")
        win.type("")  # the dealer keeps the extra card and plays first
        win.wait_for("Pass to")
        win.type("")
        win.wait_for("Ben>")
        assert SUITS & set(win.screen())  # Ben sees his own cards
        # Ben's whole turn, by the hints, then the handover to Ann.  Each hint is asked
        # for at a new question, so it is never the last one still on the screen, and
        # never once the turn is over (the line would answer the handover).
        while True:
            win.type("hint")
            screen = win.wait_for("Hint: ")
            hint = screen[screen.rindex("Hint: ") + 6 :].split(" — ")[0].strip()
            before = win.table()
            win.type(hint)
            if hint.startswith("discard") or not win.asked_again("Ben>", before):
                break
        win.wait_for("Pass to Ann")
        assert not SUITS & set(win.everything()), win.everything()
        win.type("")
        win.wait_for("Ann>")
        win.type("quit")
        win.wait_for("Leave the game?")
        win.type("y")
        win.wait_for("You left the game")
        assert not SUITS & set(win.everything()), win.everything()
    finally:
        win.close()


def _hint_or_pause(win: Window, hints: int) -> str | None:
    """The screen once the hint typed is answered (a new "Hint: "), or None once a
    pause asks for Enter instead (the move prompt had gone): a state, not a time."""
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        screen = win.everything()
        if screen.count("Hint: ") > hints:
            return screen
        rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
        if "Enter" in " ".join(rows[-2:]) or "added to your record" in screen:
            return None
        time.sleep(0.1)
    raise AssertionError(f"the hint was never answered:\n{win.everything()}")


def test_a_finished_hotseat_game_leaves_its_scores_and_no_card() -> None:
    import umtali
    from umtali.bots import NormalBot
    from umtali.bots.arena import play_game
    from umtali.engine.record import PlayerInfo
    from umtali.store.saves import Autosaver

    # A hot-seat game one move from its end, saved where umtali resume finds it.
    data = tempfile.mkdtemp()
    game = play_game(umtali.Game(seed=5), [NormalBot(), NormalBot()])
    hand = game.hand
    assert hand is not None
    game.rewind(len(hand.actions()) - 1)
    players = (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))
    saver = Autosaver(game, players, [Path(data) / "games" / "last.umtali"], print)
    saver.save()
    saver.close()
    win = Window("resume", data=data)
    try:
        # The last move (by the hints), then Enter at each pause, until umtali is gone.
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            screen = win.everything()
            if "added to your record" in screen:
                break
            # The question is on the command line: the last row, or the one over the toolbar.
            rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
            asked = " ".join(rows[-2:])
            if any(re.fullmatch(r"(Ann|Ben)>", row.strip()) for row in rows[-2:]):
                # A move is asked for, and nothing is typed yet.
                hints = screen.count("Hint: ")
                win.type("hint")
                said = _hint_or_pause(win, hints)
                if said is None:
                    continue  # the move prompt had gone: "hint" answered a pause
                win.type(said[said.rindex("Hint: ") + 6 :].split(" — ")[0].strip())
            elif "Enter" in asked:
                win.type("")
            _changed(win, screen)  # the key was taken, or the program drew what is next
        everything = win.wait_for("added to your record")
        assert re.search(r"Game 1 is over: (Ann|Ben) won, \d+ to \d+\.", everything)
        assert "Hand 4: Ann" in everything
        assert not SUITS & set(everything), everything
    finally:
        win.close()


def _changed(win: Window, before: str, timeout: float = 15) -> None:
    """Wait until the screen is no longer ``before`` (the key typed was taken)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and win.everything() == before:
        time.sleep(0.05)
