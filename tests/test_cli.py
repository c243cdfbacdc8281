"""The umtali command: its subcommands answer, and misuse gets a clear message."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from rich.console import Console

import umtali
from umtali.bots import EasyBot, NormalBot
from umtali.cli import main as cli
from umtali.ui.loop import TableLoop
from umtali.ui.screen import LineScreen
from umtali.ui.theme import Theme


def test_rules_are_shown_from_the_installed_package(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "How to play Umtali" in out and "The Rule" in out
    assert cli.rules_text().startswith("# How to play Umtali")


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 0
    assert "umtali play" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["play", "resume", "replay", "learn"])
def test_commands_that_need_a_terminal_say_so(command: str, tmp_path: object) -> None:
    args = [sys.executable, "-m", "umtali.cli.main", command]
    if command == "replay":
        game = umtali.Game(seed=1)
        game.next_hand()
        from umtali.engine.record import PlayerInfo, format_record

        path = f"{tmp_path}/g.umtali"
        with open(path, "w", encoding="utf-8") as out:
            out.write(format_record(game, (PlayerInfo("human", "A"), PlayerInfo("human", "B"))))
        args.append(path)
    env = {"UMTALI_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env)
    if command == "resume":
        # Nothing saved in an empty data folder: it says so before needing a terminal.
        assert done.returncode == 0 and "no unfinished game" in done.stdout
    else:
        assert done.returncode == 2
        assert "needs an interactive terminal" in done.stderr
        assert "or add --plain to read moves from a pipe" in done.stderr
    assert "Traceback" not in done.stderr


def test_plain_mode_reads_a_scripts_moves_from_a_pipe_and_prints_a_transcript(
    tmp_path: object,
) -> None:
    """--plain needs no terminal: each question is printed with the line read, nothing
    is drawn (no escape sequence, no carriage return), and where the lines end the game
    is saved, to be resumed from a pipe as well."""
    env = {"UMTALI_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"}
    play = [sys.executable, "-m", "umtali", "play", "--plain", "--bot", "easy", "--seed", "3"]
    done = subprocess.run(
        [*play, "--delay", "0"], input="\nall\nx ah\n", capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "\x1b" not in out and "\r" not in out, repr(out)
    assert "\nYou> all\nYou melded K♣ Q♣.\n" in out, out
    assert "\nYou> x ah\nYou discarded A♥.\n" in out, out
    assert "You left the game. It is saved: umtali resume" in out, out
    resume = [sys.executable, "-m", "umtali", "resume", "--plain"]
    done = subprocess.run(resume, input="score\nquit\ny\n", capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "\nYou> score\nThis hand: you " in done.stdout, done.stdout
    assert "\nLeave the game? [y/N] y\nYou left the game. It is saved" in done.stdout, done.stdout
    assert "Traceback" not in done.stderr


def test_learn_lists_the_lessons_and_refuses_one_it_lacks(
    capsys: pytest.CaptureFixture[str], tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    assert cli.main(["learn", "--list"]) == 0
    out = capsys.readouterr().out
    assert "0 of 10 lessons passed" in out and "10.  What to discard" in out
    assert "Next: umtali learn 1" in out
    assert cli.main(["learn", "12"]) == 1
    assert "there is no lesson '12'" in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("lesson", ["11", "foo"])
def test_a_refusal_longer_than_the_terminal_breaks_between_words(
    lesson: str, tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "64")
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert cli.main(["learn", lesson]) == 1
    said = err.getvalue()
    rows = said.rstrip("\n").split("\n")
    assert len(rows) > 1 and all(len(row) < 64 for row in rows)
    keys = "melds, jacks, off-theirs, the-rule, must-play, take-two, going-out, last-turn"
    assert f"or one of {keys}, scoring, discards" in " ".join(rows)  # every word whole
    # Piped, the message stays one line (for whatever reads it).
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert cli.main(["learn", lesson]) == 1
    assert sys.stderr.getvalue().count("\n") == 1


def test_a_whole_session_runs_through_the_loop_with_no_terminal() -> None:
    console = Console(width=80, height=24, record=True, color_system=None, file=io.StringIO())
    seats = [NormalBot(), EasyBot(3)]
    loop = TableLoop(LineScreen(console, None, Theme()), seats, (False, False), Theme(), delay=0)
    session = umtali.Session(seed=4)
    loop.play_session(session)
    assert session.is_over
    out = console.export_text()
    assert "Winner of the session" in out and "Session:" in out
    assert out.count("Winner of game") == len(session.games)


@pytest.mark.parametrize(
    "env,styled,less",
    [
        ({}, True, "-R"),
        ({"LESS": "-FX"}, True, "-FX -R"),
        ({"LESS": "-FRX"}, True, "-FRX"),
        ({"LESS": "FRX"}, True, "FRX"),
        ({"LESS": "--RAW-CONTROL-CHARS"}, True, "--RAW-CONTROL-CHARS"),
        ({"LESS": "-F --quit-at-eof"}, True, "-F --quit-at-eof -R"),
        ({"PAGER": "/usr/bin/less -S"}, True, "-R"),
        ({"PAGER": "more"}, False, None),
        ({"PAGER": "less", "MANPAGER": "most"}, False, None),
    ],
)
def test_the_rules_pager_gets_colours_only_where_it_shows_them(
    env: dict[str, str], styled: bool, less: str | None
) -> None:
    from umtali.cli.main import pager_shows_styles

    assert pager_shows_styles(env) is styled
    assert env.get("LESS") == less


def test_a_dumb_terminal_gets_the_line_by_line_table() -> None:
    from umtali.play.table import is_dumb

    assert is_dumb({"TERM": "dumb"}) and is_dumb({"TERM": "unknown"})
    assert not is_dumb({"TERM": "xterm-256color"}) and not is_dumb({})


def test_host_without_the_net_extra_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "asyncssh" else real(name)
    )
    assert cli.main(["host"]) == 2
    assert "pip install 'umtali[net]'" in capsys.readouterr().err


def test_host_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (
        ["--port", "70000"],
        ["--grace", "0"],
        ["--seat", "3"],
        ["--public", "--listen", "x"],
    ):
        with pytest.raises(SystemExit):
            cli.main(["host", *bad])
    assert cli.main(["host", "--seat", "2", "--bot", "easy"]) == 2
    assert "--bot plays seat 2" in capsys.readouterr().err


def test_learn_list_ends_each_line_where_its_words_do(
    capsys: pytest.CaptureFixture[str], tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    assert cli.main(["learn", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 10
    assert [line for line in lines if line != line.rstrip()] == []
