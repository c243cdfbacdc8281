"""Your record: the profile of finished games, `umtali stats`, the rating, the deal of
the day, and resigning."""

from __future__ import annotations

import io
import json
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from prompting import scripted_player, table
from rich.console import Console
from test_render import check_golden

import umtali
from umtali.bots import make_bot
from umtali.bots.arena import play_game
from umtali.engine.record import PlayerInfo
from umtali.play.daily import daily_of, daily_seed
from umtali.stats.rating import history, measured, model, rungs
from umtali.stats.report import EMPTY, render_stats, streaks
from umtali.store.profile import (
    GameEntry,
    add_game,
    entry_for,
    game_id,
    profile_path,
    read_profile,
)
from umtali.ui.theme import Theme

YOU = PlayerInfo("human", "You")
START = datetime(2026, 11, 1, 20, 0)


def bot(level: str) -> PlayerInfo:
    return PlayerInfo("bot", f"Bot ({level})", level)


def played_entries() -> list[GameEntry]:
    """Entries of real games: bots play both seats, one seat entered as "You"."""
    entries = []
    plan = [
        ("hard", "classic"),
        ("normal", "classic"),
        ("easy", "classic"),
        ("hard", "family"),
        ("normal", "classic"),
        ("hard", "classic"),
        ("normal", "family"),
    ]
    for n, (level, variant) in enumerate(plan):
        # The seats are played by quick bots; the entry names the level played.
        game = play_game(
            umtali.Game(variant, seed=100 + n), [make_bot("normal", n), make_bot("easy", n)]
        )
        when = START + timedelta(days=n)
        entries.append(entry_for(game, (YOU, bot(level)), f"g{n}#1", when))
    hotseat = play_game(umtali.Game(seed=200), [make_bot("normal", 1), make_bot("normal", 2)])
    ann_ben = (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))
    entries.append(entry_for(hotseat, ann_ben, "h1#1", START + timedelta(days=9)))
    return entries


def text_of(entries: list[GameEntry], ascii_only: bool = False) -> str:
    console = Console(width=80, height=24, record=True, color_system=None, file=io.StringIO())
    today = date(2026, 11, 10)
    console.print(render_stats(entries, Theme(ascii=ascii_only), 80, today))
    return console.export_text()


def test_stats_of_a_profile_made_by_playing_fits_80x24() -> None:
    text = text_of(played_entries())
    assert len(text.splitlines()) <= 24
    check_golden("stats", text)


def test_stats_of_an_empty_profile_say_so() -> None:
    assert " ".join(text_of([]).split()) == EMPTY


def test_an_entry_round_trips_and_rejects_what_is_not_one() -> None:
    entry = played_entries()[0]
    assert GameEntry.from_json(entry.to_json()) == entry
    wrong = [entry.to_json().replace('"you": 1', f'"you": {v}') for v in ("3", "true", "1.0")]
    for bad in ("[]", "{}", '{"id": 3}', *wrong):
        with pytest.raises((ValueError, KeyError, TypeError)):
            GameEntry.from_json(bad)


def test_a_game_is_added_once_however_often_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "profile.jsonl"
    entry = played_entries()[0]
    assert add_game(entry, path) is True
    assert add_game(entry, path) is False
    assert read_profile(path).entries == (entry,)


def test_a_damaged_profile_names_the_file_loses_nothing_else_and_takes_the_next_game(
    tmp_path: Path,
) -> None:
    path = tmp_path / "profile.jsonl"
    first, second, third = played_entries()[:3]
    add_game(first, path)
    with path.open("ab") as out:
        out.write(b'{"id": "half a line\n\xff\xfe not text\n')
    add_game(second, path)
    with path.open("ab") as out:
        out.write(b'{"cut short')  # no newline: a write cut off
    add_game(third, path)
    profile = read_profile(path)
    assert profile.entries == (first, second, third)
    assert len(profile.problems) == 3
    assert all(str(path) in p and "damaged" in p for p in profile.problems)
    assert b"\xff\xfe not text" in path.read_bytes()  # the damaged lines are kept


def test_the_rating_rungs_predict_the_measured_win_rates() -> None:
    m = model()
    ladder = rungs()
    for run in measured():
        ra, rb = (m.rating(mu=ladder[x], sigma=1.0) for x in (run.a, run.b))
        assert m.predict_win([[ra], [rb]])[0] == pytest.approx(run.share, abs=0.001)
    assert ladder["easy"] < ladder["normal"] < ladder["hard"] < ladder["expert"]


def test_the_rating_rises_with_wins_falls_with_losses_and_ignores_people() -> None:
    entries = played_entries()
    points = history(entries)
    assert len(points) == sum(e.rated for e in entries) == len(entries) - 1
    for before, after, entry in zip(
        [None, *points], points, [e for e in entries if e.rated], strict=False
    ):
        if before is not None:
            assert (after.mu > before.mu) == entry.won
            assert after.sigma < before.sigma


def test_streaks_count_wins_in_a_row() -> None:
    def game(won: bool) -> GameEntry:
        return GameEntry(
            "x",
            START.isoformat(),
            "classic",
            "bot",
            ("You", "B"),
            ("human", "bot"),
            ("", "hard"),
            1,
            ((5, 3),),
            1 if won else 2,
        )

    results = [True, True, False, True, True, True, False, True]
    assert streaks([game(w) for w in results]) == (1, 3)


# ------------------------------------------------------------ deal of the day


def test_the_deal_of_the_day_is_the_same_all_day_and_new_the_next() -> None:
    today = date(2026, 11, 23)
    a = umtali.Game(seed=daily_seed(today, "classic"))
    b = umtali.Game(seed=daily_seed(today, "classic"))
    c = umtali.Game(seed=daily_seed(today + timedelta(days=1), "classic"))
    for g in (a, b, c):
        g.next_hand()
    assert a.hands[0].deal == b.hands[0].deal and a.cut == b.cut
    assert a.hands[0].deal != c.hands[0].deal
    assert daily_seed(today, "classic") != daily_seed(today, "family")
    # A pinned value: the same on every machine, whatever Python's hash seed.
    assert (
        daily_seed(today, "classic")
        == int.from_bytes(
            __import__("hashlib").sha256(b"umtali deal of the day 2026-11-23 classic").digest()[:8],
            "big",
        )
        >> 1
    )
    assert daily_of(daily_seed(today, "classic"), "classic", today) == "2026-11-23"
    assert daily_of(daily_seed(today, "classic"), "classic", today - timedelta(days=1))
    assert daily_of(12345, "classic", today) == ""


# ------------------------------------------------------- resigning, at the table


def test_resign_asks_then_ends_the_game_as_a_loss() -> None:
    from umtali.ui.human import Resigned

    loop, _console, session, pipe_cm = table(scripted_player(["resign", "n", "resign", "y"]))
    try:
        with pytest.raises(Resigned) as gave_up:
            loop.play_game(umtali.Game(seed=5))
    finally:
        pipe_cm.__exit__(None, None, None)
    assert gave_up.value.player == 1
    asked = [p for p in session.prompts if "Resign this game? It counts as a loss" in p]
    assert len(asked) == 2  # "n" the first time kept the game going


def test_a_resigned_game_is_a_loss_with_the_points_laid_so_far() -> None:
    game = umtali.Game(seed=5)
    game.next_hand()
    hand = game.hands[-1]
    for _ in range(4):
        hand.play(make_bot("normal", 1).choose(hand.view(hand.to_move or 1), None).action)  # type: ignore[arg-type]
    entry = entry_for(game, (YOU, bot("hard")), "r#1", START, resigned_by=1)
    assert entry.resigned and not entry.won and entry.hands == (hand.scores,)
    hotseat = entry_for(
        game, (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben")), "r#1", START, 2
    )
    assert hotseat.won and hotseat.mode == "hotseat"  # Ben resigned: Ann (the owner) won


def test_a_game_still_in_play_has_no_entry_unless_resigned() -> None:
    game = umtali.Game(seed=5)
    game.next_hand()
    with pytest.raises(ValueError, match="only a finished or resigned game"):
        entry_for(game, (YOU, bot("hard")), "p#1", START)
    assert entry_for(game, (YOU, bot("hard")), "p#1", START, resigned_by=2).won


def test_game_ids_follow_the_saved_record() -> None:
    assert game_id(Path("/x/games/20261123-050039.umtali"), 2) == "20261123-050039#2"
    assert profile_path().name == "profile.jsonl"
    assert json.loads(played_entries()[0].to_json())["you"] == 1


@pytest.mark.slow  # a whole session through the loop, twice
def test_each_game_of_a_session_reaches_the_profile_once_across_a_resume(
    tmp_path: Path,
) -> None:
    from umtali.play.table import Recorder
    from umtali.store.saves import Autosaver, read_saved
    from umtali.ui.human import QuitGame

    record, profile = tmp_path / "20261123-050039.umtali", tmp_path / "profile.jsonl"
    players = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot", "normal"))
    said: list[object] = []
    session = umtali.Session(seed=8)
    saver = Autosaver(session, players, [record], lambda m: None)
    to_profile = Recorder(players, record, "", said.append, profile)
    # Play on until the first game is over and the second has begun, then leave.
    quit_soon = scripted_player([])

    def feeder(view_of):  # type: ignore[no-untyped-def]
        play = quit_soon(view_of)

        def feed(message: str) -> str:
            if message.endswith("> ") and len(session.games) == 2 and session.game.hands:
                return "quit\r"
            if "[y/N]" in message:
                return "y\r"
            return play(message)

        return feed

    loop, _c, _s, pipe_cm = table(feeder, save=saver.save, game_over=to_profile)
    try:
        with pytest.raises(QuitGame):
            loop.play_session(session)
    finally:
        pipe_cm.__exit__(None, None, None)
        saver.close()
    assert [e.id for e in read_profile(profile).entries] == ["20261123-050039#1"]

    resumed = read_saved(record).match
    assert isinstance(resumed, umtali.Session) and len(resumed.games) == 2
    saver = Autosaver(resumed, players, [record], lambda m: None)
    loop, _c, _s, pipe_cm = table(scripted_player([]), save=saver.save, game_over=to_profile)
    try:
        loop.play_session(resumed)
    finally:
        pipe_cm.__exit__(None, None, None)
        saver.close()
    ids = [e.id for e in read_profile(profile).entries]
    assert ids == [f"20261123-050039#{n}" for n in range(1, len(resumed.games) + 1)]
    assert not said  # the profile was written each time
    # Whoever won each game, the entries agree with the session.
    for entry, game in zip(read_profile(profile).entries, resumed.games, strict=True):
        assert entry.winner == game.winner and entry.you == 1 and entry.mode == "bot"


def test_a_profile_that_cannot_be_written_is_said_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    from umtali.play.table import Recorder

    blocker = tmp_path / "profile.jsonl"
    blocker.mkdir()  # a folder where the file should be
    said: list[object] = []
    game = play_game(umtali.Game(seed=3), [make_bot("easy", 1), make_bot("easy", 2)])
    Recorder((YOU, bot("easy")), tmp_path / "g.umtali", "", said.append, blocker)(game, 1)
    assert len(said) == 1 and "could not be added to your record" in str(said[0])


def test_umtali_stats_on_an_empty_and_on_a_damaged_profile(tmp_path: Path) -> None:
    from test_hostile import run_cli

    empty = run_cli("stats", data=tmp_path)
    assert empty.returncode == 0 and "No finished game in your record yet" in empty.stdout
    path = tmp_path / "profile.jsonl"
    for entry in played_entries()[:2]:
        add_game(entry, path)
    with path.open("ab") as out:
        out.write(b"\x00garbage\n")
    shown = run_cli("stats", "--ascii", data=tmp_path)
    assert shown.returncode == 0, shown.stderr
    said = f"{path}, line 3, is damaged and was left out."
    assert "".join(said.split()) in "".join(shown.stdout.split())  # (wrapped at 80 columns)
    assert "Your record" in shown.stdout and "2 games" in shown.stdout
    assert "Traceback" not in shown.stdout + shown.stderr


def test_daily_and_seed_do_not_go_together(tmp_path: Path) -> None:
    from test_hostile import run_cli

    done = run_cli("play", "--daily", "--seed", "3", data=tmp_path)
    assert done.returncode == 2 and "not allowed with argument --daily" in done.stderr


def _opening_hand(now: str, data: str) -> str:
    from test_terminal import Terminal

    term = Terminal("play", "--daily", "--delay", "0", env={"UMTALI_NOW": now}, data=data)
    try:
        term.wait_for(r"Cut for the deal")
        term.wait_for(r"extra \(11th\) card|Press Enter to deal")
        term.type("")
        term.wait_for(r"(?m)^You>")
        lines = term.text.splitlines()
        return lines[next(i for i, line in enumerate(lines) if line.startswith(" You ")) + 1]
    finally:
        term.child.terminate(force=True)


@pytest.mark.slow  # real terminals
def test_the_deal_of_the_day_in_the_real_command(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    morning = _opening_hand("2026-11-23T08:00:00", str(tmp_path / "a"))
    evening = _opening_hand("2026-11-23T22:30:00", str(tmp_path / "b"))
    tomorrow = _opening_hand("2026-11-24T08:00:00", str(tmp_path / "c"))
    assert morning == evening and morning != tomorrow


@pytest.mark.slow  # a real terminal
def test_resigning_in_the_real_command_counts_a_loss_and_ends_the_game(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    from test_hostile import run_cli
    from test_terminal import Terminal

    term = Terminal("play", "--seed", "5", "--delay", "0", data=str(tmp_path))
    try:
        term.wait_for(r"extra \(11th\) card")
        term.type("")
        term.wait_for(r"(?m)^You>")
        term.type("resign")
        term.wait_for(r"Resign this game\? It counts as a loss in your record\. \[y/N\]")
        term.type("y")
        term.wait_for(r"You resigned: the game counts as a loss")
    finally:
        term.close()
    entries = read_profile(tmp_path / "profile.jsonl").entries
    assert len(entries) == 1 and entries[0].resigned and not entries[0].won
    assert "no unfinished game" in run_cli("resume", data=tmp_path).stdout
    assert "Bot (hard)" in run_cli("stats", data=tmp_path).stdout


@pytest.mark.slow  # a whole game through the loop
def test_a_hotseat_game_reaches_the_profile_once_from_the_first_players_seat(
    tmp_path: Path,
) -> None:
    from umtali.play.table import Recorder

    profile = tmp_path / "profile.jsonl"
    players = (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))
    to_profile = Recorder(players, tmp_path / "20261123-090000.umtali", "", print, profile)
    loop, _c, _s, pipe_cm = table(scripted_player([]), hotseat=True, game_over=to_profile)
    game = umtali.Game(seed=6)
    try:
        loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    [entry] = read_profile(profile).entries
    assert entry.mode == "hotseat" and entry.you == 1 and entry.opponent == "Ben"
    assert entry.won == (game.winner == 1) and not entry.rated


def test_the_profile_reader_survives_any_bytes(tmp_path: Path) -> None:
    import random

    rng = random.Random(4)
    path = tmp_path / "profile.jsonl"
    good = played_entries()[0]
    pieces = [good.to_json().encode(), b"{}", b"[1, 2]", b'{"id": null}', b"\xff" * 9, b"nan"]
    for _ in range(200):
        line = rng.choice(pieces)
        cut = rng.randint(0, len(line))
        noise = bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
        path.write_bytes(line[:cut] + noise + b"\n" + good.to_json().encode() + b"\n")
        profile = read_profile(path)  # never raises
        assert good in profile.entries


def test_a_clock_that_is_not_a_time_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    from umtali.store.profile import environ_clock

    monkeypatch.setenv("UMTALI_NOW", "2026-11-23T08:00:00")
    assert environ_clock() == datetime(2026, 11, 23, 8, 0)
    monkeypatch.setenv("UMTALI_NOW", "yesterday")
    assert abs((environ_clock() - datetime.now()).total_seconds()) < 60


def test_a_hosted_game_the_host_played_goes_into_their_record(tmp_path: Path) -> None:
    from umtali.engine.record import PlayerInfo
    from umtali.play.table import Recorder
    from umtali.store.profile import read_profile

    game = umtali.Game(seed=2)
    play_game(game, [make_bot("easy", 1), make_bot("normal", 2)])
    players = (PlayerInfo("human", "Friend"), PlayerInfo("human", "Me"))
    profile = tmp_path / "profile.jsonl"
    said: list[object] = []
    Recorder(players, tmp_path / "g.umtali", "", said.append, profile, mode="net", you=2)(game, 1)
    (entry,) = read_profile(profile).entries
    assert entry.mode == "net" and entry.you == 2 and entry.names == ("Friend", "Me")
    assert said == []


def test_the_resume_list_says_which_game_is_a_daily_deal(tmp_path: Path) -> None:
    from test_hostile import run_cli

    from umtali.store.saves import Autosaver

    day = date(2026, 11, 23)
    players = (PlayerInfo("human", "You"), PlayerInfo("bot", "Bot", "hard"))
    games = tmp_path / "games"
    games.mkdir()
    for name, seed in (("20261123-080000", daily_seed(day, "classic")), ("20261123-090000", 5)):
        saver = Autosaver(umtali.Game(seed=seed), players, [games / f"{name}.umtali"], warn=print)
        saver.save()
        saver.close()
    listed = run_cli("resume", data=tmp_path)
    assert listed.returncode == 0, listed.stderr
    listing = [line for line in listed.stdout.splitlines() if ".umtali" in line]
    assert len(listing) == 2, listed.stdout
    daily, other = sorted(listing, key=lambda line: "090000" in line)
    assert daily.endswith("20261123-080000.umtali  (the daily deal of 2026-11-23)")
    assert other.endswith("20261123-090000.umtali")


def _play_table_typed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, feeder_for: object, match: object
) -> tuple[int, list[str], Console]:
    """``play_table`` as the command runs it, on a recording line screen whose prompt
    is typed by ``feeder_for``; returns the exit code, the last words and the console."""
    from prompting import TypingSession, recording_console

    import umtali.play.table as play
    from umtali.ui.gate import LOCAL, GatedInput
    from umtali.ui.screen import LineScreen

    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    console = recording_console()
    last: list[str] = []
    seats: dict[str, object] = {}

    def view_of(prompt: str):  # type: ignore[no-untyped-def]
        return seats["You"]._view  # type: ignore[attr-defined]

    with GatedInput(lines=LOCAL) as pipe:
        session = TypingSession(pipe, feeder_for(view_of))  # type: ignore[operator]
        screen = LineScreen(console, session, Theme(), sleep=lambda s: None)

        def make_screen(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
            def run(body):  # type: ignore[no-untyped-def]
                code, words = body()
                last.extend(words)
                return code

            return screen, run

        monkeypatch.setattr(play, "make_screen", make_screen)
        real_seat = play.HumanSeat

        def seat(*args, **kwargs):  # type: ignore[no-untyped-def]
            made = real_seat(*args, **kwargs)
            seats[made.name] = made
            return made

        monkeypatch.setattr(play, "HumanSeat", seat)
        code = play.play_table(
            False,
            Theme(),
            "RULES",
            lambda c: None,
            (YOU, bot("normal")),
            match,  # type: ignore[arg-type]
            [tmp_path / "games" / "g.umtali"],
            1,
            0.0,
        )
    return code, last, console


@pytest.mark.slow  # a whole game at the prompt
def test_a_finished_game_leaves_its_result_scores_and_record_on_the_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = umtali.Game(seed=5)
    code, last, _console = _play_table_typed(monkeypatch, tmp_path, scripted_player([]), game)
    assert code == 0 and game.is_over
    totals = game.totals
    winner = "You" if game.winner == 1 else "Bot (normal)"
    top, low = max(totals), min(totals)
    assert last[0] == f"Game 1 is over: {winner} won, {top} to {low}."
    hands = [
        f"  Hand {n}: You {a}, Bot (normal) {b}."
        for n, (a, b) in enumerate((r.scores for r in game.results), 1)
    ]
    assert last[1 : 1 + len(hands)] == hands
    profile = tmp_path / "profile.jsonl"
    assert last[-1] == f"The game was added to your record in {profile}: umtali stats shows it."
    assert profile.exists()
    # Scores only: no card of either hand is left behind.
    assert not any(set("♠♥♦♣") & set(line) for line in last)


def test_quitting_a_game_leaves_nothing_beside_its_save(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    typed = iter(["", "draw", "quit", "y"])

    def feeder_for(view_of):  # type: ignore[no-untyped-def]
        return lambda message: next(typed, "y") + "\r"

    game = umtali.Game(seed=5, first_dealer=2)
    code, last, _console = _play_table_typed(monkeypatch, tmp_path, feeder_for, game)
    assert code == 0
    # Named: with several games saved, umtali resume alone would only list them.
    assert last == ["You left the game. It is saved: umtali resume g continues it."]
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert left == ["games", "games/g.umtali"]
