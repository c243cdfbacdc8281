"""A whole seeded game of ``umtali play`` in a real pseudo-terminal, its screens kept
as golden text: the reference of how the full-screen table looks at 80×24 and 200×50.

The person's moves are the coach's: at each prompt the test asks for a hint and types
it, so the game (seeded, against a bot that plays the same moves for the same seed)
is the same on every run.  A fixed set of screens, each taken at a state the game
reaches once (a question or a prompt on the screen, never after a fixed time), is
compared with ``tests/golden/game_<size>_<screen>.txt``.  After a change to the look,
write them again with::

    UPDATE_GOLDEN=1 pytest -m slow tests/test_golden_game.py

and read the new files as a player would before committing them.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from test_render import GOLDEN, check_golden
from test_terminal import PATIENCE, UMTALI, Terminal, asked_again, table_part

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

pytestmark = [
    pytest.mark.skipif(UMTALI is None, reason="the umtali command is not installed"),
    pytest.mark.slow,  # a real terminal and a whole game: CI runs it
]

SEED = "5"
#: ``normal`` rather than the default ``hard``: the same look, a game in seconds less.
BOT = "normal"
#: Everything the program's look could depend on, fixed: the locale (UTF-8, so suit
#: symbols), the clock the profile reads, the encoding of its output.  The terminal
#: (xterm, colour allowed, no NO_COLOR) and the data folder are fixed by Terminal.
ENV = {
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONIOENCODING": "utf-8",
    "UMTALI_NOW": "2026-01-01T12:00:00",
}
#: ``UPDATE_GOLDEN=1`` writes the golden files (``check_golden``'s switch).
UPDATE = bool(os.environ.get("UPDATE_GOLDEN"))
#: How long a screen may take to be drawn whole once its state is on it.
DRAWN = 10.0


class AlternateScreen(pyte.Screen):  # type: ignore[misc,name-defined]
    """pyte's screen with xterm's alternate screen (private mode 1049), which pyte
    lacks: the full-screen table is drawn on it, and leaving it brings back what was
    on the terminal before, which is what a player sees after the program ends."""

    ALTERNATE = 1049

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self.main: dict[int, dict[int, Any]] | None = None

    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        if kwargs.get("private") and self.ALTERNATE in modes and self.main is None:
            self.save_cursor()
            self.main = {row: dict(line) for row, line in self.buffer.items()}
            self.erase_in_display(2)
        super().set_mode(*modes, **kwargs)

    def reset_mode(self, *modes: int, **kwargs: Any) -> None:
        if kwargs.get("private") and self.ALTERNATE in modes and self.main is not None:
            self.buffer.clear()
            for row, line in self.main.items():
                self.buffer[row].update(line)
            self.main = None
            self.restore_cursor()
            self.dirty.update(range(self.lines))
        super().reset_mode(*modes, **kwargs)


ARGS = ("play", "--seed", SEED, "--delay", "0", "--bot", BOT)
#: What the player's terminal showed before the game: the line that started it.  The
#: table must leave it as it was, and nothing of the table behind.
TYPED = "$ umtali " + " ".join(ARGS)


def terminal(cols: int, rows: int, data: Path) -> Terminal:
    # The data folder is named relative to the program's working folder, so the
    # record's place that the last words name reads the same in every run.
    term = Terminal(*ARGS, cols=cols, rows=rows, env=ENV, data="data", cwd=str(data))
    # Nothing is read from the program before its first pump: swapping the screen
    # here loses none of its output.
    term.screen = AlternateScreen(cols, rows)
    term.stream = pyte.ByteStream(term.screen)
    term.stream.feed(f"{TYPED}\r\n".encode())
    return term


def screen_text(term: Terminal) -> str:
    """Every row of the screen, blank ones too (an empty stretch is part of the look);
    the name of the game's record, which is the time it was made, as a mark."""
    text = "\n".join(line.rstrip() for line in term.screen.display) + "\n"
    return re.sub(r"\b\d{8}-\d{6}(-\d+)?\b", "YYYYMMDD-HHMMSS", text)


def snap(term: Terminal, name: str, ended: bool = False) -> None:
    """Compare the screen, whose state has just appeared, with its golden file.

    The state's text can be on the screen before the rest of the frame is: the
    screen is compared once it shows the golden text, or once ``DRAWN`` seconds
    have passed (and then fails, showing the difference).  Writing, the screen is
    taken once it has stopped changing.  ``ended``: the program has ended, its
    output is all read."""
    path = GOLDEN / f"{name}.txt"
    if ended:
        pass
    elif UPDATE or not path.exists():
        term.still()
    else:
        want = path.read_text(encoding="utf-8")
        end = time.monotonic() + DRAWN
        while screen_text(term) != want and time.monotonic() < end:
            term.pump()
    check_golden(name, screen_text(term))


def run_out(term: Terminal) -> int:
    """Read the program's output to its end; its exit status."""
    end = time.monotonic() + PATIENCE
    while True:
        try:
            data = term.child.read_nonblocking(65536, timeout=0.1)
        except pexpect.TIMEOUT:
            assert time.monotonic() < end, f"the program did not end:\n{term.text}"
            continue
        except pexpect.EOF:
            break
        term.raw.extend(data)
        term.stream.feed(data)
    term.child.close()
    status: int = term.child.exitstatus
    return status


#: The questions between the moves, each answered with Enter, and the golden file of
#: the first screen that asks it.
QUESTIONS = {
    r"Who takes the extra \(11th\) card and plays first\? \[Enter: you, o: your"
    r"\s+opponent\]": "cut",
    r"Hand over\. Press Enter for the scores\.": "hand_over",
    r"Press Enter to deal the next hand, or type review for the coach\.": "scores",
    r"Press Enter for the result of the game, or type review for the coach\.": "last_scores",
    r"Press Enter to finish\.": "result",
}


def play_a_whole_game(cols: int, rows: int, data: Path) -> None:
    size = f"game_{cols}x{rows}"
    term = terminal(cols, rows, data)
    kept: set[str] = set()

    def keep(screen: str) -> None:
        if screen not in kept:
            kept.add(screen)
            snap(term, f"{size}_{screen}")

    try:
        anything = "|".join([r"(?m)^ *You>\s*$", *QUESTIONS])  # the prompt keeps to the column
        while "result" not in kept:
            found = term.wait_for(anything)
            question = next((q for q in QUESTIONS if re.fullmatch(q, found.group(0))), None)
            if question is not None:
                keep(QUESTIONS[question])
                term.type("")
                term.gone(found.group(0))
                continue
            if "Your turn: play" in term.text:
                keep("first_table")
            elif "Your turn: draw" in term.text and "Bot (normal): " in term.text:
                keep("after_bot")
            term.type("hint")
            hint = term.wait_for(r"Hint: (.+?) —").group(1)
            before = table_part(term)
            term.type(hint)
            asked_again(term, "You>", before, over="|".join(QUESTIONS))
        assert run_out(term) == 0
        snap(term, f"{size}_after_exit", ended=True)
        assert {"first_table", "after_bot", "hand_over", "scores", "last_scores"} <= kept
    finally:
        term.close()


def test_a_whole_game_at_80_by_24(tmp_path: Path) -> None:
    play_a_whole_game(80, 24, tmp_path)


def test_a_whole_game_at_200_by_50(tmp_path: Path) -> None:
    play_a_whole_game(200, 50, tmp_path)
