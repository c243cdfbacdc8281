"""The ladder: a Bradley-Terry fit of a round robin, and the bench that runs it."""

from __future__ import annotations

import random

import pytest

from umtali.lab.bench import bench_ladder, ladder_text
from umtali.lab.ladder import fit, intervals, pairs


def test_the_fit_recovers_strengths_it_is_given() -> None:
    """Matches drawn from known Elo gaps are fitted back to about those gaps."""
    truth = {"easy": -300.0, "normal": 0.0, "hard": 150.0}
    rng = random.Random(5)
    scores = {}
    for a, b in pairs(list(truth)):
        p = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
        scores[(a, b)] = [1.0 if rng.random() < p else 0.0 for _ in range(3000)]
    fitted = fit(list(truth), scores)
    assert fitted["normal"] == 0
    for level, rating in truth.items():
        assert abs(fitted[level] - rating) < 30, (level, fitted)


def test_a_level_that_wins_everything_still_gets_a_finite_rating() -> None:
    scores = {("easy", "hard"): [0.0] * 20, ("easy", "normal"): [0.0] * 20}
    fitted = fit(["easy", "normal", "hard"], scores)
    assert all(abs(v) < 2000 for v in fitted.values()) and fitted["easy"] < -300


def test_intervals_hold_the_rating_and_the_anchor_has_none() -> None:
    scores = {("easy", "normal"): [0.0, 0.0, 1.0, 0.0, 0.5, 0.0]}
    rated = fit(["easy", "normal"], scores)
    spread = intervals(["easy", "normal"], scores, random.Random(1))
    low, high = spread["easy"]
    assert low <= rated["easy"] <= high and low < high
    assert spread["normal"] == (0.0, 0.0)


def test_pairs_are_each_pair_once() -> None:
    assert pairs(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]


@pytest.mark.slow
def test_a_small_ladder_gives_the_same_results_however_the_work_is_split() -> None:
    first = bench_ladder(["easy", "normal"], 2, 1, 1)
    again = bench_ladder(["easy", "normal"], 2, 2, 1)
    assert first["ratings"] == again["ratings"]
    for name, pair in first["pairs"].items():
        other = again["pairs"][name]
        for key in ("a_game_win_rate", "a_match_win_rate", "margin_per_hand", "hands"):
            assert pair[key] == other[key]
    text = ladder_text(first)
    assert "| easy v normal | 4 |" in text and "| normal | +0 | (the anchor) |" in text
