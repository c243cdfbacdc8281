"""A long duplicate-match run kept on disk: stopped, and gone on with the same figures."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from umtali.bots.normal import NormalBot
from umtali.bots.seat import Decision, GameInfo
from umtali.engine.actions import Action
from umtali.engine.events import Event
from umtali.engine.view import PlayerView
from umtali.lab import bench
from umtali.lab.match_record import RecordError, RunKey, append, open_record
from umtali.lab.tournament import decision_print, play_match, summarise

RUN = ["bots", "--a", "normal", "--b", "easy", "--workers", "1"]
SAME = (
    "a_game_win_rate",
    "game_wilson95",
    "a_games_won",
    "b_games_won",
    "games_undecided",
    "hands",
    "margin_per_hand",
    "a_match_win_rate",
    "wilson95",
)


def _last_json(out: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return loaded


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object], str]:
    code = bench.main([*RUN, *args])
    out, err = capsys.readouterr()
    return code, (_last_json(out) if code == 0 else {}), err


def test_a_run_stopped_and_gone_on_gives_the_figures_of_one_unbroken_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "run.jsonl"
    _, whole, _ = _run(capsys, "--matches", "4")
    _, first, _ = _run(capsys, "--matches", "2", "--record", str(record))
    assert first["matches"] == 2 and first["resumed"] == 0
    code, rest, _ = _run(capsys, "--matches", "4", "--record", str(record))
    assert code == 0 and rest["resumed"] == 2 and rest["matches"] == 4
    assert {k: rest[k] for k in SAME} == {k: whole[k] for k in SAME}
    lines = record.read_text().splitlines()
    assert len(lines) == 5  # the run's line, then the four matches
    assert sorted(json.loads(line)["index"] for line in lines[1:]) == [0, 1, 2, 3]
    # A finished run asked again plays nothing and says the same.
    _, again, _ = _run(capsys, "--matches", "4", "--record", str(record))
    assert again["resumed"] == 4 and {k: again[k] for k in SAME} == {k: whole[k] for k in SAME}
    assert len(record.read_text().splitlines()) == 5


def test_a_record_of_another_run_is_refused_in_one_line_and_left_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "run.jsonl"
    _run(capsys, "--matches", "1", "--record", str(record))
    before = record.read_text()
    code, _, err = _run(capsys, "--matches", "1", "--record", str(record), "--variant", "rummy")
    assert code == 2 and record.read_text() == before
    assert err.count("\n") == 1 and "records another run" in err and "variant" in err
    assert "Traceback" not in err


def test_a_record_whose_bots_now_play_differently_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = RunKey("normal", "easy", "classic", 1, decision_print("normal", "easy"))
    record = tmp_path / "run.jsonl"
    open_record(record, key)

    def contrary(self: NormalBot, view: PlayerView, info: GameInfo) -> Decision:
        return Decision(list(view.legal)[-1], "the last legal action")

    monkeypatch.setattr(NormalBot, "choose", contrary)
    changed = RunKey("normal", "easy", "classic", 1, decision_print("normal", "easy"))
    assert changed.fingerprint != key.fingerprint
    with pytest.raises(RecordError, match="fingerprint"):
        open_record(record, changed)


def test_the_fingerprint_hashes_the_moves_played_not_the_words_for_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = decision_print("normal", "easy")
    # Other words for every event (as narration or a new notation might give): the
    # same moves, so the same fingerprint.
    monkeypatch.setattr(Event, "__str__", lambda self: f"{self.kind.value}!")
    monkeypatch.setattr(Action, "__str__", lambda self: "?")
    assert decision_print("normal", "easy") == before
    assert decision_print("easy", "normal") != before  # other moves: another fingerprint


def test_a_record_written_before_games_won_led_still_gives_the_games_figures(
    tmp_path: Path,
) -> None:
    # A line as records have always held it: the games each side won, from which the
    # games left level follow (a match is two games), so nothing new need be stored.
    key = RunKey("normal", "easy", "classic", 1, "f" * 16)
    record = tmp_path / "run.jsonl"
    open_record(record, key)
    with record.open("a") as out:
        out.write(
            '{"index": 0, "points": [55, 60], "hands": 16, "games_won": [0, 1], '
            '"latency": [[0.001], [0.002]]}\n'
        )
    kept = open_record(record, key)
    figures = summarise("normal", "easy", list(kept.values()), 1)
    assert figures["games"] == 2 and figures["games_undecided"] == 1
    assert figures["a_game_win_rate"] == 0.25 and figures["a_match_win_rate"] == 0.0


def test_a_torn_last_line_is_dropped_and_its_match_played_again(tmp_path: Path) -> None:
    key = RunKey("normal", "easy", "classic", 1, "f" * 16)
    record = tmp_path / "run.jsonl"
    open_record(record, key)
    append(record, play_match("normal", "easy", 0))
    whole = record.read_text()
    with record.open("a") as out:
        out.write('{"index": 1, "points": [3')  # the run was killed mid-write
    found = open_record(record, key)
    assert list(found) == [0] and record.read_text() == whole


@pytest.mark.parametrize(
    "damage",
    [
        "not json at all\n",
        '{"index": 1, "points": [1, 2], "hands": 0, "games_won": [0, 0], "latency": [[], []]}\n',
        '{"index": 1, "points": ["1", 2], "hands": 4, "games_won": [0, 0], "latency": [[], []]}\n',
    ],
)
def test_a_damaged_record_is_refused_with_the_line_that_is_wrong(
    tmp_path: Path, damage: str
) -> None:
    key = RunKey("normal", "easy", "classic", 1, "f" * 16)
    record = tmp_path / "run.jsonl"
    open_record(record, key)
    with record.open("a") as out:
        out.write(damage)
    before = record.read_text()
    with pytest.raises(RecordError, match="line 2"):
        open_record(record, key)
    assert record.read_text() == before


def test_a_match_recorded_twice_or_a_strange_file_is_refused(tmp_path: Path) -> None:
    key = RunKey("normal", "easy", "classic", 1, "f" * 16)
    record = tmp_path / "run.jsonl"
    open_record(record, key)
    result = play_match("normal", "easy", 0)
    append(record, result)
    append(record, result)
    with pytest.raises(RecordError, match="twice"):
        open_record(record, key)
    with pytest.raises(RecordError, match="cannot read"):
        open_record(tmp_path, key)  # a folder
    blocked = tmp_path / "notes.txt" / "run.jsonl"
    stranger = tmp_path / "notes.txt"
    stranger.write_text("shopping list\n")
    with pytest.raises(RecordError, match="not an umtali match record"):
        open_record(stranger, key)
    with pytest.raises(RecordError, match="cannot start"):
        open_record(blocked, key)  # under a file, not a folder


def test_ctrl_c_stops_a_recorded_run_at_once_and_keeps_what_ended(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    args = [sys.executable, "-m", "umtali.cli.main", *["bench", *RUN[:-1]], "2"]
    args += ["--matches", "100000", "--record", str(record)]
    # Its own process group, as a terminal's foreground job: Ctrl-C reaches every process.
    run = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not record.exists() or len(record.read_text().splitlines()) < 4:
            assert time.monotonic() < deadline and run.poll() is None
            time.sleep(0.1)
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=30)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130
    assert "Traceback" not in err and "the same command goes on" in err
    key = RunKey("normal", "easy", "classic", 1, decision_print("normal", "easy"))
    kept = open_record(record, key)
    assert len(kept) >= 3
    for i in sorted(kept)[:3]:
        again = play_match("normal", "easy", i)
        assert (kept[i].points, kept[i].hands, kept[i].games_won) == (
            again.points,
            again.hands,
            again.games_won,
        )


def test_a_record_mangled_at_random_is_read_or_refused_never_crashes(tmp_path: Path) -> None:
    key = RunKey("normal", "easy", "classic", 1, "f" * 16)
    record = tmp_path / "run.jsonl"
    open_record(record, key)
    append(record, play_match("normal", "easy", 0))
    append(record, play_match("normal", "easy", 1))
    good = record.read_text()
    rng = random.Random(19)
    junk = ["[" * 5000, "NaN", "-1", "1e999", '"', "{}", "\x00", "\n", ",", "]"]
    for _ in range(300):
        text = list(good)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(text))
            if rng.random() < 0.5:
                text[at : at + rng.randint(1, 20)] = rng.choice(junk)
            else:
                del text[at:]
        record.write_text("".join(text))
        try:
            found = open_record(record, key)
        except RecordError as err:
            assert "\n" not in str(err)
        else:
            assert set(found) <= {0, 1}
