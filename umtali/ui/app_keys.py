"""The keys of the full-screen table beyond typing a line: Ctrl-C, Ctrl-D, Ctrl-Z,
Enter, Escape, scrolling and closing a page, and watching two bots (pause, step, speed, stop).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys


@dataclass(slots=True)
class Watching:
    """The controls of ``umtali watch``: pause, step one move, speed, stop."""

    paused: bool = False
    steps: int = 0  # moves to let through while paused
    scale: float = 1.0  # the pauses' length, times this
    stop: bool = False
    seat: int = 1  # whose hand is shown

    def switch(self) -> None:
        """Look over the other bot's shoulder (from its next move)."""
        self.seat = 3 - self.seat

    def faster(self) -> None:
        self.scale = max(1 / 8, self.scale / 2)

    def slower(self) -> None:
        self.scale = min(8.0, self.scale * 2)

    def speed(self) -> str:
        return f"{1 / self.scale:g}x"


#: The watcher's keys and what each does (Space's word is the pause's).
WATCH_KEYS = (("s", "step"), ("+/-", "speed"), ("w", "other hand"), ("q", "stop"))


def watch_toolbar(watching: Watching, dot: str, columns: int) -> str:
    """The toolbar while watching: the state and every key, in as few words as make it
    fit ``columns`` (all of it fits the table's narrowest, 64, at every speed)."""
    state = "paused" if watching.paused else f"watching at {watching.speed()}"
    short = "paused" if watching.paused else watching.speed()
    keys = (("Space", "go on" if watching.paused else "pause"), *WATCH_KEYS)
    text = ""
    for head, colon, gap in (
        (state, ": ", f" {dot} "),
        (short, ": ", f" {dot} "),
        (short, ":", "  "),
    ):
        text = " " + gap.join([head, *(f"{key}{colon}{does}" for key, does in keys)])
        if len(text) <= columns:
            break
    return text


def page_toolbar(
    title: str, first: int, last: int, total: int, dot: str, columns: int, back: str = "q: back"
) -> str:
    """The toolbar under an open page: its title, the lines shown and the keys, in as
    few words as make it fit ``columns``; ``back`` is always there, being the way out."""
    lines = f"lines {first}-{last} of {total}"
    for parts in (
        (title, lines, "arrows PgUp PgDn Space", back),
        (title, lines, "PgUp PgDn Space", back),
        (title, lines, back),
        (title, back),
        (lines, back),
    ):
        text = " " + f" {dot} ".join(parts)
        if len(text) <= columns:
            return text
    return " " + back


#: The arrow keys, by prompt_toolkit's names, that a question may take as answers.
ARROWS = ("left", "right", "up", "down")

#: Keys that scroll a page and still do while a question is asked under it.
_SCROLL = ("up", "down", "pageup", "pagedown")


class Controls(Protocol):
    """What the keys work on: the full-screen table (:class:`umtali.ui.app.AppScreen`)."""

    buffer: Buffer
    watching: Watching | None
    suspends: bool  # whether Ctrl-Z may stop the process (never for a remote player)

    @property
    def page_open(self) -> bool: ...

    @property
    def asking(self) -> bool: ...

    def page_rows(self) -> int: ...

    def arrow_answer(self, key: str) -> str | None: ...

    def interrupt(self) -> None: ...

    def answer(self, answer: str | BaseException) -> None: ...

    def scroll(self, by: int | None = None, to: int | None = None) -> None: ...

    def close_page(self) -> None: ...

    def watch(self, change: Callable[[Watching], None]) -> None: ...


def bindings(screen: Controls) -> KeyBindings:
    """Every key the full-screen table answers, beyond typing a line."""
    keys = KeyBindings()
    page_open = Condition(lambda: screen.page_open)
    asking = Condition(lambda: screen.asking)
    # A page with a question under it (a review): the keys type the answer.
    paging = page_open & ~asking
    watching = Condition(lambda: screen.watching is not None) & ~asking & ~page_open
    empty = Condition(lambda: not screen.buffer.text)

    @keys.add("c-c")
    def _ctrl_c(event: KeyPressEvent) -> None:
        screen.interrupt()

    @keys.add("enter", filter=~paging)
    def _enter(event: KeyPressEvent) -> None:
        """Enter sends the line whatever state the line is in (a selection begun
        with Ctrl-Space, say, where prompt_toolkit's own Enter does nothing)."""
        screen.buffer.exit_selection()
        screen.buffer.validate_and_handle()

    @keys.add("c-d", filter=asking & empty)
    def _ctrl_d(event: KeyPressEvent) -> None:
        screen.answer(EOFError())

    @keys.add("escape", filter=~page_open & ~watching, eager=True)
    def _escape(event: KeyPressEvent) -> None:
        """Escape closes the completion menu (back to what was typed), and at once:
        prompt_toolkit would otherwise wait a second for a key to read as Meta with
        it, and Escape then ``a`` (typed quickly) is Meta-A, which eats the ``a``.
        A person at a card table types words, never Meta keys."""
        if screen.buffer.complete_state is not None:
            screen.buffer.cancel_completion()

    @keys.add("c-z", filter=Condition(lambda: screen.suspends))
    def _suspend(event: KeyPressEvent) -> None:
        event.app.suspend_to_background()

    @keys.add("c-l")
    def _repaint(event: KeyPressEvent) -> None:
        event.app.renderer.clear()

    # An arrow key that answers the question (the replay steps with them).
    for arrow in ARROWS:
        keys.add(arrow, filter=_answers(screen, arrow) & ~page_open)(_arrow_action(screen, arrow))

    # A page: scroll, or close.
    @keys.add(Keys.Any, filter=paging)
    def _page_other(event: KeyPressEvent) -> None:
        """Other keys do nothing while a page is open."""

    for key, move in (
        ("up", lambda: screen.scroll(by=-1)),
        ("k", lambda: screen.scroll(by=-1)),
        ("down", lambda: screen.scroll(by=1)),
        ("j", lambda: screen.scroll(by=1)),
        ("pageup", lambda: screen.scroll(by=-screen.page_rows())),
        ("b", lambda: screen.scroll(by=-screen.page_rows())),
        ("pagedown", lambda: screen.scroll(by=screen.page_rows())),
        (" ", lambda: screen.scroll(by=screen.page_rows())),
        ("home", lambda: screen.scroll(to=0)),
        ("g", lambda: screen.scroll(to=0)),
        ("end", lambda: screen.scroll(to=1 << 30)),
        ("G", lambda: screen.scroll(to=1 << 30)),
        ("q", screen.close_page),
        ("escape", screen.close_page),
        ("enter", screen.close_page),
    ):
        keys.add(key, filter=page_open if key in _SCROLL else paging, eager=True)(_action(move))

    # Watching two bots.
    @keys.add(Keys.Any, filter=watching)
    def _watch_other(event: KeyPressEvent) -> None:
        """Nothing is typed while watching."""

    def toggle(w: Watching) -> None:
        w.paused = not w.paused

    def step(w: Watching) -> None:
        w.paused, w.steps = True, w.steps + 1

    def stop(w: Watching) -> None:
        w.stop = True

    for key, change in (
        (" ", toggle),
        ("p", toggle),
        ("s", step),
        ("n", step),
        ("right", step),
        ("+", Watching.faster),
        ("=", Watching.faster),
        ("-", Watching.slower),
        ("w", Watching.switch),
        ("tab", Watching.switch),
        ("q", stop),
        ("escape", stop),
    ):
        keys.add(key, filter=watching, eager=True)(_watch_action(screen, change))
    return keys


def _watch_action(
    screen: Controls, change: Callable[[Watching], None]
) -> Callable[[KeyPressEvent], None]:
    def handler(event: KeyPressEvent) -> None:
        screen.watch(change)

    return handler


def _answers(screen: Controls, arrow: str) -> Condition:
    return Condition(lambda: screen.arrow_answer(arrow) is not None)


def _arrow_action(screen: Controls, arrow: str) -> Callable[[KeyPressEvent], None]:
    def handler(event: KeyPressEvent) -> None:
        answer = screen.arrow_answer(arrow)
        if answer is not None:
            screen.answer(answer)

    return handler


def _action(fn: Callable[[], None]) -> Callable[[KeyPressEvent], None]:
    def handler(event: KeyPressEvent) -> None:
        fn()

    return handler
