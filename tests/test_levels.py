"""The registry of bot levels: every reader of the list follows it, and only it."""

from __future__ import annotations

from datetime import datetime

import pytest

import umtali
from umtali.bots import levels, make_bot
from umtali.bots.arena import play_game
from umtali.bots.levels import (
    ADVISER,
    OPPONENT,
    Anchor,
    Level,
    Measured,
    find,
    named,
    names,
    player_levels,
)
from umtali.bots.seat import Decision, GameInfo
from umtali.cli.options import build_parser
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.engine.view import PlayerView
from umtali.lab import bench
from umtali.lab.tournament import LAB_ONLY, lab_levels, ladder_levels, make_seat
from umtali.stats.rating import history, measured, rungs
from umtali.store.profile import entry_for
from umtali.ui.theme import Theme
from umtali.ui.why import why_lines

PLAIN = Theme(ascii=True)


def test_the_registry_keeps_the_levels_and_their_order() -> None:
    assert names() == umtali.bots.LEVELS == ("easy", "normal", "hard", "expert")
    assert type(umtali.bots.LEVELS) is tuple
    assert repr(umtali.bot("hard")) == "umtali.bot('hard')"


def test_each_entry_is_whole() -> None:
    assert len(set(names())) == len(names())
    for level in player_levels():
        assert level.about and "\n" not in level.about
        assert level.method is None or level.method.endswith(".")
        if isinstance(level.rung, Measured):
            assert level.name in (level.rung.a, level.rung.b)
            assert find(level.rung.other(level.name)) is not None
    assert sum(isinstance(level.rung, Anchor) for level in player_levels()) == 1
    assert {OPPONENT, ADVISER} <= set(player_levels())


def test_an_unknown_level_is_refused_with_the_levels_there_are() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'grand': choose from easy, normal"):
        make_bot("grand")


@pytest.mark.parametrize("name", names())
def test_every_level_is_offered_rated_and_plays_legally(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = build_parser()
    assert parser.parse_args(["play", "--bot", name]).bot == name
    assert parser.parse_args(["watch", "--bots", name, name]).bots == [name, name]
    assert parser.parse_args(["host", "--bot", name]).bot == name
    with pytest.raises(SystemExit):  # refused for --matches, after --a and --b were taken
        bench.main(["bots", "--a", name, "--b", name, "--matches", "0"])
    assert "--matches and --workers must be" in capsys.readouterr().err
    assert name in lab_levels() and name in ladder_levels()
    assert name in rungs()
    hand = umtali.deal_hand(seed=3)
    view = hand.view(hand.to_move or 1)
    assert make_bot(name, 1).choose(view, GameInfo()).action in view.legal
    assert make_seat(name, 1).name == name


def test_the_hint_bot_and_the_stand_in_are_one_entry() -> None:
    from umtali.host.game import STAND_IN
    from umtali.host.options import HostOptions
    from umtali.ui import seating

    assert seating.STAND_IN is STAND_IN is ADVISER
    assert seating.stand_in(PlayerInfo(PlayerKind.HUMAN, "Ann")).name == "Ann"
    assert ADVISER is named(ADVISER.name)
    assert HostOptions().hint == ADVISER.name


class FirstBot:
    """A trivial level: the first legal action, always."""

    name = "first"

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        return Decision(view.legal[0], "the first legal action")

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player


FIRST = Level(
    name="first",
    make=lambda seed: FirstBot(),
    about="plays the first legal action",
    rung=Measured("normal", "first", 0.9),
    method=None,
)


def test_a_level_added_to_the_registry_reaches_every_list(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(levels, "REGISTRY", (*levels.REGISTRY, FIRST))
    assert isinstance(make_bot("first"), FirstBot)
    hand = umtali.deal_hand(seed=3)
    assert umtali.bot("first").choose(hand).action == hand.legal()[0]
    # The command line offers it.
    parser = build_parser()
    assert parser.parse_args(["play", "--bot", "first"]).bot == "first"
    assert parser.parse_args(["watch", "--bots", "first", "easy"]).bots == ["first", "easy"]
    assert parser.parse_args(["host", "--bot", "first"]).bot == "first"
    with pytest.raises(SystemExit):
        parser.parse_args(["watch", "--help"])
    assert "(easy, normal, hard, expert, first;" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        bench.main(["bots", "--a", "first", "--b", "oracle", "--matches", "0"])
    assert "--matches and --workers must be" in capsys.readouterr().err
    assert lab_levels()[-1 - len(LAB_ONLY) :] == ("first", *(lab.name for lab in LAB_ONLY))
    # The rating has its rung, below normal as measured, and rates a game against it.
    ladder = rungs()
    assert ladder["first"] < ladder["normal"] and FIRST.rung in measured()
    game = play_game(umtali.Game(seed=4), [make_bot("normal", 1), make_bot("easy", 1)])
    you = PlayerInfo("human", "You")
    entry = entry_for(game, (you, PlayerInfo("bot", "Bot", "first")), "f#1", datetime(2026, 11, 1))
    assert len(history([entry])) == 1
    # why has no sentence for how it chooses, and adds none.
    while hand.to_move == 1:
        hand.play(hand.legal()[0])
    view = hand.view(2)
    told = why_lines(view, "first", "Bot", PLAIN)
    assert why_lines(view, "normal", "Bot", PLAIN) == [*told, named("normal").method]
    # Taken out again, it leaves every list.
    monkeypatch.undo()
    assert "first" not in rungs() and "first" not in lab_levels()
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--bot", "first"])


def test_a_rung_the_rating_cannot_place_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    base = levels.REGISTRY
    with pytest.raises(ValueError, match="name the stronger first"):
        Measured("easy", "normal", 0.01)
    adrift = Level(
        "adrift", FIRST.make, "is measured against no level", Measured("a", "b", 0.6), None
    )
    monkeypatch.setattr(levels, "REGISTRY", (*base, adrift))
    with pytest.raises(ValueError, match="the rung of adrift is a measurement of other levels"):
        rungs()
    apart = Level(
        "apart",
        FIRST.make,
        "is measured against a level not there",
        Measured("apart", "ghost", 0.6),
        None,
    )
    monkeypatch.setattr(levels, "REGISTRY", (*base, apart))
    with pytest.raises(ValueError, match="no measurement links apart to the rating's anchor"):
        rungs()
