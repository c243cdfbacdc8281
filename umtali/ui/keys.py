"""Key bindings every line a person types goes through, in either screen."""

from __future__ import annotations

from prompt_toolkit.application import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

#: The longest line the prompt takes: far more than any command, and short enough
#: that holding a key down (or pasting a book) costs nothing.
MAX_LINE = 200


def _limited() -> KeyBindings:
    """Key bindings that stop a line growing past MAX_LINE characters, and that
    ignore mouse reports."""
    keys = KeyBindings()
    full = Condition(lambda: len(get_app().current_buffer.text) >= MAX_LINE)

    @keys.add(Keys.Any, filter=full)
    def _swallow(event: KeyPressEvent) -> None:
        """A character typed into a full line goes nowhere."""

    @keys.add(Keys.Vt100MouseEvent)
    @keys.add(Keys.WindowsMouseEvent)
    def _no_mouse(event: KeyPressEvent) -> None:
        """The prompt takes no mouse input; a report typed by hand, or pasted
        malformed, must not reach prompt_toolkit's mouse handler, which fails on it."""

    @keys.add(Keys.BracketedPaste)
    def _paste(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        room = max(0, MAX_LINE - len(buffer.text))
        buffer.insert_text(event.data.replace("\r", " ").replace("\n", " ")[:room])

    return keys


LIMITED = _limited()
