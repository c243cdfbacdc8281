"""How cards look: suit symbols or letters, two or four colours, or none.

Colour is never the only signal: every card always shows its suit symbol
(or letter, with ``ascii``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich import box
from rich.text import Text

from umtali.engine.actions import Action
from umtali.engine.cards import SUIT_LETTERS, SUIT_SYMBOLS, Card

_TWO_COLOURS = ("bold", "bold red", "bold red", "bold")
# Four colours for telling suits apart at a glance (and for colour-blind
# players): spades in the terminal's own colour, hearts red, diamonds blue,
# clubs green.
_FOUR_COLOURS = ("bold", "bold red", "bold blue", "bold green")


@dataclass(frozen=True, slots=True)
class Theme:
    ascii: bool = False
    four_color: bool = False

    def suit(self, index: int) -> str:
        return SUIT_LETTERS[index] if self.ascii else SUIT_SYMBOLS[index]

    def card_label(self, card: Card) -> str:
        return card.rank_name + self.suit(card.suit)

    def card_style(self, card: Card) -> str:
        return (_FOUR_COLOURS if self.four_color else _TWO_COLOURS)[card.suit]

    def card(self, card: Card, extra: str = "") -> Text:
        style = self.card_style(card)
        return Text(self.card_label(card), style=f"{style} {extra}".strip())

    def cards(self, cards: tuple[Card, ...] | list[Card], sep: str = " ") -> Text:
        out = Text()
        for n, c in enumerate(cards):
            if n:
                out.append(sep)
            out.append_text(self.card(c))
        return out

    def plain(self, card: Card) -> str:
        """The card as unstyled text, for messages."""
        return self.card_label(card)

    def move(self, action: Action) -> str:
        """A move as unstyled text with the table's cards: ``discard 10♠`` (``10S``
        under ``ascii``), as the table shows cards, not as a record writes them."""
        return action.spelled(self.card_label)

    # The table's own marks; with ``ascii`` every one of them is plain ASCII.

    @property
    def rule(self) -> str:
        """A horizontal line's character."""
        return "-" if self.ascii else "─"

    @property
    def back(self) -> str:
        """A card face down."""
        return "#" if self.ascii else "▒"

    @property
    def dot(self) -> str:
        """The separator between items on a line."""
        return "|" if self.ascii else "·"

    @property
    def dash(self) -> str:
        """A dash in a sentence."""
        return "-" if self.ascii else "—"

    @property
    def ellipsis(self) -> str:
        """More cards than there is room for, along a line."""
        return "..." if self.ascii else "…"

    @property
    def cut(self) -> str:
        """More cards than there is room for, down a column."""
        return ":" if self.ascii else "⋮"

    @property
    def box(self) -> box.Box:
        """The borders of a table."""
        return box.ASCII2 if self.ascii else box.HEAVY_HEAD

    @property
    def by(self) -> str:
        """Width by height."""
        return "x" if self.ascii else "×"


#: Symbols, two colours: the look when nothing else is asked for.
DEFAULT_THEME = Theme()
