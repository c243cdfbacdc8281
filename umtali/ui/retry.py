"""Try again: the coach sets up a decision it flagged, and the player chooses anew.

The table is shown as the player saw it then; they type a move as at the table
(the same notation and shorthand, refused in the same words when it is not
legal there); the coach weighs the new move in that position as it weighed the
first, and says whether it is as good as the best before it shows the best.
The view is the player's own, so nothing hidden then is shown now.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from umtali.bots.coach import INACCURACY, Verdict, label_for, try_again
from umtali.engine.errors import InvalidNotation
from umtali.ui.commands import parse_command
from umtali.ui.render import TableInfo
from umtali.ui.screen import Screen
from umtali.ui.text import shown


def _pct(chance: float) -> str:
    return f"{100 * chance:.0f}%" if chance >= 0.005 else "nothing"


def retry_one(screen: Screen, verdict: Verdict, names: tuple[str, str]) -> None:
    """Set up ``verdict``'s decision, let the player choose again, and say how it went."""
    view = verdict.view
    info = TableInfo(names, totals=verdict.info.totals, hand_number=verdict.hand, label="Try again")
    screen.table(view, info)
    screen.say(
        Text(
            f"Hand {verdict.hand}, turn {verdict.turn}: you played {verdict.played}. "
            "What would you play now? (Enter: show the best)"
        )
    )
    while True:
        try:
            text = screen.ask("again> ")
        except (KeyboardInterrupt, EOFError):
            return
        if not text.strip():
            break
        try:
            command = parse_command(text, view)
        except InvalidNotation as err:
            screen.say(shown(str(err), "red"))
            continue
        action = command.action
        if action is None or action not in view.legal:
            legal = ", ".join(str(a) for a in view.legal[:8])
            screen.say(shown(f"{text.strip()!r} is not a move here: try {legal}", "red"))
            continue
        screen.say(Text("The coach is weighing your move...", "dim"))
        cost, points = try_again(verdict, action)
        screen.say(Text(_answer(verdict, action, cost, points)))
        break
    best = f"The best: {verdict.best}"
    if verdict.odds is not None:
        best += f", with {_pct(verdict.odds[0])} to win the game"
    screen.say(Text(best + ".", "bold"))


def _answer(verdict: Verdict, action: object, cost: float, points: float) -> str:
    if action == verdict.played:
        return f"That is the move you made: it gives up about {_pct(cost)} of your chance."
    if label_for(cost, verdict.chances) is None:
        if action == verdict.best:
            return f"Yes: {action} is the best move here."
        return (
            f"As good: {action} gives up {_pct(cost)} of your chance against the best, "
            f"less than an inaccuracy ({INACCURACY:.0%})."
        )
    extra = f" (about {points:.0f} points)" if points >= 0.5 else ""
    return f"Still costly: {action} gives up about {_pct(cost)} of your chance{extra}."


def retry_loop(screen: Screen, verdicts: Sequence[Verdict], names: tuple[str, str]) -> None:
    """Offer each numbered decision of a review to try again, until Enter."""
    while verdicts:
        try:
            text = screen.ask(
                f"Try a decision again: its number (1-{len(verdicts)}), or Enter to finish: "
            )
        except (KeyboardInterrupt, EOFError):
            return
        text = text.strip()
        if not text:
            return
        if not text.isdigit() or not 1 <= int(text) <= len(verdicts):
            screen.say(shown(f"{text!r}: type a number from 1 to {len(verdicts)}", "red"))
            continue
        retry_one(screen, verdicts[int(text) - 1], names)
