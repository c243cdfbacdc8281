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
from umtali.engine.actions import Action
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
    screen.say(Text(f"{asked(verdict)} (Enter: show the best)"))
    while True:
        try:
            text = screen.ask("again> ")
        except (KeyboardInterrupt, EOFError):
            return
        if not text.strip():
            break
        action = read_move(text, verdict)
        if isinstance(action, Text):
            screen.say(action)
            continue
        screen.say(Text("The coach is weighing your move...", "dim"))
        screen.say(judged(verdict, action))
        break
    screen.say(best_of(verdict))


def asked(verdict: Verdict) -> str:
    """The question of a try again: where, what was played, what now."""
    return (
        f"Hand {verdict.hand}, turn {verdict.turn}: you played {verdict.played}. "
        "What would you play now?"
    )


def read_move(text: str, verdict: Verdict) -> Action | Text:
    """The move typed for ``verdict``'s decision, as at the table; or why it is refused."""
    view = verdict.view
    try:
        command = parse_command(text, view)
    except InvalidNotation as err:
        return shown(str(err), "red")
    action = command.action
    if action is None or action not in view.legal:
        legal = ", ".join(str(a) for a in view.legal[:8])
        return shown(f"{text.strip()!r} is not a move here: try {legal}", "red")
    return action


def judged(verdict: Verdict, action: Action) -> Text:
    """What the coach makes of ``action`` chosen again (a search: a second or so)."""
    cost, points = try_again(verdict, action)
    return Text(_answer(verdict, action, cost, points))


def best_of(verdict: Verdict) -> Text:
    """The best move at ``verdict``'s decision, said once the player has chosen again."""
    best = f"The best: {verdict.best}"
    if verdict.odds is not None:
        best += f", with {_pct(verdict.odds[0])} to win the game"
    return Text(best + ".", "bold")


def _answer(verdict: Verdict, action: object, cost: float, points: float) -> str:
    if action == verdict.played:
        return f"That is the move you made: it gives up about {_pct(cost)} of your chance."
    if label_for(cost, verdict.chances, points) is None:
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


def retry_by_number(screen: Screen, verdicts: Sequence[Verdict], names: tuple[str, str]) -> None:
    """One prompt under the review that takes any decision's number (1 to N, across
    the record) and tries it again, until Enter alone."""
    while verdicts:
        try:
            text = screen.ask(
                f"Type a decision's number (1-{len(verdicts)}) to try it again, "
                "or Enter to finish: "
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
