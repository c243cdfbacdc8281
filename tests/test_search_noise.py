"""``umtali bench search``: what the expert's moves give up to the luck of its deals."""

from __future__ import annotations

import pytest

import umtali
from umtali.bots.arena import play_hand
from umtali.bots.hard import HardBot
from umtali.bots.seat import GameInfo
from umtali.lab import search_noise
from umtali.lab.bench import main


def _searched(count: int) -> list[search_noise.Position]:
    """The first positions the expert searched in a hand against hard."""
    expert = search_noise._Gatherer()
    play_hand(umtali.deal_hand(seed=11), [expert, HardBot(3)], GameInfo())
    assert len(expert.found) >= count
    return expert.found[:count]


def test_a_choice_never_gives_up_less_than_nothing_and_the_figures_agree() -> None:
    """The yardstick plays every candidate in every deal, so its best is at least as good
    as any choice by its own figures: nothing given up is ever below zero, and a budget
    that always chose the yardstick's move would give up exactly nothing."""
    found = _searched(3)
    table = search_noise.given_up(found, [0.25, 1.0], 2, reference=2)
    for row in table.values():
        assert row["chance_given_up_pct"] >= 0
        assert 0 <= row["same_move"] <= 1
        if row["same_move"] == 1:
            assert row["chance_given_up_pct"] == 0 and row["points_given_up"] == 0


def test_the_command_refuses_what_it_cannot_measure(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["search", "--budgets", "0"])
    assert "every budget above 0" in capsys.readouterr().err


def test_the_yardstick_plays_every_candidate_in_every_deal() -> None:
    """Without the race every line has all the deals; with it, some are dropped early."""
    position = _searched(1)[0]
    still = search_noise.analyse(position.view, position.info, race=False, max_worlds=48)
    assert {len(line.values) for line in still.lines} == {still.deals}
    assert 8 <= still.deals <= 48
