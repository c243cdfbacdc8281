"""The game-equity table: what the bots, the hint and the coach play for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from umtali.bots.equity import LEAD_LIMIT, equity_for, session_chance, valuer
from umtali.bots.seat import GameInfo
from umtali.engine.rules import CLASSIC, FAMILY, PRACTICAL, PRESETS, RUMMY
from umtali.lab.benches.equity import four_hand_table, race_table, smoothed


@pytest.mark.parametrize("rules", [CLASSIC, FAMILY, PRACTICAL])
def test_the_chance_rises_with_the_lead_and_is_the_other_side_of_the_opponents(rules) -> None:  # type: ignore[no-untyped-def]
    table = equity_for(rules)
    assert table is not None
    for finished in range(4):
        for i_deal in (True, False):
            chances = [table.before(lead, finished, i_deal) for lead in range(-60, 61)]
            assert chances == sorted(chances) and chances[0] < 0.2 < 0.8 < chances[-1]
            # Zero-sum: my chance at +10, dealing, is one less theirs at -10, not dealing.
            mine = table.before(10, finished, i_deal)
            assert mine + table.before(-10, finished, not i_deal) == pytest.approx(1, abs=2e-4)
    # Fewer hands left, a lead counts for more.
    assert table.before(10, 3, True) > table.before(10, 2, True) > table.before(10, 0, True)
    assert table.before(LEAD_LIMIT + 50, 0, True) == table.before(LEAD_LIMIT, 0, True)


def test_the_last_hand_is_won_by_whoever_is_ahead_at_its_end() -> None:
    table = equity_for(CLASSIC)
    assert table is not None
    value = table.after_hand(GameInfo(4, 4, (100, 90), dealer=2), 1)
    assert (value(-9), value(-11)) == (1.0, 0.0)
    # Level at the end: play on, the same dealer dealing again.
    assert value(-10) == table.level[1] and 0 < value(-10) < 1
    # A play-on hand (the fifth) is the same.
    assert table.after_hand(GameInfo(5, 4, (120, 120), dealer=1), 2)(3) == 1.0


def test_a_level_hand_before_the_last_counts_who_deals_next() -> None:
    table = equity_for(CLASSIC)
    assert table is not None
    mine = table.after_hand(GameInfo(2, 4, (30, 30), dealer=1), 1)
    theirs = table.after_hand(GameInfo(2, 4, (30, 30), dealer=2), 1)
    unknown = table.after_hand(GameInfo(2, 4, (30, 30)), 1)
    assert mine(0) > theirs(0) and unknown(0) == pytest.approx((mine(0) + theirs(0)) / 2)
    # A won hand passes the deal to its winner, whoever dealt it.
    assert mine(5) == theirs(5)


def test_rummys_race_is_won_at_the_target() -> None:
    table = equity_for(RUMMY)
    assert table is not None
    assert table.race(150, 149, True) == 1.0 and table.race(120, 160, True) == 0.0
    assert table.race(100, 50, True) > table.race(50, 50, True) > table.race(50, 100, True)
    assert table.race(40, 70, True) + table.race(70, 40, False) == pytest.approx(1, abs=2e-4)
    value = table.after_hand(GameInfo(3, 0, (140, 100), dealer=1), 2)
    assert value(50) == 1.0 and value(-10) == 0.0  # seat 2 goes out for 50; seat 1 for 10


def test_rules_with_no_table_play_for_points() -> None:
    from dataclasses import replace

    short = replace(CLASSIC, hands_per_game=2)
    assert equity_for(short) is None and valuer(short, GameInfo(), 1)(7) == 7.0
    assert all(equity_for(rules) is not None for rules in PRESETS.values())


def test_the_session_rises_with_the_game() -> None:
    assert session_chance(0.5, (0, 0)) == 0.5
    assert session_chance(1.0, (1, 0)) == 1.0 and session_chance(0.0, (0, 1)) == 0.0
    assert session_chance(0.7, (1, 1)) == 0.7
    assert session_chance(0.6, (0, 0)) > session_chance(0.5, (0, 0))


def test_a_symmetric_hand_makes_a_level_game_a_toss_up() -> None:
    """The fitting: with no first-mover edge the chance at a level start is a half, and
    a lead of one hand's worth with one hand left wins most games."""
    low, probs = smoothed([-12, -7, -3, 0, 3, 7, 12, -5, 5, -1, 1])
    assert sum(probs) == pytest.approx(1) and probs == pytest.approx(probs[::-1]) and low < -12
    made = four_hand_table(CLASSIC, low, probs)
    before = made["before"]
    assert isinstance(before, list)
    assert before[0][0][LEAD_LIMIT] == pytest.approx(0.5, abs=1e-3)
    assert before[3][0][LEAD_LIMIT + 10] > 0.75
    race = race_table(RUMMY, low, probs)["race"]
    assert isinstance(race, list)
    assert race[0][0] == pytest.approx(0.5, abs=1e-3) and race[140][0] > 0.9


def test_bench_equity_writes_a_new_file_and_never_over_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from umtali.lab import bench

    out = tmp_path / "eq.json"
    args = ["equity", "--variant", "classic", "--level", "easy", "--hands", "40"]
    assert bench.main([*args, "--out", str(out)]) == 0
    made = json.loads(out.read_text())
    assert made["variants"]["classic"]["hands"] == 40 and made["format"] == 1
    out.write_text("mine\n")
    assert bench.main([*args, "--out", str(out)]) == 1
    assert out.read_text() == "mine\n" and "is there already" in capsys.readouterr().err
