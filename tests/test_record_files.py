"""Records and the files around them: a record is written only to a new file or to this
game's own, never through a link, never over what took its place; and a game is
locked in its record file itself, so that no second name opens it twice."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_hostile import PLAYERS, run_cli, started_game

import umtali
from umtali.engine.errors import UmtaliError
from umtali.engine.record import PlayerInfo, format_record
from umtali.store.saves import Autosaver, GameInUse, delete_game, read_saved, write_atomically


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _state(path: Path) -> tuple[bool, bool, bytes | int]:
    """What is at ``path`` (without following a link or opening a FIFO): whether it is
    a link, a FIFO, and a regular file's bytes or a link's target's size."""
    if path.is_symlink():
        return True, False, os.readlink(path).encode()
    if path.is_fifo():
        return False, True, 0
    return False, False, path.read_bytes() if path.stat().st_size < 2**20 else path.stat().st_size


THERE_ALREADY = ["notes", "huge", "fifo", "link", "dangling"]


def _put(kind: str, path: Path) -> Path | None:
    """Put a file of ``kind`` at ``path``; the victim a link leads to, if any."""
    victim = path.with_name("victim.txt")
    if kind == "notes":
        path.write_text("my notes\n")
    elif kind == "huge":
        with open(path, "wb") as out:
            out.truncate(200 * 2**20)  # sparse: 200 MB that take no room
    elif kind == "fifo":
        _fifo(path)  # stands in for /dev/zero: never opened, never replaced
    elif kind == "link":
        victim.write_text("precious\n")
        path.symlink_to(victim)
        return victim
    elif kind == "dangling":
        path.symlink_to(victim)  # a link to nothing: nothing is made where it leads
        return victim
    return None


# ---- 11: --record never replaces what is there ---------------------------------


@pytest.mark.parametrize("kind", THERE_ALREADY)
def test_play_record_refuses_a_file_that_is_there_in_one_line(kind: str, tmp_path: Path) -> None:
    target = tmp_path / "game.umtali"
    victim = _put(kind, target)
    before = _state(target)
    victim_before = victim.read_bytes() if victim is not None and victim.exists() else None
    done = run_cli("play", "--record", str(target), data=tmp_path / "data")  # bounded: 60 s
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "game.umtali is there already" in done.stderr
    assert _state(target) == before
    if victim is not None:
        assert (victim.read_bytes() if victim.exists() else None) == victim_before
    assert not (tmp_path / "data" / "games").exists()  # refused before anything was made


@pytest.mark.parametrize("kind", [*THERE_ALREADY, "another game"])
def test_a_record_is_written_only_to_a_new_file_or_to_its_own_games(
    kind: str, tmp_path: Path
) -> None:
    own, target = tmp_path / "own.umtali", tmp_path / "mine.umtali"
    victim = None
    if kind == "another game":
        write_atomically(target, format_record(started_game(seed=9), PLAYERS))
    else:
        victim = _put(kind, target)
    before = _state(target)
    with pytest.raises(UmtaliError, match=r"mine\.umtali"):
        Autosaver(started_game(), PLAYERS, [own, target], print)
    assert _state(target) == before
    if kind == "link":
        assert victim is not None and victim.read_text() == "precious\n"
    if kind == "dangling":
        assert victim is not None and not victim.exists()  # nothing made where it leads
    assert not own.exists()  # the game was refused before it started: nothing is left


def test_the_record_of_this_very_game_is_written_on(tmp_path: Path) -> None:
    path = tmp_path / "g.umtali"
    write_atomically(path, format_record(started_game(moves=3), PLAYERS))
    game = started_game(moves=8)
    saver = Autosaver(game, PLAYERS, [path], print)
    saver.save()
    saver.close()
    assert saver.saved
    assert read_saved(path).match.hands[0].actions() == game.hands[0].actions()


REPLACED = ["fifo", "link", "another file"]


def _replace(kind: str, path: Path) -> Path:
    """Put something else at ``path`` (as another program might); the victim."""
    victim = path.with_name("victim.txt")
    victim.write_text("precious\n")
    path.unlink()
    if kind == "fifo":
        _fifo(path)
    elif kind == "link":
        path.symlink_to(victim)
    else:
        os.link(victim, path)  # the victim itself, under the record's name
    return victim


@pytest.mark.parametrize("undo", [True, False], ids=["undo", "append"])
@pytest.mark.parametrize("kind", REPLACED)
def test_a_record_replaced_mid_game_is_left_alone_and_said(
    kind: str, undo: bool, tmp_path: Path
) -> None:
    path = tmp_path / "g.umtali"
    game = started_game(moves=10)
    warnings: list[str] = []
    saver = Autosaver(game, PLAYERS, [path], warnings.append)
    saver.save()
    victim = _replace(kind, path)
    before = _state(path)
    hand = game.hand
    assert hand is not None
    if undo:
        game.rewind(len(hand.actions()) - 2)  # an undo: the record is written whole again
    else:
        hand.play(hand.legal_actions()[0])
    saver.save()
    hand = game.hand
    assert hand is not None
    hand.play(hand.legal_actions()[0])
    saver.save()  # and at the next move, still nothing written, nothing said again
    saver.close()
    assert not saver.saved and list(saver.problems) == [path]
    assert len(warnings) == 1 and f"Could not save the game to {path}" in warnings[0]
    assert "it is left alone" in warnings[0]
    assert _state(path) == before
    assert victim.read_text() == "precious\n"


def test_a_record_removed_mid_game_is_written_anew(tmp_path: Path) -> None:
    path = tmp_path / "g.umtali"
    game = started_game(moves=4)
    warnings: list[str] = []
    saver = Autosaver(game, PLAYERS, [path], warnings.append)
    saver.save()
    path.unlink()
    hand = game.hand
    assert hand is not None
    hand.play(hand.legal_actions()[0])
    saver.save()
    saver.close()
    assert saver.saved and not warnings
    assert read_saved(path).match.hands[0].actions() == hand.actions()


# ---- 12: no lock file, so no link to follow ----------------------------------------


def test_a_lock_file_link_left_beside_a_record_is_never_followed(tmp_path: Path) -> None:
    path = tmp_path / "game.umtali"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "game.umtali.lock").symlink_to(victim)
    saver = Autosaver(started_game(), PLAYERS, [path], print)
    saver.save()
    saver.close()
    assert victim.read_text() == "precious\n"
    assert (tmp_path / "game.umtali.lock").is_symlink()  # left alone, as all old lock files


def test_resume_delete_never_follows_a_lock_file_link(tmp_path: Path) -> None:
    games = tmp_path / "games"
    write_atomically(games / "a.umtali", format_record(started_game(), PLAYERS))
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (games / "a.umtali.lock").symlink_to(victim)
    done = run_cli("resume", "--delete", "1", data=tmp_path)
    assert done.returncode == 0 and "Deleted:" in done.stdout, done.stderr
    assert victim.read_text() == "precious\n"
    assert not (games / "a.umtali").exists()


def test_a_game_left_unfinished_leaves_no_lock_file_behind(tmp_path: Path) -> None:
    own, copy = tmp_path / "games" / "g.umtali", tmp_path / "mine.umtali"
    game = started_game()
    saver = Autosaver(game, PLAYERS, [own, copy], print)
    saver.save()
    saver.close()  # quit mid-game
    assert not game.is_over
    left = sorted(p.name for p in [*tmp_path.iterdir(), *(tmp_path / "games").iterdir()])
    assert left == ["g.umtali", "games", "mine.umtali"]


# ---- 13: one game, whatever name reaches it ----------------------------------------


def test_one_save_reached_by_a_second_name_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.umtali"
    game = started_game(moves=10)
    first = Autosaver(game, PLAYERS, [path], print)
    first.save()
    hard, soft = tmp_path / "hard.umtali", tmp_path / "soft.umtali"
    os.link(path, hard)
    soft.symlink_to(path)
    in_use = rf"hard.umtali is open in another umtali \(process {os.getpid()}\)"
    with pytest.raises(GameInUse, match=in_use):
        Autosaver(read_saved(hard).match, PLAYERS, [hard], print)
    with pytest.raises(UmtaliError, match=r"soft\.umtali"):  # never written through a link
        Autosaver(read_saved(soft).match, PLAYERS, [soft], print)
    with pytest.raises(GameInUse):
        delete_game(read_saved(hard))
    # An undo writes the record whole, as a new file: both names are still refused.
    hand = game.hand
    assert hand is not None
    game.rewind(len(hand.actions()) - 2)
    first.save()
    assert first.saved
    for name in (path, hard):
        with pytest.raises(GameInUse, match=f"process {os.getpid()}"):
            Autosaver(read_saved(name).match, PLAYERS, [name], print)
    first.close()
    second = Autosaver(read_saved(path).match, PLAYERS, [path], print)  # free again
    second.save()
    second.close()
    assert second.saved and hard.exists() and soft.is_symlink()


def test_a_game_is_refused_to_a_second_holder_even_as_a_copy(tmp_path: Path) -> None:
    own, copy = tmp_path / "own.umtali", tmp_path / "mine.umtali"
    first = Autosaver(started_game(), PLAYERS, [own, copy], print)
    first.save()
    with pytest.raises(GameInUse, match=r"mine\.umtali"):
        Autosaver(started_game(), PLAYERS, [tmp_path / "other.umtali", copy], print)
    assert not (tmp_path / "other.umtali").exists()  # nothing made before the refusal
    first.close()


def test_a_record_of_other_players_is_another_game(tmp_path: Path) -> None:
    path = tmp_path / "g.umtali"
    others = (PlayerInfo("human", "Eve"), PLAYERS[1])
    write_atomically(path, format_record(started_game(), others))
    with pytest.raises(UmtaliError, match="holds another game"):
        Autosaver(started_game(), PLAYERS, [path], print)
    Autosaver(umtali.Game(seed=1), others, [path], print).close()
