"""``umtali bench reading``: the log-loss of the search's deals against the hidden hands."""

from __future__ import annotations

import random

import pytest

from umtali.bots.knowledge import Knowledge
from umtali.engine.view import PlayerView
from umtali.lab.bench import main
from umtali.lab.benches import reading as reading_bench


def test_a_drawer_that_knows_the_hand_scores_near_nothing_and_a_wrong_one_worst() -> None:
    """The figure rewards putting the cards where they are: told the hand, the loss is
    near 0; drawing only from the cards they do not hold, it is far worse than chance;
    the expert's reading beats the rules alone, by a little."""
    seen = reading_bench.gather(2, version=5)
    assert len(seen) > 20
    where = {id(one.view): one.theirs for one in seen}

    def told(know: Knowledge, view: PlayerView, rng: random.Random) -> int:
        return where[id(view)]

    def wrong(know: Knowledge, view: PlayerView, rng: random.Random) -> int:
        theirs = where[id(view)]
        others = [i for i in range(52) if (know.unseen & ~theirs) >> i & 1]
        need = (theirs & ~know.opp_known).bit_count()
        return know.opp_known | sum(1 << i for i in rng.sample(others, min(need, len(others))))

    knowing = reading_bench.log_loss(seen, told, 60)
    plain = reading_bench.log_loss(seen, reading_bench.rules_only, 60)
    read = reading_bench.log_loss(seen, reading_bench.with_reading, 60)
    backwards = reading_bench.log_loss(seen, wrong, 60)
    assert knowing < 0.05 < read < plain < backwards
    assert plain - read < 0.05  # a reading, not a revelation


def test_the_command_refuses_nothing_to_measure(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["reading", "--hands", "0"])
    assert "at least 1" in capsys.readouterr().err
