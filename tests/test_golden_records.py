"""Records and profile entries, byte for byte: what is written now is what was written
when the golden files were made (record format 3 and ``profile.jsonl`` never change),
and those files still load.

The golden files were written by ``write_golden`` from the code before records were
typed (``PYTHONPATH=<that checkout> python -c 'import test_golden_records as t;
t.write_golden()'`` in ``tests/``).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

import umtali
from umtali.bots import EasyBot, NormalBot
from umtali.bots.arena import play_game
from umtali.bots.seat import GameInfo
from umtali.engine.record import (
    MatchKind,
    PlayerInfo,
    PlayerKind,
    RecordWriter,
    format_record,
    load,
    parse_record,
)
from umtali.store.profile import GameEntry, GameMode, entry_for

GOLDEN = Path(__file__).parent / "golden"
VARIANTS = ["classic", "family", "practical", "rummy"]


def players() -> tuple[PlayerInfo, PlayerInfo]:
    # Built from the words a record holds, so the same code makes them before and
    # after the kinds became enums (a str-valued enum is equal to its word).
    return (PlayerInfo("human", " Zoë #1 "), PlayerInfo("bot", "Bot (normal)", "normal"))


def played_game(variant: str, tell: bool = False) -> tuple[umtali.Game | umtali.Session, str]:
    """A seeded match between two bots, with an undo in its second hand, and its record
    as a writer gives it move by move (which the test checks against the whole); with
    ``tell`` the writer is handed each action as it is played, as the table's saves are."""
    match: umtali.Game | umtali.Session = (
        umtali.Session(variant, seed=11) if variant == "classic" else umtali.Game(variant, seed=11)
    )
    seats = [NormalBot(), EasyBot(11)]
    writer = RecordWriter(players())
    text = writer.whole(match)
    undone = False
    hands = 0
    while not match.is_over and hands < 6:
        if isinstance(match, umtali.Session) and match.game.is_over:
            match.next_game()
        game = match.game if isinstance(match, umtali.Session) else match
        hand = game.hand
        if hand is None or hand.is_over:
            game.next_hand()
            hands += 1
        else:
            if hands == 2 and not undone and len(hand.actions()) == 12:
                game.rewind(9)
                undone = True
            else:
                player = hand.to_move
                assert player is not None
                action = hand.play(seats[player - 1].choose(hand.view(player), GameInfo()).action)
                if tell:
                    more = writer.more(match, (player, action))
                    text = text + more if more is not None else writer.whole(match)
                    continue
        more = writer.more(match)
        text = text + more if more is not None else writer.whole(match)
    return match, text


def profile_line(variant: str) -> str:
    game = play_game(umtali.Game(variant, seed=5), [NormalBot(), EasyBot(5)])
    when = datetime(2026, 11, 25, 18, 0, 0)
    return entry_for(game, players(), "g-1", when, daily="2026-11-25").to_json() + "\n"


def write_golden() -> None:
    for variant in VARIANTS:
        _, text = played_game(variant)
        (GOLDEN / f"record_{variant}.umtali").write_text(text, encoding="utf-8")
        (GOLDEN / f"profile_{variant}.jsonl").write_text(profile_line(variant), encoding="utf-8")


@pytest.mark.parametrize("tell", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_record_written_now_is_the_one_written_before(variant: str, tell: bool) -> None:
    match, text = played_game(variant, tell)
    assert text == format_record(match, players())
    assert "undone: " in text
    path = GOLDEN / f"record_{variant}.umtali"
    if os.environ.get("UPDATE_GOLDEN"):
        pytest.fail("golden records are never rewritten: they are what older versions wrote")
    assert text.encode("utf-8") == path.read_bytes()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_golden_record_loads_and_writes_itself_again(variant: str) -> None:
    text = (GOLDEN / f"record_{variant}.umtali").read_text(encoding="utf-8")
    data, match = load(text, "golden")
    assert data.players == players()
    assert format_record(match, data.players) == text


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_profile_entry_written_now_is_the_one_written_before(variant: str) -> None:
    golden = (GOLDEN / f"profile_{variant}.jsonl").read_text(encoding="utf-8")
    assert profile_line(variant) == golden
    entry = GameEntry.from_json(golden)
    assert entry.to_json() + "\n" == golden


def test_who_sits_what_is_recorded_and_how_it_was_played_are_kinds() -> None:
    data = parse_record((GOLDEN / "record_classic.umtali").read_text(encoding="utf-8"))
    assert data.match is MatchKind.SESSION
    assert [p.kind for p in data.players] == [PlayerKind.HUMAN, PlayerKind.BOT]
    assert data.players[1].is_bot and not data.players[0].is_bot
    assert PlayerInfo("bot", "B", "easy").kind is PlayerKind.BOT  # the word is taken too
    line = (GOLDEN / "profile_family.jsonl").read_text(encoding="utf-8")
    entry = GameEntry.from_json(line)
    assert entry.mode is GameMode.BOT and entry.kinds == (PlayerKind.HUMAN, PlayerKind.BOT)
    for bad in ('"mode": "robot"', '"kinds": ["human", "cat"]'):
        damaged = line.replace(
            '"mode": "bot"' if "mode" in bad else '"kinds": ["human", "bot"]', bad
        )
        assert damaged != line
        with pytest.raises(ValueError):
            GameEntry.from_json(damaged)
