"""The plain screen (``--plain``): each turn said in one short line made from its
events, the hand and the question after it, the table only when asked for, and no
picture (box, rule, card back or toolbar) a screen reader would spell out."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompting import ViewOf, scripted_player, table

import umtali
from umtali.engine.events import Event
from umtali.ui.commands import LegalCompleter, help_page
from umtali.ui.human import QuitGame
from umtali.ui.narrate import phrase
from umtali.ui.spoken import SpokenScreen, table_words
from umtali.ui.theme import Theme

PICTURES = set("─━│┃┏┓┗┛┡┩├┤┼╇┳┻▒#")


def _turns(events: tuple[Event, ...], player: int) -> list[str]:
    """``player``'s turns as the move log says them: each run of moves after the name."""
    runs: list[list[str]] = []
    last = 0
    for event in events:
        if event.player == player:
            words = phrase(event, Theme())
            if last == player:
                runs[-1].append(words)
            else:
                runs.append([words])
        last = event.player
    return [f"Bot {', '.join(run)}." for run in runs]


def _played(typed: list[str], seed: int = 5) -> tuple[list[str], umtali.Game, object]:
    """A game against the bot on the plain screen, typed by ``typed`` then by the
    bot's advice; returns what was printed between each two questions."""
    chunks: list[str] = []
    player = scripted_player(typed)

    def feeder(view_of: ViewOf):  # type: ignore[no-untyped-def]
        feed = player(view_of)

        def answer(message: str) -> str:
            chunks.append(console.export_text(clear=True))
            return feed(message)

        return answer

    loop, console, session, pipe_cm = table(feeder, screen_type=SpokenScreen)
    game = umtali.Game(seed=seed)
    try:
        loop.play_game(game)
    except QuitGame:
        pass
    finally:
        pipe_cm.__exit__(None, None, None)
    chunks.append(console.export_text(clear=True))
    return chunks, game, session


@pytest.mark.slow  # a whole game at the prompt
def test_a_bot_turn_is_one_line_and_the_game_is_told_in_short_lines() -> None:
    chunks, game, session = _played([])
    assert game.is_over
    out = "".join(chunks)
    for hand in game.hands:
        for turn in _turns(hand.view(1).events, 2):
            assert turn in out  # each of the bot's turns, in one line, from its events
    for chunk in chunks:
        lines = chunk.splitlines()
        if any(line.startswith("Bot ") for line in lines):
            assert len(lines) <= 20, chunk  # a bot's turn, the hand and the question
        assert not PICTURES & set(chunk), chunk
        assert "Stock" not in chunk  # the table is not said unless asked
        assert [line for line in lines if line != line.rstrip()] == [], chunk
    assert "Hand 1 is over" in out and "Winner of game 1" in out
    assert re.search(r"(?m)^Your hand: .+\.$", out) and "Your turn: " in out
    # No toolbar under the prompt.
    assert all(bar is None for _, bar in session.toolbars)  # type: ignore[attr-defined]


def test_a_bot_turn_then_your_hand_and_the_question_in_a_few_lines() -> None:
    chunks, game, _ = _played(["all", "x 9c", "quit", "y"], seed=5)
    hand = game.hands[0]
    [bot_turn] = _turns(hand.view(1).events, 2)[:1]
    [chunk] = [c for c in chunks if bot_turn in c]
    lines = chunk.splitlines()
    assert lines[0] == "Ann discarded 9♣."
    assert lines[1] == bot_turn
    assert lines[2].startswith("Your hand: ") and lines[3] == "Your turn: draw, take"
    assert len(lines) == 4


def test_all_says_its_plays_then_the_hand_and_question_once() -> None:
    """``all`` plays card after card: each play is said, the hand and the question
    only when the prompt asks (not after every card)."""
    chunks, _, _ = _played(["all", "x 9c", "quit", "y"], seed=5)
    [chunk] = [c for c in chunks if "Ann melded K♠ Q♠." in c]
    lines = chunk.splitlines()
    assert lines[:2] == ["Ann melded K♠ Q♠.", "Ann melded A♠ A♦ A♣."]
    assert [line for line in lines if line.startswith("Your hand: ")] == [lines[2]]
    assert lines[3:] == ["Your turn: discard one card to end it"]


def test_the_table_is_said_in_words_when_asked_for() -> None:
    chunks, game, _ = _played(["table", "quit", "y"])
    [said] = [c for c in chunks if "Stock" in c]
    hand = game.hands[0]
    view = hand.view(1)
    assert said.splitlines() == table_words(view, _info(view), Theme())
    assert "Bot: 10 cards in hand" in said and "Bot has laid nothing." in said
    assert "Stock 31, the discard pile is empty." in said
    assert not PICTURES & set(said)


def _info(view: umtali.PlayerView):  # type: ignore[no-untyped-def]
    from umtali.ui.render import TableInfo

    return TableInfo(("Ann", "Bot"))


def test_the_table_command_is_offered_on_the_plain_screen_only() -> None:
    from prompting import recording_console

    from umtali.bots import NormalBot
    from umtali.ui.human import HumanSeat
    from umtali.ui.screen import LineScreen

    view = umtali.deal_hand(seed=7).view(1)
    offered = {}
    for kind in (SpokenScreen, LineScreen):
        screen = kind(recording_console(), None, Theme())
        seat = HumanSeat("Ann", screen, NormalBot(), lambda: None)
        tab = LegalCompleter(lambda: view, seat).get_completions(Document("ta"), CompleteEvent())
        helped = help_page(view, seat)
        rows = [str(cell) for column in helped.columns for cell in column._cells]
        offered[kind] = ([c.text for c in tab], "table" in rows)
    assert offered[SpokenScreen] == (["table"], True)
    assert offered[LineScreen] == ([], False)
    # Where the table is on the screen, the word is answered, and played as no move.
    loop, console, _session, pipe_cm = table(scripted_player(["table", "quit", "y"]))
    try:
        with pytest.raises(QuitGame):
            loop.play_game(umtali.Game(seed=5))
    finally:
        pipe_cm.__exit__(None, None, None)
    assert "The table is on the screen already" in console.export_text()


def _watched_game(names: tuple[str, str], seed: int) -> tuple[list[str], umtali.Game]:
    """A game of normal against easy said on a plain screen someone watches, as lines."""
    import io

    from rich.console import Console

    from umtali.bots import make_bot
    from umtali.ui.loop import TableLoop

    class Watched(SpokenScreen):
        interactive = True  # type: ignore[assignment]  # somebody watches

    console = Console(width=80, height=24, record=True, color_system=None, file=io.StringIO())
    seats = [make_bot("normal", 1), make_bot("easy", 2)]
    seats[0].name, seats[1].name = names
    screen = Watched(console, None, Theme(), sleep=lambda s: None)
    loop = TableLoop(screen, seats, (False, False), Theme(), delay=0, watcher=lambda: 1)
    game = umtali.Game(seed=seed)
    loop.play_game(game)
    return console.export_text().splitlines(), game


def test_a_watcher_hears_each_turn_of_either_bot_in_one_line() -> None:
    lines, game = _watched_game(("Bot", "Bot"), 3)
    for hand in game.hands:
        for turn in _turns(hand.view(1).events, 1) + _turns(hand.view(1).events, 2):
            assert turn in lines
    assert not [line for line in lines if line.startswith("Your ")]  # nobody is asked


def test_tables_and_panels_are_printed_without_borders() -> None:
    import io

    from rich.console import Console, Group
    from rich.panel import Panel
    from rich.table import Table

    from umtali.ui.spoken import unboxed

    scores = Table(title="Hand 1 is over", box=Theme().box)
    scores.add_column("player and the cards laid")
    scores.add_row("Ann")
    lesson = Panel(Group(scores, "Press on."), title="Lesson 4: The Rule")
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(unboxed(lesson))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert not PICTURES & set(out), out
    assert out.splitlines()[0] == "Lesson 4: The Rule"
    assert "Hand 1 is over" in out and "Ann" in out and "Press on." in out
    assert scores.box is Theme().box  # the table given is left as it was


def _said_as_played(seed: int) -> tuple[list[str], umtali.Hand]:
    """A hand played by its first legal moves, each table said from seat 1 (Ann's, the
    bot across) as the loop says it, the cards forfeited told once the hand is over."""
    import contextlib
    import io
    from dataclasses import replace

    from rich.console import Console

    from umtali.ui.render import TableInfo

    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    screen = SpokenScreen(console, None, Theme())
    hand = umtali.deal_hand(seed=seed)
    info = TableInfo(("Ann", "Bot"))
    while True:
        if hand.is_over:
            info = replace(info, forfeited=tuple(hand.forfeited))
        screen.table(hand.view(1), info)
        if hand.is_over:
            return console.export_text().splitlines(), hand
        if hand.to_move == 1:  # Ann's prompt, which says her hand and what is asked
            with contextlib.suppress(EOFError):  # nobody here to answer it
                screen.ask("Ann> ")
        hand.play(hand.legal()[0])


def test_going_out_and_the_forfeit_are_said_when_they_happen() -> None:
    lines, hand = _said_as_played(3)  # the bot goes out; Ann is left holding A♣ 3♣ 4♣
    assert hand.went_out == 2 and hand.forfeited
    out = lines.index("Bot went out.")
    assert lines[out - 1].startswith("Bot ")  # the turn that took the bot out
    assert lines[out + 2].endswith("LAST TURN")  # then Ann's hand, and her last turn
    assert lines.count("Bot went out.") == 1
    assert lines[-1] == "Ann forfeited A♣ 3♣ 4♣ (3 points) to Bot."
    # The prompt after the table says the hand is over ("Hand over. Press Enter for
    # the scores."), and the scores' title after it: the table does not say so too.
    assert "The hand is over." not in lines


def test_the_scores_and_help_are_said_a_line_a_row_without_columns() -> None:
    import io

    from rich.console import Console

    from umtali.learn.progress import Progress
    from umtali.learn.teach import course_menu
    from umtali.ui.render import TableInfo, render_hand_end

    _, hand = _said_as_played(3)
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    screen = SpokenScreen(console, None, Theme())
    info = TableInfo(("Ann", "Bot"))
    screen.show(
        render_hand_end(
            (hand.side(1), hand.side(2)), hand.scores, hand.went_out, hand.forfeited, info, 2,
            Theme(),
        )
    )  # fmt: skip
    screen.show(help_page(hand.view(1)))
    screen.show(course_menu(Progress({}), Theme()))
    lines = console.export_text().splitlines()
    assert lines[0] == "Hand 1 is over"  # a title, not centred over columns
    assert "player: cards laid (points), points" in lines
    assert "forfeited by Ann: A♣ 3♣ 4♣, 3" in lines
    assert "draw (d): take the top card of the stock" in lines
    assert any(line.startswith("Legal now: ") for line in lines)
    assert "1. Melds and points" in lines and "10. What to discard" in lines
    for line in lines:
        assert line == line.strip() and "  " not in line, line  # no column, no padding


def test_the_loop_says_each_hands_forfeit_in_a_classic_game() -> None:
    """Not only the score table: as each hand of a real game ends, the plain screen says
    what was forfeited (the hand's last turn, shown before the loop knew the forfeit,
    had marked the hand as told)."""
    from umtali.ui.narrate import Forfeit

    lines, game = _watched_game(("Ann", "Bot"), 3)
    told = 0
    for hand in game.hands:
        if hand.went_out is not None and hand.forfeited:
            by = 3 - hand.went_out
            words = Forfeit(by, tuple(hand.forfeited), hand.rules).words(("Ann", "Bot"), Theme())
            assert f"{('Ann', 'Bot')[by - 1]} {words}." in lines
            told += 1
    assert told > 0


def test_a_forfeit_is_worth_what_its_rules_count() -> None:
    """The move log's last entry: Rummy counts the cards left at its own values (J Q K
    10, the rest their number), Umtali's table at the plain ones (10 to K 5, the rest 1)."""
    from umtali.engine.cards import Card
    from umtali.engine.rules import CLASSIC, RUMMY
    from umtali.ui.narrate import Forfeit

    left = (Card.parse("8S"), Card.parse("KC"))
    names, theme = ("Ann", "Bot"), Theme(ascii=True)
    assert Forfeit(2, left, CLASSIC).words(names, theme) == "forfeited 8S KC (6 points) to Ann"
    assert Forfeit(2, left, RUMMY).words(names, theme) == "forfeited 8S KC (18 points) to Ann"
