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

import re

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


#: A command shown to type: ``umtali`` and its command, and for those that take a
#: game, the game's name (``umtali resume 20260101-100000``).
_COMMAND = re.compile(r"\bumtali (?:(?:resume|replay|review) )?[^\s:]\S*")
#: Joins a command's words while a line is wrapped: no space, so never a break, and
#: one cell wide, as the space it stands for.
_GLUE = "\ue000"


def rows_keeping_commands(line: str, console: Console) -> list[str]:
    """``line`` broken between words into rows as wide as ``console``, but never inside
    a command shown to type: the row breaks before it, so ``umtali stats`` is read (and
    copied) whole.  A row's trailing space, where it broke, is left out.

    >>> rows_keeping_commands("Your game is kept: umtali stats shows it.", Console(width=24))
    ['Your game is kept:', 'umtali stats shows it.']
    """
    glued = _COMMAND.sub(lambda found: found.group().replace(" ", _GLUE), line)
    rows = [row.plain.rstrip(" ") for row in Text(glued).wrap(console, console.width)]
    return [row.replace(_GLUE, " ") for row in rows] or [""]


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


__all__ = ["Trimmed", "rows_keeping_commands", "shown", "visible"]
