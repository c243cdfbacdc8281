"""``umtali bench search``: what the expert's moves give up to the luck of its deals."""

from __future__ import annotations

import pytest

import umtali
from umtali.bots.analysis import analyse, budget_for, worlds_for
from umtali.bots.arena import Driver
from umtali.bots.hard import HardBot
from umtali.bots.seat import GameInfo
from umtali.lab.bench import main
from umtali.lab.benches import search as search_noise


def _searched(count: int) -> list[search_noise.Position]:
    """The first positions the expert searched in a hand against hard.  The hand stops
    once they are found: the rest of it, the expert searching on, changes none of them."""
    expert = search_noise._Gatherer()
    hand, driver, info = umtali.deal_hand(seed=11), Driver([expert, HardBot(3)]), GameInfo()
    while len(expert.found) < count and not hand.is_over:
        driver.step(hand, info)
    assert len(expert.found) >= count
    return expert.found[:count]


def test_each_budget_is_measured_against_the_yardstick_in_the_units_of_the_game() -> None:
    """A budget's figures are the mean of what each of its choices (one a salt) gives up
    against the yardstick's move, by the yardstick's own deals."""
    found = _searched(2)
    table = search_noise.given_up(found, [0.5], 2, reference=2)["0.5"]
    chance = points = same = 0.0
    for position in found:
        view, info = position.view, position.info
        level, deals = budget_for(view), worlds_for(view)
        yardstick = analyse(
            view,
            info,
            budget=2 * level,
            salt=search_noise.REFERENCE_SALT,
            race=False,
            max_worlds=2 * deals,
        )
        for salt in (1, 2):
            choice = analyse(
                view, info, budget=round(level / 2), salt=salt, max_worlds=round(deals / 2)
            ).choice
            given = yardstick.cost(choice)
            chance, points, same = (
                chance + given[0],
                points + given[1],
                same + (choice == yardstick.choice),
            )
    assert table["chance_given_up_pct"] == round(100 * chance / 4, 3)
    assert table["points_given_up"] == round(points / 4, 3)
    assert table["same_move"] == round(same / 4, 3)


def test_the_command_refuses_what_it_cannot_measure(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["search", "--budgets", "0"])
    assert "every budget above 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["search", "--budgets", "1", "8", "--reference", "10"])
    assert "twice the largest budget" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["search", "--budgets", "1", "8", "--reference", "10"])
    assert "twice the largest budget" in capsys.readouterr().err


def test_the_yardstick_plays_every_candidate_in_every_deal() -> None:
    """Without the race every line has all the deals; with it, some are dropped early."""
    position = _searched(1)[0]
    still = analyse(position.view, position.info, race=False, max_worlds=48)
    assert {len(line.values) for line in still.lines} == {still.deals}
    assert 8 <= still.deals <= 48
