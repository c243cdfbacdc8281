"""The ladder: a Bradley-Terry fit of a round robin, and the bench that runs it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from umtali.lab import bench
from umtali.lab.benches.ladder import bench_ladder, ladder_text
from umtali.lab.ladder import fit, intervals, ladder_from_records, pairs
from umtali.lab.match_record import RecordError, RunKey, append, open_record
from umtali.lab.tournament import MatchResult


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


def _record(
    path: Path, a: str, b: str, wins: list[tuple[int, int]], variant: str = "classic"
) -> Path:
    """A ``bench bots`` record of made-up matches: ``wins`` are each match's games won."""
    key = RunKey(a, b, variant, 7, "0" * 16)
    open_record(path, key)
    for i, won in enumerate(wins):
        append(path, MatchResult(i, (100 + 10 * won[0], 100 + 10 * won[1]), 8, won, ([0.1], [0.1])))
    return path


def test_the_ladder_fits_runs_already_played(tmp_path: Path) -> None:
    """Records of bench bots runs are rated without a game played: each is a row, and
    the ratings are the fit of all their games at once."""
    one = _record(tmp_path / "a.jsonl", "normal", "easy", [(2, 0)] * 9 + [(1, 1)])
    two = _record(tmp_path / "b.jsonl", "hard", "normal", [(2, 0), (1, 1), (0, 2), (2, 0)])
    fitted = ladder_from_records([one, two])
    assert list(fitted["pairs"]) == ["normal v easy, bank 7", "hard v normal, bank 7"]
    assert fitted["pairs"]["hard v normal, bank 7"]["a_game_win_rate"] == 0.625
    scores = {("normal", "easy"): [1.0] * 9 + [0.5], ("hard", "normal"): [1.0, 0.5, 0.0, 1.0]}
    expected = fit(["normal", "easy", "hard"], scores)
    assert fitted["ratings"] == {x: round(r) for x, r in expected.items()}
    assert fitted["ratings"]["easy"] < 0 < fitted["ratings"]["hard"]
    assert "| normal v easy, bank 7 | 20 | 95% " in ladder_text(fitted)


def test_the_ladder_refuses_records_it_cannot_rate(tmp_path: Path) -> None:
    one = _record(tmp_path / "a.jsonl", "normal", "easy", [(2, 0)])
    apart = _record(tmp_path / "b.jsonl", "hard", "expert", [(1, 1)])
    family = _record(tmp_path / "c.jsonl", "hard", "normal", [(1, 1)], variant="family")
    empty = _record(tmp_path / "d.jsonl", "hard", "normal", [])
    with pytest.raises(RecordError, match="no record links hard, expert to normal"):
        ladder_from_records([one, apart])
    with pytest.raises(RecordError, match="different rules"):
        ladder_from_records([one, family])
    with pytest.raises(RecordError, match="holds no finished match"):
        ladder_from_records([one, empty])
    with pytest.raises(RecordError, match="given twice"):
        ladder_from_records([one, one])
    turned = _record(tmp_path / "e.jsonl", "easy", "normal", [(0, 2)])
    with pytest.raises(RecordError, match="given twice"):
        ladder_from_records([one, turned])  # the same deals, the seats named the other way
    itself = _record(tmp_path / "f.jsonl", "hard", "hard", [(1, 1)])
    with pytest.raises(RecordError, match="against itself"):
        ladder_from_records([one, itself])
    with pytest.raises(RecordError, match="there is no record"):
        ladder_from_records([tmp_path / "none.jsonl"])
    assert not (tmp_path / "none.jsonl").exists()


def test_the_ladder_command_reads_records_and_answers_a_bad_one_in_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _record(tmp_path / "a.jsonl", "normal", "easy", [(2, 0), (1, 1)])
    assert bench.main(["ladder", "--records", str(one)]) == 0
    out = capsys.readouterr().out
    assert "| normal v easy, bank 7 | 4 |" in out and "| normal | +0 | (the anchor) |" in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a record\n")
    assert bench.main(["ladder", "--records", str(one), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not an umtali match record" in err
    # A folder, or a match no game could end in, is one line too, never a traceback.
    assert bench.main(["ladder", "--records", str(one), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read the record" in err
    odd = _record(tmp_path / "odd.jsonl", "hard", "normal", [(3, 0)])
    assert bench.main(["ladder", "--records", str(one), str(odd)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2: not a match result" in err
    # Options that only a played ladder reads are refused beside --records.
    with pytest.raises(SystemExit):
        bench.main(["ladder", "--records", str(one), "--matches", "5"])
    assert "--matches cannot go with it" in capsys.readouterr().err
