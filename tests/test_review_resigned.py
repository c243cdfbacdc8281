"""A resigned game's review: the hand it was resigned in, unfinished, is reviewed with
the others and marked as resigned (with no score); a hand merely still in play (a game
going on elsewhere) is not, its cards being secret.  The profile, not the record, says
a game was resigned: the command line passes it on."""

from __future__ import annotations

import functools
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from test_review_board import PLAYERS, one_hand_game

import umtali
from umtali.bots import make_bot
from umtali.bots.seat import GameInfo
from umtali.cli import main as cli
from umtali.engine.record import format_record
from umtali.review import analysis as analysis_module
from umtali.review.analysis import GameAnalysis, ResignedHand, analyse_match, count_decisions
from umtali.review.board_view import Shown, around, board_lines, graph_numbers
from umtali.review.export import analysis_json
from umtali.store.profile import add_game, entry_for, game_id
from umtali.ui.coaching import render_review
from umtali.ui.theme import Theme

NAMES = ("Ann", "Bot")
BUDGET = 600  # the board and the export are under test, not the search


def resigned_game() -> umtali.Game:
    """The one-hand game with a few turns of its second hand played: where it stands
    when a player resigns it (or, not resigned, a game going on elsewhere)."""
    game = one_hand_game()
    hand = game.hand
    assert hand is not None and not hand.played()
    bots = [make_bot("easy", 1), make_bot("normal", 2)]
    for _ in range(8):
        seat = hand.to_move
        assert seat is not None
        hand.play(bots[seat - 1].choose(hand.view(seat), GameInfo()).action)
    assert not hand.is_over
    return game


@functools.cache
def analysed(resigned: bool) -> GameAnalysis:
    return analyse_match(resigned_game(), NAMES, BUDGET, resigned=resigned)


def test_the_hand_a_game_was_resigned_in_is_reviewed_and_marked_with_no_score() -> None:
    going_on, given_up = analysed(False), analysed(True)
    # Still in play: the second hand's cards are secret, as before.
    assert {d.hand for d in going_on.decisions} == {1} and going_on.resigned is None
    # Resigned: its decisions follow the first hand's, numbered on across the record.
    first = [d for d in given_up.decisions if d.hand == 1]
    last = [d for d in given_up.decisions if d.hand == 2]
    assert last and [d.number for d in given_up.decisions] == list(
        range(1, len(given_up.decisions) + 1)
    )
    assert [(d.played, d.best) for d in first] == [(d.played, d.best) for d in going_on.decisions]
    assert len(given_up.decisions) == count_decisions(resigned_game(), resigned=True)
    assert given_up.resigned == ResignedHand(1, 2, (0, 0))  # where, and no score
    assert given_up.hands == going_on.hands  # the first hand's score only: none for it
    assert given_up.was_resigned_in(1, 2) and not given_up.was_resigned_in(1, 1)
    assert given_up.result() == "The game was resigned in hand 2, at 30 to 48."
    assert going_on.result().startswith("The game was not finished")


def test_the_board_and_the_line_review_mark_the_resigned_hand() -> None:
    analysis = analysed(True)
    at = next(i for i, d in enumerate(analysis.decisions) if d.hand == 2)
    for width, height in ((80, 24), (200, 50)):
        text = "\n".join(board_lines(analysis, 1, Shown(cursor=at), Theme(), width, height))
        assert "The game was resigned in hand 2" in text
        assert f"{at + 1}/{len(analysis.decisions)} hand 2 (resigned), turn 1:" in text, text
    listed = around(analysis, at, 10, Theme())
    assert listed[0].plain.startswith("Hand 2 (resigned): ")
    earlier = "\n".join(board_lines(analysis, 1, Shown(cursor=0), Theme(), 200, 50))
    assert "hand 1 (resigned)" not in earlier and "Hand 1: " in earlier
    # The plain review lists the hand's decisions, and reviews it under its mark.
    plain = [t.plain for t in graph_numbers(analysis, 1, Theme())]
    assert any(line.lstrip().startswith(f"{at + 1}. hand 2 turn") for line in plain), plain
    hands, _ = analysis.reviewed(1, threshold=0)
    assert [(g, r.hand, r.resigned) for g, r in hands] == [(1, 1, False), (1, 2, True)]
    assert hands[1][1].weighed == len([d for d in analysis.decisions[at:] if d.seat == 1])
    from rich.console import Console

    console = Console(width=100, record=True, color_system=None)
    console.print(render_review(hands, "Ann", Theme()))
    assert "Hand 2 (resigned): " in console.export_text()


def test_the_export_has_the_resigned_hand_s_decisions_and_says_so() -> None:
    given_up, going_on = analysis_json(analysed(True)), analysis_json(analysed(False))
    assert given_up["resigned"] == {"game": 1, "hand": 2}
    assert "resigned" not in going_on  # any other record's export is as it was
    assert [h["hand"] for h in given_up["hands"]] == [1]  # no score for the resigned hand
    hands = [d["hand"] for d in given_up["decisions"]]
    assert 2 in hands and given_up["decisions"][: hands.index(2)] == going_on["decisions"]


def test_review_reviews_the_hand_the_profile_says_was_resigned(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    asked: list[bool] = []
    real = analysis_module.analyse_match

    def analyse(match: Any, names: tuple[str, str], **kwargs: Any) -> GameAnalysis:
        asked.append(kwargs["resigned"])
        return real(match, names, BUDGET, **kwargs)

    monkeypatch.setattr(analysis_module, "analyse_match", analyse)
    game = resigned_game()
    resigned, going_on = tmp_path / "g.umtali", tmp_path / "h.umtali"
    for path in (resigned, going_on):
        path.write_text(format_record(game, PLAYERS), encoding="utf-8")
    entry = entry_for(game, PLAYERS, game_id(resigned, 1), datetime(2026, 1, 5), resigned_by=1)
    assert add_game(entry)
    exports = []
    for path in (resigned, going_on):
        capsys.readouterr()
        assert cli.main(["review", str(path), "--json"]) == 0
        exports.append(json.loads(capsys.readouterr().out))
    assert asked == [True, False]
    assert exports[0]["resigned"] == {"game": 1, "hand": 2} and "resigned" not in exports[1]
    assert {d["hand"] for d in exports[0]["decisions"]} == {1, 2}
    assert {d["hand"] for d in exports[1]["decisions"]} == {1}
