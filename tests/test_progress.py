"""A match that moves one decision at a time: stored and loaded between any two.

The proof a server needs: a whole session played by a driver that, before every
single decision, writes the match out as its record, drops every object, loads it
again and applies that one decision, ends exactly as the same seeds played by the
ordinary driver (one Progress kept in memory): the same result, the same record, and
the same events told to each player and to a spectator after every decision.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import umtali
from umtali.bots import make_bot
from umtali.bots.arena import Driver
from umtali.bots.seat import GameInfo
from umtali.engine.actions import ActionKind
from umtali.engine.events import Event
from umtali.engine.match import Game, Session
from umtali.engine.progress import (
    SPECTATOR,
    VIEWERS,
    Asked,
    Deal,
    Decision,
    Move,
    Progress,
    Undo,
    UndoRefused,
    game_info,
)
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.engine.rules import PRESETS

ANN = PlayerInfo(PlayerKind.HUMAN, "Ann")
BEN = PlayerInfo(PlayerKind.HUMAN, "Ben")
BOT = PlayerInfo(PlayerKind.BOT, "Bot", "normal")


@dataclass(frozen=True)
class Script:
    """How the seats decide, from the position alone (so a driver that keeps no object
    between decisions decides the same): each person is played by a bot of
    ``person`` made afresh for every decision with a seed from the position; a person
    takes back their first non-draw move of every third hand once (an undo where one
    is allowed); after ``stand_in_at`` decisions, player 2's seat is stood in for by
    ``stand_in``."""

    person: str = "normal"
    stand_in_at: int | None = None
    stand_in: str = "easy"

    def decide(self, progress: Progress, count: int) -> Decision:
        asked = progress.pending()
        assert asked.player is not None
        level = asked.bot or self.person
        seed = 7919 * count + asked.player
        seat = make_bot(level, seed)
        if asked.kind is Asked.DEAL:
            return Deal(seat.choose_eleven(asked.player, asked.info) if asked.choices else None)
        hand = progress.hand
        assert hand is not None
        game = progress.game
        index = len(game.hands) - 1
        played = hand.played()
        if (
            asked.bot is None
            and progress.undo_allowed
            and index % 3 == 0
            and not game.undone_in(index)
            and played
            and played[-1].kind is not ActionKind.DRAW
            and hand.events()[-1].player == asked.player
        ):
            return Undo()
        return Move(seat.choose(hand.view(asked.player), asked.info).action)


Seen = list[tuple[str, dict[int, tuple[Event, ...]]]]


def _step(progress: Progress, script: Script, count: int, seen: Seen) -> None:
    """One decision, and what each viewer was told of it."""
    if script.stand_in_at == count:
        progress.stand_in(2, script.stand_in)
    asked = progress.pending()
    assert asked.player is not None
    decision = script.decide(progress, count)
    outcome = progress.decide(asked.player, decision)
    seen.append((repr(decision), {v: outcome.news(v) for v in VIEWERS}))


def _in_memory(match: Game | Session, players: tuple[PlayerInfo, PlayerInfo], script: Script):
    progress = Progress(match, players)
    seen: Seen = []
    count = 0
    while not progress.is_over:
        _step(progress, script, count, seen)
        count += 1
    return progress, seen


def _stored(match: Game | Session, players: tuple[PlayerInfo, PlayerInfo], script: Script):
    text = Progress(match, players).record()
    seen: Seen = []
    count = 0
    while True:
        progress = Progress.load(text)  # nothing kept from the decision before
        if progress.is_over:
            return progress, seen
        _step(progress, script, count, seen)
        text = progress.record()
        del progress
        count += 1


def _cases() -> list[object]:
    """Every variant, each with a person against a bot (an undo) and two people (a
    stand-in), in a session; Rummy's in one game, since its session is three races to
    150 (nearly 2,000 decisions, each a load of the whole record).  Classic's are
    quick; the others run with the slow tests."""
    cases: list[object] = []
    for rules in PRESETS:
        kind = "game" if PRESETS[rules].target else "session"
        slow = () if rules == "classic" else (pytest.mark.slow,)
        for players, script, name in (
            ((ANN, BOT), Script(), "person-v-bot-undo"),
            ((ANN, BEN), Script(stand_in_at=40), "people-stand-in"),
        ):
            case = (rules, kind, players, script)
            cases.append(pytest.param(*case, id=f"{rules}-{kind}-{name}", marks=slow))
    return cases


@pytest.mark.parametrize(("rules", "kind", "players", "script"), _cases())
def test_a_match_stored_before_every_decision_plays_as_one_kept_in_memory(
    rules: str, kind: str, players: tuple[PlayerInfo, PlayerInfo], script: Script
) -> None:
    def start() -> Game | Session:
        return Session(rules, seed=11) if kind == "session" else Game(rules, seed=11)

    kept, told = _in_memory(start(), players, script)
    loaded, retold = _stored(start(), players, script)
    assert loaded.record() == kept.record()
    assert loaded.match.winner == kept.match.winner is not None
    assert [d for d, _ in retold] == [d for d, _ in told]
    assert retold == told
    decisions = [d for d, _ in told]
    if players[1].is_bot:  # practice against the bot: the undo was used
        assert any(d == repr(Undo()) for d in decisions)
    else:  # two people: the stand-in played on in the record
        assert "stand-in 2: easy" in kept.record()
        assert loaded.bot_for(2) == "easy" and loaded.bot_for(1) is None


def test_what_is_pending_through_a_game() -> None:
    progress = Progress(Game(seed=3), (ANN, BEN))
    asked = progress.pending()
    assert (asked.kind, asked.player, asked.game, asked.choices) == (Asked.DEAL, 1, 1, (1, 2))
    assert asked.cut is not None and asked.bot is None
    with pytest.raises(umtali.IllegalAction, match="player 1's decision"):
        progress.decide(2, Deal())
    with pytest.raises(umtali.IllegalAction, match="no hand is being played"):
        progress.decide(1, Move("draw"))
    with pytest.raises(umtali.IllegalAction, match="1 or 2 takes the extra card"):
        progress.decide(1, Deal(eleven=3))
    assert progress.pending() == asked  # a refusal changes nothing
    outcome = progress.decide(1, Deal(eleven=2))
    asked = progress.pending()
    assert (asked.kind, asked.player, asked.cut) == (Asked.MOVE, 2, None)
    assert asked.info == GameInfo(1, 4, (0, 0), 1) == game_info(progress.game)
    assert set(asked.legal) == set(progress.hand.legal()) if progress.hand else False
    # The deal's news: each player sees their own hand's events only, a spectator none.
    assert outcome.news(SPECTATOR) == outcome.news(1) == outcome.news(2) == ()
    with pytest.raises(umtali.IllegalAction, match="there is no hand to deal"):
        progress.decide(2, Deal())


def test_a_draw_is_told_to_the_drawer_alone() -> None:
    progress = Progress(Game(seed=3), (ANN, BEN))
    progress.decide(1, Deal(eleven=1))
    hand = progress.hand
    assert hand is not None
    while (asked := progress.pending()).kind is Asked.MOVE and not any(
        a.kind is ActionKind.DRAW for a in asked.legal
    ):
        assert asked.player is not None
        progress.decide(asked.player, Move(asked.legal[-1]))  # the discard ends the turn
    assert asked.player is not None
    outcome = progress.decide(asked.player, Move("draw"))
    mine, theirs, anyone = (outcome.news(v) for v in (asked.player, 3 - asked.player, SPECTATOR))
    assert len(mine) == len(theirs) == len(anyone) == 1
    assert mine[0].cards and not theirs[0].cards and not anyone[0].cards


def test_undo_is_refused_between_two_people_and_with_nothing_to_take_back() -> None:
    people = Progress(Game(seed=3), (ANN, BEN))
    people.decide(1, Deal(eleven=1))
    with pytest.raises(UndoRefused, match="against the bot only"):
        people.decide(1, Undo())
    practice = Progress(Game(seed=3), (ANN, BOT))
    practice.decide(1, Deal(eleven=1))
    with pytest.raises(UndoRefused, match="nothing to undo"):
        practice.decide(1, Undo())
    legal = practice.pending().legal
    first = next(a for a in legal if a.kind is not ActionKind.DISCARD)
    played = practice.decide(1, Move(first)).played
    before = practice.record()
    outcome = practice.decide(1, Undo())
    assert outcome.undone == (played,)
    assert practice.hand is not None and practice.hand.played() == []
    assert "undone: " in practice.record() and practice.record() != before


def test_a_stand_in_makes_the_seat_a_bots_and_survives_the_record() -> None:
    progress = Progress(Game(seed=3), (ANN, BEN))
    assert progress.humans == (True, True) and not progress.undo_allowed
    progress.decide(1, Deal(eleven=1))
    progress.stand_in(2, "normal")
    assert progress.humans == (True, False) and progress.undo_allowed
    assert progress.pending().bot is None
    loaded = Progress.load(progress.record())
    assert loaded.bot_for(2) == "normal" and loaded.humans == (True, False)
    with pytest.raises(ValueError, match="1 or 2"):
        progress.stand_in(3, "normal")


def test_a_session_deals_its_next_game_through_the_next_dealer() -> None:
    progress = Progress(Session("classic", seed=5), (BOT, PlayerInfo(PlayerKind.BOT, "B", "easy")))
    driver = Driver([make_bot("normal", 1), make_bot("easy", 2)])
    while progress.game_number == 1:
        driver.answer(progress)
    assert progress.match.games[0].is_over
    # The next game waits for nothing but its first deal, by the first game's next dealer.
    assert progress.game.hands and progress.pending().game == 2


def test_loading_a_long_game_and_asking_what_is_pending_is_cheap_enough_to_bench() -> None:
    """Not timed here (speed is the bench's): the bench's function runs and answers."""
    from umtali.lab.benches.load import bench_load

    figures = bench_load(games=2, repeat=3, seed=1)
    assert figures["games"] == 2 and figures["ms_p50"] > 0


def test_a_seat_already_played_as_asked_adds_no_line() -> None:
    progress = Progress(Game(seed=3), (ANN, BOT))
    progress.decide(1, Deal(eleven=1))
    progress.stand_in(1, None)  # Ann is in her seat already
    progress.stand_in(2, None)  # and the bot in its own
    assert "stand-in" not in progress.record() and progress.record().startswith("umtali record 3")
    progress.stand_in(1, "normal")
    progress.stand_in(1, "normal")
    assert progress.record().count("stand-in 1: normal") == 1
    assert progress.record().startswith("umtali record 5")
    progress.stand_in(1, None)
    assert progress.record().count("stand-in 1 ends") == 1 and progress.bot_for(1) is None


def test_the_review_passes_over_what_a_bot_played_for_a_player_who_left() -> None:
    from umtali.bots.coach import review_hand

    progress = Progress(Game(seed=4), (ANN, BEN))
    driver = Driver([make_bot("normal", 1), make_bot("normal", 2)])
    for _ in range(13):  # the deal, and twelve actions
        driver.answer(progress)
    progress.stand_in(2, "normal")
    hand = progress.hand
    assert hand is not None
    while not hand.is_over:
        driver.answer(progress)
    marks = progress.game.stood_in(0, 2)
    assert marks == (False,) * 12 + (True,) * (len(hand.played()) - 12)
    assert progress.game.stood_in(0, 1) == (False,) * len(marks)
    info = game_info(progress.game)
    own = review_hand(hand, 2, 1, info, budget=40, bot_played=marks)
    whole = review_hand(hand, 2, 1, info, budget=40)
    assert own.stood_in > 0 and whole.stood_in == 0
    assert own.weighed + own.stood_in == whole.weighed
