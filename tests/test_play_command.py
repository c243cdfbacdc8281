"""``umtali play`` and ``umtali resume`` around the table: whom the names name, which
saved games are kept and offered again (a resigned game, one left before its first
move, the deal of the day)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_profile import _play_table_typed

import umtali
from umtali.cli import main as cli
from umtali.engine.record import PlayerInfo
from umtali.store.profile import read_profile
from umtali.store.resumable import resumable_games
from umtali.store.saves import read_saved, unfinished_games


class Tables:
    """``umtali play`` with the table replaced: each call's players, match and files are
    kept, and the game is saved as a table would save it, after ``moves`` moves."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, data: Path, moves: int = 1) -> None:
        self.calls: list[tuple[tuple[PlayerInfo, PlayerInfo], Any, list[Path]]] = []
        self.moves = moves
        monkeypatch.setenv("UMTALI_DATA_DIR", str(data))
        monkeypatch.setattr(cli, "_need_terminal", lambda command, plain=None: True)
        monkeypatch.setattr(cli, "_table", self._table)

    def _table(
        self,
        args: object,
        players: tuple[PlayerInfo, PlayerInfo],
        match: Any,
        paths: list[Path],
        seed: int | None,
        daily: str = "",
    ) -> int:
        from umtali.store.saves import Autosaver

        self.calls.append((players, match, paths))
        game = match.game if isinstance(match, umtali.Session) else match
        hand = game.hand or game.next_hand(eleven=1)
        for _ in range(self.moves):
            hand.play(hand.legal_actions()[0])
        saver = Autosaver(match, players, paths, warn=print)
        saver.save()
        saver.close()
        return 0


def typing(lines: list[str]) -> Any:
    """A feeder for ``_play_table_typed`` that types ``lines``, then leaves the game
    (quit, and yes), so a line that went astray ends the test instead of looping."""
    typed = iter(lines)

    def feeder_for(view_of: object) -> Any:
        def feed(message: str) -> str:
            fallback = "y" if "[y/N]" in message else "quit"
            return next(typed, fallback) + "\r"

        return feed

    return feeder_for


# ---- --names against the bot -------------------------------------------------------


def test_names_against_the_bot_name_the_person_and_the_bot_keeps_its_level(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    tables = Tables(monkeypatch, tmp_path)
    assert cli.main(["play", "--names", "Ann", "--bot", "easy"]) == 0
    (players, _match, _paths), *_ = tables.calls
    assert players == (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (easy)", "easy"))


@pytest.mark.parametrize(
    "names", [["Ann", "Ben"], ["Ann", "Ben", "Cy"], ["--hotseat", "Ann"]], ids=str
)
def test_names_that_do_not_fit_the_seats_are_refused_with_one_line(
    names: list[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A second name against the bot would be dropped without a word (the bot's name says
    its level), one name at one keyboard leaves a player unnamed: both are said, at once."""
    tables = Tables(monkeypatch, tmp_path)
    hotseat = names[:1] == ["--hotseat"]
    args = ["play", *names[:1], "--names", *names[1:]] if hotseat else ["play", "--names", *names]
    assert cli.main(args) == 2
    assert "--names takes" in capsys.readouterr().err and not tables.calls


def test_names_at_one_keyboard_name_both_people(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    tables = Tables(monkeypatch, tmp_path)
    assert cli.main(["play", "--hotseat", "--names", "Ann", "Ben"]) == 0
    assert tables.calls[0][0] == (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))


# ---- a resigned game ---------------------------------------------------------------


def test_a_resigned_game_keeps_its_record_and_resume_does_not_offer_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    feeder_for = typing(["", "all", "x 9c", "resign", "y"])  # the extra card, a turn, resign
    game = umtali.Game(seed=5)  # the person deals
    code, last, _console = _play_table_typed(monkeypatch, tmp_path, feeder_for, game)
    record = tmp_path / "games" / "g.umtali"
    assert code == 0
    assert last == [
        "You resigned: the game counts as a loss in the record (umtali stats).",
        f"The game is saved in {record}:",
        "  umtali replay g   shows it again,",
        "  umtali review g   goes over its decisions with the coach.",
    ]
    # The record is whole, as the game stood: replay and review read it.
    saved = read_saved(record)
    assert game.hand is not None and game.hand.actions()  # a move was played
    assert saved.match.hand is not None and saved.match.hand.actions() == game.hand.actions()
    assert cli.main(["review", str(record)]) == 0
    (entry,) = read_profile(tmp_path / "profile.jsonl").entries
    assert entry.resigned
    # Unfinished, but given up: resume offers it neither in its list nor by its name.
    assert [g.path for g in unfinished_games()[0]] == [record]
    assert resumable_games()[0] == []
    capsys.readouterr()
    assert cli.main(["resume"]) == 0
    assert "There is no unfinished game to resume" in capsys.readouterr().out
    assert cli.main(["resume", str(record)]) == 1
    assert "that game was resigned" in capsys.readouterr().err
    # replay's list marks it; the same game under another name was never resigned.
    (record.parent / "h.umtali").write_bytes(record.read_bytes())
    assert cli.main(["replay"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if ".umtali" in line]
    assert sorted(line.split(".umtali")[1] for line in listed) == ["", "  (resigned)"]
    assert any(line.endswith(" g.umtali  (resigned)") for line in listed)


def test_a_game_of_a_record_another_game_resigned_is_still_offered(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the game resigned is left out: a session's game is known by its number."""
    from umtali.engine.record import PlayerKind
    from umtali.store.profile import GameEntry, GameMode, add_game

    Tables(monkeypatch, tmp_path)
    assert cli.main(["play", "--session"]) == 0
    (saved,) = resumable_games()[0]
    entry = GameEntry(
        id=f"{saved.path.stem}#2",
        finished="2026-11-23T08:00:00",
        variant="classic",
        mode=GameMode.BOT,
        names=("You", "Bot (hard)"),
        kinds=(PlayerKind.HUMAN, PlayerKind.BOT),
        levels=("", "hard"),
        you=1,
        hands=((0, 0),),
        winner=2,
        resigned=True,
    )
    add_game(entry)  # game 2 of a session with that name was resigned; this is game 1
    assert [g.path for g in resumable_games()[0]] == [saved.path]


# ---- a game left before its first move ----------------------------------------------


def test_a_game_left_before_its_first_move_is_not_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    feeder_for = typing(["", "quit", "y"])  # keep the extra card, then leave at once
    game = umtali.Game(seed=5)  # the person deals
    code, last, _console = _play_table_typed(monkeypatch, tmp_path, feeder_for, game)
    assert code == 0
    assert last == ["You left the game before its first move, so it was not kept."]
    assert not (tmp_path / "games" / "g.umtali").exists()
    assert unfinished_games() == ([], [])


# ---- the deal of the day, again ----------------------------------------------------


def test_the_deal_of_the_day_again_goes_on_with_the_saved_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = Tables(monkeypatch, tmp_path)
    assert cli.main(["play", "--daily"]) == 0
    assert cli.main(["play", "--daily"]) == 0
    (_, first, [saved]), (_, again, paths) = tables.calls
    assert paths == [saved]  # the same file: no second copy of the day's cards
    assert [g.path for g in unfinished_games()[0]] == [saved]
    assert again.hand.actions()[:1] == first.hand.actions()[:1]
    assert len(again.hand.actions()) == 2  # a move then, a move now
    assert "Today's deal goes on from where you left it" in capsys.readouterr().out


def test_the_deal_of_the_day_begun_against_another_bot_is_named_not_dealt_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = Tables(monkeypatch, tmp_path)
    assert cli.main(["play", "--daily", "--bot", "easy"]) == 0
    capsys.readouterr()
    assert cli.main(["play", "--daily", "--bot", "normal"]) == 1
    said = " ".join(capsys.readouterr().err.split())
    assert "today's deal is already under way in" in said and "Bot (easy)" in said
    assert "umtali resume continues it" in said
    assert len(tables.calls) == 1 and len(unfinished_games()[0]) == 1
    # Another variant's deal of the day, or a session, is another deal.
    assert cli.main(["play", "--daily", "--variant", "family"]) == 0
    assert cli.main(["play", "--daily", "--session", "--bot", "easy"]) == 0
    assert len(tables.calls) == 3
