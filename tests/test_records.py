"""Records: saved as played, replayed exactly, never lost, and bad ones refused clearly."""

from __future__ import annotations

import io
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import umtali
import umtali.engine.record as record_module
from umtali.bots import EasyBot, NormalBot
from umtali.bots.arena import play_game
from umtali.bots.seat import GameInfo
from umtali.cli import main as cli
from umtali.engine.hand import machine_of
from umtali.engine.record import (
    MAGIC,
    SHUFFLED_VERSION,
    PlayerInfo,
    RecordError,
    RecordWriter,
    format_record,
    load,
    parse_record,
    played,
)
from umtali.store.saves import (
    Autosaver,
    copies_to_keep,
    read_saved,
    unfinished_games,
    write_atomically,
)
from umtali.ui.loop import undo_point

# Any move of a turn before the one undo looks at.
X, Y = "discard 2C", "discard 3D"

PLAYERS = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (hard)", "hard"))


def finished_session(seed: int) -> umtali.Session:
    session = umtali.Session(seed=seed)
    while True:
        play_game(session.game, [NormalBot(), EasyBot(seed)])
        if session.is_over:
            return session
        session.next_game()


def half_played_game(seed: int, actions: int) -> umtali.Game:
    game = umtali.Game(seed=seed)
    rng = random.Random(seed)
    done = 0
    while done < actions and not game.is_over:
        hand = game.next_hand() if game.hand is None or game.hand.is_over else game.hand
        hand.play(rng.choice(hand.legal_actions()))
        done += 1
    return game


def test_round_trip_of_finished_sessions() -> None:
    for seed in range(4):
        session = finished_session(seed)
        text = format_record(session, PLAYERS)
        data, again = load(text, "r.umtali")
        assert isinstance(again, umtali.Session) and again.is_over
        assert data.players == PLAYERS
        assert again.wins == session.wins
        assert [[machine_of(h).log for h in g.hands] for g in again.games] == [
            [machine_of(h).log for h in g.hands] for g in session.games
        ]
        assert format_record(again, PLAYERS) == text


@pytest.mark.parametrize("actions", [0, 1, 7, 60, 130])
def test_round_trip_of_unfinished_games(actions: int) -> None:
    game = half_played_game(9, actions)
    text = format_record(game, PLAYERS)
    _, again = load(text)
    assert isinstance(again, umtali.Game)
    assert [machine_of(h).log for h in again.hands] == [machine_of(h).log for h in game.hands]
    if game.hand is not None:
        assert again.hand is not None
        assert again.hand.legal_actions() == game.hand.legal_actions()
        assert again.hand.scores == game.hand.scores


def corrupt(text: str, rng: random.Random) -> str:
    data = bytearray(text.encode())
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(data))
        data[i] = rng.randrange(32, 127)
    return data.decode("utf-8", "replace")


def test_truncated_and_flipped_records_are_refused_or_read_consistently() -> None:
    text = format_record(half_played_game(5, 90), PLAYERS)
    rng = random.Random(0)
    refused = 0
    samples = [text[:n] for n in range(0, len(text), 37)]
    samples += [corrupt(text, rng) for _ in range(300)]
    for sample in samples:
        try:
            _, match = load(sample, "bad.umtali")
        except RecordError as err:
            refused += 1
            assert str(err).startswith("bad.umtali")
            continue
        # What loads must be the record of a real game, which saves back the same.
        data = parse_record(sample, "bad.umtali")
        assert format_record(match, data.players).splitlines()[0] == f"{MAGIC} {SHUFFLED_VERSION}"
    assert refused > 100


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda t: t.replace(f"record {SHUFFLED_VERSION}", "record 9"), "newer than this umtali"),
        (lambda t: t.replace(f"umtali record {SHUFFLED_VERSION}", "solitaire 1"), "not an Umtali"),
        (lambda t: t.replace("rules classic", "rules poker"), "unknown rules 'poker'"),
        (lambda t: "", "the file is empty"),
        (lambda t: re.sub(r"1: discard \S+", "1: discard 4Q", t, count=1), "is not a card"),
        (lambda t: t.replace("2: draw", "1: draw", 1), "is marked for player 1"),
        (lambda t: t.replace("player 2 bot hard:", "player 2 robot:"), "a player is"),
    ],
)
def test_specific_faults_are_named(edit, message: str) -> None:  # type: ignore[no-untyped-def]
    text = format_record(half_played_game(5, 40), PLAYERS)
    with pytest.raises(RecordError, match=message):
        load(edit(text), "f.umtali")


def test_an_illegal_action_is_refused_with_its_line() -> None:
    text = format_record(half_played_game(5, 40), PLAYERS)
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith(("1: discard", "2: discard")))
    who = lines[n][0]
    lines[n] = f"{who}: meld AS KS QS"
    with pytest.raises(RecordError, match=rf"f.umtali:{n + 1}: 'meld AS KS QS' is not legal"):
        load("\n".join(lines), "f.umtali")


def test_an_edited_deal_is_refused() -> None:
    text = format_record(half_played_game(5, 3), PLAYERS)
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("deal 1:"))
    cards = lines[n].split()[2:]
    cards[0], cards[1] = cards[1], cards[0]
    swapped = "\n".join([*lines[:n], "deal 1: " + " ".join(cards), *lines[n + 1 :]])
    with pytest.raises(RecordError, match="is not the one the record's seed gives"):
        load(swapped, "f.umtali")


def test_a_binary_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "junk.umtali"
    path.write_bytes(bytes(range(256)))
    with pytest.raises(RecordError, match="not a text file"):
        read_saved(path)
    assert cli.main(["replay", str(path)]) == 1
    assert cli.main(["resume", str(path)]) == 1
    assert path.read_bytes() == bytes(range(256))


def test_a_failing_save_is_reported_once_tried_again_and_reported_when_it_works(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    warnings: list[str] = []
    news: list[str] = []
    game = umtali.Game(seed=1)
    good = tmp_path / "good.umtali"
    stuck = blocker / "game.umtali"
    saver = Autosaver(game, PLAYERS, [stuck, good], warnings.append, news.append)
    hand = game.next_hand()
    for _ in range(5):
        hand.play(hand.legal_actions()[0])
        saver.save()
    assert len(warnings) == 1 and "as soon as that works again" in warnings[0]
    assert not saver.saved and list(saver.problems) == [stuck]
    assert read_saved(good).match.hands[0].actions() == hand.actions()
    blocker.unlink()  # the way is clear again (space freed, folder made writable)
    for _ in range(3):
        hand.play(hand.legal_actions()[0])
        saver.save()
    assert saver.saved and len(news) == 1 and "saved again" in news[0]
    assert read_saved(stuck).match.hands[0].actions() == hand.actions()  # nothing lost
    saver.close()


def test_a_full_disk_mid_game_loses_nothing_once_space_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.umtali"
    game = umtali.Game(seed=2)
    warnings: list[str] = []
    saver = Autosaver(game, PLAYERS, [path], warnings.append, warnings.append)
    hand = game.next_hand()
    real_fsync = os.fsync
    full = {"on": False}

    def fsync(fd: int) -> None:
        if full["on"]:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr("umtali.store.saves.os.fsync", fsync)
    rng = random.Random(2)
    for move in range(30):
        full["on"] = 10 <= move < 20
        hand.play(rng.choice(hand.legal_actions()))
        saver.save()
        assert saver.saved == (not full["on"])
    assert [w.split(" (")[0] for w in warnings] == [
        f"Could not save the game to {path}",
        f"The game is saved again to {path}.",
    ]
    assert read_saved(path).match.hands[0].actions() == hand.actions()
    saver.close()


def test_unfinished_games_are_listed_most_recent_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    folder = tmp_path / "games"
    write_atomically(folder / "old.umtali", format_record(half_played_game(1, 5), PLAYERS))
    write_atomically(folder / "done.umtali", format_record(finished_session(2), PLAYERS))
    write_atomically(folder / "new.umtali", format_record(half_played_game(3, 5), PLAYERS))
    (folder / "broken.umtali").write_text("umtali record 1\nrules classic\n")
    os.utime(folder / "old.umtali", (1, 1))
    games, problems = unfinished_games()
    assert [g.path.name for g in games] == ["new.umtali", "old.umtali"]
    assert len(problems) == 1 and "broken.umtali" in problems[0]
    assert "Ann v Bot (hard)" in games[0].describe()


WRITER = """
import sys, umtali
from pathlib import Path
from umtali.bots import NormalBot, EasyBot
from umtali.bots.arena import play_hand, info_for
from umtali.engine.record import PlayerInfo
from umtali.store.saves import Autosaver
path = Path(sys.argv[1])
players = (PlayerInfo("bot", "A", "normal"), PlayerInfo("bot", "B", "easy"))
seed = 0
while True:
    game = umtali.Game(seed=seed)
    saver = Autosaver(game, players, [path], print)
    seats = [NormalBot(), EasyBot(seed)]
    while not game.is_over:
        hand = game.next_hand()
        saver.save()
        while not hand.is_over:
            player = hand.to_move
            hand.play(seats[player - 1].choose(hand.view(player), info_for(game)).action)
            saver.save()
    saver.close()
    path.unlink()  # a new game is never written over an old record: the old one goes
    seed += 1
"""


def _size(path: Path) -> int:
    """The file's size now (0 while there is none: the writer has not saved yet, or
    has just removed a finished game's record)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


@pytest.mark.slow
def test_a_record_survives_being_killed_at_any_moment(tmp_path: Path) -> None:
    path = tmp_path / "live.umtali"
    rng = random.Random(4)
    sizes: set[int] = set()
    for _ in range(25):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)])
        # Killed once the record has grown past a size drawn at random: at another
        # moment of a game each time, however slowly a busy machine starts the writer.
        target = rng.randrange(400, 1600)
        end = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < end and _size(path) < target:
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if not path.exists():
            continue  # killed before its first save
        sizes.add(path.stat().st_size)
        saved = read_saved(path)  # a whole record, at worst without its last line cut short
        # The lock died with the writer: this process takes the game on and saves it.
        saver = Autosaver(saved.match, saved.players, [path], print)
        saver.save()
        saver.close()
        assert saver.saved
        again = read_saved(path).match
        assert [h.actions() for h in again.hands] == [h.actions() for h in saved.match.hands]
        path.unlink()  # the next writer starts a new game, never written over an old record
    assert len(sizes) >= 15  # the kills fell at many different moments


@pytest.mark.parametrize(
    "actions,player,expected",
    [
        ([], 1, None),
        ([(1, "meld KS QS"), (1, "play JS")], 1, 0),  # the first turn: no draw
        ([(1, "meld KS QS"), (1, "discard 9C")], 2, None),
        # A stock draw showed a card: it stays, and what follows it may go.
        ([(1, "meld KS QS"), (1, "discard 9C"), (2, "draw")], 2, None),
        ([(1, X), (2, Y), (1, "draw"), (1, "play JS")], 1, 3),
        ([(1, X), (2, Y), (1, "draw"), (1, "play JS"), (1, "meld 8H 7H 6H")], 1, 3),
        # A take from the pile showed nothing hidden: it may go too.
        ([(1, X), (2, Y), (1, "take"), (1, "meld 9C 9D 9H")], 1, 2),
        # The opponent's reply was seen: nothing before it comes back.
        ([(1, X), (2, "draw"), (2, "discard 4C")], 1, None),
    ],
)
def test_undo_never_takes_back_what_showed_a_hidden_card(
    actions: list[tuple[int, str]], player: int, expected: int | None
) -> None:
    typed = [(who, umtali.Action.parse(text)) for who, text in actions]
    assert undo_point(typed, player) == expected


def test_undo_stops_just_after_a_stock_draw_in_a_hand_played() -> None:
    game = umtali.Game(seed=3)
    hand = game.next_hand()
    seats = [NormalBot(), EasyBot(3)]
    while True:  # until a player draws from the stock and plays on in the same turn
        player = hand.to_move
        assert player is not None
        hand.play(seats[player - 1].choose(hand.view(player), GameInfo()).action)
        actions = played(hand)
        drew = len(actions) > 2 and actions[-2] == (player, umtali.Action.parse("draw"))
        if drew and actions[-1][0] == player:
            break
    keep = undo_point(actions, player)
    assert keep == len(actions) - 1  # the drawn card was seen: only what follows goes
    again = game.rewind(keep)
    assert again.played() == [a for _, a in actions[:keep]]
    assert machine_of(again).log == machine_of(hand).log[: len(machine_of(again).log)]


@pytest.mark.parametrize("variant", ["classic", "family", "practical", "rummy"])
def test_rewinding_replays_the_actions_as_played(variant: str) -> None:
    game = play_game(umtali.Game(variant, seed=8), [NormalBot(), EasyBot(8)])
    last = game.hands[-1]
    for keep in (0, 7, len(last.played())):
        again = game.rewind(keep)
        assert again.played() == last.played()[:keep]
        assert machine_of(again).log == machine_of(last).log[: len(machine_of(again).log)]
        game.hands[-1] = last
    # all kept: the very hand
    assert machine_of(game.rewind(len(last.played()))).log == machine_of(last).log


@pytest.mark.parametrize("variant", ["family", "practical", "rummy"])
def test_round_trip_of_variant_games(variant: str) -> None:
    game = play_game(umtali.Game(variant, seed=2), [NormalBot(), EasyBot(2)])
    text = format_record(game, PLAYERS)
    assert f"rules {variant}" in text
    data, again = load(text)
    assert data.rules == variant and isinstance(again, umtali.Game) and again.is_over
    assert again.rules.name == variant and again.totals == game.totals
    assert format_record(again, PLAYERS) == text
    # And a game stopped in the middle of a hand, after random actions of every kind.
    rng = random.Random(4)
    partial = umtali.Game(variant, seed=4)
    kinds: set[str] = set()
    for _ in range(400):
        hand = partial.hand
        if hand is None or hand.is_over:
            if partial.is_over:
                break
            hand = partial.next_hand()
        action = rng.choice(hand.legal_actions())
        kinds.add(action.split()[0])
        hand.play(action)
    _, resumed = load(format_record(partial, PLAYERS))
    assert isinstance(resumed, umtali.Game)
    assert [machine_of(h).log for h in resumed.hands] == [machine_of(h).log for h in partial.hands]
    assert {"draw", "take", "meld", "discard"} <= kinds


HOSTILE_NAMES = [
    "Ann\nrules rummy",
    "A#B",
    "50% off",
    " spaced ",
    "Zoë Ωmega 名前",
    "\x1b]0;title\x07",
    "tab\there",
    "%41",
    "[/]",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_any_name_comes_back_from_a_record_exactly(name: str) -> None:
    players = (PlayerInfo("human", name), PlayerInfo("bot", name + "#", "hard"))
    game = half_played_game(3, 20)
    text = format_record(game, players)
    assert len(text.splitlines()) == len(format_record(game, PLAYERS).splitlines())
    data, again = load(text)
    assert data.players == players
    assert format_record(again, data.players) == text


def test_a_version_1_record_still_loads_with_its_names_as_written() -> None:
    text = format_record(half_played_game(3, 20), (PlayerInfo("human", "50%41"), PLAYERS[1]))
    old = text.replace(f"{MAGIC} {SHUFFLED_VERSION}", f"{MAGIC} 1").replace("50%2541", "50%41")
    data, _ = load(old)
    assert data.players[0].name == "50%41"  # version 1 wrote names unescaped


@pytest.mark.parametrize("variant", ["classic", "rummy"])
def test_a_record_written_move_by_move_is_the_whole_record(variant: str) -> None:
    session = umtali.Session(variant, seed=6)
    seats = [NormalBot(), EasyBot(6)]
    writer = RecordWriter(PLAYERS)
    text = writer.whole(session)
    moves = 0
    while not session.is_over:
        if session.game.is_over:
            session.next_game()
        game = session.game
        hand = game.hand
        if hand is None or hand.is_over:
            hand = game.next_hand()
        else:
            player = hand.to_move
            assert player is not None
            hand.play(seats[player - 1].choose(hand.view(player), GameInfo()).action)
            moves += 1
        more = writer.more(session)
        assert more is not None
        text += more
        if hand.is_over or moves % 23 == 0:
            assert text == format_record(session, PLAYERS)
    assert text == format_record(session, PLAYERS)


def test_a_writer_handed_the_action_writes_its_line_without_reading_the_hand_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = umtali.Game(seed=5)
    writer = RecordWriter(PLAYERS)
    hand = game.next_hand()
    text = writer.whole(game)
    made: list[int] = []
    real = record_module._action_lines

    def counted(*args: Any) -> list[str]:
        made.append(1)
        return real(*args)

    monkeypatch.setattr(record_module, "_action_lines", counted)
    seats = [NormalBot(), EasyBot(5)]
    while not hand.is_over:
        player = hand.to_move
        assert player is not None
        action = hand.play(seats[player - 1].choose(hand.view(player), GameInfo()).action)
        more = writer.more(game, (player, action))
        assert more is not None
        text += more
    assert made == []  # no move made the hand's lines again
    assert text == format_record(game, PLAYERS)
    # Where more happened than the action handed over, the writer reads the hand.
    hand = game.next_hand()
    text += writer.more(game) or ""
    for _ in range(2):
        player = hand.to_move
        assert player is not None
        action = hand.play(hand.legal()[0])
    text += writer.more(game, (player, action)) or ""
    assert made and text == format_record(game, PLAYERS)


def test_an_undo_makes_the_writer_ask_for_the_whole_record() -> None:
    game = umtali.Game(seed=5)
    writer = RecordWriter(PLAYERS)
    writer.whole(game)
    hand = game.next_hand()
    for action in ["meld KS QS", "meld AS AD AC"]:
        hand.play(action)
    assert writer.more(game) is not None
    game.hands[-1] = umtali.replay(hand.deal, hand.actions()[:1])
    assert writer.more(game) is None
    assert writer.whole(game) == format_record(game, PLAYERS)
    assert writer.more(game) == ""


def _saved_with_a_copy(tmp_path: Path) -> tuple[Path, Path]:
    game = half_played_game(4, 30)
    own, copy = tmp_path / "own.umtali", tmp_path / "mine.umtali"
    saver = Autosaver(game, PLAYERS, [own, copy], print)
    saver.save()
    saver.close()
    return own, copy


def test_a_record_names_the_copy_the_player_asked_for(tmp_path: Path) -> None:
    own, copy = _saved_with_a_copy(tmp_path)
    assert f"copy {copy.resolve()}" in own.read_text().splitlines()
    assert read_saved(own).copies == (copy.resolve(),)
    assert read_saved(copy).copies == (copy.resolve(),)  # every file names it
    assert copies_to_keep(read_saved(own)) == ([copy.resolve()], [])
    # Resumed from the copy itself, nothing more is to be written.
    assert copies_to_keep(read_saved(copy)) == ([], [])


def test_a_resumed_game_goes_on_writing_its_copy(tmp_path: Path) -> None:
    own, copy = _saved_with_a_copy(tmp_path)
    saved = read_saved(own)
    keep, _ = copies_to_keep(saved)
    match = saved.match
    assert isinstance(match, umtali.Game)
    saver = Autosaver(match, saved.players, [own, *keep], print)
    hand = match.hand
    assert hand is not None
    for _ in range(5):
        hand.play(NormalBot().choose(hand.view(hand.to_move or 1), GameInfo()).action)
        saver.save()
    saver.close()
    assert read_saved(copy).match.hand.actions() == hand.actions()  # type: ignore[union-attr]


def test_a_copy_that_is_gone_or_holds_another_game_is_never_written(tmp_path: Path) -> None:
    own, copy = _saved_with_a_copy(tmp_path)
    copy.unlink()
    keep, skipped = copies_to_keep(read_saved(own))
    assert keep == [] and "is not written any more" in skipped[0]
    assert not copy.exists()  # not made again: a record's copy lines create nothing
    other = half_played_game(5, 10)
    Autosaver(other, PLAYERS, [copy], print).save()
    keep, skipped = copies_to_keep(read_saved(own))
    assert keep == [] and "holds another game" in skipped[0]


def test_a_hostile_copy_line_cannot_make_umtali_write_another_file(tmp_path: Path) -> None:
    own, _ = _saved_with_a_copy(tmp_path)
    victim = tmp_path / "notes.txt"
    victim.write_text("my notes\n")
    text = own.read_text().replace("copy ", f"copy {victim}\ncopy ", 1)
    own.write_text(text)
    keep, skipped = copies_to_keep(read_saved(own))
    assert victim not in keep and any(str(victim) in why for why in skipped)
    assert victim.read_text() == "my notes\n"


def test_an_undo_is_kept_in_the_record_and_comes_back_with_it(tmp_path: Path) -> None:
    game = half_played_game(4, 12)
    hand = game.hand
    assert hand is not None
    before = hand.played()
    game.rewind(len(before) - 2)  # two actions taken back
    taken = tuple(before[-2:])
    assert game.undone == [(len(game.hands) - 1, len(before) - 2, taken)]
    path = tmp_path / "g.umtali"
    saver = Autosaver(game, PLAYERS, [path], print)
    saver.save()
    hand = game.hand
    assert hand is not None
    hand.play(hand.legal_actions()[0])  # play on after the undo: appended as usual
    saver.save()
    saver.close()
    text = path.read_text()
    assert f"undone: {'; '.join(map(str, taken))}" in text.splitlines()
    again = read_saved(path).match
    assert isinstance(again, umtali.Game)
    assert again.undone == game.undone
    assert [h.actions() for h in again.hands] == [h.actions() for h in game.hands]
    assert format_record(again, PLAYERS) == format_record(game, PLAYERS)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_resume_list_keeps_each_file_name_whole_on_a_narrow_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    folder = tmp_path / "games"
    names = ["20261125-190315.umtali", "20261125-181502.umtali"]
    for seed, name in enumerate(names, 1):
        write_atomically(folder / name, format_record(half_played_game(seed, 30), PLAYERS))
    for columns in (80, 200):
        monkeypatch.setenv("COLUMNS", str(columns))
        out = _Terminal()
        monkeypatch.setattr(sys, "stdout", out)
        assert cli.main(["resume"]) == 0
        rows = out.getvalue().splitlines()
        assert all(len(row) < columns for row in rows)
        for name in names:  # the name whole, and in one row
            assert sum(name in row for row in rows) == 1
        entries = [row for row in rows if re.match(r"  \d\. ", row)]
        assert len(entries) == 2
        if columns == 200:  # where it fits, one game is one line
            assert all(row.endswith(".umtali") for row in entries)


def test_the_resume_list_tells_games_apart_and_can_delete_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    folder = tmp_path / "games"
    game = half_played_game(3, 40)
    write_atomically(folder / "a.umtali", format_record(game, PLAYERS))
    write_atomically(folder / "b.umtali", format_record(half_played_game(1, 5), PLAYERS))
    os.utime(folder / "b.umtali", (1, 1))
    games, _ = unfinished_games()
    line = games[0].describe()
    a, b = game.totals
    if game.hand is not None and not game.hand.is_over:
        a, b = a + game.hand.scores[0], b + game.hand.scores[1]
    assert f"classic, hand {len(game.hands)}, {a}-{b}  a.umtali" in line
    # A game open in another umtali is not deleted from under it.
    other = Autosaver(games[0].match, games[0].players, [folder / "a.umtali"], print)
    assert cli.main(["resume", "--delete", "1"]) == 1
    assert "open in another umtali" in capsys.readouterr().err
    other.close()
    assert cli.main(["resume", "--delete", "3"]) == 1  # no such game: nothing happens
    assert cli.main(["resume", "--delete", "1"]) == 0
    assert "Deleted:" in capsys.readouterr().out
    assert not (folder / "a.umtali").exists() and not (folder / "a.umtali.lock").exists()
    assert [g.path.name for g in unfinished_games()[0]] == ["b.umtali"]


def _stood_in_record() -> str:
    """A game whose player 2 left before the first deal and came back in hand 1."""
    from umtali.engine.progress import Deal, Move, Progress

    players = (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))
    progress = Progress(umtali.Game(seed=3), players)
    progress.stand_in(2, "normal")  # before the first deal
    progress.decide(1, Deal(eleven=1))
    for _ in range(3):
        asked = progress.pending()
        assert asked.player is not None
        progress.decide(asked.player, Move(asked.legal[0]))
    progress.stand_in(2, None)
    return progress.record()


def test_a_stand_in_is_a_line_where_it_happened_and_reads_back() -> None:
    text = _stood_in_record()
    lines = text.splitlines()
    assert lines[0] == "umtali record 5"
    assert lines[lines.index("game 1") + 1] == "stand-in 2: normal"  # before the deal
    stock = next(n for n, line in enumerate(lines) if line.startswith("stock: "))
    assert lines.index("stand-in 2 ends") == stock + 4  # after the three moves played
    data, game = load(text)
    assert [c.level for c in game.stand_ins] == ["normal", None]
    assert format_record(game, data.players) == text


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("stand-in 3: normal", "write a stand-in as"),
        ("stand-in 2 normal", "write a stand-in as"),
        ("stand-in 2:", "write a stand-in as"),
        ("stand-in 2: no good", "write a stand-in as"),
        ("stand-in 2 back", "write a stand-in as"),
    ],
)
def test_a_stand_in_line_that_says_something_else_is_refused_with_its_line(
    line: str, why: str
) -> None:
    text = _stood_in_record().replace("stand-in 2 ends", line)
    number = text.splitlines().index(line) + 1
    with pytest.raises(RecordError, match=f"record:{number}: {why}"):
        load(text)


def test_an_older_version_knows_no_stand_in() -> None:
    text = _stood_in_record().replace("umtali record 5", "umtali record 4", 1)
    with pytest.raises(RecordError, match="unexpected line 'stand-in 2: normal'"):
        load(text)
