"""Where benchmark jobs run: the same results on one process, on several, and on Ray."""

from __future__ import annotations

import socket
import sys

import pytest

from umtali.lab.benches.soak import bench_soak
from umtali.lab.tournament import MatchResult, play_match
from umtali.lab.workers import ClusterError, run_jobs


def _square(x: int) -> int:
    return x * x


def _plain(results: list[MatchResult]) -> list[tuple[object, ...]]:
    """A match's result without its decision times (the one thing that may differ)."""
    return [(r.index, r.points, r.hands, r.games_won) for r in results]


def test_local_jobs_come_back_in_the_order_they_were_given() -> None:
    ticks: list[None] = []
    jobs = [(n,) for n in range(7, 0, -1)]
    assert run_jobs(_square, jobs, 1, done=lambda _: ticks.append(None)) == [
        n * n for n in range(7, 0, -1)
    ]
    assert run_jobs(_square, jobs, 2) == [n * n for n in range(7, 0, -1)]
    assert len(ticks) == 7


def test_without_ray_the_cluster_option_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(ClusterError, match=r"umtali\[cluster\]"):
        run_jobs(_square, [(1,)], 1, ray="")


def test_the_bench_command_reports_a_missing_ray_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from umtali.lab.bench import main

    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["bots", "--a", "normal", "--b", "easy", "--matches", "1", "--ray"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "umtali[cluster]" in err and "Traceback" not in err


@pytest.mark.slow
def test_a_small_tournament_and_soak_give_the_same_results_on_ray_and_locally() -> None:
    pytest.importorskip("ray")
    jobs = [("normal", "easy", i, 1, "classic") for i in range(3)]
    jobs += [("normal", "easy", i, 1, "family") for i in range(2)]
    here = run_jobs(play_match, jobs, 1)
    spread = run_jobs(play_match, jobs, 2)
    ticks: list[None] = []
    clustered = run_jobs(play_match, jobs, 2, ray="", done=lambda _: ticks.append(None))
    assert _plain(here) == _plain(spread) == _plain(clustered)
    assert len(ticks) == len(jobs)
    soaked_here = bench_soak(40, 3, 1, ("classic", "rummy"))
    soaked_ray = bench_soak(40, 3, 2, ("classic", "rummy"), ray="")
    for key in ("hands", "actions", "violations", "hands_by_variant"):
        assert soaked_here[key] == soaked_ray[key]


def test_an_address_where_no_cluster_answers_is_refused_at_once() -> None:
    pytest.importorskip("ray")
    with socket.socket() as probe:
        # Bound and not listening: nothing answers there, and no other test (another
        # worker's host, say) can take the port while this one asks.
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        with pytest.raises(ClusterError, match="no Ray cluster answers"):
            run_jobs(_square, [(1,)], 1, ray=f"127.0.0.1:{port}")
