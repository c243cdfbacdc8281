"""The coach's findings as words on the screen: a review of one player's decisions.

Used by ``umtali review`` for a recorded game and by ``review`` at the table after
a hand (against the bot: between two people it would show one player's old hand
to the other).  Each flagged decision is numbered, so a player can ask to try it
again (:mod:`umtali.ui.retry`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.bots.coach import (
    BLUNDER,
    COSTLY_POINTS,
    INACCURACY,
    MISTAKE,
    HandReview,
    Label,
    Verdict,
    accuracy,
)
from umtali.ui.text import Trimmed
from umtali.ui.theme import Theme

#: One reviewed hand: (game number, the coach's review of the hand).
Reviewed = tuple[int, HandReview]

_STYLE = {Label.INACCURACY: "yellow", Label.MISTAKE: "dark_orange", Label.BLUNDER: "bold red"}
_PLURAL = {Label.INACCURACY: "inaccuracies", Label.MISTAKE: "mistakes", Label.BLUNDER: "blunders"}


def flagged(hands: Sequence[Reviewed]) -> list[Verdict]:
    """Every listed decision of the review, in the order (and so the numbers) shown."""
    return [v for _, review in hands for v in review.verdicts]


def _counts(verdicts: Sequence[Verdict]) -> str:
    """'1 mistake, 2 inaccuracies' (and how many more were listed, by a lower threshold)."""
    parts = []
    for label in (Label.BLUNDER, Label.MISTAKE, Label.INACCURACY):
        n = sum(1 for v in verdicts if v.label is label)
        if n:
            parts.append(f"1 {label.value}" if n == 1 else f"{n} {_PLURAL[label]}")
    rest = sum(1 for v in verdicts if v.label is None)
    if rest:
        parts.append(f"{rest} more listed")
    return ", ".join(parts) if parts else "nothing costly"


def weighed(n: int) -> str:
    """'1 decision weighed', '2 decisions weighed'."""
    return f"{n} decision weighed" if n == 1 else f"{n} decisions weighed"


def render_review(
    hands: Sequence[Reviewed],
    name: str,
    theme: Theme,
    retry: bool = False,
    numbers: Sequence[int] | None = None,
) -> RenderableType:
    """The review of one player's decisions in ``hands``, as lines that end where
    their words do (a table's cells and a wrapped line leave no spaces behind).
    ``retry`` adds how to try a decision again; ``numbers`` are the listed decisions'
    numbers (by default 1, 2, ... in the order listed)."""
    if not hands:
        return Text("This record holds no finished hand to review yet.")
    whose, who = ("your", "you") if name == "You" else (f"{name}'s", name)
    chances = all(review.chances for _, review in hands)
    if chances:
        scale = (
            f"valued by the chance of winning the game. An inaccuracy gave up "
            f"{INACCURACY:.0%} or more of that chance, a mistake {MISTAKE:.0%}, "
            f"a blunder {BLUNDER:.0%}; one that gave up {COSTLY_POINTS:g} points or more "
            "on average is at least an inaccuracy, whatever the chance."
        )
    else:
        scale = "valued by the hand's points (these rules have no table of chances)."
    parts: list[RenderableType] = [
        Text(f"Review of {whose} decisions", style="bold"),
        Text(
            f"Each decision was searched as the hint searches it: its moves played out to "
            f"the end of the hand many times over, each time with the unseen cards dealt "
            f"anew as what {who} could see at the time allowed, and " + scale,
            style="dim",
        ),
        Text(""),
    ]
    sessions = len({g for g, _ in hands}) > 1
    listed = flagged(hands)
    shown_numbers = list(numbers) if numbers is not None else list(range(1, len(listed) + 1))
    width = len(str(max(shown_numbers, default=1)))
    number = 0
    for g, review in hands:
        title = f"Game {g}, hand {review.hand}" if sessions else f"Hand {review.hand}"
        if review.resigned:
            title += " (resigned)"
        summary = f"{weighed(review.weighed)}, {_counts(review.verdicts)}"
        if chances and review.weighed:
            summary = f"accuracy {review.accuracy:.0f}%, " + summary
        if review.stood_in:
            n = review.stood_in
            made = "1 decision" if n == 1 else f"{n} decisions"
            summary += f"; {made} made by the bot that stood in, not weighed"
        parts.append(Text.assemble((title, "bold"), f": {summary}"))
        if review.verdicts:
            table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
            table.add_column(justify="right", style="dim")
            table.add_column(overflow="fold")
            said: set[str] = set()  # a fact said once a hand (the score, say)
            for v in review.verdicts:
                shown_number = shown_numbers[number]
                number += 1
                label = v.label
                tag = Text(label.value, _STYLE[label]) if label else Text("listed", "dim")
                # Cards named as the table draws them (the theme's), not as recorded.
                reasons = v.reasons(card=theme.plain)
                told = [r for r in reasons if r.finding or r.words not in said]
                said.update(r.words for r in reasons if not r.finding)
                reason = "; ".join(r.words for r in told)
                line = Text.assemble(tag, f" {theme.move(v.played)} {theme.dash} {reason}.")
                table.add_row(f"{shown_number:>{width}}. turn {v.turn:>2}", line)
            parts.append(table)
    parts += [Text(""), _in_all(hands, chances)]
    if retry and number and numbers is None:
        parts.append(
            Text(
                "Type a decision's number to try it again: choose anew, and the coach says "
                "whether your new move is as good before it shows the best.",
                style="dim",
            )
        )
    return Trimmed(Group(*parts))


def _in_all(hands: Sequence[Reviewed], chances: bool) -> Text:
    costs = [c for _, review in hands for c in review.costs]
    verdicts = flagged(hands)
    points = sum(v.points for v in verdicts)
    said = f"In all: {weighed(len(costs))}, {_counts(verdicts)}"
    if chances and costs:
        said = f"In all: accuracy {accuracy(costs):.0f}% over {len(costs)} decisions; "
        said += _counts(verdicts)
    if verdicts:
        said += f"; about {points:.0f} points given up by the decisions listed"
    return Text(said + ".", style="bold")


def label_style(label: Label) -> str:
    """The colour a label is shown in, here and on the review board."""
    return _STYLE[label]
