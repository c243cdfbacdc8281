"""The coach's findings as words on the screen: a review of one player's decisions.

Used by ``umtali review`` for a recorded game and by ``review`` at the table after
a hand (against the bot: between two people it would show one player's old hand
to the other).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.bots.coach import DEALS, THRESHOLD, Verdict
from umtali.ui.text import Trimmed
from umtali.ui.theme import Theme

#: One reviewed hand: (game number, hand number, costly verdicts, decisions weighed).
Reviewed = tuple[int, int, list[Verdict], int]


def render_review(
    hands: Sequence[Reviewed],
    name: str,
    theme: Theme,
    deals: int = DEALS,
    threshold: float = THRESHOLD,
) -> RenderableType:
    """The review of one player's decisions in ``hands``, as lines that end where
    their words do (a table's cells and a wrapped line leave no spaces behind)."""
    if not hands:
        return Text("This record holds no finished hand to review yet.")
    whose, who = ("your", "you") if name == "You" else (f"{name}'s", name)
    parts: list[RenderableType] = [
        Text(f"Review of {whose} decisions", style="bold"),
        Text(
            f"Each choice was played out to the end of the hand in deals sampled from what "
            f"{who} could see at the time ({deals} play-outs a decision); a decision is "
            f"listed when it cost more than {threshold:g} points.",
            style="dim",
        ),
        Text(""),
    ]
    total = weighed = flagged = 0.0
    sessions = len({g for g, _, _, _ in hands}) > 1
    for g, h, verdicts, count in hands:
        lost = sum(v.cost for v in verdicts)
        total, weighed, flagged = total + lost, weighed + count, flagged + len(verdicts)
        title = f"Game {g}, hand {h}" if sessions else f"Hand {h}"
        summary = f"{count} decisions weighed, {len(verdicts)} costly"
        if verdicts:
            summary += f", about {lost:.1f} points lost against best play"
        parts.append(Text.assemble((title, "bold"), f": {summary}"))
        if verdicts:
            table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
            table.add_column(justify="right", style="dim")
            table.add_column(overflow="fold")
            for v in verdicts:
                table.add_row(f"turn {v.turn}", f"{v.played} {theme.dash} {v.reason()}.")
            parts.append(table)
    hands_n = len(hands)
    parts += [
        Text(""),
        Text(
            f"In all: {int(weighed)} decisions weighed, {int(flagged)} costly, about "
            f"{total:.1f} points lost against best play ({total / hands_n:.1f} a hand).",
            style="bold",
        ),
    ]
    return Trimmed(Group(*parts))
