"""The registry of table commands: everything the prompt, the help and Tab know of a
command comes from its one entry, and a new command needs nothing else."""

from __future__ import annotations

import io

import pytest
from dealing import deal, run
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompting import TypingSession, recording_console, scripted_player, table
from rich.text import Text
from test_render import check_golden, text_of

import umtali
from umtali.bots import NormalBot
from umtali.bots.forced import forced_action
from umtali.engine.rules import PRESETS
from umtali.engine.view import Step
from umtali.ui import commands
from umtali.ui.answers import Asked, turn_of
from umtali.ui.commands import (
    ALIASES,
    COMMANDS,
    MOVE_ROWS,
    HelpRow,
    LegalCompleter,
    TableCommand,
    completions_for,
    help_page,
    help_rows,
    parse_command,
)
from umtali.ui.gate import LOCAL, GatedInput
from umtali.ui.human import HumanSeat, QuitGame
from umtali.ui.screen import LineScreen
from umtali.ui.theme import Theme


def _view() -> umtali.PlayerView:
    return umtali.deal_hand(seed=7).view(1)  # meld KS QS and play JS are legal


def _tab(typed: str) -> list[str]:
    view = _view()
    completer = LegalCompleter(lambda: view)
    return [c.text for c in completer.get_completions(Document(typed), CompleteEvent())]


def _tea(asked: Asked) -> None:
    asked.screen.say(Text(f"Tea for {asked.seat.name}, {len(asked.view.hand)} cards in hand."))


TEA = TableCommand(
    "tea", _tea, aliases=("cuppa",), row=HelpRow("tea  (cuppa)", "a cup of tea, any time")
)


def test_a_command_added_to_the_registry_alone_is_parsed_listed_offered_and_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    aliases, moves = dict(ALIASES), MOVE_ROWS
    monkeypatch.setattr(commands, "COMMANDS", (*COMMANDS, TEA))
    view = _view()
    assert parse_command("tea", view).meta == "tea"
    assert parse_command("CUPPA", view).meta == "tea"
    with pytest.raises(umtali.InvalidNotation, match="did you mean cuppa"):
        parse_command("cupa", view)
    assert help_rows(view.rules)[-1] == ("tea  (cuppa)", "a cup of tea, any time")
    assert "a cup of tea, any time" in text_of(help_page(view), width=100)
    assert completions_for(view)[-1] == "tea"
    assert _tab("te") == ["tea"]

    loop, console, _session, pipe_cm = table(scripted_player(["cuppa", "quit", "y"]))
    try:
        with pytest.raises(QuitGame):
            loop.play_game(umtali.Game(seed=5))
    finally:
        pipe_cm.__exit__(None, None, None)
    assert "Tea for Ann, 11 cards in hand." in console.export_text()
    assert aliases == ALIASES and MOVE_ROWS is moves  # no other list was touched


def test_a_command_with_a_line_and_a_condition_comes_from_its_entry_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shout = TableCommand(
        "shout",
        lambda asked: asked.screen.say(Text(asked.text.upper())),
        row=HelpRow("shout hi", "shout"),
        tab=False,
        where=commands.Where.HOSTED,
        refusal="Nobody hears you.",
        text_missing="shout what?",
    )
    monkeypatch.setattr(commands, "COMMANDS", (*COMMANDS, shout))
    view = _view()
    assert parse_command("shout  hi there", view).text == "hi there"
    with pytest.raises(umtali.InvalidNotation, match="shout what"):
        parse_command("shout", view)
    assert "shout" not in completions_for(view)
    loop, console, _session, pipe_cm = table(scripted_player(["shout hi", "quit", "y"]))
    try:
        with pytest.raises(QuitGame):
            loop.play_game(umtali.Game(seed=5))
    finally:
        pipe_cm.__exit__(None, None, None)
    assert "Nobody hears you." in console.export_text()  # one keyboard: no one to hear


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_each_command_has_a_help_row_or_is_named_in_one(command: TableCommand) -> None:
    rows = [row for rules in PRESETS.values() for row in help_rows(rules)]
    if command.row is not None:
        assert any(row[0] == command.row.what for row in rows), "listed in no variant"
    # Its name is in a row of the help: its own, or one it shares (score, rules, help).
    assert any(command.name in what.replace("/", " ").split() for what, _ in rows)


@pytest.mark.parametrize(
    "word,name", [(w, c.name) for c in COMMANDS for w in c.words], ids=lambda x: str(x)
)
def test_each_command_is_reached_by_each_of_its_words(word: str, name: str) -> None:
    command = commands.table_command(word)
    assert command is not None
    line = f"{word} hello" if command.text_missing else word
    for typed in (line, line.upper()):
        parsed = parse_command(typed, _view())
        assert parsed.action is None and parsed.meta == name
        assert parsed.table is command


def test_no_word_names_two_things() -> None:
    words = [w for c in COMMANDS for w in c.words]
    assert len(words) == len(set(words))
    moves = {"draw", "take", "meld", "play", "discard", "end", *ALIASES}
    assert not moves & set(words)
    assert all(w == w.lower() for w in words)


def test_the_help_and_tab_list_as_before() -> None:
    """The help page of each variant, and what Tab offers, word for word."""
    pages = []
    for name, rules in PRESETS.items():
        view = umtali.deal_hand(seed=7, rules=rules).view(1)
        pages.append(f"== {name}\n{text_of(help_page(view), width=100)}")
    check_golden("help", "".join(pages))
    assert completions_for(_view()) == [
        *("meld KS QS", "play JS", "all", "hint", "why", "undo", "help"),
        *("score", "rules", "quit", "resign"),
    ]
    assert _tab("h") == ["hint", "help"] and _tab("r") == ["rules", "resign"]


@pytest.mark.parametrize(
    "opponent,says",
    [(None, "why explains the bot's moves; your opponent is a person."), (("Bot", "normal"), "")],
)
def test_where_a_command_is_refused_the_seat_says_why(
    opponent: tuple[str, str] | None, says: str
) -> None:
    from prompting import TypingSession

    from umtali.bots import NormalBot
    from umtali.ui.gate import LOCAL, GatedInput
    from umtali.ui.human import HumanSeat
    from umtali.ui.screen import LineScreen
    from umtali.ui.theme import Theme

    console = recording_console()
    replies = iter(["why", "say hi", "quit", "y"])
    with GatedInput(lines=LOCAL) as pipe:
        session = TypingSession(pipe, lambda message: next(replies) + "\r")
        screen = LineScreen(console, session, Theme())
        seat = HumanSeat("Ann", screen, NormalBot(), lambda: None, Theme(), opponent)
        with pytest.raises(QuitGame):
            seat.choose(_view(), umtali.GameInfo())
    out = console.export_text()
    assert "say sends a line to a player at another terminal: none here." in out
    assert (says in out) if says else "your opponent is a person" not in out


# ------------------------------------------------------------------ all

#: Seed 304, played to where player 1 holds K♠ K♣ and nothing else: the pair that
#: takes them out, or the two kings played one by one off the table.
PAIR_LEFT = (
    "play JS; play JH; play 10H; play 10D; play 9H; play 9C; discard 8S; draw; play 10C; "
    "play 8H; play JD; discard AS; take; play 8D; discard AD; draw; play JC; play QC; "
    "discard 5H; draw; play 10S; discard 2S; take; discard 6C; draw; discard 5S; take; "
    "discard KH; draw; play 9D; discard 7S; take; discard KD; take; discard AS; draw; "
    "discard 5S; draw; discard 3C; draw; discard 7S; take; discard KD; draw; discard 2S; "
    "take; discard 7S; draw; meld 6D 5D 4D; discard KS; take; discard 2S; draw; play QS; "
    "discard 2C; draw"
)


def _taken_four_of_clubs(also: str) -> umtali.PlayerView:
    """Player 1 takes 4♣ holding 3♣ 2♣ (and ``also``)."""
    p1 = f"3C 2C {also} 9H 7D KH 8S 10D QC AS"
    hand = deal(p1, "4C 9D 6S 8H 5H 10S 2S 3S 7C KD", "8D")
    return run(hand, "discard AS; draw; discard 4C; take").view(1)


def test_a_meld_that_holds_every_card_any_choice_would_lay_is_forced() -> None:
    view = run(umtali.deal_hand(seed=304), PAIR_LEFT).view(1)
    assert view.legal_actions == ("play KS", "play KC", "meld KS KC")
    assert str(forced_action(view)) == "meld KS KC"
    assert "all" in completions_for(view)


def test_a_real_choice_is_not_forced_and_all_names_it() -> None:
    alone = _taken_four_of_clubs("5D 6H")
    assert str(forced_action(alone)) == "meld 4C 3C 2C"
    view = _taken_four_of_clubs("4H 4D")
    assert view.legal_actions == ("meld 4C 3C 2C", "meld 4H 4D 4C")
    assert forced_action(view) is None
    assert "all" not in completions_for(view)  # Tab offers it only where it acts
    console = recording_console()
    replies = iter(["all", "quit", "y"])
    with GatedInput(lines=LOCAL) as pipe:
        session = TypingSession(pipe, lambda message: next(replies) + "\r")
        seat = HumanSeat("Ann", LineScreen(console, session, Theme()), NormalBot(), lambda: None)
        with pytest.raises(QuitGame):
            seat.choose(view, umtali.GameInfo())
    said = " ".join(console.export_text().split())
    assert "Nothing is forced here: you choose, meld 4C 3C 2C or meld 4H 4D 4C." in said


def test_tab_offers_all_only_where_it_would_act() -> None:
    hand = umtali.deal_hand(seed=7)
    assert "all" in completions_for(hand.view(1))
    hand.play(hand.legal()[0])
    while hand.to_move and hand.view(hand.to_move).step is not Step.DISCARD:
        hand.play(hand.legal()[0])
    view = hand.view(hand.to_move or 1)
    assert forced_action(view) is None and "all" not in completions_for(view)


def test_all_holds_for_the_turn_it_was_asked_in_and_never_for_a_later_one() -> None:
    """``all`` asked as a hand ends must not make the next hand's first plays unseen."""
    hand = umtali.deal_hand(seed=0)  # player 1 holds the extra card, and J♦ must go down
    view = hand.view(1)
    assert forced_action(view) is not None
    asked: list[str] = []
    replies = iter(["quit", "y"])
    with GatedInput(lines=LOCAL) as pipe:
        session = TypingSession(
            pipe, lambda message: (asked.append(message), next(replies))[1] + "\r"
        )
        seat = HumanSeat(
            "Ann", LineScreen(recording_console(), session, Theme()), NormalBot(), lambda: None
        )
        this_hand = umtali.GameInfo(hand_number=1)
        seat.auto = turn_of(view, this_hand)
        assert seat.choose(view, this_hand).action == forced_action(view)  # its own turn
        with pytest.raises(QuitGame):  # the next hand's turn: the player is asked
            seat.choose(view, umtali.GameInfo(hand_number=2, totals=(30, 12)))
    assert asked and seat.auto is None


def test_tab_never_offers_a_command_the_seat_would_refuse() -> None:
    view = umtali.deal_hand(seed=7).view(1)
    screen = LineScreen(recording_console(), None, Theme())
    against_a_person = HumanSeat("Ann", screen, NormalBot(), lambda: None)
    against_the_bot = HumanSeat("Ann", screen, NormalBot(), lambda: None, Theme(), ("Bot", "hard"))
    assert "why" not in completions_for(view, against_a_person)
    assert "why" in completions_for(view, against_the_bot)
    assert "say" not in completions_for(view, against_the_bot)  # a hosted game's only


@pytest.mark.parametrize("width", [64, 80])
def test_a_plain_question_wider_than_the_terminal_breaks_between_words(width: int) -> None:
    from rich.console import Console

    console = Console(width=width, height=20, record=True, color_system=None, file=io.StringIO())
    with GatedInput(lines=LOCAL) as pipe:
        session = TypingSession(pipe, lambda message: "o\r")
        seat = HumanSeat("Ann", LineScreen(console, session, Theme()), NormalBot(), lambda: None)
        assert seat.choose_eleven(1, umtali.GameInfo()) == 2
    asked = session.prompts[0]
    question = "Who takes the extra (11th) card and plays first? [Enter: you, o: your opponent] "
    assert asked.replace("\n", " ") == question  # every word, in whole words
    assert asked.endswith("] ")
    assert all(len(row) < width for row in asked.split("\n"))
    assert len(asked.split("\n")) == 2


def test_help_lists_say_only_where_it_works() -> None:
    """Issue 46: against the bot, help listed "say hello ... when you play at two
    terminals", which is then refused."""
    view = umtali.deal_hand(seed=7).view(1)
    screen = LineScreen(recording_console(), None, Theme())
    against_the_bot = HumanSeat("Ann", screen, NormalBot(), lambda: None, Theme(), ("Bot", "hard"))
    assert "say hello" not in text_of(help_page(view, against_the_bot), width=100)
    hosted = HumanSeat("Ann", screen, NormalBot(), lambda: None)
    hosted.chat = lambda name, line: None
    assert "say hello" in text_of(help_page(view, hosted), width=100)
