"""``umtali bench club`` runs end to end at a tiny size, so it cannot rot; its
figures are not judged here (speed is the bench's to report), only that every move
the club said it stored is there, and that members played at all."""

from __future__ import annotations

import json

import pytest

from umtali.lab import bench
from umtali.lab.benches import _postgres

TINY = ["--members", "6", "--games", "8", "--most", "20", "--connected", "4",
        "--rate", "40", "--seconds", "1"]  # fmt: skip


def _figures(out: str) -> dict[str, object]:
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_bench_club_on_sqlite_plays_and_loses_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["club", *TINY]) == 0
    out = capsys.readouterr().out
    assert "club on SQLite" in out and "moves lost" in out
    figures = _figures(out)
    assert figures["lost"] == 0 and figures["refused"] == 0
    assert isinstance(figures["moves"], int) and figures["moves"] > 0
    assert figures["processes"] == 1 and "seen_ms" not in figures


@pytest.mark.slow  # starts a PostgreSQL server
def test_bench_club_on_postgres_in_two_processes_sees_across(
    capsys: pytest.CaptureFixture[str],
) -> None:
    try:
        _postgres.installed()
    except _postgres.Unavailable as err:
        pytest.skip(str(err))
    assert bench.main(["club", *TINY, "--postgres", "--processes", "2"]) == 0
    figures = _figures(capsys.readouterr().out)
    assert figures["lost"] == 0 and figures["processes"] == 2
    assert isinstance(figures["moves"], int) and figures["moves"] > 0
    assert "seen_ms" in figures


def test_bench_club_refuses_two_processes_on_one_sqlite_file() -> None:
    with pytest.raises(SystemExit) as done:
        bench.main(["club", "--processes", "2"])
    assert done.value.code == 2


@pytest.mark.slow  # three processes or four, real SSH servers and their clients
@pytest.mark.parametrize(
    ("where", "engine", "processes"),
    [([], "SQLite", 1), (["--postgres", "--processes", "2"], "PostgreSQL", 2)],
)
def test_bench_club_over_ssh_plays_through_the_club_server(
    capsys: pytest.CaptureFixture[str], where: list[str], engine: str, processes: int
) -> None:
    pytest.importorskip("asyncssh")
    pytest.importorskip("pyte")
    if where:
        try:
            _postgres.installed()
        except _postgres.Unavailable as err:
            pytest.skip(str(err))
    assert bench.main(["club", *TINY, "--ssh", *where]) == 0
    out = capsys.readouterr().out
    assert f"club over SSH on {engine}" in out
    figures = _figures(out)
    assert figures["lost"] == 0 and figures["logged_in"] == 4
    assert figures["processes"] == processes
    assert isinstance(figures["moves"], int) and figures["moves"] > 0
    # The server's own probe timed moves, and games were opened from the lobby.
    move_ms = figures["move_ms"]
    assert isinstance(move_ms, dict) and move_ms["n"] > 0
    assert isinstance(figures["opened"], int) and figures["opened"] > 0


def test_probe_tells_what_an_enter_was_for() -> None:
    pytest.importorskip("asyncssh")
    from umtali.lab.benches._club_server import kind_of

    assert [kind_of(line) for line in ("12", " lobby", "d", "", "Q")] == [
        "open", "lobby", "move", "move", "lobby",
    ]  # fmt: skip
