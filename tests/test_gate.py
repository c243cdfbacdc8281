"""The input gate: every keystroke stream is decoded leniently, bounded, and its pastes end.

These drive the gate itself, then the local prompts that read through it (the
full-screen table and the line-by-line prompt).  The hosted tests (test_doors.py)
send the same attacks over SSH.
"""

from __future__ import annotations

import threading
import time

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.output import DummyOutput
from test_app import PATIENCE, app_screen, run_app, run_watched, typist

from umtali.ui.gate import (
    LINE_KEYS,
    LOCAL,
    PASTE_CHARS,
    PASTE_END,
    PASTE_START,
    RAW_BURST,
    REMOTE,
    WINDOW_CHANGE_BYTES,
    GatedInput,
    InputGate,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_byte_that_is_not_utf8_becomes_a_replacement_character() -> None:
    gate = InputGate()
    assert gate.take(b"a\xffb\xfe\r") == "a\ufffdb\ufffd\r"
    # A character split between two reads is joined, not replaced.
    heart = "♥".encode()
    assert gate.take(heart[:1]) == ""
    assert gate.take(heart[1:]) == "♥"


def test_a_flood_is_cut_to_the_allowance_but_keeps_enter_and_ctrl_c() -> None:
    clock = Clock()
    told: list[int] = []
    gate = InputGate(REMOTE, clock)
    gate.on_drop = lambda: told.append(gate.dropped)
    flood = b"x" * (3 * RAW_BURST) + b"\x03" + b"y" * 1000 + b"\r"
    out = gate.take(flood)
    assert out.endswith("\x03\r")  # Ctrl-C and Enter survive the cut
    assert len(out) <= LINE_KEYS + 2
    assert gate.dropped > 2 * RAW_BURST and told
    # The allowance comes back with time, not at once.
    assert gate.take(b"abc") == ""
    clock.now += 1.0
    assert gate.take(b"abc") == "abc"


def test_window_changes_are_paid_from_the_streams_bytes_and_a_flood_is_cut() -> None:
    clock = Clock()
    told: list[int] = []
    gate = InputGate(REMOTE, clock)
    gate.on_drop = lambda: told.append(gate.dropped)
    passed = sum(gate.take_window_change() for _ in range(2000))  # all in one instant
    assert passed == RAW_BURST // WINDOW_CHANGE_BYTES
    assert told and gate.dropped == (2000 - passed) * WINDOW_CHANGE_BYTES
    # They share the allowance with what is typed: a flood of one leaves less of both.
    assert gate.take(b"abc") == ""
    clock.now += 1.0
    assert gate.take_window_change() and gate.take(b"abc") == "abc"


def test_a_closed_input_lets_no_window_change_through() -> None:
    gated = GatedInput(lines=REMOTE)
    assert gated.window_changed()
    gated.close()
    assert not gated.window_changed()


def test_a_line_passes_a_bounded_number_of_keys_and_the_next_line_starts_afresh() -> None:
    gate = InputGate()
    out = gate.take(b"x" * 20_000 + b"\rdiscrad 9c\r")
    assert out == "x" * LINE_KEYS + "\rdiscrad 9c\r"


def test_line_breaks_have_an_allowance_of_their_own() -> None:
    clock = Clock()
    gate = InputGate(REMOTE, clock)
    out = gate.take(b"x\r" * 10_000)
    assert out.count("\r") == REMOTE.burst
    # What comes after the last break passed is one line, and has one line's keys.
    assert len(out) == 2 * REMOTE.burst + LINE_KEYS
    # At one's own terminal a script may type as fast as the game asks.
    assert InputGate(LOCAL).take(b"x\r" * 500).count("\r") == 500


def test_a_paste_ends_at_its_end_mark() -> None:
    gate = InputGate()
    start, end = PASTE_START.encode(), PASTE_END.encode()
    assert gate.take(start + b"meld 7S 6S 5S" + end + b"\r") == (
        PASTE_START + "meld 7S 6S 5S" + PASTE_END + "\r"
    )


def test_a_paste_without_its_end_ends_at_a_line_break_and_the_rest_is_typed() -> None:
    gate = InputGate()
    out = gate.take(PASTE_START.encode() + b"x")
    assert out == PASTE_START + "x"
    # Enter, then quit: the paste ended at the line break; the rest is typed.
    assert gate.take(b"\rquit\r") == PASTE_END + "\rquit\r"
    # The end mark, if it ever comes, is nothing.
    assert gate.take(PASTE_END.encode() + b"y") == "y"


def test_a_paste_ends_at_ctrl_c_or_at_its_size() -> None:
    gate = InputGate()
    assert gate.take(PASTE_START.encode() + b"abc\x03") == PASTE_START + "abc" + PASTE_END + "\x03"
    huge = gate.take(PASTE_START.encode() + b"z" * (5 * PASTE_CHARS))
    assert huge == PASTE_START + "z" * PASTE_CHARS + PASTE_END
    assert gate.take(b"zzz") == ""  # the rest of that paste is dropped...
    assert gate.take(b"\rdraw\r") == "\rdraw\r"  # ...up to the next line


def test_an_overlong_control_sequence_is_dropped_and_a_key_is_not() -> None:
    gate = InputGate()
    assert gate.take(b"\x1b[A\x1b[1;5C") == "\x1b[A\x1b[1;5C"  # an arrow, Ctrl-right
    out = gate.take(b"\x1b[" + b"1;" * 5000 + b"Hdraw\r")
    assert out == "draw\r"
    # Cut in two by the reads: held until its end comes, or flushed as Escape.
    assert gate.take(b"\x1b[") == ""
    assert gate.take(b"B") == "\x1b[B"
    assert gate.take(b"\x1b") == ""
    assert gate.flush() == "\x1b"


def test_the_full_screen_prompt_takes_a_line_after_a_paste_that_never_ended() -> None:
    answer = run_app(lambda s: s.ask("Ann> "), [PASTE_START + "x", "!\r"])
    assert answer == "x"


def test_the_line_prompt_takes_a_line_after_a_paste_that_never_ended() -> None:
    with GatedInput(lines=LOCAL) as pipe:
        session: PromptSession[str] = PromptSession(input=pipe, output=DummyOutput())
        pipe.send_text(PASTE_START + "draw")
        pipe.send_text("\r")
        assert session.prompt("Ann> ") == "draw"


def test_a_huge_paste_at_the_prompt_costs_little_and_loses_the_next_line_not() -> None:
    keys = [PASTE_START + "y" * 70_000 + PASTE_END + "\r", "draw\r"]
    answers = run_app(lambda s: [s.ask("Ann> "), s.ask("Ann> ")], keys)
    assert answers == ["y" * 200, "draw"]  # the command line's own limit, then the next


# ------------------------------------------------------- lines typed ahead


def ask_move(screen: object) -> str:
    from prompt_toolkit.completion import WordCompleter

    assert hasattr(screen, "ask")
    return str(screen.ask("Ann> ", completer=WordCompleter(["draw"])))  # a move prompt


def test_a_line_typed_while_nothing_is_asked_waits_shown_for_the_next_move() -> None:
    with app_screen() as (screen, pipe):
        result: list[str] = []

        def body() -> None:
            # Nothing is asked until both lines have been typed ahead.
            deadline = time.monotonic() + PATIENCE
            while screen._ahead != "take" and time.monotonic() < deadline:
                time.sleep(0.01)
            said = [str(m) for m in screen._messages]
            assert any("Typed ahead: 'take' answers your next move" in m for m in said)
            result.append(ask_move(screen))

        pipe.send_text("draw\r")
        pipe.send_text("take\r")  # the newer line replaces the older
        run_watched(screen, body)
    assert result == ["take"]


def test_a_line_typed_ahead_answers_no_other_question() -> None:
    with app_screen() as (screen, pipe):
        said: list[str] = []

        def answer_when_asked() -> None:
            deadline = time.monotonic() + PATIENCE
            while screen._question is None and time.monotonic() < deadline:
                time.sleep(0.01)
            said.extend(str(m) for m in screen._messages)
            pipe.send_text("n\r")

        def body() -> str:
            deadline = time.monotonic() + PATIENCE
            while screen._ahead is None and time.monotonic() < deadline:
                time.sleep(0.01)
            threading.Thread(target=answer_when_asked, daemon=True).start()
            return screen.ask("Leave the game? [y/N] ")

        pipe.send_text("y\r")
        assert run_watched(screen, body) == "n"  # the "y" typed ahead did not answer it
    assert "'y' was typed ahead for a move: not used here." in said


def test_a_flood_of_lines_out_of_turn_keeps_one_and_says_so_once() -> None:
    with app_screen() as (screen, pipe):

        def body() -> tuple[str, int]:
            deadline = time.monotonic() + PATIENCE
            while screen._ahead != "line 539" and time.monotonic() < deadline:
                time.sleep(0.01)
            messages = len(screen._messages)
            return ask_move(screen), messages

        pipe.send_text("".join(f"line {n}\r" for n in range(540)))
        answer, messages = run_watched(screen, body)
    assert answer == "line 539"
    assert messages == 1  # one line says what waits, however many came


def test_ctrl_c_takes_back_a_line_typed_ahead() -> None:
    with app_screen() as (screen, pipe):

        def body() -> str:
            deadline = time.monotonic() + PATIENCE
            while screen._ahead is None and time.monotonic() < deadline:
                time.sleep(0.01)
            pipe.send_text("\x03")
            while screen._ahead is not None and time.monotonic() < deadline:
                time.sleep(0.01)
            typist(screen, pipe, ["take\r"])
            return ask_move(screen)

        pipe.send_text("draw\r")
        assert run_watched(screen, body) == "take"


@pytest.mark.parametrize("line", ["draw", "say hi", "quit"])
def test_a_spectator_is_told_that_nothing_typed_is_played(line: str) -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.data_structures import Size

    from umtali.ui.app import AppScreen
    from umtali.ui.theme import Theme

    with GatedInput(lines=LOCAL) as pipe:
        output = DummyOutput()
        output.get_size = lambda: Size(rows=24, columns=80)  # type: ignore[method-assign]
        with create_app_session(input=pipe, output=output):
            screen = AppScreen(Theme(), None, input=pipe, output=output, spectating=True)

            def body() -> list[str]:
                deadline = time.monotonic() + PATIENCE
                while not screen._messages and time.monotonic() < deadline:
                    time.sleep(0.01)
                return [str(m) for m in screen._messages]

            pipe.send_text(line + "\r")
            said = run_watched(screen, body)
    assert said == ["You are watching: nothing typed here is played."]
    assert screen._ahead is None
