"""The rule book, as the game shows it: RULES.md, shipped inside the package.

``umtali rules``, the ``rules`` command at a table (at home, hosted, or in a club) and
the lessons all read it here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from umtali.ui.textsafe import to_ascii

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.markdown import Markdown


def rules_text() -> str:
    from importlib import resources

    return resources.files("umtali").joinpath("RULES.md").read_text(encoding="utf-8")


def rules_markdown(ascii_only: bool) -> Markdown:
    """The rule book, ready for rich to draw (in ASCII where the terminal needs it)."""
    from rich.markdown import Markdown

    return Markdown(to_ascii(rules_text()) if ascii_only else rules_text())


class RuleBook:
    """The rule book for a page in the game: read and parsed the first time it is
    drawn, not before the table (parsing it takes a good part of a second)."""

    def __init__(self, ascii_only: bool) -> None:
        self.ascii_only = ascii_only
        self._markdown: Markdown | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self._markdown is None:
            self._markdown = rules_markdown(self.ascii_only)
        yield self._markdown
