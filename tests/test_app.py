"""The full-screen table: its frame (pure), its move log, its toolbar, and the
application itself driven through a pipe, as prompt_toolkit's own tests do."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TypeVar

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.output import DummyOutput
from rich.text import Text

import umtali
from umtali.bots import NormalBot
from umtali.bots.seat import GameInfo
from umtali.engine.cards import Card, cards_of, mask_of_indices
from umtali.engine.events import Event, EventKind
from umtali.engine.hand import machine_of
from umtali.engine.view import Step
from umtali.ui.app import AppScreen
from umtali.ui.app_keys import Watching
from umtali.ui.drawings import Drawings
from umtali.ui.gate import LOCAL, GatedInput
from umtali.ui.human import toolbar
from umtali.ui.layout import UNDER, WIDEST, PanelShown, TableShown, bounds, frame, log_rows
from umtali.ui.narrate import move_log
from umtali.ui.render import TableInfo
from umtali.ui.theme import Theme

T = TypeVar("T")

ASCII = Theme(ascii=True)
INFO = TableInfo(("Ann", "Ben"))
ANSI_CODE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def plain(lines: list[str]) -> str:
    return "\n".join(ANSI_CODE.sub("", line) for line in lines)


def labels(cards: object) -> set[str]:
    return {ASCII.plain(c) for c in cards}  # type: ignore[attr-defined]


def words(text: str) -> set[str]:
    return set(re.findall(r"[0-9AJQK]+[SHDC]\b", text))


# ------------------------------------------------------------------ the frame


@pytest.mark.parametrize(("width", "height"), [(80, 24), (64, 20), (120, 40)])
def test_the_frame_fills_the_screen_above_the_command_line(width: int, height: int) -> None:
    hand = umtali.deal_hand(seed=4)
    lines = frame(TableShown(hand.view(1), INFO), ["a message"], ASCII, width, height, None)
    assert len(lines) == height - UNDER
    text = plain(lines)
    assert all(len(line) <= width for line in text.splitlines())
    margin = " " * ((width - min(width, WIDEST)) // 2)  # a wide screen's one column
    assert "last moves" in text and text.splitlines()[-1] == margin + "a message"


def test_the_frame_from_one_seat_shows_nothing_the_seat_may_not_see() -> None:
    hand = umtali.deal_hand(seed=4)
    for _ in range(6):  # a few moves in: draws from the stock on both sides
        hand.play(NormalBot().choose(hand.view(hand.to_move or 1), GameInfo()).action)
    view = hand.view(1)
    text = plain(frame(TableShown(view, INFO), [], ASCII, 80, 24, None))
    shown = words(text)
    hidden = labels(hand.cards_in_hand(2)) | labels(
        cards_of(mask_of_indices(machine_of(hand).stock))
    )
    # Anything of the other hand or the stock on screen must be public: on the table
    # or known to have been taken from the pile.
    public = labels(view.opponent_known) | {
        ASCII.plain(c) for side in view.sides for piece in side for c in piece.cards
    }
    assert not (shown & hidden) - public
    assert labels(hand.cards_in_hand(1)) <= shown  # the seat's own hand is there


def test_a_blank_frame_shows_no_card_and_no_message_is_lost_to_it() -> None:
    text = plain(frame(None, ["Pass to Ben"], ASCII, 80, 24, None))
    assert not words(text) and "Pass to Ben" in text


def test_a_too_small_screen_says_so_instead_of_the_table() -> None:
    hand = umtali.deal_hand(seed=4)
    text = plain(frame(TableShown(hand.view(1), INFO), [], ASCII, 60, 18, None))
    assert "This terminal is 60x18" in text and not words(text)


def test_a_panel_keeps_its_messages_however_many() -> None:
    said = [f"line {n}" for n in range(8)]
    text = plain(frame(PanelShown(Text("Scores")), said, ASCII, 80, 24, None))
    assert all(line in text for line in said) and "Scores" in text


@pytest.mark.parametrize(("width", "height"), [(80, 24), (64, 20), (60, 18), (140, 50)])
def test_a_frame_from_lines_drawn_before_is_the_frame_drawn_afresh(width: int, height: int) -> None:
    """A screen redrawn for a new message or prompt takes the table it drew already
    (umtali.ui.drawings); the lines must be those drawn anew, whatever was kept."""
    drawings = Drawings(most=8)  # small: entries come and go as the game goes on
    hand = umtali.deal_hand(seed=4)
    said: list[object] = [Text("Cut for the deal: Ann deals.", "bold")]
    panel = PanelShown(Text("Scores\nAnn 12, Ben 40"))
    for n in range(24):
        if hand.to_move is None:
            break
        view = hand.view(1)
        for shown in (TableShown(view, INFO), panel, None):
            for messages in (said[-n % 7 :], said):
                drawn = frame(shown, messages, ASCII, width, height, None, drawings)  # type: ignore[arg-type]
                again = frame(shown, messages, ASCII, width, height, None, drawings)  # type: ignore[arg-type]
                afresh = frame(shown, messages, ASCII, width, height, None)  # type: ignore[arg-type]
                assert drawn == again == afresh
        hand.play(NormalBot().choose(hand.view(hand.to_move), GameInfo()).action)
        said.append(f"move {n}" if n % 2 else Text(f"Ben: move {n} " * 6, "magenta"))
    assert len(drawings) == 8


def test_the_move_log_grows_with_the_screen() -> None:
    assert log_rows(20) == 2 and log_rows(24) == 3 and log_rows(60) == 8


# ----------------------------------------------------------------- the log


def _event(player: int, kind: EventKind, *cards: str, **more: object) -> Event:
    return Event(player, kind, 1, tuple(Card.parse(c) for c in cards), **more)  # type: ignore[arg-type]


def test_the_move_log_keeps_each_turn_whole_and_the_newest_last() -> None:
    events = [
        _event(1, EventKind.DRAW, "5C"),
        _event(1, EventKind.DISCARD, "9C"),
        _event(2, EventKind.DRAW),
        _event(2, EventKind.MELD, "KS", "QS"),
        _event(2, EventKind.DISCARD, "4H"),
    ]
    lines = [t.plain for t in move_log(events, ("Ann", "Ben"), ASCII, 80, 3)]
    assert lines == [
        " Ann: drew 5C, discarded 9C",
        " Ben: drew from the stock, melded KS QS, discarded 4H",
    ]
    # Too narrow for a turn on one line: it wraps, indented, and the older turn that no
    # longer fits whole is left out rather than shown in part.
    narrow = [t.plain for t in move_log(events, ("Ann", "Ben"), ASCII, 30, 2)]
    assert narrow == [" Ben: drew from the stock,", "   melded KS QS, discarded 4H"]
    assert move_log(events, ("Ann", "Ben"), ASCII, 30, 3)[0].plain.startswith(" Ann:")


def test_the_move_log_says_who_went_out_in_the_turn_they_did() -> None:
    """The turn that went out says so, though later turns (the other's last) follow it;
    before anyone went out no turn says it."""
    events = [
        _event(1, EventKind.DRAW, "5C"),
        _event(1, EventKind.DISCARD, "9C"),
        _event(2, EventKind.DRAW),
        _event(2, EventKind.MELD, "KS", "QS", "JS"),
        _event(2, EventKind.DISCARD),
        _event(1, EventKind.DRAW, "4H"),
    ]
    names = ("Ann", "Ben")
    lines = [t.plain for t in move_log(events, names, ASCII, 80, 3, went_out=2)]
    assert lines == [
        " Ann: drew 5C, discarded 9C",
        " Ben: drew from the stock, melded KS QS JS, discarded face down, went out",
        " Ann: drew 4H",
    ]
    assert "went out" not in " ".join(t.plain for t in move_log(events, names, ASCII, 80, 3))


def test_the_move_log_says_no_card_the_viewer_did_not_see() -> None:
    hand = umtali.deal_hand(seed=4)
    while hand.to_move == 1 or not hand.events():
        hand.play(NormalBot().choose(hand.view(hand.to_move or 1), GameInfo()).action)
    hand.play(umtali.Action.parse("draw"))  # player 2 draws from the stock
    drawn = hand.events()[-1].cards
    log = " ".join(t.plain for t in move_log(hand.view(1).events, INFO.names, ASCII, 80, 8))
    assert "Ben: drew from the stock" in log
    assert not labels(drawn) & words(log)


# ------------------------------------------------------------- the toolbar


@pytest.mark.parametrize("width", [64, 70, 80, 100])
def test_the_toolbar_fits_the_screen(width: int) -> None:
    hand = umtali.deal_hand(seed=4)
    while hand.view(hand.to_move or 1).step is not Step.PLAY:
        hand.play(hand.legal()[0])
    line = toolbar(hand.view(hand.to_move or 1), Theme(), width)
    assert len(line) <= width - 2 and line.startswith("play:")
    if width >= 100:
        assert line.endswith("Tab: moves · help")


# -------------------------------------------------------- the application


@contextmanager
def app_screen(watching: Watching | None = None) -> Iterator[tuple[AppScreen, GatedInput]]:
    with GatedInput(lines=LOCAL) as pipe:
        output = DummyOutput()
        output.get_size = lambda: Size(rows=24, columns=80)  # type: ignore[method-assign]
        with create_app_session(input=pipe, output=output):
            yield AppScreen(ASCII, None, watching, input=pipe, output=output), pipe


#: Seconds a test waits for a state before it fails: long, since it only matters when
#: the state never comes, and a loaded machine may take seconds to reach it.
PATIENCE = 60.0


def until(condition: Callable[[], object], what: str, timeout: float = PATIENCE) -> None:
    """Wait until ``condition()`` holds (polled), failing with ``what`` if it never does."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"never came: {what}"
        time.sleep(0.01)


def waiting_for_keys(screen: AppScreen) -> bool:
    """Whether the screen waits for the person: a question not yet answered, or a page
    not yet closed (one answered or closed may stay a moment, until the game wakes)."""
    question, page = screen._question, screen._page
    return (question is not None and question.answer is None) or (
        page is not None and not page.closed
    )


def read_all(screen: AppScreen, pipe: GatedInput) -> None:
    """Wait until the application has read and handled every key sent so far: the pipe
    is empty, and a call queued on the application's loop after that has run (keys are
    read and handled within one call on that loop)."""
    until(lambda: not pipe._passed, "the application reads the keys sent")
    done = threading.Event()
    loop = screen.app.loop
    if loop is None or loop.is_closed():
        return  # the application has ended: nothing more is read
    with contextlib.suppress(RuntimeError):  # it ended just now
        loop.call_soon_threadsafe(done.set)
    until(lambda: done.is_set() or loop.is_closed(), "the application handles the keys")


def typist(screen: AppScreen, pipe: GatedInput, keys: list[str]) -> threading.Thread:
    """Types each string of ``keys`` once the screen waits for it (a question, or a
    page, or, for a string starting with '!', at once), each once the application has
    handled the one before."""

    def run() -> None:
        for key in keys:
            if key[0] != "!":
                end = time.monotonic() + PATIENCE
                while not waiting_for_keys(screen) and time.monotonic() < end:
                    time.sleep(0.01)
            pipe.send_text(key.removeprefix("!"))
            read_all(screen, pipe)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def run_app(body: Callable[[AppScreen], object], keys: list[str]) -> object:
    with app_screen() as (screen, pipe):
        typist(screen, pipe, keys)
        # A question never answered ends the app after a while: the game then gets
        # end-of-input, and the test fails rather than hangs.
        timer = threading.Timer(PATIENCE, lambda: screen._on_loop(screen.app.exit))
        timer.start()
        try:
            return screen.run(lambda: body(screen))
        finally:
            timer.cancel()


def test_a_question_gets_the_line_typed_at_the_command_line() -> None:
    assert run_app(lambda s: s.ask("Ann> "), ["draw\r"]) == "draw"


def test_ctrl_c_and_ctrl_d_at_a_question() -> None:
    def body(screen: AppScreen) -> list[str]:
        got = []
        for _ in range(2):
            try:
                screen.ask("Ann> ")
            except (KeyboardInterrupt, EOFError) as err:
                got.append(type(err).__name__)
        return got

    assert run_app(body, ["\x03", "\x04"]) == ["KeyboardInterrupt", "EOFError"]


def test_a_page_opens_in_the_app_and_q_closes_it() -> None:
    def body(screen: AppScreen) -> str:
        screen.page(Text("\n".join(f"rule {n}" for n in range(100))), "rules")
        return screen.ask("Ann> ")

    # While the page is open a typed 'draw' goes nowhere; q closes it.
    assert run_app(body, ["x", "\x1b[6~", "q", "hint\r"]) == "hint"


def test_what_the_game_raises_is_raised_once_the_app_has_gone() -> None:
    def body(screen: AppScreen) -> None:
        raise ValueError("inside")

    with pytest.raises(ValueError, match="inside"):
        run_app(body, [])


def test_a_question_after_the_app_has_gone_is_answered_with_end_of_input() -> None:
    with app_screen() as (screen, _pipe):
        screen.run(lambda: None)
        with pytest.raises(EOFError):
            screen.ask("Ann> ")


def drawn_version(screen: AppScreen) -> int:
    """The version of what is shown that the last frame drew (-1: none yet)."""
    drawn = screen._drawn
    return -1 if drawn is None else int(drawn[0][1])  # type: ignore[call-overload]


def test_the_games_thread_asks_for_a_redraw_only_on_the_applications_loop() -> None:
    """prompt_toolkit's invalidate reads ``app.loop`` twice: called from the game's
    thread as a connection dropped, it raised "no running event loop" there, and the
    hosted game ended for everyone. The game's thread only asks the loop to do it."""
    called_in: list[threading.Thread] = []
    with app_screen() as (screen, _pipe):
        invalidate = screen.app.invalidate

        def recording() -> None:
            called_in.append(threading.current_thread())
            invalidate()

        screen.app.invalidate = recording  # type: ignore[method-assign]

        def body() -> None:
            until(lambda: screen._drawn is not None, "the first frame is drawn")
            screen.say(Text("Ann is at the table."))
            said = screen._version
            until(lambda: called_in, "a redraw is asked for")
            until(lambda: drawn_version(screen) >= said, "the line is drawn")

        screen.run(body)
    assert called_in and set(called_in) == {threading.main_thread()}


def test_a_watcher_pauses_and_steps_one_move_at_a_time() -> None:
    watching = Watching(paused=True)
    seen: list[tuple[int, bool]] = []
    with app_screen(watching) as (screen, pipe):
        moves: list[int] = []
        started = threading.Event()

        def body() -> None:
            started.set()
            for n in range(3):
                screen.wait(0.01)
                moves.append(n)

        def keys() -> None:
            started.wait(PATIENCE)
            time.sleep(0.3)  # a while for a move that should not come (none may)
            seen.append((len(moves), watching.paused))  # paused: no move yet
            pipe.send_text("s")  # one step
            until(lambda: moves, "the step's move")
            time.sleep(0.3)  # a while for a second move that should not come
            seen.append((len(moves), watching.paused))  # one move, still paused
            pipe.send_text(" ")  # go on

        thread = threading.Thread(target=keys, daemon=True)
        thread.start()
        screen.run(body)
        thread.join()
    assert seen == [(0, True), (1, True)]
    assert not watching.paused and len(moves) == 3


def test_q_stops_watching() -> None:
    with app_screen(Watching()) as (screen, pipe):
        pipe.send_text("q")
        with pytest.raises(KeyboardInterrupt):
            # Waits far longer than q takes to arrive: ended by it, never by the count.
            screen.run(lambda: [screen.wait(0.2) for _ in range(int(PATIENCE / 0.2))])


def test_a_line_typed_before_it_is_asked_for_answers_the_next_move() -> None:
    """Lines typed while the bot thinks: the last one waits (shown), and answers the
    next move prompt; the others were replaced, and said so."""
    from prompt_toolkit.completion import WordCompleter

    with app_screen() as (screen, pipe):

        def body() -> list[str]:
            deadline = time.monotonic() + PATIENCE
            while screen._ahead != "x 9c" and time.monotonic() < deadline:
                time.sleep(0.01)  # busy (a bot thinking) while three lines are typed
            said = [str(m) for m in screen._messages]
            typist(screen, pipe, ["m ks qs\r"])
            moves = WordCompleter(["draw"])
            return [*said, screen.ask("Ann> ", completer=moves), screen.ask("Ann> ")]

        pipe.send_text("m ks qs\rm as ad ac\rx 9c\r")
        answers = run_watched(screen, body)
    assert answers[-2:] == ["x 9c", "m ks qs"]
    said = answers[:-2]
    assert said == [
        "Typed ahead: 'x 9c' answers your next move (instead of 'm as ad ac'). Ctrl-C drops it."
    ]


def run_watched(screen: AppScreen, body: Callable[[], T]) -> T:
    """``screen.run(body)``, ended after a while if a question is never answered: the
    game then gets end-of-input, and the test fails rather than hangs."""
    timer = threading.Timer(PATIENCE, lambda: screen._on_loop(screen.app.exit))
    timer.start()
    try:
        return screen.run(body)
    finally:
        timer.cancel()


def test_a_handover_forgets_what_the_last_player_typed() -> None:
    with app_screen() as (screen, pipe):

        def body() -> str:
            # Ann's line has arrived, and waits for her next move.
            until(lambda: screen._ahead == "discard KH", "the line typed ahead")
            screen.blank()  # the handover: Ann's typed-ahead line is not Ben's answer
            typist(screen, pipe, ["ready\r"])
            return screen.ask("Pass to Ben - press Enter ")

        pipe.send_text("discard KH\r")
        assert screen.run(body) == "ready"
        assert "discard KH" not in screen.buffer.history.get_strings()


def test_enter_sends_the_line_even_with_a_selection_begun() -> None:
    # Ctrl-Space starts a selection, in which prompt_toolkit's own Enter does nothing.
    assert run_app(lambda s: s.ask("Ann> "), ["draw\x00\r"]) == "draw"


def test_w_turns_the_watcher_to_the_other_bots_hand() -> None:
    watching = Watching()
    with app_screen(watching) as (screen, pipe):
        pipe.send_text("w")

        def body() -> None:
            end = time.monotonic() + PATIENCE
            while watching.seat != 2 and time.monotonic() < end:  # until w is read
                screen.wait(0.05)

        screen.run(body)
        assert watching.seat == 2
        bar = "".join(text for _, text in screen._toolbar())
        assert "w: other hand" in bar and "q: stop" in bar


def test_a_page_toolbar_shortens_to_fit_and_always_says_q_back() -> None:
    from umtali.ui.app import _Page

    with app_screen() as (screen, _pipe):
        screen._page = _Page(Text("rule"), "Lesson 1: Melds and points")
        seen = set()
        for columns in range(30, 121):
            screen.app.output.get_size = lambda c=columns: Size(rows=22, columns=c)  # type: ignore[method-assign]
            bar = "".join(text for _, text in screen._toolbar()).rstrip()
            assert bar.endswith("q: back"), (columns, bar)
            seen.add(bar)
            if columns >= 64:  # the lesson's title and the lines shown, on every table
                assert "Lesson 1: Melds and points" in bar and "lines 1-1 of 1" in bar
        assert any("arrows PgUp PgDn Space" in bar for bar in seen)  # where there is room


@pytest.mark.parametrize("scale", [1 / 8, 1 / 4, 1 / 2, 1.0, 2.0, 4.0, 8.0])
@pytest.mark.parametrize("paused", [False, True], ids=["running", "paused"])
def test_the_watch_toolbar_names_every_key_at_every_speed(scale: float, paused: bool) -> None:
    watching = Watching(paused=paused, scale=scale)
    with app_screen(watching) as (screen, _pipe):
        for columns in range(64, 121):
            screen.app.output.get_size = lambda c=columns: Size(rows=24, columns=c)  # type: ignore[method-assign]
            bar = "".join(text for _, text in screen._toolbar()).rstrip()
            assert len(bar) <= columns, (columns, bar)
            state = "paused" if paused else watching.speed()
            assert state in bar, (columns, bar)
            space = "go on" if paused else "pause"
            for key, does in [("Space", space), ("s", "step"), ("+/-", "speed")]:
                assert re.search(rf"(^| ){re.escape(key)}: ?{does}\b", bar), (columns, bar)
            for key, does in [("w", "other hand"), ("q", "stop")]:
                assert re.search(rf" {key}: ?{does}\b", bar), (columns, bar)
        # Where there is room, in full words.
        assert "watching at" in bar or paused


def test_the_replay_keys_act_at_once_without_enter() -> None:
    from umtali.bots.arena import play_game
    from umtali.engine.record import PlayerInfo
    from umtali.ui.replay import ReplayViewer

    game = play_game(umtali.Game(seed=2), [NormalBot(), NormalBot()])
    players = (PlayerInfo("bot", "A", "normal"), PlayerInfo("bot", "B", "normal"))
    with GatedInput(lines=LOCAL) as pipe:
        output = DummyOutput()
        output.get_size = lambda: Size(rows=24, columns=80)  # type: ignore[method-assign]
        with create_app_session(input=pipe, output=output):
            screen = AppScreen(ASCII, None, input=pipe, output=output)
            viewer = ReplayViewer(game, players, screen, ASCII)
            asked: list[str] = []
            ask = screen.ask

            def asking(message: str, *args: object) -> str:
                asked.append(message.split("]")[0].lstrip("["))
                return ask(message)

            screen.ask = asking  # type: ignore[method-assign,assignment]
            # Enter, Enter, then b and n and q alone: each letter acts as it is typed.
            typist(screen, pipe, ["\r", "\r", "b", "n", "q"])
            assert run_watched(screen, viewer.run) == []
    total = sum(len(h.actions()) + 1 for h in game.hands)
    second_hand = len(game.hands[0].actions()) + 2
    assert asked == [f"{n}/{total}" for n in (1, 2, 3, 2, second_hand)]
    assert screen.buffer.text == ""  # nothing piled up on the command line


def _leave_then_a_lesson(screen: AppScreen) -> tuple[bool, str]:
    from umtali.ui.screen import ask_yes

    answer = ask_yes(screen, "Leave the game?")
    return answer, screen.ask("Lesson number (Enter: lesson 1; q: leave): ")


@pytest.mark.parametrize(("key", "yes"), [("y", True), ("Y", True), ("n", False)])
def test_a_yes_no_question_takes_its_key_without_enter(key: str, yes: bool) -> None:
    assert run_app(_leave_then_a_lesson, [key, "3\r"]) == (yes, "3")


@pytest.mark.parametrize("key", ["y", "n"])
def test_the_enter_typed_by_habit_after_y_or_n_answers_nothing_more(key: str) -> None:
    # "y" and Enter come together: the Enter does not start lesson 1 at the next question.
    assert run_app(_leave_then_a_lesson, [key + "\r", "3\r"]) == (key == "y", "3")


def test_a_yes_no_question_still_takes_a_line() -> None:
    from umtali.ui.screen import ask_yes

    # A key that is not y or n is typed as usual, and Enter sends the line (no).
    assert run_app(lambda screen: ask_yes(screen, "Leave the game?"), ["x\r"]) is False
    assert run_app(lambda screen: ask_yes(screen, "Leave the game?"), ["\r"]) is False


@pytest.mark.parametrize("key", ["\x03", "\x04"])
def test_ctrl_c_or_d_at_a_yes_no_question_is_no_unless_it_asks_whether_to_leave(
    key: str,
) -> None:
    # A reflex (or a hang-up) must not resign a game; asked whether to leave, it leaves.
    from umtali.ui.screen import ask_yes

    assert run_app(lambda screen: ask_yes(screen, "Resign this game?"), [key]) is False
    leave = lambda screen: ask_yes(screen, "Leave the game?", interrupted=True)  # noqa: E731
    assert run_app(leave, [key]) is True


def test_the_watched_table_follows_the_seat_asked_for() -> None:
    from umtali.bots import make_bot
    from umtali.ui.loop import TableLoop

    class Recording:
        """A screen that keeps whose view each table was drawn from."""

        interactive = True

        def __init__(self) -> None:
            self.seats: list[int] = []

        def size(self) -> tuple[int, int]:
            return 80, 24

        def table(self, view, info, note=None):  # type: ignore[no-untyped-def]
            self.seats.append(view.player)
            assert info.seat == "watched"

        def show(self, renderable: object) -> None: ...
        def blank(self) -> None: ...
        def say(self, message: object) -> None: ...
        def ask(self, message, toolbar=None, completer=None):  # type: ignore[no-untyped-def]
            raise AssertionError("nobody is asked anything while watching")

        def page(self, renderable: object, title: str) -> None: ...
        def wait(self, seconds: float) -> None: ...

    screen = Recording()
    seat = [1]

    def whose() -> int:
        if len(screen.seats) == 10:
            seat[0] = 2  # the watcher pressed w
        return seat[0]

    bots = [make_bot("easy", 1), make_bot("easy", 2)]
    loop = TableLoop(screen, bots, (False, False), ASCII, delay=0, watcher=whose)  # type: ignore[arg-type]
    loop.play_game(umtali.Game(seed=3))
    assert set(screen.seats[:10]) == {1} and set(screen.seats[11:]) == {2}


@pytest.mark.parametrize(
    "keys",
    [
        ["\t", "!\x1b", "!all\r"],  # Escape closes Tab's menu, and the next word is whole
        ["!\x1bas ah ad\r"],  # an Escape and the line after it in one read
        ["!\x1b", "!a", "!s ah ad\r"],  # each key on its own, typed quickly
    ],
)
def test_escape_never_eats_the_key_typed_after_it(keys: list[str]) -> None:
    from prompt_toolkit.completion import WordCompleter

    def body(screen: AppScreen) -> str:
        return screen.ask("Ann> ", completer=WordCompleter(["all", "as", "draw"]))

    typed = "".join(k.removeprefix("!") for k in keys if k != "\t")
    wanted = typed.replace("\x1b", "").removesuffix("\r")
    assert run_app(body, keys) == wanted


def _bots_long_turn() -> list[Event]:
    return [
        _event(1, EventKind.DRAW, "3D"),
        _event(1, EventKind.DISCARD, "9C"),
        _event(2, EventKind.TAKE, "9C"),
        _event(2, EventKind.PLAY, "JS"),
        _event(2, EventKind.PLAY, "10S", onto=Card.parse("JS")),
        _event(2, EventKind.PLAY, "9S", onto=Card.parse("10S")),
        _event(2, EventKind.PLAY, "8S", onto=Card.parse("9S")),
        _event(2, EventKind.DISCARD, "4H"),
    ]


def _log_of(lines: list[str]) -> list[str]:
    text = plain(lines).splitlines()
    start = next(i for i, line in enumerate(text) if "last moves" in line)
    return [line for line in text[start + 1 :] if line.strip()]


@pytest.mark.parametrize(("width", "height"), [(64, 20), (70, 22), (80, 24)])
@pytest.mark.parametrize("then", ["", "draw", "draw discard"])
def test_the_move_log_keeps_the_latest_turn_of_each_player_whole(
    width: int, height: int, then: str
) -> None:
    events = _bots_long_turn()
    if "draw" in then:
        events.append(_event(1, EventKind.DRAW, "5C"))
    if "discard" in then:
        events.append(_event(1, EventKind.DISCARD, "QC"))
    view = replace(umtali.deal_hand(seed=4).view(1), events=tuple(events))
    shown = TableShown(view, TableInfo(("You", "Bot (hard)")))
    lines = frame(shown, ["said"], ASCII, width, height, None)
    assert len(lines) == height - UNDER
    log = _log_of(lines)
    assert log[-1] == "said"
    said = " ".join(" ".join(log).split())
    # The bot's whole turn, and the player's own last turn before or after it.
    assert "Bot (hard): took 9C from the discard pile, played JS" in said and "discarded 4H" in said
    assert ("You: drew 5C" if then else "You: drew 3D, discarded 9C") in said
    assert said.endswith("discarded QC said" if "discard" in then else "said")
    assert labels(view.hand) <= words(plain(lines))  # the hand is still on the table


def test_the_move_log_says_what_was_forfeited_to_whom() -> None:
    events = [*_bots_long_turn(), _event(1, EventKind.DRAW, "3D")]
    view = replace(umtali.deal_hand(seed=4).view(1), events=tuple(events), went_out=2)
    forfeited = (Card.parse("3D"), Card.parse("KC"))
    shown = TableShown(view, TableInfo(("You", "Bot (hard)"), forfeited=forfeited))
    log = _log_of(frame(shown, [], ASCII, 80, 24, None))
    assert log[-1] == " You: forfeited 3D KC (6 points) to Bot (hard)"
    assert log[-2] == " You: drew 3D"  # the turn that ended the hand, and the bot's before it
    assert "discarded 4H" in log[-3]


def test_a_finished_hands_last_table_carries_its_forfeit() -> None:
    from umtali.bots import make_bot
    from umtali.ui.loop import TableLoop

    class Recording:
        """A screen that keeps each table drawn, with what was around it."""

        interactive = True

        def __init__(self) -> None:
            self.tables: list[tuple[umtali.PlayerView, TableInfo]] = []

        def size(self) -> tuple[int, int]:
            return 80, 24

        def table(self, view, info, note=None):  # type: ignore[no-untyped-def]
            self.tables.append((view, info))

        def show(self, renderable: object) -> None: ...
        def blank(self) -> None: ...
        def say(self, message: object) -> None: ...
        def ask(self, message, toolbar=None, completer=None):  # type: ignore[no-untyped-def]
            return ""

        def page(self, renderable: object, title: str) -> None: ...
        def wait(self, seconds: float) -> None: ...

    screen = Recording()
    bots = [make_bot("easy", 1), make_bot("easy", 2)]
    loop = TableLoop(screen, bots, (False, False), ASCII, delay=0, watcher=lambda: 1)  # type: ignore[arg-type]
    game = umtali.Game(seed=3)
    loop.play_game(game)
    ends = [(v, i) for v, i in screen.tables if v.to_move is None and v.went_out is not None]
    assert ends
    lost = [r.forfeited for r in game.results if r.went_out is not None]
    # The last look at each hand (after the tables of its last moves) carries it.
    assert [i.forfeited for _, i in ends if i.forfeited] == [f for f in lost if f]
    view, info = next((v, i) for v, i in ends if i.forfeited)
    text = plain(frame(TableShown(view, info), [], ASCII, 80, 24, None))
    assert f"forfeited {' '.join(ASCII.plain(c) for c in info.forfeited)} (" in text


def test_a_size_notice_goes_once_the_terminal_is_large_enough() -> None:
    from umtali.ui.render import SizeNotice

    shown = TableShown(umtali.deal_hand(seed=4).view(1), INFO)
    notice = SizeNotice("This terminal is 50x15, too small to show the table")
    small = plain(frame(shown, [notice, "Bot drew"], ASCII, 50, 15, None))
    assert "too small to show the" in small
    large = plain(frame(shown, [notice, "Bot drew"], ASCII, 80, 24, None))
    assert "too small" not in large and "Bot drew" in large


def test_a_move_on_a_table_too_small_is_refused_with_a_size_notice() -> None:
    from umtali.ui.human import HumanSeat, QuitGame
    from umtali.ui.render import SizeNotice

    class Small:
        interactive = True

        def __init__(self) -> None:
            self.said: list[object] = []
            self.answers = iter(["meld KS QS", "quit", "y"])

        def size(self) -> tuple[int, int]:
            return 50, 15

        def say(self, message: object) -> None:
            self.said.append(message)

        def ask(self, message, toolbar=None, completer=None):  # type: ignore[no-untyped-def]
            return next(self.answers)

    seat = HumanSeat("Ann", Small(), NormalBot(), lambda: None)  # type: ignore[arg-type]
    hand = umtali.deal_hand(seed=4)
    view = hand.view(hand.to_move or 1)
    with pytest.raises(QuitGame):
        seat.choose(view, GameInfo())
    assert any(isinstance(m, SizeNotice) for m in seat.screen.said)  # type: ignore[attr-defined]


def test_a_big_terminal_centres_a_table_of_bounded_width_over_a_taller_log() -> None:
    from test_render import check_golden

    hand = umtali.deal_hand(seed=11)
    for _ in range(30):
        hand.play(NormalBot().choose(hand.view(hand.to_move or 1), GameInfo()).action)
    shown = TableShown(hand.view(1), TableInfo(("You", "Bot (hard)"), (26, 32), 2))
    lines = plain(frame(shown, ["Bot (hard) discarded 4♥."], Theme(), 200, 50, None)).split("\n")
    check_golden("table_200x50", "\n".join(line.rstrip() for line in lines) + "\n")
    assert len(lines) == 50 - UNDER
    margin = (200 - WIDEST) // 2
    # The message keeps to the table's column, as the command line under it does.
    assert lines[-1] == " " * margin + "Bot (hard) discarded 4♥."
    drawn = [line for line in lines if line.strip()]
    assert all(line[:margin].isspace() and len(line) <= 200 - margin for line in drawn)
    log = _log_of(lines)
    assert len(log) > log_rows(50)  # every turn of the hand so far, not the last eight rows
    assert log[0].strip().startswith("You: played J♠")


def _log_rows(lines: list[str]) -> int:
    """Rows the move log has on a frame: from under its heading to the messages."""
    text = plain(lines).splitlines()
    start = next(i for i, line in enumerate(text) if "last moves" in line)
    return len(text) - 1 - start - 1  # less the heading and the message's row


@pytest.mark.parametrize("moves", [0, 4, 12])
def test_a_big_terminal_is_one_column_whose_spare_rows_go_to_the_log(moves: int) -> None:
    """Issue 46: at 200×50 the table sat in the middle, the messages at the left
    edge, and thirty rows stood empty above a log of a few lines."""
    hand = umtali.deal_hand(seed=11)
    for _ in range(moves):
        hand.play(NormalBot().choose(hand.view(hand.to_move or 1), GameInfo()).action)
    shown = TableShown(hand.view(1), TableInfo(("You", "Bot (hard)")))
    big = frame(shown, ["Bot (hard) discarded 4♥."], Theme(), 200, 50, None)
    small = frame(shown, ["Bot (hard) discarded 4♥."], Theme(), 80, 24, None)
    left, inner = bounds(200)
    drawn = [line for line in plain(big).splitlines() if line.strip()]
    # One left edge: the rules (the table's headers, the log's heading) start on it,
    # and nothing is drawn left of it or past the column's right edge.
    assert all(line[:left].isspace() and len(line) <= left + inner for line in drawn)
    edges = {len(line) - len(line.lstrip()) for line in drawn if line.lstrip()[:1] in "─ "}
    assert min(edges) == left
    assert plain(big).splitlines()[-1] == " " * left + "Bot (hard) discarded 4♥."
    # The rows the table leaves are the log's: far more than at 80×24.
    assert _log_rows(big) >= 50 - UNDER - 16 - 3 and _log_rows(big) > _log_rows(small) + 20
