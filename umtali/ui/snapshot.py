"""The README's picture of the table, made by the program itself.

``python -m umtali.ui.snapshot docs/table.svg`` renders a fixed position (a
seeded hand, some way in) with rich and exports it as SVG; a test checks the
committed picture still matches what the renderer draws.
"""

from __future__ import annotations

import io
import random
import sys

from rich.console import Console

from umtali.engine.hand import Hand, deal_hand
from umtali.ui.render import TableInfo, render_table
from umtali.ui.theme import Theme

NAMES = ("Ann", "Ben")


def position() -> Hand:
    """Seed 21, forty random actions in: both sides busy, player 1 to draw."""
    hand = deal_hand(seed=21)
    rng = random.Random(3)
    for _ in range(40):
        hand.play(rng.choice(hand.legal_actions()))
    return hand


def snapshot_svg() -> str:
    hand = position()
    console = Console(width=80, height=20, record=True, file=io.StringIO(), force_terminal=True)
    info = TableInfo(NAMES, totals=(10, 7), hand_number=2)
    console.print(render_table(hand.view(hand.to_move or 1), info, Theme(), 80, 24))
    return console.export_svg(title="umtali play")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m umtali.ui.snapshot OUTPUT.svg", file=sys.stderr)
        return 2
    with open(argv[0], "w", encoding="utf-8") as out:
        out.write(snapshot_svg())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
