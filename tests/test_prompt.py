"""The prompt and the loop, driven through a pipe as if a person were typing."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from prompting import Feeder, TypingSession, ViewOf, recording_console, scripted_player, table
from rich.console import Console

import umtali
from umtali.bots import NormalBot
from umtali.bots.arena import play_game
from umtali.bots.seat import GameInfo
from umtali.engine.cards import Card
from umtali.engine.events import Event, EventKind
from umtali.engine.record import PlayerInfo, played
from umtali.engine.view import PlayerView
from umtali.store.saves import Autosaver, read_saved
from umtali.ui.gate import LOCAL, GatedInput
from umtali.ui.human import HumanSeat, QuitGame
from umtali.ui.loop import TableLoop
from umtali.ui.narrate import phrase
from umtali.ui.render import render_game_end
from umtali.ui.screen import LineScreen
from umtali.ui.theme import Theme


def test_a_whole_game_against_the_bot_with_typos_and_illegal_moves() -> None:
    typed = ["discrad 4C", "play", "draw", "ZZ", "help", "hint", "score", "rules", "why"]
    loop, console, session, pipe_cm = table(scripted_player(typed))
    game = umtali.Game(seed=5)
    try:
        loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    assert game.is_over and game.winner in (1, 2)
    out = console.export_text()
    assert "'discrad 4C' is not a command: did you mean discard?" in out
    assert "Play needs its cards (play <card>)" in out
    assert "there is no draw on this turn" in out or "already drawn" in out
    assert "Legal now:" in out and "Hint:" in out and "This hand: you" in out
    assert "RULES" in out
    assert "Bot has not moved yet in this hand." in out or "Bot drew" in out
    assert "Hand 1 is over" in out and "Winner of game 1" in out
    assert any(p.startswith("Press Enter") for p in session.prompts)
    # A session remembers its last toolbar: every other prompt must clear it.
    for text, toolbar in session.toolbars:
        if not text.endswith("> "):
            assert toolbar is None, text


def test_ctrl_c_asks_before_leaving_and_ctrl_d_leaves() -> None:
    answers = iter(["\x03", "n\r", "\x03", "y\r"])

    def feeder_for(view_of: ViewOf) -> Feeder:
        return lambda message: "\r" if "extra" in message else next(answers)

    loop, _console, session, pipe_cm = table(feeder_for)
    try:
        with pytest.raises(QuitGame):
            loop.play_game(umtali.Game(seed=5, first_dealer=2))
    finally:
        pipe_cm.__exit__(None, None, None)
    assert sum("Leave the game?" in p for p in session.prompts) == 2

    loop, _console, session, pipe_cm = table(lambda view_of: lambda m: "\x04")
    try:
        with pytest.raises(QuitGame):
            loop.play_game(umtali.Game(seed=5, first_dealer=2))
    finally:
        pipe_cm.__exit__(None, None, None)


def test_all_makes_the_forced_plays_and_stops_at_a_choice() -> None:
    loop, _console, _session, pipe_cm = table(scripted_player(["all", "quit", "y"]))
    game = umtali.Game(seed=5)  # Ann wins the cut and keeps the extra card
    try:
        with pytest.raises(QuitGame):
            loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    hand = game.hand
    assert hand is not None
    # Seed 5 opens with a marriage and a group of aces for Ann: both forced.
    kinds = [p.kind.label for p in hand.side(1)]
    assert kinds == ["marriage", "group"]


def test_hotseat_handover_hides_both_hands() -> None:
    loop, console, session, pipe_cm = table(scripted_player([]), hotseat=True)
    game = umtali.Game(seed=9)
    screens: list[str] = []
    original = session.feeder

    def watching(message: str) -> str:
        if message.startswith("Pass to"):
            screens.append(console.export_text(clear=True))
        else:
            console.export_text(clear=True)
        return original(message)

    session.feeder = watching
    try:
        loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    assert len(screens) > 10
    for screen in screens:
        assert "Your turn" not in screen and "Stock" not in screen


def test_phrases_for_the_turn_summary() -> None:
    theme = Theme()

    def said(kind: EventKind, cards: str = "", **more: Any) -> str:
        held = tuple(Card.parse(c) for c in cards.split())
        return phrase(Event(1, kind, 3, held, **more), theme)

    assert said(EventKind.DRAW) == "drew from the stock"
    assert said(EventKind.TAKE_TWO, "7C 6C") == "took 7♣ and 6♣ from the discard pile"
    assert said(EventKind.PLAY, "10D", onto=Card.parse("JD")) == "played 10♦ off J♦"
    assert said(EventKind.DISCARD, down=True) == "discarded face down"
    meld = Event(1, EventKind.MELD, 3, (Card.parse("KH"), Card.parse("QH")))
    assert phrase(meld, Theme(ascii=True)) == "melded KH QH"
    assert said(EventKind.TAKE_NEXT, "8H") == "took the next discard too, 8♥"
    deep = said(EventKind.TAKE_FROM, "9C 7H 2D", onto=Card.parse("7H"))
    assert deep == "took 9♣ 7♥ 2♦ from the discard pile, down to 7♥"
    assert said(EventKind.END) == "ended the last turn"
    assert said(EventKind.REBUILD, count=30) == (
        "the discard pile, less its top, is shuffled into a new stock of 30"
    )


def resizing_player(steps: list[str], consoles: list[Console]) -> Callable[[ViewOf], Feeder]:
    """Types ``steps`` at the prompts: ``move`` is the bot's advice, ``enlarge`` makes the
    console (``consoles[0]``, known once the table is built) 80x24 and presses Enter."""
    pending = iter(steps)
    advisor = NormalBot()

    def make(view_of: ViewOf) -> Feeder:
        def feed(message: str) -> str:
            if "extra" in message:
                return "\r"
            step = next(pending)
            if step == "move":
                view = view_of(message)
                assert view is not None
                return f"{advisor.choose(view, GameInfo()).action}\r"
            if step == "enlarge":
                consoles[0].size = (80, 24)
                return "\r"  # an empty line redraws the table
            return step + "\r"

        return feed

    return make


def played_until_quit(size: tuple[int, int], steps: list[str]) -> tuple[Console, umtali.Game]:
    """A game at a console of ``size``, the player typing ``steps`` (then leaving)."""
    consoles: list[Console] = []
    loop, console, _session, pipe_cm = table(resizing_player(steps, consoles))
    consoles.append(console)
    console.size = size
    game = umtali.Game(seed=5)
    try:
        with pytest.raises(QuitGame):
            loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    return console, game


def test_a_terminal_too_small_says_so_and_recovers_when_enlarged() -> None:
    console, _ = played_until_quit((50, 15), ["enlarge", "quit", "y"])
    out = console.export_text()
    small = out.index("This terminal is 50×15")
    assert "64×20" in out[small : small + 200]
    assert out.index("Stock 31", small) > small  # the full table came back


def test_a_terminal_too_small_takes_no_move_until_it_is_enlarged() -> None:
    console, game = played_until_quit((60, 20), ["move", "all", "enlarge", "quit", "y"])
    out = " ".join(console.export_text().split())  # the narrow console wraps its lines
    assert out.count("too small to show the table (at least 64×20): no move was made") == 2
    assert game.hand is not None and game.hand.actions() == []  # nothing was played blind


def test_undo_against_the_bot_goes_back_to_the_start_of_the_turn() -> None:
    loop, _console, _session, pipe_cm = table(scripted_player(["all", "undo", "quit", "y"]))
    game = umtali.Game(seed=5)
    try:
        with pytest.raises(QuitGame):
            loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    assert game.hand is not None and game.hand.actions() == []
    assert len(game.hand.hand_of(1)) == 11
    assert game.undone and game.undone[0][:2] == (0, 0)  # kept, for the record to show


def test_all_left_over_from_an_earlier_game_makes_no_play_in_a_new_one() -> None:
    """The first turn of every game has the same place (hand 1, no points, no turn
    played): ``all`` asked there in one game must not act in the next."""
    loop, _console, _session, pipe_cm = table(scripted_player(["quit", "y"]))
    game = umtali.Game(seed=5)  # Ann keeps the extra card, and her first plays are forced
    ann = loop.seats[0]
    assert isinstance(ann, HumanSeat)
    ann.auto = (1, (0, 0), 0)  # as a game that ended on that turn would leave it
    try:
        with pytest.raises(QuitGame):
            loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    assert game.hand is not None and game.hand.actions() == []  # asked, nothing played


def test_undo_never_takes_back_a_draw_from_the_stock() -> None:
    # The bot deals and keeps the extra card, so Ann's first turn starts with a draw.
    loop, console, _session, pipe_cm = table(scripted_player(["draw", "undo", "quit", "y"]))
    game = umtali.Game(seed=5, first_dealer=2)
    try:
        with pytest.raises(QuitGame):
            loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    assert "There is nothing to undo" in console.export_text()
    hand = game.hand
    assert hand is not None
    assert [who for who, _ in played(hand)][-1] == 1 and hand.actions()[-1] == "draw"
    assert len(hand.hand_of(1)) == 11  # the card drawn stays in Ann's hand


def test_undo_is_refused_between_two_people() -> None:
    loop, console, _session, pipe_cm = table(
        scripted_player(["all", "undo", "quit", "y"]), hotseat=True
    )
    try:
        with pytest.raises(QuitGame):
            loop.play_game(umtali.Game(seed=5))
    finally:
        pipe_cm.__exit__(None, None, None)
    assert "undo is for games against the bot only" in console.export_text()


def test_a_saved_game_resumes_where_it_stopped_and_plays_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "g.umtali"
    players = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot", "normal"))
    game = umtali.Game(seed=5)
    saver = Autosaver(game, players, [path], lambda m: None)
    loop, _c, _s, pipe_cm = table(
        scripted_player(["all", "x 9c", "draw", "quit", "y"]), save=saver.save
    )
    try:
        with pytest.raises(QuitGame):
            loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
        saver.close()
    saved = read_saved(path)
    resumed = saved.match
    assert isinstance(resumed, umtali.Game) and resumed.hand is not None
    assert resumed.hand.actions() == game.hand.actions()  # type: ignore[union-attr]
    assert resumed.hand.actions()[-1] == "draw" and resumed.hand.to_move == 1

    saver = Autosaver(resumed, saved.players, [path], lambda m: None)
    loop, _c, _s, pipe_cm = table(scripted_player([]), save=saver.save)
    try:
        loop.play_game(resumed)
    finally:
        pipe_cm.__exit__(None, None, None)
        saver.close()
    assert resumed.is_over
    assert read_saved(path).match.is_over


def test_replay_steps_through_a_record_with_both_hands_face_up() -> None:
    from umtali.ui.replay import ReplayViewer

    game = play_game(umtali.Game(seed=2), [NormalBot(), NormalBot()])
    keys = iter(["\r", "\r", "b\r", "n\r", "q\r"])
    console = recording_console()
    with GatedInput(lines=LOCAL) as pipe:
        session = TypingSession(pipe, lambda message: next(keys))
        players = (PlayerInfo("bot", "A", "normal"), PlayerInfo("bot", "B", "normal"))
        screen = LineScreen(console, session, Theme(ascii=True))
        viewer = ReplayViewer(game, players, screen, Theme(ascii=True))
        viewer.run()
    out = console.export_text()
    first = game.hands[0]
    # Before any move both eleven- and ten-card hands are on screen.
    for card in first.deal.p1 + first.deal.p2:
        assert Theme(ascii=True).plain(card) in out
    counters = [p.split("]")[0].lstrip("[") for p in session.prompts]
    total = sum(len(h.actions()) + 1 for h in game.hands)
    assert counters[:4] == [f"1/{total}", f"2/{total}", f"3/{total}", f"2/{total}"]
    second_hand_start = len(first.actions()) + 2
    assert counters[4] == f"{second_hand_start}/{total}"


def test_replay_answers_an_unknown_key_with_the_keys_and_stays() -> None:
    from umtali.ui.replay import ReplayViewer

    game = play_game(umtali.Game(seed=2), [NormalBot(), NormalBot()])
    keys = iter(["\r", "x\r", "next\r", "q\r"])
    console = recording_console()
    with GatedInput(lines=LOCAL) as pipe:
        session = TypingSession(pipe, lambda message: next(keys))
        players = (PlayerInfo("human", "You"), PlayerInfo("bot", "Bot (hard)", "hard"))
        screen = LineScreen(console, session, Theme(ascii=True))
        ReplayViewer(game, players, screen, Theme(ascii=True)).run()
    counters = [p.split("]")[0].lstrip("[").split("/")[0] for p in session.prompts]
    assert counters == ["1", "2", "2", "2"]  # neither x nor next stepped on
    out = console.export_text()
    assert "'x' is not a replay key. Enter: next | b: back | n: next hand | q: quit." in out
    assert "'next' is not a replay key" in out
    assert "You's" not in out
    assert "Your turn" in out or "Bot (hard)'s turn" in out


@pytest.mark.parametrize(
    "name,whose",
    [("You", "Your"), ("Ann", "Ann's"), ("James", "James'"), ("Bot (hard)", "Bot (hard)'s")],
)
def test_a_replay_says_whose_turn_it_is_in_english(name: str, whose: str) -> None:
    from umtali.ui.replay import Position, ReplayViewer

    game = play_game(umtali.Game(seed=2), [NormalBot(), NormalBot()])
    console = recording_console()
    players = (PlayerInfo("human", name), PlayerInfo("human", name))
    viewer = ReplayViewer(game, players, LineScreen(console, None, Theme()), Theme())
    viewer.show(Position(0, 0, 0))
    assert f"{whose} turn:" in console.export_text()


def test_replay_never_shows_a_hand_still_in_play() -> None:
    from umtali.ui.replay import ReplayViewer

    game = umtali.Game(seed=2)
    game.next_hand()
    bot = NormalBot()
    for _ in range(6):
        hand = game.hands[-1]
        hand.play(bot.choose(hand.view(hand.to_move or 1), GameInfo()).action)
    players = (PlayerInfo("human", "A"), PlayerInfo("human", "B"))
    console = recording_console()
    viewer = ReplayViewer(game, players, LineScreen(console, None, Theme()), Theme())
    assert viewer.positions() == []
    assert "no finished hand yet" in viewer.run()[0]
    assert console.export_text() == ""  # not a card of the hand in play was drawn
    finished = play_game(umtali.Game(seed=2), [NormalBot(), NormalBot()])
    viewer = ReplayViewer(finished, players, LineScreen(console, None, Theme()), Theme())
    assert len(viewer.positions()) == sum(len(h.actions()) + 1 for h in finished.hands)


class SlowToAnswer:
    """A bot interrupted by Ctrl-C the first time it is asked."""

    name = "Bot"

    def __init__(self) -> None:
        self.inner = NormalBot()
        self.interrupted = False

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose(self, view: PlayerView, info: GameInfo) -> object:
        if not self.interrupted:
            self.interrupted = True
            raise KeyboardInterrupt
        return self.inner.choose(view, info)


@pytest.mark.parametrize("answer,leaves", [("n", False), ("y", True)])
def test_ctrl_c_while_the_bot_thinks_asks_first(answer: str, leaves: bool) -> None:
    console = recording_console()
    with GatedInput(lines=LOCAL) as pipe:
        replies = iter([answer, "quit", "y"])

        def feed(message: str) -> str:
            return "\r" if "extra" in message else next(replies) + "\r"

        session = TypingSession(pipe, feed)
        screen = LineScreen(console, session, Theme())
        human = HumanSeat("Ann", screen, NormalBot(), lambda: None)
        bot = SlowToAnswer()
        loop = TableLoop(screen, [bot, human], (False, True), Theme(), delay=0)
        game = umtali.Game(seed=5, first_dealer=1)  # the bot deals and plays first
        with pytest.raises(QuitGame):
            loop.play_game(game)
    assert session.prompts[0].startswith("Leave the game?")
    assert bot.interrupted
    hand = game.hand
    assert hand is not None
    assert (hand.actions() == []) == leaves  # after 'n' the bot played its turn


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["family", "practical", "rummy"])
@pytest.mark.parametrize("hotseat", [False, True], ids=["bot", "hotseat"])
def test_a_whole_variant_game_at_the_prompt(variant: str, hotseat: bool) -> None:
    typed = ["help", "take 2", "end"]
    loop, console, _session, pipe_cm = table(scripted_player(typed), hotseat=hotseat)
    game = umtali.Game(variant, seed=3)
    try:
        loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    assert game.is_over and game.winner in (1, 2)
    out = console.export_text()
    assert f"There is no take 2 in {variant}" in out
    if variant == "rummy":
        assert "There is no end in rummy" in out
    else:
        assert "End is for the last turn" in out
    assert "Hand 1 is over" in out and "Winner of game 1" in out
    if variant == "rummy":
        assert "went out. Left in" in out


@pytest.mark.parametrize(
    "typed,says",
    [
        ("dscard 4c", "'dscard 4c' is not a command: did you mean discard?"),
        ("drwa", "did you mean draw?"),
        ("hlep", "did you mean help?"),
        ("7z", "'7z' is not a card: write a rank"),
        ("AS 7x", "'7x' is not a card"),
        ("meld", "meld needs its cards (meld <cards>): legal now are meld KS QS"),
        ("play", "legal now are play JS"),
        ("discard", "discard needs its cards (discard <card>); none is legal now"),
        ("foo bar", "'foo bar' is not a command: try draw"),
    ],
)
def test_a_mistyped_line_gets_the_answer_that_helps(typed: str, says: str) -> None:
    from umtali.engine.errors import InvalidNotation
    from umtali.ui.commands import parse_command

    view = umtali.deal_hand(seed=7).view(1)  # meld KS QS and play JS are legal
    with pytest.raises(InvalidNotation) as refusal:
        parse_command(typed, view)
    assert says in str(refusal.value)
    assert "some variants" not in str(refusal.value)  # only this game's moves


def test_the_table_as_the_hand_ended_is_shown_before_the_scores() -> None:
    loop, console, _session, pipe_cm = table(scripted_player([]))
    game = umtali.Game(seed=5)
    try:
        loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    out = console.export_text()
    summaries = [m.start() for m in re.finditer(r"Hand \d is over", out)]
    assert len(summaries) == len(game.hands)
    for start in summaries:
        before = out[:start]
        last_table = before.rindex("Stock ")
        # The final table says the hand is over and tells the moves that ended it.
        assert "The hand is over." in before[last_table:]
        told = " ".join(before[last_table:].split())
        assert re.search(r"(Ann|Bot) (drew|took|melded|played|discarded|ended)", told)


def test_the_result_of_the_game_gets_a_screen_of_its_own() -> None:
    asked: list[str] = []
    player = scripted_player([])

    def recording(view_of: ViewOf) -> Feeder:
        feed = player(view_of)

        def record(message: str) -> str:
            asked.append(message)
            return feed(message)

        return record

    loop, _console, _session, pipe_cm = table(recording)
    game = umtali.Game(seed=5)
    try:
        loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    waits = [m for m in asked if "Press Enter" in m]
    assert waits[-2][: len("Press Enter for the result of the game")] == (
        "Press Enter for the result of the game"
    )
    assert waits[-1] == "Press Enter to finish. "
    # Even a long game's result fits an 80x24 screen by itself.
    results = [(10, 5)] * 9
    end = Console(width=80, record=True, file=io.StringIO())
    end.print(render_game_end(results, ("Ann", "Bot"), 1, 1, (1, 0), Theme()))
    assert len(end.export_text().splitlines()) <= 24


def test_a_question_after_a_move_shows_no_stale_toolbar() -> None:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.output import DummyOutput

    from umtali.ui.screen import plain_prompt

    with GatedInput(lines=LOCAL) as pipe:
        session: PromptSession[str] = PromptSession(input=pipe, output=DummyOutput())
        pipe.send_text("draw\r")
        session.prompt("Ann> ", bottom_toolbar="play: 2 cards playable")
        assert session.bottom_toolbar is not None
        pipe.send_text("\r")
        plain_prompt(session, "Press Enter to deal the next hand. ")
        # prompt_toolkit keeps a session's last toolbar unless it is cleared.
        assert session.bottom_toolbar is None and session.completer is None


def test_a_second_draw_is_refused_in_a_sentence_that_says_what_is_legal_now() -> None:
    from umtali.engine.view import Step

    advisor = NormalBot()
    typed: list[str] = []

    def feeder_for(view_of: ViewOf) -> Feeder:
        def feed(message: str) -> str:
            if not message.endswith("> "):
                return "\r"
            view = view_of(message)
            assert view is not None
            if view.step is not Step.DRAW and view.turns and not typed:
                typed.append("draw")
                return "draw\r"  # a second draw in the turn
            return f"{advisor.choose(view, GameInfo()).action}\r"

        return feed

    loop, console, _session, pipe_cm = table(feeder_for)
    try:
        loop.play_game(umtali.Game(seed=5))
    finally:
        pipe_cm.__exit__(None, None, None)
    out = console.export_text()
    found = re.search(r"You have already drawn this turn: now (.*)\.", out)
    assert found is not None, out
    # What the turn allows now, named, with a move of each kind to copy.
    assert re.fullmatch(r"[a-z ,]+, such as [A-Za-z0-9 ,]+", found.group(1))
    assert "discard" in found.group(1)


def _quit_at(question: str, leave: str) -> Callable[[ViewOf], Feeder]:
    """Play as the bot would; type quit at the first question with ``question`` in it,
    and ``leave`` at the Leave? question that follows."""
    advisor = NormalBot()
    typed = [False]

    def make(view_of: ViewOf) -> Feeder:
        def feed(message: str) -> str:
            if question in message and not typed[0]:
                typed[0] = True
                return "quit\r"
            if "[y/N]" in message:
                return leave + "\r"
            if message.endswith("> "):
                view = view_of(message)
                assert view is not None
                return f"{advisor.choose(view, GameInfo()).action}\r"
            return "\r"

        return feed

    return make


@pytest.mark.parametrize("leave", ["y", "n"])
def test_quit_at_the_pause_after_a_hand_leaves_as_at_the_table(leave: str) -> None:
    loop, _console, session, pipe_cm = table(_quit_at("deal the next hand", leave))
    game = umtali.Game(seed=5)
    try:
        if leave == "y":
            with pytest.raises(QuitGame):
                loop.play_game(game)
        else:
            loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    asked = [p for p in session.prompts if "deal the next hand" in p]
    assert session.prompts[session.prompts.index(asked[0]) + 1].startswith("Leave the game?")
    if leave == "y":
        assert len(game.results) == 1 and game.hand is not None and game.hand.is_over
    else:
        assert game.is_over  # staying: the next hand was dealt and the game played on
        # ...from the same pause, asked again (where review may still be typed).
        assert session.prompts[session.prompts.index(asked[0]) + 2] == asked[0]


def test_quit_at_the_extra_card_question_leaves_and_the_question_names_no_one() -> None:
    loop, _console, session, pipe_cm = table(_quit_at("extra (11th) card", "y"))
    game = umtali.Game(seed=5)  # Ann wins the cut and is asked
    try:
        with pytest.raises(QuitGame):
            loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    assert game.hand is None  # nothing was dealt
    first = session.prompts[0]
    assert "[Enter: you, o: your opponent]" in " ".join(first.split()), first
    assert session.prompts[1].startswith("Leave the game?")


def test_staying_after_quit_at_the_extra_card_question_asks_it_again() -> None:
    loop, _console, session, pipe_cm = table(_quit_at("extra (11th) card", "n"))
    game = umtali.Game(seed=5)
    try:
        loop.play_game(game)
    finally:
        pipe_cm.__exit__(None, None, None)
    assert "extra (11th) card" in session.prompts[2]
    assert game.is_over and game.hands[0].deal.dealer == 1
