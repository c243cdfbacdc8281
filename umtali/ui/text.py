"""Text from outside the program, made safe to show on the table; and lines that end
where their words do (:class:`Trimmed`).

rich reads ``[`` as the start of markup and a terminal obeys escape sequences, so a
name like ``[/]`` or one holding ``ESC ] 0 ;`` must never reach either as it is.  Every
string the program did not write itself is shown through :func:`shown`: as a
:class:`rich.text.Text` (never markup), with control characters made visible.

>>> shown("[/]", "red").plain
'[/]'
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from umtali.ui.textsafe import visible


def shown(text: str, style: str = "") -> Text:
    """``text`` as rich Text: no markup read, control characters made visible."""
    return Text(visible(text), style=style)


def as_sentence(why: str) -> str:
    """A reason written to follow a colon (an engine's refusal, the prompt's) as a
    sentence of its own: a capital first letter, a full stop.  The table and the
    lessons say a refusal through this one door, so they say it alike.

    >>> as_sentence("you still have playable cards: play JH")
    'You still have playable cards: play JH.'
    """
    words = why.strip()
    words = words[:1].upper() + words[1:]
    if words and words[-1] not in ".!?":
        words += "."
    return words


def refused(why: str) -> Text:
    """A refusal as a sentence of its own on the table (:func:`as_sentence`), in red.

    >>> refused("you have already drawn this turn").plain
    'You have already drawn this turn.'
    """
    return shown(as_sentence(why), "red")


class Trimmed:
    """A renderable drawn line by line without the spaces at the ends of its lines:
    rich pads a table's cells to their column and keeps the space a line wrapped at,
    which a screen reader reads out and a copied line carries along."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in console.render_lines(self.inner, options, pad=False):
            yield from _without_trailing_spaces(line)
            yield Segment.line()


def _without_trailing_spaces(line: list[Segment]) -> list[Segment]:
    """``line`` less the spaces at its end (the segments that only style are kept)."""
    kept = list(line)
    end = len(kept)
    while end:
        segment = kept[end - 1]
        if segment.control:
            end -= 1
            continue
        text = segment.text.rstrip(" ")
        if text:
            kept[end - 1] = Segment(text, segment.style, segment.control)
            break
        del kept[end - 1]
        end -= 1
    return kept


__all__ = ["Trimmed", "shown", "visible"]
