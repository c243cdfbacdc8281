"""The benchmark commands run and report their figures (the figures are not judged here)."""

from __future__ import annotations

import json

import pytest

from umtali.lab import bench, compare
from umtali.lab.benches import engine, soak

pytestmark = pytest.mark.slow  # long playouts / real terminals: CI runs them


def last_json(out: str) -> dict[str, object]:
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_bench_engine_reports_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["engine", "--hands", "50"]) == 0
    figures = last_json(capsys.readouterr().out)
    for key in ("hands_per_s", "actions_per_s", "legal_moves_us", "apply_us", "clone_us"):
        assert isinstance(figures[key], float) and figures[key] > 0


@pytest.mark.parametrize("variant", ["family", "practical", "rummy"])
def test_bench_engine_times_each_variant(capsys: pytest.CaptureFixture[str], variant: str) -> None:
    assert bench.main(["engine", "--hands", "20", "--variant", variant]) == 0
    figures = last_json(capsys.readouterr().out)
    assert figures["variant"] == variant and figures["hands"] == 20


def test_a_sample_of_the_soak_finds_no_violation() -> None:
    result = soak.bench_soak(hands=40, seed=7, workers=1)
    assert result["hands"] == 40 and result["violations"] == 0
    assert isinstance(result["actions"], int) and result["actions"] > 400


@pytest.mark.parametrize("variant", ["family", "practical", "rummy"])
def test_the_soak_runs_every_variant(variant: str) -> None:
    result = soak.bench_soak(hands=12, seed=3, workers=1, variants=(variant,))
    assert result["violations"] == 0 and result["hands_by_variant"] == {variant: 12}


def test_the_soak_takes_the_variants_in_turn() -> None:
    plan = soak.soak_plan(4 * soak.SOAK_CHUNK + 10, 1, soak.VARIANTS)
    assert [v for _, _, v in plan] == [*soak.VARIANTS, "classic"]
    assert sum(n for _, n, _ in plan) == 4 * soak.SOAK_CHUNK + 10


def test_compare_explains_how_to_get_the_other_engines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if compare.available() is None:
        pytest.skip("OpenSpiel and RLCard are installed here")
    assert bench.main(["engine", "--compare", "--hands", "10"]) == 2
    assert "pip install 'umtali[bench]'" in capsys.readouterr().err


def test_compare_takes_the_engines_in_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    # Stand-ins for the optional engines: record the order of the slices and
    # report fixed rates (100 hands and 10,000 actions a second).
    order: list[str] = []

    def stand_in(name: str) -> object:
        def play(seconds: float, seed: int) -> tuple[int, int, float]:
            order.append(name)
            return round(100 * seconds), round(10_000 * seconds), seconds

        return play

    monkeypatch.setattr(compare, "openspiel_gin", stand_in("openspiel"))
    monkeypatch.setattr(compare, "rlcard_gin", stand_in("rlcard"))
    real = engine.random_for

    def umtali(seconds: float, seed: int) -> tuple[int, int, float]:
        order.append("umtali")
        return real(seconds, seed)

    monkeypatch.setattr(engine, "random_for", umtali)
    figures = engine.bench_compare(0.3, seed=5, rounds=3)
    assert order == ["umtali", "openspiel", "rlcard"] * 3
    assert figures["rlcard_gin_hands_per_s"] == 100.0
    assert figures["openspiel_gin_actions_per_s"] == 10_000.0
    hands = figures["umtali_hands_per_s"]
    assert isinstance(hands, float) and hands > 0
    ratio = figures["hands_ratio_vs_rlcard"]
    assert isinstance(ratio, float) and abs(ratio - hands / 100) <= 0.06  # both rounded
    low, high = figures["hands_ratio_vs_rlcard_rounds"]  # type: ignore[misc]
    assert low <= figures["hands_ratio_vs_rlcard"] <= high


@pytest.mark.parametrize("variant", ["classic", "family", "practical", "rummy"])
def test_bench_bots_reports_a_duplicate_match(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    args = ["bots", "--a", "normal", "--b", "easy", "--matches", "2", "--workers", "1"]
    assert bench.main([*args, "--variant", variant]) == 0
    out = capsys.readouterr().out
    result = last_json(out)
    assert result["matches"] == 2 and result["games"] == 4 and result["bank_version"] == 1
    assert result["variant"] == variant
    assert set(result) >= {"a_game_win_rate", "game_wilson95", "a_match_win_rate", "wilson95"}
    assert set(result) >= {"margin_per_hand", "a_latency_ms", "b_latency_ms"}
    assert f"normal vs easy ({variant}): normal won " in out


def test_bench_refuses_nonsense_arguments() -> None:
    with pytest.raises(SystemExit):
        bench.main(["engine", "--hands", "0"])
    with pytest.raises(SystemExit):
        bench.main(["bots", "--matches", "0"])


def test_bench_fuzz_reports_lines_crashes_and_hangs(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["fuzz", "--games", "2", "--workers", "1", "--per-prompt", "1"]) == 0
    figures = last_json(capsys.readouterr().out)
    assert figures["games"] == 2 and isinstance(figures["lines"], int) and figures["lines"] > 20
    assert figures["crashes"] == [] and figures["hangs"] == 0 and figures["escapes"] == 0


def test_bench_coach_reports_its_cost(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["coach", "--games", "1"]) == 0
    out = capsys.readouterr().out
    figures = json.loads(out.splitlines()[-1])
    assert figures["benchmark"] == "coach" and figures["hands"] >= 1
    assert figures["decisions"] > 0 and figures["seconds_per_hand"] > 0
