"""Careless and hostile input: typed lines, names, record files and command lines that
once crashed the program.  Each gets one clear message, and the game goes on or is kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from prompting import recording_console, scripted_player, table

import umtali
from umtali.bots import NormalBot
from umtali.engine.record import PlayerInfo, RecordError, format_record, load
from umtali.store.saves import Autosaver, GameInUse, read_saved, write_atomically
from umtali.ui.human import QuitGame
from umtali.ui.loop import TableLoop
from umtali.ui.screen import LineScreen
from umtali.ui.theme import Theme


def play_lines(lines: list[str]) -> str:
    """Type ``lines`` at Ann's first prompts in a game against the bot, then leave."""
    loop, console, _session, pipe_cm = table(scripted_player([*lines, "quit", "y"]))
    try:
        with pytest.raises(QuitGame):
            loop.play_game(umtali.Game(seed=5))
    finally:
        pipe_cm.__exit__(None, None, None)
    return console.export_text()


@pytest.mark.parametrize("line", ["AS AS", "10h th", "QS QS KS", "meld 5C 5C", "m 9h 9h 9h"])
def test_a_card_typed_twice_is_answered_and_the_game_goes_on(line: str) -> None:
    out = play_lines([line])
    assert "cannot name the same card twice" in out


@pytest.mark.parametrize("line", ["[/]", "[/red]", "play [bold]", "[red]x[/red]", "meld [/] AS"])
def test_square_brackets_are_shown_as_typed(line: str) -> None:
    out = play_lines([line])
    bracketed = next(word for word in line.split() if "[" in word)
    assert bracketed in out  # the player's own text comes back, literally


def a_game_between(first: str, second: str) -> tuple[str, TableLoop]:
    console = recording_console()
    seats = [NormalBot(), NormalBot()]
    seats[0].name, seats[1].name = first, second  # type: ignore[misc]
    loop = TableLoop(LineScreen(console, None, Theme()), seats, (False, False), Theme(), delay=0)
    loop.play_game(umtali.Game(seed=3))
    return console.export_text(), loop


@pytest.mark.parametrize("name", ["[/]", "[bold red]Ann", "A[/x]"])
def test_a_name_with_square_brackets_is_shown_as_it_is(name: str) -> None:
    out, _ = a_game_between(name, "Bob")
    assert f"Cut for the deal: {name}" in out and "Winner of game 1" in out


def test_a_record_cut_short_after_a_result_is_refused_by_name() -> None:
    game = umtali.Game(seed=1)
    players = (PlayerInfo("human", "A"), PlayerInfo("bot", "B", "normal"))
    from umtali.bots.arena import play_game

    play_game(game, [NormalBot(), NormalBot()])
    text = format_record(game, players)
    line = next(x for x in text.splitlines() if x.startswith("result:"))
    cut = text[: text.index(line)] + " ".join(line.split()[:4]) + "\n"  # "result: A B out"
    assert cut.rstrip().endswith("out")
    with pytest.raises(RecordError, match="record:"):
        load(cut, "record")


def run_cli(
    *args: str, stdin: int | None = subprocess.DEVNULL, data: Path
) -> subprocess.CompletedProcess[str]:
    env = {"UMTALI_DATA_DIR": str(data), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "umtali.cli.main", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize("delay", ["nan", "inf", "-1", "1e309", "abc"])
def test_a_bad_delay_is_refused_at_once(delay: str, tmp_path: Path) -> None:
    done = run_cli("play", "--delay", delay, data=tmp_path)
    assert done.returncode == 2
    assert "--delay" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["play"], ["resume", "x.umtali"], ["rules"]])
def test_a_closed_stdin_gets_a_clear_message(command: list[str], tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from umtali.cli.main import main; sys.exit(main(sys.argv[1:]))",
            *command,
        ],
        stdin=None,
        capture_output=True,
        text=True,
        env={"UMTALI_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
        timeout=60,
        preexec_fn=lambda: __import__("os").close(0),
    )
    assert "Traceback" not in done.stderr and "AttributeError" not in done.stderr
    assert done.returncode in (0, 1, 2)


@pytest.mark.parametrize("which", ["²", "٣", "0", "-1", "99"])
def test_resume_with_an_odd_number_is_answered(which: str, tmp_path: Path) -> None:
    game = umtali.Game(seed=1)
    game.next_hand()
    games = tmp_path / "games"
    games.mkdir()
    record = format_record(game, (PlayerInfo("human", "A"), PlayerInfo("bot", "B", "hard")))
    (games / "a.umtali").write_text(record, encoding="utf-8")
    (games / "b.umtali").write_text(record, encoding="utf-8")
    done = run_cli("resume", which, data=tmp_path)
    assert "Traceback" not in done.stderr and "ValueError" not in done.stderr
    assert done.returncode == 1
    assert "no unfinished game number" in done.stderr or "neither a game number" in done.stderr


def test_a_record_naming_an_unknown_bot_is_refused_before_play(tmp_path: Path) -> None:
    game = umtali.Game(seed=1)
    game.next_hand()
    path = tmp_path / "g.umtali"
    path.write_text(
        format_record(game, (PlayerInfo("human", "A"), PlayerInfo("bot", "B", "oracle"))),
        encoding="utf-8",
    )
    done = run_cli("resume", str(path), data=tmp_path)
    assert done.returncode == 1 and "oracle" in done.stderr and "Traceback" not in done.stderr


def test_a_record_of_two_bots_is_not_resumed_silently(tmp_path: Path) -> None:
    game = umtali.Game(seed=1)
    game.next_hand()
    path = tmp_path / "g.umtali"
    path.write_text(
        format_record(game, (PlayerInfo("bot", "A", "easy"), PlayerInfo("bot", "B", "normal"))),
        encoding="utf-8",
    )
    done = run_cli("resume", str(path), data=tmp_path)
    assert done.returncode == 1 and "no human player" in done.stderr


# ---- saving: one umtali per game, special files, huge files, torn saves -----------

PLAYERS = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (hard)", "hard"))


def started_game(seed: int = 1, moves: int = 6) -> umtali.Game:
    game = umtali.Game(seed=seed)
    hand = game.next_hand()
    for _ in range(moves):
        hand.play(hand.legal_actions()[0])
    return game


def test_a_game_open_in_one_umtali_is_refused_to_a_second(tmp_path: Path) -> None:
    path = tmp_path / "g.umtali"
    first = Autosaver(started_game(), PLAYERS, [path], print)
    first.save()
    with pytest.raises(
        GameInUse, match=rf"g.umtali is open in another umtali \(process {os.getpid()}\)"
    ):
        Autosaver(read_saved(path).match, PLAYERS, [path], print)
    first.close()
    second = Autosaver(read_saved(path).match, PLAYERS, [path], print)  # free again
    second.close()


def test_the_lock_goes_with_a_killed_process(tmp_path: Path) -> None:
    path = tmp_path / "g.umtali"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time, umtali; from pathlib import Path; "
            "from umtali.engine.record import PlayerInfo; "
            "from umtali.store.saves import Autosaver; "
            "p = (PlayerInfo('human', 'A'), PlayerInfo('bot', 'B', 'hard')); "
            "s = Autosaver(umtali.Game(seed=1), p, [Path(sys.argv[1])], print); s.save(); "
            "print('ready', flush=True); time.sleep(60)",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
    with pytest.raises(GameInUse, match=f"process {holder.pid}"):
        Autosaver(umtali.Game(seed=1), PLAYERS, [path], print)
    holder.kill()
    holder.wait()
    # Free again, for the same game (a record is never taken over by another game).
    ours = (PlayerInfo("human", "A"), PlayerInfo("bot", "B", "hard"))
    Autosaver(umtali.Game(seed=1), ours, [path], print).close()


def test_a_fifo_among_the_saves_is_skipped_not_waited_on(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    os.mkfifo(games / "evil.umtali")
    write_atomically(games / "real.umtali", format_record(started_game(), PLAYERS))
    done = run_cli("resume", data=tmp_path)  # lists nothing to pick from: one game
    assert "Traceback" not in done.stderr
    assert "evil.umtali: not a regular file" in done.stderr


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null", "."])
def test_replaying_something_that_is_not_a_file_is_refused_at_once(
    target: str, tmp_path: Path
) -> None:
    done = run_cli("replay", target, data=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "not a regular file" in done.stderr or "not an Umtali record" in done.stderr


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.umtali"
    with open(huge, "wb") as out:
        out.truncate(200 * 2**20)  # sparse: 200 MB that take no room
    with pytest.raises(RecordError, match="200 MB is too large"):
        read_saved(huge)


def test_a_save_cut_short_in_its_last_line_still_loads(tmp_path: Path) -> None:
    game = started_game(moves=9)
    text = format_record(game, PLAYERS)
    last = text.rstrip("\n").rsplit("\n", 1)[1]
    path = tmp_path / "g.umtali"
    for keep in range(1, len(last)):
        path.write_text(text[: len(text) - len(last) - 1 + keep], encoding="utf-8")
        saved = read_saved(path)
        assert saved.match.hands[0].actions() in (
            game.hands[0].actions(),
            game.hands[0].actions()[:-1],
        )


def test_a_killed_saves_temporary_file_is_cleaned(tmp_path: Path) -> None:
    path = tmp_path / "g.umtali"
    stale = tmp_path / "g.umtali.k2j4x9.tmp"
    stale.write_text("half a record")
    other = tmp_path / "h.umtali.k2j4x9.tmp"
    other.write_text("another game's")
    Autosaver(started_game(), PLAYERS, [path], print).close()
    assert not stale.exists() and other.exists()


def test_a_moves_save_costs_the_same_however_long_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[int] = []
    real_write = os.write

    def counting(fd: int, data: bytes) -> int:
        written.append(len(data))
        return real_write(fd, data)

    monkeypatch.setattr("umtali.store.saves.os.write", counting)
    game = umtali.Game(seed=4)
    saver = Autosaver(game, PLAYERS, [tmp_path / "g.umtali"], print)
    saver.save()
    seats = [NormalBot(), NormalBot()]
    from umtali.bots.arena import info_for

    while not game.is_over:
        hand = game.next_hand()
        saver.save()
        while not hand.is_over:
            player = hand.to_move
            assert player is not None
            hand.play(seats[player - 1].choose(hand.view(player), info_for(game)).action)
            written.clear()
            saver.save()
            assert sum(written) < 120, written  # a line or two, never the whole record
    saver.close()
    assert read_saved(tmp_path / "g.umtali").match.is_over


# ---- names ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Ann\nrules rummy", "A\x1b]0;x\x07", "", "   ", "x" * 41])
def test_a_name_that_cannot_be_shown_is_refused_at_once(name: str, tmp_path: Path) -> None:
    done = run_cli("play", "--hotseat", "--names", name, "Bob", data=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "name" in done.stderr


def test_escape_sequences_from_a_record_never_reach_the_terminal(tmp_path: Path) -> None:
    evil = "\x1b]0;pwned\x07\x1b]52;c;ZWNobyBoaQ==\x07Eve"
    games = tmp_path / "games"
    for n in (1, 2):
        write_atomically(
            games / f"{n}.umtali",
            format_record(
                started_game(n), (PlayerInfo("human", evil), PlayerInfo("bot", "B", "hard"))
            ),
        )
    done = run_cli("resume", data=tmp_path)
    assert "\x1b" not in done.stdout + done.stderr and "\x07" not in done.stdout
    assert "\\x1b]0;pwned\\x07" in done.stdout
    # And on the table: the replay viewer's console output (of a finished game: a hand
    # in play is never replayed).
    from prompting import TypingSession

    from umtali.bots.arena import play_game
    from umtali.ui.gate import LOCAL, GatedInput
    from umtali.ui.replay import ReplayViewer

    console = recording_console()
    with GatedInput(lines=LOCAL) as pipe:
        session = TypingSession(pipe, lambda message: "q\r")
        ReplayViewer(
            play_game(umtali.Game(seed=1), [NormalBot(), NormalBot()]),
            (PlayerInfo("human", evil), PLAYERS[1]),
            LineScreen(console, session, Theme()),
            Theme(),
        ).run()
    out = console.export_text()
    assert "\x1b" not in out and "\\x1b]0;pwned" in out


# ---- terminals that cannot show Unicode ------------------------------------------

ASCII_ENVS = [
    {"PYTHONIOENCODING": "ascii"},
    {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
]


@pytest.mark.parametrize("env", ASCII_ENVS, ids=["PYTHONIOENCODING", "LC_ALL=C"])
@pytest.mark.parametrize("command", [["rules"], ["play", "--help"], ["resume"]])
def test_a_terminal_without_unicode_gets_plain_ascii(
    env: dict[str, str], command: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "umtali.cli.main", *command],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={"UMTALI_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", **env},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    done.stdout.decode("ascii")  # nothing but ASCII reached the terminal


def test_the_ascii_theme_draws_the_whole_table_in_ascii() -> None:
    from umtali.ui.render import TableInfo, render_hand_end, render_table

    game = umtali.Game(seed=7)
    hand = game.next_hand()
    for _ in range(30):
        hand.play(hand.legal_actions()[0])
    console = recording_console()
    theme = Theme(ascii=True)
    info = TableInfo(("Ann", "Bob"), (3, 4), 2)
    console.print(render_table(hand.view(1), info, theme, 80, 24))
    console.print(render_table(hand.view(1), info, theme, 50, 10))
    from umtali.bots.arena import play_hand

    play_hand(hand, [NormalBot(), NormalBot()], __import__("umtali").bots.GameInfo())
    sides = (hand.side(1), hand.side(2))
    console.print(
        render_hand_end(sides, hand.scores, hand.went_out, hand.forfeited, info, 1, theme)
    )
    console.export_text().encode("ascii")


# ---- very long lines -----------------------------------------------------------


@pytest.mark.slow
def test_a_very_long_typed_line_is_cut_to_the_limit_and_the_game_goes_on() -> None:
    from umtali.ui.keys import MAX_LINE

    out = play_lines(["x" * 20_000, "Q" * 5_000 + "S"])
    assert "is not a command" in out
    assert "x" * (MAX_LINE + 1) not in out.replace("\n", "")  # never more than the limit


@pytest.mark.parametrize("report", ["\x1b[<1m", "\x1b[<35;1;1M", "\x1b[M!!!", "\x1b[<;;M"])
def test_a_malformed_mouse_report_typed_at_the_prompt_is_ignored(report: str) -> None:
    out = play_lines([report + "draw"])
    assert "Traceback" not in out
    assert "there is no draw on this turn" in out  # the line still reached the game


@pytest.mark.slow
@pytest.mark.parametrize("n", range(4))  # the games fuzz(games=4, seed=11) plays, one a case
def test_fuzzed_lines_never_break_a_game(n: int) -> None:
    from umtali.engine.rules import PRESETS
    from umtali.lab.fuzzing import fuzz_game

    variant = tuple(PRESETS)[n % len(PRESETS)]
    report = fuzz_game(11 + n, per_prompt=2, variant=variant)
    assert report.lines > 125  # the fuzz reached the prompt, many times (500 over the four)
    assert report.crashes == [] and report.hangs == 0 and report.escapes == 0


@pytest.mark.slow
def test_fuzzed_lines_never_break_a_game_in_the_full_screen_app() -> None:
    from umtali.lab.fuzzing import fuzz

    report = fuzz(games=2, seed=11, per_prompt=2, app=True)
    assert report.lines > 300
    assert report.crashes == [] and report.hangs == 0 and report.nudges == 0
