"""The README's picture of the table, made by the program itself.

``python -m umtali.ui.snapshot docs/table.svg`` draws a fixed position (a
seeded hand, some way in) as the full-screen table frames it at 80x24, with
the command line and its toolbar under it, and exports it as SVG; a test
checks the committed picture still matches what the program draws.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from umtali.engine.hand import Hand, deal_hand
from umtali.store.door import PICTURE, FileRefused, replace_file
from umtali.ui.human import toolbar
from umtali.ui.layout import TableShown, frame
from umtali.ui.render import TableInfo
from umtali.ui.theme import Theme

NAMES = ("Ann", "Ben")


def position() -> Hand:
    """Seed 21, forty random actions in: both sides busy, player 1 to draw."""
    hand = deal_hand(seed=21)
    rng = random.Random(3)
    for _ in range(40):
        hand.play(rng.choice(hand.legal()))
    return hand


def snapshot_svg() -> str:
    hand = position()
    console = Console(width=80, height=24, record=True, file=io.StringIO(), force_terminal=True)
    info = TableInfo(NAMES, totals=(10, 7), hand_number=2)
    view = hand.view(hand.to_move or 1)
    theme = Theme()
    for line in frame(TableShown(view, info), [], theme, 80, 24, "truecolor"):
        console.print(Text.from_ansi(line), no_wrap=True, crop=True)
    console.print(Text(f"{NAMES[view.player - 1]}> ", style="bold"))
    console.print(Text(" " + toolbar(view, theme, 80), style="reverse"))
    return console.export_svg(title="umtali play")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m umtali.ui.snapshot OUTPUT.svg", file=sys.stderr)
        return 2
    try:
        replace_file(Path(argv[0]), snapshot_svg(), PICTURE)
    except (OSError, FileRefused) as err:
        print(f"snapshot: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
