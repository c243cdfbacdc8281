"""What a run of duplicate matches reports: the share of games won leads.

A game of Umtali is won on its totals, a session on games, so the benchmark
leads with games won; the points margin and the match score stand beside it.
These tests build the matches' results by hand (nothing is played or timed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import pytest

from umtali.lab import bench, workers
from umtali.lab.benches.ladder import bench_ladder, ladder_text
from umtali.lab.tournament import (
    GAMES_PER_MATCH,
    MatchResult,
    headline,
    summarise,
    wilson,
)


def _match(index: int, points: tuple[int, int], games_won: tuple[int, int]) -> MatchResult:
    return MatchResult(index, points, hands=8, games_won=games_won, latency=([0.001], [0.002]))


#: A won on points twice but took only three of the eight games; one game was left
#: level at the cap on hands, so counts a half.
MIXED = [
    _match(0, (50, 40), (2, 0)),  # A both games: match won
    _match(1, (45, 30), (1, 1)),  # one each, A ahead on points: match won
    _match(2, (40, 41), (0, 1)),  # B one, the other level: match lost
    _match(3, (10, 70), (0, 2)),  # B both: match lost
]


def test_summarise_counts_games_won_and_a_level_game_as_a_half() -> None:
    s = summarise("normal", "easy", MIXED, 1)
    assert s["matches"] == 4 and s["games"] == 4 * GAMES_PER_MATCH == 8
    assert (s["a_games_won"], s["b_games_won"], s["games_undecided"]) == (3, 4, 1)
    assert s["a_game_win_rate"] == (3 + 0.5) / 8
    # The match score, beside it under its old name, is another figure.
    assert s["a_match_win_rate"] == 0.5


@pytest.mark.parametrize(
    ("games_won", "share"),
    [((2, 0), 1.0), ((1, 1), 0.5), ((0, 2), 0.0), ((1, 0), 0.75), ((0, 1), 0.25), ((0, 0), 0.5)],
)
def test_a_match_scores_its_games_a_level_one_a_half(
    games_won: tuple[int, int], share: float
) -> None:
    result = _match(0, (30, 30), games_won)
    assert result.undecided == 2 - sum(games_won)
    assert result.game_share == share
    assert summarise("a", "b", [result], 1)["a_game_win_rate"] == share


def test_the_games_interval_is_wilsons_on_every_game() -> None:
    # 100 matches: 30 won twice, 60 split, 10 lost twice: 120 of 200 games.
    results = [_match(i, (1, 0), (2, 0)) for i in range(30)]
    results += [_match(30 + i, (1, 0), (1, 1)) for i in range(60)]
    results += [_match(90 + i, (0, 1), (0, 2)) for i in range(10)]
    s = summarise("hard", "normal", results, 1)
    assert s["a_game_win_rate"] == 0.6
    low, high = cast("list[float]", s["game_wilson95"])
    assert (low, high) == pytest.approx((0.5308, 0.6654), abs=1e-4)
    assert [low, high] == [round(x, 4) for x in wilson(120, 200)]
    # Every game counts: narrower than the interval of the 100 matches (90 won).
    match_low, match_high = cast("list[float]", s["wilson95"])
    assert s["a_match_win_rate"] == 0.9 and match_high - match_low < 0.13


def test_a_level_game_enters_the_interval_as_a_half() -> None:
    s = summarise("a", "b", [_match(0, (20, 20), (1, 0))], 1)
    assert s["game_wilson95"] == [round(x, 4) for x in wilson(1.5, 2)]


def test_the_line_leads_with_games_won_then_the_margin_and_the_matches() -> None:
    line = headline(summarise("normal", "easy", MIXED, 1))
    assert line.startswith("normal vs easy: normal won 43.8% of 8 games (")
    assert "3–4 and 1 level at the cap on hands (a half each)" in line
    assert line.index("games") < line.index("points a hand") < line.index("matches 50.0%")


def test_the_line_names_no_level_game_where_there_was_none() -> None:
    line = headline(summarise("hard", "normal", MIXED[:2], 1))
    assert line.startswith("hard vs normal: hard won 75.0% of 4 games")
    assert "3–1;" in line and "level" not in line


def _canned(results: Sequence[MatchResult]) -> Callable[..., list[MatchResult]]:
    """A stand-in for run_jobs that plays nothing: match ``i`` is ``results[i]``."""

    def run_jobs(
        fn: object,
        jobs: Sequence[tuple[Any, ...]],
        count: int = 1,
        ray: str | None = None,
        done: Callable[[MatchResult], None] | None = None,
    ) -> list[MatchResult]:
        out = [results[job[2] % len(results)] for job in jobs]
        for result in out:
            if done is not None:
                done(result)
        return out

    return run_jobs


def test_bench_bots_prints_games_won_first(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "run_jobs", _canned(MIXED))
    args = ["bots", "--a", "normal", "--b", "easy", "--matches", "4", "--workers", "1"]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    # The progress bar's line comes first; then the figures, games won leading.
    line = next(x for x in out.splitlines() if x.startswith("normal vs easy (classic):"))
    assert line.startswith("normal vs easy (classic): normal won 43.8% of 8 games")
    assert "a half each" in line
    assert out.splitlines()[-1].startswith('{"benchmark": "bots"')


def test_the_ladder_rates_and_leads_with_games_won(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hard wins every match on points but only one game of each two: by games the two
    # are level, so their ratings are (where matches would have put hard far above).
    split = [_match(i, (40, 30), (1, 1)) for i in range(10)]
    monkeypatch.setattr(workers, "run_jobs", _canned(split))
    ladder = bench_ladder(["hard", "normal"], 10, 1, 1)
    assert ladder["ratings"] == {"hard": 0, "normal": 0}
    pair = ladder["pairs"]["hard v normal"]
    assert pair["a_game_win_rate"] == 0.5 and pair["a_match_win_rate"] == 1.0
    header, _, row = ladder_text(ladder).splitlines()[:3]
    assert header.index("games") < header.index("first won") < header.index("matches won")
    assert row.startswith("| hard v normal | 20 | 50% (")
    assert row.endswith("| +1.2 | 100% (72–100%) |")
