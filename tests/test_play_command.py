"""``umtali play`` and ``umtali resume`` around the table: whom the names name, which
saved games are kept and offered again (a resigned game, one left before its first
move, the deal of the day)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import umtali
from umtali.cli import main as cli
from umtali.engine.record import PlayerInfo


class Tables:
    """``umtali play`` with the table replaced: each call's players, match and files are
    kept, and the game is saved as a table would save it, after ``moves`` moves."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, data: Path, moves: int = 1) -> None:
        self.calls: list[tuple[tuple[PlayerInfo, PlayerInfo], Any, list[Path]]] = []
        self.moves = moves
        monkeypatch.setenv("UMTALI_DATA_DIR", str(data))
        monkeypatch.setattr(cli, "_need_terminal", lambda command: True)
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
    assert cli.main(["play", "--names", "Ann", "Ben", "--bot", "easy"]) == 0
    (players, _match, _paths), *_ = tables.calls
    assert players == (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (easy)", "easy"))


def test_names_at_one_keyboard_name_both_people(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    tables = Tables(monkeypatch, tmp_path)
    assert cli.main(["play", "--hotseat", "--names", "Ann", "Ben"]) == 0
    assert tables.calls[0][0] == (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))
