"""End to end: the installed ``umtali play`` in a real pseudo-terminal, read as a screen.

pexpect runs the program in a pty of 80×24; pyte keeps the screen a player
would see.  The test plays by asking for a hint and typing what it says.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

from umtali.store.saves import read_saved

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

UMTALI = shutil.which("umtali", path=str(Path(sys.executable).parent)) or shutil.which("umtali")
pytestmark = [
    pytest.mark.skipif(UMTALI is None, reason="the umtali command is not installed"),
    pytest.mark.slow,  # real terminals: CI runs them
]

SUITS = set("♠♥♦♣")
#: Seconds a wait for the screen lasts before the test fails: long, since it only
#: matters when the screen never comes, and a loaded machine may take seconds to start
#: the program or to draw.
PATIENCE = 60.0


class Terminal:
    def __init__(
        self,
        *args: str,
        cols: int = 80,
        rows: int = 24,
        env: dict[str, str] | None = None,
        data: str | None = None,
        shell: bool = False,
        cwd: str | None = None,
    ) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()  # everything the program wrote, for a failure report
        # Saved games go to a folder of the test's own, never the player's.
        self.owns_data = data is None
        self.data = data or tempfile.mkdtemp(prefix="umtali-pty-")
        env = {
            **os.environ,
            "TERM": "xterm",
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "COLUMNS": str(cols),
            "LINES": str(rows),
            "UMTALI_DATA_DIR": self.data,
            **(env or {}),
        }
        env.pop("NO_COLOR", None)
        assert UMTALI is not None
        if shell:
            # As a job of an interactive shell, the way a player starts it: the
            # shell's job control is what Ctrl-Z (and fg) work through.
            env["PS1"] = "shell$ "
            self.child = pexpect.spawn(
                "bash", ["--norc", "--noprofile", "-i"], dimensions=(rows, cols), env=env, cwd=cwd
            )
            self.child.sendline(" ".join([UMTALI, *args]))
        else:
            self.child = pexpect.spawn(
                UMTALI, list(args), dimensions=(rows, cols), env=env, cwd=cwd
            )

    def pump(self, seconds: float = 0.05) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.02)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                return
            self.raw.extend(data)
            self.stream.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str, timeout: float = PATIENCE) -> re.Match[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump()
            found = re.search(pattern, self.text)
            if found:
                return found
        alive = self.child.isalive()
        tail = bytes(self.raw[-1500:]).decode("utf-8", "replace")
        raise AssertionError(
            f"{pattern!r} never appeared (program running: {alive}); the screen was:\n"
            f"{self.text}\n--- last output ---\n{tail!r}"
        )

    def gone(self, text: str, timeout: float = PATIENCE) -> None:
        """Wait until ``text`` is no longer on the screen: a question it belonged to
        was answered (an answer also clears what was said, a hint say)."""
        end = time.monotonic() + timeout
        while True:
            self.pump()
            if text not in self.text:
                return
            assert time.monotonic() < end, f"{text!r} stayed on the screen:\n{self.text}"

    def still(self, seconds: float = 1.0, timeout: float = PATIENCE) -> str:
        """The screen once it has not changed for ``seconds``: what was under way (a
        move being played) has been drawn."""
        end = time.monotonic() + timeout
        self.pump()
        while True:
            before = self.text
            self.pump(seconds)
            if self.text == before:
                return before
            assert time.monotonic() < end, f"the screen never settled:\n{self.text}"

    def type(self, line: str) -> None:
        self.child.send(line + "\r")

    def close(self) -> None:
        self.child.terminate(force=True)
        if self.owns_data:
            shutil.rmtree(self.data, ignore_errors=True)


def table_part(term: Terminal) -> str:
    """The table on the screen, without the move log, the messages and the prompt."""
    text = term.text
    cut = text.find("last moves")
    return text[:cut] if cut >= 0 else text


def asked_again(term: Terminal, prompt: str, before: str, over: str = "Pass to") -> bool:
    """After a move typed at ``prompt`` on the table ``before``: True once the table
    shows the move and ``prompt`` asks again, False once ``over`` is on the screen (the
    turn handed over, the hand ended).

    The prompt alone would not do: the question just answered stays on the screen while
    the move is played, and a line typed then would answer the handover if the move
    ended the turn.  The game clears the question (and what was said, the hint) before
    it plays the move, so the changed table under the prompt is a new question."""
    end = time.monotonic() + PATIENCE
    while True:
        term.pump()
        text = term.text
        if re.search(over, text):
            return False
        table = table_part(term)
        if (
            table != before
            and SUITS & set(table)
            and "Hint: " not in text
            and re.search(rf"(?m)^ *{re.escape(prompt)}\s*$", text)  # a wide screen centres it
        ):
            return True
        assert time.monotonic() < end, f"neither {prompt!r} nor a handover:\n{text}"


def play_by_hints(term: Terminal, prompt: str, until: str, moves: int = 200) -> None:
    """At each move prompt ask for a hint and type it, until ``until`` is on screen.

    Each step waits for the screen its last key made: a move for the table that shows
    it under a new prompt, or the hand's end; a pause for its line to go."""
    for _ in range(moves):
        # The prompt waits on its own line (the full-screen table has its toolbar under it).
        found = term.wait_for(rf"(?m)(^{re.escape(prompt)}\s*$|{until}|^.*Press Enter.*$)")
        if re.search(until, term.text):
            return
        if "Press Enter" in found.group(0):  # e.g. after the cut, or the hand's last move
            term.type("")
            term.gone(found.group(0))
            continue
        term.type("hint")
        hint = term.wait_for(r"Hint: (.+?) —").group(1)
        before = table_part(term)
        term.type(hint)
        asked_again(term, prompt, before, over=rf"{until}|Press Enter")
    raise AssertionError("the hand did not end")


def test_a_seeded_hand_against_the_bot_in_a_real_terminal() -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0")
    try:
        term.wait_for(r"Cut for the deal")
        term.wait_for(r"extra \(11th\) card")
        term.type("")
        term.wait_for(r"Your turn")
        screen = term.text
        assert "Bot (hard)" in screen and "Stock 31" in screen
        assert SUITS & set(screen)  # cards drawn with their suit symbols
        term.type("discrad 9c")
        term.wait_for(r"'discrad 9c' is not a command")
        play_by_hints(term, "You>", r"Hand 1 is over|deal the next hand")
        assert re.search(r"this hand", term.text)
        term.child.sendcontrol("c")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.type("y")
        term.child.expect(pexpect.EOF, timeout=PATIENCE)
    finally:
        term.close()


def test_a_hotseat_handover_shows_no_card() -> None:
    term = Terminal("play", "--hotseat", "--names", "Ann", "Ben", "--seed", "9")
    try:
        term.wait_for(r"extra \(11th\) card")
        term.type("")
        for _ in range(4):  # four handovers: every one leaves no card on screen
            found = term.wait_for(r"Pass to (Ann|Ben) — press Enter|deal the next hand")
            if found.group(0) == "deal the next hand":  # a hand ended early
                term.type("")
                found = term.wait_for(r"Pass to (Ann|Ben) — press Enter")
            time.sleep(0.2)
            term.pump()
            assert not SUITS & set(term.text), term.text
            term.type("")
            name = found.group(1)
            term.wait_for(rf"{name}>")
            prompt = f"{name}>"
            # play this player's whole turn by hints
            while True:
                term.type("hint")
                action = term.wait_for(r"Hint: (.+?) —").group(1)
                before = table_part(term)
                term.type(action)
                if action.startswith("discard") or not asked_again(term, prompt, before):
                    break
    finally:
        term.close()


@pytest.mark.parametrize("variant", ["family", "practical", "rummy"])
def test_a_hand_of_each_variant_in_a_real_terminal(variant: str) -> None:
    term = Terminal("play", "--variant", variant, "--seed", "8", "--bot", "normal", "--delay", "0")
    try:
        term.wait_for(r"Cut for the deal")
        term.wait_for(r"Press Enter to deal")  # nobody is asked about an extra card
        term.type("")
        term.wait_for(r"You>")
        assert f"· {variant}" in term.text
        play_by_hints(term, "You>", r"Hand 1 is over|deal the next hand")
        assert "Hand 1 is over" in term.text, term.text
        term.child.sendcontrol("c")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.type("y")
        term.child.expect(pexpect.EOF, timeout=PATIENCE)
    finally:
        term.close()


@pytest.mark.parametrize(
    "env",
    [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"}],
    ids=["PYTHONIOENCODING", "LC_ALL"],
)
def test_a_terminal_without_unicode_plays_in_ascii(env: dict[str, str]) -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0", env={**env, "PYTHONCOERCECLOCALE": "0"})
    try:
        term.wait_for(r"extra \(11th\) card")
        term.type("")
        term.wait_for(r"You>")
        assert "AS QS KS" in term.text and not SUITS & set(term.text)
        assert all(ord(ch) < 128 for ch in term.text), term.text
        term.type("all")
        term.type("x 9c")
        term.wait_for(r"Bot \(hard\):? took")
        term.type("quit")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.type("y")
        term.wait_for(r"It is saved")
    finally:
        term.close()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for job control")
def test_ctrl_z_suspends_the_game_and_fg_brings_it_back() -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0", shell=True)
    try:
        term.wait_for(r"extra \(11th\) card")
        term.type("")
        term.wait_for(r"You>")
        term.child.sendcontrol("z")
        term.wait_for(r"Stopped[\s\S]*shell\$")  # back at the shell, the game stopped
        term.type("fg")
        term.type("hint")
        term.wait_for(r"Hint: ")
    finally:
        term.close()


def test_a_second_umtali_on_the_same_game_is_refused() -> None:
    first = Terminal("play", "--seed", "5", "--delay", "0")
    try:
        first.wait_for(r"extra \(11th\) card")
        first.type("")
        first.wait_for(r"You>")
        second = Terminal("resume", data=first.data)
        try:
            second.wait_for(r"is open in another umtali \(process \d+\)")
            second.child.expect(pexpect.EOF, timeout=PATIENCE)
            second.child.close()
            assert second.child.exitstatus == 1
        finally:
            second.close()
        first.type("hint")
        first.wait_for(r"Hint: ")  # the first goes on undisturbed
    finally:
        first.close()


def test_leaving_a_game_that_cannot_be_saved_says_so(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    term = Terminal("play", "--seed", "5", "--delay", "0", data=str(blocker))
    try:
        term.wait_for(r"Could not save the game")
        term.wait_for(r"extra \(11th\) card")
        term.type("")
        term.wait_for(r"You>")
        term.type("all")  # a move: a game left before any is not kept at all
        term.wait_for(r"Your turn: discard")
        term.type("quit")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.type("y")
        term.wait_for(r"could not be saved")
        term.wait_for(r"type 'lose' to leave without saving")
        assert "It is saved" not in term.text
        term.type("lose")
        term.wait_for(r"It was not saved")
    finally:
        term.close()


@pytest.mark.skipif(shutil.which("less") is None, reason="needs less")
def test_the_rules_open_in_less_without_raw_escape_codes() -> None:
    term = Terminal("rules", env={"PAGER": "less", "MANPAGER": "", "LESS": "-X"})
    try:
        term.wait_for(r"How to play Umtali")
        term.pump(0.3)
        assert "ESC[" not in term.text and "\x1b" not in term.text, term.text
        term.child.send("q")
    finally:
        term.close()


def _one_move_then_quit(term: Terminal) -> None:
    term.wait_for(r"You>")
    term.type("hint")
    hint = term.wait_for(r"Hint: (.+?) —").group(1)
    term.type(hint)
    term.wait_for(r"You>")
    term.type("quit")
    term.wait_for(r"Leave the game\? \[y/N\]")
    term.type("y")
    term.wait_for(r"You left the game")
    term.child.expect(pexpect.EOF, timeout=PATIENCE)


def test_a_record_asked_for_is_still_written_after_resume(tmp_path: Path) -> None:
    mine = tmp_path / "mine.umtali"
    first = Terminal("play", "--seed", "5", "--delay", "0", "--record", str(mine))
    try:
        first.wait_for(r"extra \(11th\) card")
        first.type("")
        _one_move_then_quit(first)
        before = read_saved(mine).match.hand.actions()  # type: ignore[union-attr]
        second = Terminal("resume", data=first.data)
        try:
            _one_move_then_quit(second)
        finally:
            second.close()
        after = read_saved(mine).match.hand.actions()  # type: ignore[union-attr]
        assert len(after) > len(before) and after[: len(before)] == before
    finally:
        first.close()


def _at_first_move(term: Terminal) -> None:
    term.wait_for(r"extra \(11th\) card")
    term.type("")
    term.wait_for(r"(?m)^You>")


def test_the_full_screen_table_redraws_on_resize_and_refuses_moves_when_too_small() -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0")
    try:
        _at_first_move(term)
        assert re.search(r"(?m)^ You ─+ 0 points · 0 in the game$", term.text)
        assert len(term.text.splitlines()[0]) <= 80
        term.screen.resize(30, 100)
        term.child.setwinsize(30, 100)
        # The header lines are drawn again, as wide as the terminal now is.
        term.wait_for(r"(?m)^ You ─{60,} 0 points · 0 in the game$")
        term.screen.resize(18, 60)
        term.child.setwinsize(18, 60)
        term.wait_for(r"This terminal is 60×18")
        term.type("all")
        term.wait_for(r"too small to show the table")
        term.wait_for(r"no move was made")
        term.screen.resize(24, 80)
        term.child.setwinsize(24, 80)
        term.wait_for(r"Your turn: play")  # the move typed blind was not played
        term.type("all")
        term.wait_for(r"Your turn: discard")
    finally:
        term.close()


def test_rules_and_help_open_inside_the_app_and_close_back_to_the_table() -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0")
    try:
        _at_first_move(term)
        term.type("rules")
        term.wait_for(r"How to play Umtali")
        term.wait_for(r"rules · lines 1-\d+ of \d+")
        assert "ESC[" not in term.text and "You>" not in term.text
        term.child.send(" ")  # a page further on
        term.wait_for(r"rules · lines \d\d-")
        term.child.send("q")
        term.wait_for(r"Your turn: play")
        term.type("help")
        term.wait_for(r"help · lines 1-")
        term.child.send("G")  # to the end of the page
        term.wait_for(r"Legal now:")
        term.child.send("q")
        term.wait_for(r"(?m)^You>")
    finally:
        term.close()


def test_undo_after_a_draw_from_the_stock_is_refused_in_the_app() -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0")
    try:
        _at_first_move(term)
        term.type("all")
        term.type("x 9c")
        term.wait_for(r"Your turn: draw")
        term.type("draw")
        term.wait_for(r"You: drew")
        term.type("undo")
        term.wait_for(r"There is nothing to undo")
        assert "You: drew" in term.text  # the draw stands
    finally:
        term.close()


def test_watching_two_bots_pause_step_and_stop() -> None:
    term = Terminal("watch", "--seed", "3", "--delay", "0.05", "--bots", "normal", "easy")
    try:
        term.wait_for(r"watching at 1x")
        term.wait_for(r"Bot 1 \(normal\) \(watched\)")
        term.child.send(" ")
        term.wait_for(r"paused · Space: go on")
        before = term.still()  # a move under way as Space came has been drawn
        time.sleep(0.5)  # a while for a move that should not come
        term.pump(0.2)
        assert term.text == before  # nothing moves while paused
        term.child.send("s")
        end = time.monotonic() + PATIENCE
        while term.text == before:  # the step's one move
            assert time.monotonic() < end, "the step made no move"
            term.pump()
        term.wait_for(r"paused")
        term.child.send("q")
        term.wait_for(r"You stopped watching")
        term.child.expect(pexpect.EOF, timeout=PATIENCE)
    finally:
        term.close()


@pytest.mark.parametrize("plain", [False, True], ids=["full-screen", "plain"])
def test_the_full_screen_table_uses_the_alternate_screen_and_plain_does_not(plain: bool) -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0", *(["--plain"] if plain else []))
    try:
        _at_first_move(term)
        term.type("hint")
        term.wait_for(r"Hint: ")
        alternate = b"\x1b[?1049h" in term.raw
        assert alternate is not plain
        if plain:  # the table printed between prompts, the prompt at the bottom
            term.wait_for(r"Your turn: play[\s\S]*Hint: [\s\S]*You>\s*$")
        else:  # the move log and the toolbar under the command line
            assert "last moves" in term.text and "Tab: moves" in term.text
    finally:
        term.close()


def test_plain_says_a_bot_turn_in_a_few_lines_and_the_table_when_asked() -> None:
    term = Terminal("play", "--plain", "--seed", "5", "--delay", "0")
    try:
        _at_first_move(term)
        term.type("all")
        term.wait_for(r"Your turn: discard")
        term.type("x 9c")
        # The bot's whole turn, then the hand and the question: a few lines.
        found = term.wait_for(r"You discarded 9♣\.\n([\s\S]*)Your turn: draw, take\nYou>")
        assert len(found.group(1).splitlines()) <= 20
        assert re.search(r"(?m)^Bot \(hard\) took 9♣ from the discard pile, ", term.text)
        assert re.search(r"(?m)^Your hand: ", found.group(1))
        assert not set("▒─━│┃") & set(term.text), term.text  # no card back, no rule
        assert "Tab: moves" not in term.text  # no toolbar
        assert "Stock" not in term.text
        term.type("table")
        term.wait_for(r"Stock 31, discard 4♣ \(1 in the pile\)\.")
        term.wait_for(r"(?m)^You: \d+ points this hand")
    finally:
        term.close()


def test_a_dumb_terminal_plays_line_by_line() -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0", env={"TERM": "dumb"})
    try:
        term.wait_for(r"extra \(11th\) card")
        term.type("")
        term.wait_for(r"You>")
        assert b"\x1b[?1049h" not in term.raw  # no alternate screen
        term.type("all")  # a move: a game left before any is not kept at all
        term.wait_for(r"Your turn: discard")
        term.type("quit")
        term.wait_for(r"Leave the game\?")
        term.type("y")
        term.wait_for(r"It is saved")
    finally:
        term.close()


def test_a_lesson_and_its_quiz_in_the_full_screen_table() -> None:
    term = Terminal("learn", "the-rule", "--delay", "0")
    try:
        term.wait_for(r"Lesson 4: The Rule")
        term.type("")
        term.wait_for(r"(?m)^You>")
        assert "Draw from the stock." in term.text and "Lesson 4" in term.text
        term.type("hint")
        term.wait_for(r"Hint: type draw\.")
        term.type("draw")
        term.wait_for(r"Try it: play 10D")
        term.type("play 10D")
        term.wait_for(r"Refused: 10D is in the group")
        # Each move once the lesson has answered the one before (two lines typed while
        # the lesson is busy would leave only the last to answer it).
        for move, answered in (
            ("meld 10D 10S 10H", r"Now your clubs"),
            ("meld 5C 4C 3C", r"Lay the whole run of clubs"),
            ("meld 5C 4C 3C 2C", r"Nothing else goes down"),
            ("discard 8H", r"That is the lesson's play"),
        ):
            term.type(move)
            term.wait_for(answered)
        term.type("")
        term.wait_for(r"Press Enter for the quiz")
        term.type("")
        term.wait_for(r"quiz 1/2")
        term.type("meld 5C 4C 3C")
        term.wait_for(r"Right\.")
        term.type("")
        term.wait_for(r"quiz 2/2")
        term.type("play QS")
        # A wrong answer: its verdict, and one more try or Enter for the answer.
        term.wait_for(r"Try\s+once more")
        assert "Not legal: QS is in the marriage" in term.text
        term.type("")
        term.wait_for(r"Press Enter to go on")
        term.type("")
        term.wait_for(r"1 of 2 right")
        term.type("")
        term.wait_for(r"Lesson number")
        assert "The Rule" in term.text and "quiz 1/2" in term.text
        term.type("q")
        term.wait_for(r"Your progress is saved")
        term.child.expect(pexpect.EOF, timeout=PATIENCE)
    finally:
        term.close()


@pytest.mark.parametrize("plain", [False, True], ids=["app", "plain"])
@pytest.mark.parametrize(("cols", "rows"), [(64, 20), (80, 24)])
def test_the_dealers_question_wraps_between_words(cols: int, rows: int, plain: bool) -> None:
    args = ["play", "--seed", "5", "--delay", "0", *(["--plain"] if plain else [])]
    term = Terminal(*args, cols=cols, rows=rows)
    try:
        term.wait_for(r"o:\s+your\s+opponent\]")
        question = "Who takes the extra (11th) card and plays first? [Enter: you, o: your opponent]"
        asked = term.text[term.text.index("Who takes") :].split("\n")[:3]
        assert " ".join(" ".join(asked).split()).startswith(question)
        # Each row holds whole words: none is cut in two at the row's end.
        assert {word for line in asked for word in line.split()} <= set(question.split())
    finally:
        term.close()


def test_tabs_menu_never_covers_the_toolbar() -> None:
    """Issue 46: a menu of one choice (``meld ks`` completes to ``meld KS QS``, which
    is not what was typed plus more) was drawn on the row under the cursor: the
    toolbar's."""
    term = Terminal("play", "--seed", "5", "--delay", "0")
    try:
        _at_first_move(term)
        toolbar = term.text.splitlines()[-1]
        assert "Tab: moves" in toolbar
        term.child.send("meld ks\t")
        term.wait_for(r"(?m)^ +meld KS QS *$")  # the menu, on a row of its own
        term.still(0.5)
        rows = term.screen.display
        assert rows[-1].rstrip() == toolbar and rows[-2].startswith("You> meld KS QS")
    finally:
        term.close()


@pytest.mark.parametrize("plain", [False, True], ids=["app", "plain"])
def test_undo_says_what_it_took_back(plain: bool) -> None:
    term = Terminal("play", "--seed", "5", "--delay", "0", *(["--plain"] if plain else []))
    try:
        _at_first_move(term)
        term.type("meld KS QS")
        term.wait_for(r"Your turn: play — 3 cards")
        term.type("meld AS AD AC")
        term.wait_for(r"Your turn: discard")
        term.type("undo")
        # Said in the narration's words, oldest first; the table is as it was.
        term.wait_for(r"Took back: melded K♠ Q♠, melded A♠ A♦ A♣\.")
        term.wait_for(r"Your turn: play — 5 cards")
    finally:
        term.close()


def test_a_lessons_hand_end_at_64_by_20_shows_the_players_own_score() -> None:
    """Issue 46: lesson 9's hand ends with four rows said under the table; at 64×20
    the table was cut from the bottom, and the player's own score row went."""
    term = Terminal("learn", "9", "--delay", "0", cols=64, rows=20)
    try:
        term.wait_for(r"Press Enter to deal")
        term.type("")
        for _ in range(12):
            found = term.wait_for(r"(?m)^You>\s*$|That is the lesson's play")
            if "lesson's play" in found.group(0):
                break
            term.type("hint")
            hint = term.wait_for(r"Hint: type (.+?)(?: or .*)?\.\n").group(1)
            term.type(hint)
            term.gone("Hint: ")  # answered: what was said goes
        term.still(0.5)
        assert "That is the lesson's play" in term.text
        assert re.search(r"(?m)^ You ─+ 41 points$", term.text), term.text
        assert re.search(r"(?m)^ Opponent .* 10 points$", term.text)
    finally:
        term.close()


@pytest.mark.parametrize("plain", [False, True], ids=["app", "plain"])
def test_quit_at_the_extra_card_question_leaves(plain: bool) -> None:
    """Issue 46: q at the dealer's question counted as "you"."""
    term = Terminal("play", "--seed", "5", "--delay", "0", *(["--plain"] if plain else []))
    try:
        term.wait_for(r"o:\s+your\s+opponent\]")
        term.type("q")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.type("y")
        # Left before the first move: nothing is kept for resume to offer back (a game
        # left later names its save: test_profile).
        term.wait_for(r"You\s+left\s+the\s+game\s+before\s+its\s+first\s+move")
        term.child.expect(pexpect.EOF, timeout=PATIENCE)
        assert not list(Path(term.data, "games").glob("*.umtali"))
    finally:
        term.close()


def test_a_watched_game_leaves_its_result_on_the_terminal() -> None:
    term = Terminal("watch", "--seed", "3", "--delay", "0", "--bots", "easy", "easy")
    try:
        # A watcher in a hurry: + three times, and the look at each hand's end (two
        # seconds even at delay 0) takes a quarter of a second.
        term.wait_for(r"watching at 1x")
        term.child.send("+++")
        term.wait_for(r"watching at 8x")
        term.child.expect(pexpect.EOF, timeout=10 * PATIENCE)  # a whole game, bot against bot
        term.stream.feed(term.child.before or b"")
        term.raw.extend(term.child.before or b"")
        # What is printed after the full screen has gone (it left the alternate screen).
        after = bytes(term.raw).rsplit(b"\x1b[?1049l", 1)[-1].decode("utf-8", "replace")
        assert re.search(r"Game 1 is over: Bot [12] \(easy\) won, \d+ to \d+\.", after), after
        assert re.search(r"Hand 1: Bot 1 \(easy\) -?\d+, Bot 2 \(easy\) -?\d+\.", after), after
        assert not SUITS & set(after)
    finally:
        term.close()
