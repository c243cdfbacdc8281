"""The review board: one analysis of both players' decisions, the graph, the points
threshold, ``--json``, the board's screen and keys, and the review's words."""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import time
from pathlib import Path

import pytest
from dealing import deal, run
from test_hostile import run_cli
from test_render import check_golden

import umtali
from umtali.bots import make_bot
from umtali.bots.coach import (
    COSTLY_POINTS,
    INACCURACY,
    Label,
    _score_context,
    label_for,
    listed,
    review_hand,
)
from umtali.bots.seat import GameInfo
from umtali.engine.progress import hand_infos
from umtali.engine.record import PlayerInfo, format_record
from umtali.review.analysis import GameAnalysis, analyse_match
from umtali.review.board_view import Shown, board_lines, graph_numbers
from umtali.review.export import analysis_json
from umtali.ui.graph import GUTTER, MARK, Plot, columns, render_graph
from umtali.ui.theme import Theme

ROOT = Path(__file__).resolve().parent.parent
ANN = "KS KH 2C 4D 6S 8H 10C 3D 5S 7H 9C"
BEN = "KC 3H 5C 7S 9D 2S 4H 6C 8D 10S"
PLAYERS = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (normal)", "normal"))


def one_hand_game() -> umtali.Game:
    """A game whose first hand is over (played by two bots) and whose second is dealt:
    a review covers the first hand only."""
    game = umtali.Game(seed=11)
    bots = [make_bot("easy", 1), make_bot("normal", 2)]
    hand = game.next_hand()
    while not hand.is_over:
        seat = hand.to_move
        assert seat is not None
        hand.play(bots[seat - 1].choose(hand.view(seat), GameInfo()).action)
    game.next_hand()
    return game


@functools.cache
def analysed() -> GameAnalysis:
    """The one-hand game analysed at a small budget (the graph and the screen, not the
    search, are under test); weighed once per worker, a frozen value."""
    return analyse_match(one_hand_game(), ("Ann", "Bot"), budget=600)


def record(tmp_path: Path) -> Path:
    path = tmp_path / "g.umtali"
    path.write_text(format_record(one_hand_game(), PLAYERS), encoding="utf-8")
    return path


# ------------------------------------------------------------------ the analysis


def test_the_analysis_has_both_players_decisions_in_order_numbered_across_the_record() -> None:
    analysis = analysed()
    decisions = analysis.decisions
    assert [d.number for d in decisions] == list(range(1, len(decisions) + 1))
    assert {d.seat for d in decisions} == {1, 2}
    assert [(d.hand, d.turn) for d in decisions] == sorted((d.hand, d.turn) for d in decisions)
    assert all(d.hand == 1 for d in decisions)  # the hand in play is secret
    assert [h.scores for h in analysis.hands] == [one_hand_game().results[0].scores]
    for d in decisions:
        assert d.view.player == d.seat and d.played in d.view.legal
        assert d.before is not None and d.after is not None and d.after <= d.before + 1e-9
    # One seat's review, read from it, is the coach's review of that seat.
    reviewed, numbers = analysis.reviewed(1)
    game = one_hand_game()
    alone = review_hand(game.hands[0], 1, 1, hand_infos(game)[0], budget=600)
    assert reviewed[0][1].costs == alone.costs
    assert [decisions[n - 1].verdict for n in numbers] == list(alone.verdicts)


# ------------------------------------------------------------------ the points line


@pytest.mark.parametrize(
    ("cost", "points", "label"),
    [
        (0.01, COSTLY_POINTS - 0.1, None),
        (0.01, COSTLY_POINTS, Label.INACCURACY),
        (0.0, 25.0, Label.INACCURACY),
        (0.08, COSTLY_POINTS + 5, Label.MISTAKE),  # the chance's label, where worse
        (0.2, 0.0, Label.BLUNDER),
    ],
)
def test_a_large_point_loss_is_flagged_whatever_the_chance(
    cost: float, points: float, label: Label | None
) -> None:
    assert label_for(cost, True, points) is label
    assert listed(cost, points, True) is (label is not None)


def test_the_points_line_does_not_apply_where_the_cost_is_in_points_already() -> None:
    assert label_for(0.01, False, 40.0) is None  # 1 point given up, by the hand's points
    assert not listed(0.01, 40.0, False, INACCURACY)


def test_the_points_line_is_stated_in_the_legend_and_the_help(tmp_path: Path) -> None:
    from umtali.ui.coaching import render_review

    hands, _ = analysed().reviewed(1)
    legend = _text(render_review(hands, "Ann", Theme(ascii=True)))
    assert f"{COSTLY_POINTS:g} points or more on average is at least an inaccuracy" in legend
    helped = run_cli("review", "--help", data=tmp_path)
    said = " ".join(helped.stdout.split())
    assert f"{COSTLY_POINTS:g} points or more" in said and "--json" in said


# ------------------------------------------------------------------ the graph


def test_the_graph_fits_80_columns_in_unicode_and_ascii() -> None:
    for n in (1, 7, 60, 75, 200, 1000):
        plot = Plot(tuple(i / max(1, n) for i in range(n)), ((0, "1"),), (None,) * n)
        for ascii_only in (False, True):
            for compact in (False, True):
                drawn = render_graph(plot, 80, 4, n - 1, ascii_only, compact).plain
                assert max(len(line) for line in drawn.splitlines()) <= 80
                if ascii_only:
                    assert drawn.isascii()


def test_each_decision_has_its_column_and_the_marks_sit_under_it() -> None:
    assert columns(75, 75) == list(range(75))
    assert columns(150, 75)[20:24] == [10, 10, 11, 11]  # two decisions a column
    marks: list[Label | None] = [None] * 150
    marks[6], marks[41], marks[40] = Label.INACCURACY, Label.MISTAKE, Label.BLUNDER
    plot = Plot((0.5,) * 150, ((0, "1"), (70, "2")), tuple(marks))
    lines = render_graph(plot, 80, 4, cursor=100).plain.splitlines()
    pointer, *_, axis, marked = lines
    assert pointer.index("▼") == GUTTER + 50  # decision 101 is in column 50
    assert marked[GUTTER + 3] == MARK[Label.INACCURACY]
    assert marked[GUTTER + 20] == MARK[Label.BLUNDER]  # the worst of the column's two
    assert marked.count(MARK[Label.MISTAKE]) == 0
    assert axis[GUTTER] == "1" and axis[GUTTER + 35] == "2"  # where each hand begins


def test_the_graph_rises_with_the_chance() -> None:
    plot = Plot((0.0, 1.0), (), (None, None))
    rows = render_graph(plot, 80, 4).plain.splitlines()[:4]
    low, high = GUTTER, GUTTER + 75 // 2 * 2 - 1  # each decision gets 37 columns
    assert all(row[low] in " ┈" for row in rows) and all(row[high] == "█" for row in rows)


def test_plain_mode_has_the_graph_as_numbers_per_decision() -> None:
    analysis = analysed()
    lines = [_text(line) for line in graph_numbers(analysis, 1)]
    assert lines[1] == "Below: Ann's chance of winning the game after each decision."
    numbered = [line for line in lines if re.match(r"\d+\. hand", line)]
    assert len(numbered) == len(analysis.decisions)
    for line, d in zip(numbered, analysis.decisions, strict=True):
        chance = d.chance_for(1)
        assert chance is not None and f"; {100 * chance:.0f}%" in line


# ------------------------------------------------------------------ --json


@pytest.mark.slow  # weighs a hand twice, once in a subprocess
def test_review_json_is_the_whole_analysis(tmp_path: Path) -> None:
    path = record(tmp_path)
    done = run_cli("review", str(path), "--json", data=tmp_path)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    analysis = analyse_match(one_hand_game(), ("Ann", "Bot (normal)"))
    assert loaded == json.loads(json.dumps(analysis_json(analysis)))
    assert loaded["players"] == ["Ann", "Bot (normal)"]
    assert loaded["thresholds"]["points"] == COSTLY_POINTS
    assert [h["scores"] for h in loaded["hands"]] == [list(one_hand_game().results[0].scores)]
    assert len(loaded["decisions"]) == len(analysis.decisions)
    for said, d in zip(loaded["decisions"], analysis.decisions, strict=True):
        assert (said["seat"], said["hand"], said["move"], said["best"]) == (
            d.seat,
            d.hand,
            str(d.played),
            str(d.best),
        )
        assert said["position"]["hand"] == [str(c) for c in d.view.hand]
        assert (said["chance_before"], said["chance_after"]) == (d.before, d.after)
        assert said["label"] == (None if d.label is None else d.label.value)
        assert said["reason"] == d.reason


# ------------------------------------------------------------------ words


def test_the_score_is_said_in_plain_words() -> None:
    view = run(deal(ANN, BEN, top="AH"), "").view(1)
    said = _score_context(view, GameInfo(2, 4, (30, 15)))
    assert said == "you led by 15 points, with this hand and 2 more hands to play"
    said = _score_context(view, GameInfo(3, 4, (10, 30)))
    assert said == "you trailed by 20 points, with this hand and 1 more hand to play"
    assert (
        _score_context(view, GameInfo(4, 4, (10, 13))) == "you trailed by 3 points in the last hand"
    )


def test_no_fault_is_found_beside_the_best_move() -> None:
    hand = run(deal(ANN, BEN, top="AH"), "discard 2C; draw; discard KC; take")
    hand.play(umtali.bot("normal").choose(hand).action)
    for player in (1, 2):
        for verdict in review_hand(hand, player, threshold=0).verdicts:
            if verdict.played == verdict.best:
                said = verdict.reason()
                assert said.startswith("the best move here"), said
                assert not re.search(r"took|broke|forfeited|better", said), said


def test_one_decision_weighed_is_singular_and_the_hint_speaks_plainly() -> None:
    from umtali.bots.analysis import analyse
    from umtali.ui.coaching import weighed

    assert (weighed(1), weighed(2)) == ("1 decision weighed", "2 decisions weighed")
    hand = run(deal(ANN, BEN, top="AH"), "discard 2C; draw; discard KC")
    reason = analyse(hand.view(1), GameInfo(), budget=2000).reason
    assert "read from the play" not in reason and "cards you cannot see" in reason


# ------------------------------------------------------------------ the board's screen


def test_the_board_at_80x24_is_the_golden_screen() -> None:
    analysis = analysed()
    flagged = next(i for i, d in enumerate(analysis.decisions) if d.label is not None)
    lines = board_lines(analysis, 1, Shown(cursor=flagged), Theme(), 80, 24)
    assert len(lines) == 24 and max(len(line) for line in lines) <= 80
    check_golden("board_80x24", "\n".join(line.rstrip() for line in lines) + "\n")


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40), (200, 50)])
def test_the_board_fits_and_shows_the_mover_s_hand(width: int, height: int) -> None:
    analysis = analysed()
    for cursor in (0, len(analysis.decisions) - 1):
        d = analysis.decisions[cursor]
        lines = board_lines(analysis, 1, Shown(cursor=cursor), Theme(), width, height)
        text = "\n".join(lines)
        assert len(lines) <= height and max(len(line) for line in lines) <= width
        assert f"{d.number}/{len(analysis.decisions)}" in text and "q quit" in lines[-1]
        assert all(c.symbol() in text for c in d.view.hand)
    big = board_lines(analysis, 1, Shown(), Theme(), 200, 50)
    assert "Graph: Ann's chance of winning" in "\n".join(big)


def _text(renderable: object) -> str:
    import io

    from rich.console import Console

    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return " ".join(console.export_text().split())


# ------------------------------------------------------------------ the board's keys


@pytest.mark.slow  # a real terminal
def test_the_board_keys_move_jump_try_again_and_leave(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    pyte = pytest.importorskip("pyte")
    path = record(tmp_path)
    total = len(analyse_match(one_hand_game(), ("Ann", "Bot")).decisions)
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    env = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}
    env["UMTALI_DATA_DIR"] = str(tmp_path)
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "umtali", "review", str(path)],
        dimensions=(24, 80),
        env=env,
        cwd=ROOT,
    )

    def wait_for(pattern: str) -> str:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                stream.feed(child.read_nonblocking(65536, timeout=0.05))
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                break
            text = "\n".join(screen.display)
            if re.search(pattern, text, re.M):
                return text
        raise AssertionError(f"{pattern!r} never appeared:\n" + "\n".join(screen.display))

    try:
        wait_for(rf"^1/{total} hand 1")
        child.send("\x1b[C")  # →
        wait_for(rf"^2/{total} hand 1")
        child.send("\x1b[F")  # End
        wait_for(rf"^{total}/{total} hand 1")
        child.send("3\r")
        wait_for(rf"^3/{total} hand 1")
        child.send("\x1b[D")  # ←
        wait_for(rf"^2/{total} hand 1")
        plain = next(
            i
            for i, d in enumerate(analyse_match(one_hand_game(), ("Ann", "Bot")).decisions)
            if d.label is None
        )
        child.send(f"{plain + 1}\r")
        wait_for(rf"^{plain + 1}/{total} hand 1")
        child.send("t")
        wait_for("What would you play now")
        child.send("\r")  # Enter alone: the best is shown
        wait_for("The best: ")
        child.send("q")
        child.expect(pexpect.EOF, timeout=60)
        stream.feed(child.before or b"")
    finally:
        child.terminate(force=True)
    assert child.exitstatus == 0
