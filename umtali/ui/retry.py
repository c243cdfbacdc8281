"""Try again: the coach sets up a decision it flagged, and the player chooses anew.

The table is shown as the player saw it then; they type a move as at the table
(the same notation and shorthand, refused in the same words when it is not
legal there); the coach weighs the new move in that position as it weighed the
first, and says whether it is as good as the best before it shows the best.
The view is the player's own, so nothing hidden then is shown now.  A review
may offer the other seat's decisions too: then the coach speaks of that seat by
name (a :class:`~umtali.bots.coach.Voice`) and asks what the person would play
in its place.  Moves are written with the table's cards (``discard 10♠``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rich.console import RenderableType
from rich.text import Text

from umtali.bots.coach import INACCURACY, YOU, Verdict, Voice, label_for, try_again
from umtali.engine.actions import Action
from umtali.engine.errors import InvalidNotation
from umtali.ui.commands import parse_command
from umtali.ui.narrate import move_words
from umtali.ui.render import TableInfo
from umtali.ui.screen import Screen
from umtali.ui.text import shown
from umtali.ui.theme import DEFAULT_THEME, Theme


@runtime_checkable
class AsksOnPage(Protocol):
    """A screen that can ask a question under an open page (the full-screen table)."""

    def ask_on_page(self, renderable: RenderableType, title: str, message: str) -> str: ...


def _pct(chance: float) -> str:
    return f"{100 * chance:.0f}%" if chance >= 0.005 else "nothing"


def retry_one(
    screen: Screen,
    verdict: Verdict,
    names: tuple[str, str],
    voice: Voice = YOU,
    theme: Theme = DEFAULT_THEME,
) -> None:
    """Set up ``verdict``'s decision, let the player choose again, and say how it went."""
    view = verdict.view
    info = TableInfo(
        names,
        totals=verdict.info.totals,
        hand_number=verdict.hand,
        label="Try again",
        seat="you" if voice == YOU else "to move",
    )
    screen.table(view, info)
    screen.say(Text(f"{asked(verdict, voice, theme)} (Enter: show the best)"))
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
        screen.say(judged(verdict, action, voice, theme))
        break
    screen.say(best_of(verdict, theme))


def asked(verdict: Verdict, voice: Voice = YOU, theme: Theme = DEFAULT_THEME) -> str:
    """The question of a try again: where, what was played, what now."""
    where = f"Hand {verdict.hand}, turn {verdict.turn}: "
    played = move_words(verdict.played, verdict.view, theme)
    if voice == YOU:
        return where + f"you {played}. What would you play now?"
    return where + f"{voice.me} {played}. What would you play in {voice.mine} place?"


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


def judged(
    verdict: Verdict, action: Action, voice: Voice = YOU, theme: Theme = DEFAULT_THEME
) -> Text:
    """What the coach makes of ``action`` chosen again (a search: a second or so)."""
    cost, points = try_again(verdict, action)
    return Text(_answer(verdict, action, cost, points, voice, theme))


def best_of(verdict: Verdict, theme: Theme = DEFAULT_THEME) -> Text:
    """The best move at ``verdict``'s decision, said once the player has chosen again."""
    best = f"The best: {theme.move(verdict.best)}"
    if verdict.odds is not None:
        best += f", with {_pct(verdict.odds[0])} to win the game"
    return Text(best + ".", "bold")


def _answer(
    verdict: Verdict, action: Action, cost: float, points: float, voice: Voice, theme: Theme
) -> str:
    move, mine = theme.move(action), voice.mine
    if action == verdict.played:
        return f"That is the move {voice.me} made: it gives up about {_pct(cost)} of {mine} chance."
    if label_for(cost, verdict.chances, points) is None:
        if action == verdict.best:
            return f"Yes: {move} is the best move here."
        return (
            f"As good: {move} gives up {_pct(cost)} of {mine} chance against the best, "
            f"less than an inaccuracy ({INACCURACY:.0%})."
        )
    extra = f" (about {points:.0f} points)" if points >= 0.5 else ""
    return f"Still costly: {move} gives up about {_pct(cost)} of {mine} chance{extra}."


def retry_by_number(
    screen: Screen,
    verdicts: Sequence[Verdict],
    names: tuple[str, str],
    voices: Sequence[Voice] = (),
    theme: Theme = DEFAULT_THEME,
    page: tuple[RenderableType, str] | None = None,
) -> None:
    """One prompt under the review that takes any decision's number (1 to N, across
    the record) and tries it again, until Enter alone; ``voices``: how each decision
    is told (to the person, or of the other seat by name; to the person by default);
    ``page``: the review and its title, shown first, the prompt under it where the
    screen can (else once the page is read).  The table's review of a hand, the
    review of a record and the club's all ask here."""
    if page is not None and not (verdicts and isinstance(screen, AsksOnPage)):
        screen.page(*page)
        page = None
    while verdicts:
        question = (
            f"Type a decision's number (1-{len(verdicts)}) to try it again, or Enter to finish: "
        )
        try:
            if page is not None and isinstance(screen, AsksOnPage):
                text = screen.ask_on_page(*page, question)
                page = None  # once: after a try again its words are left in view
            else:
                text = screen.ask(question)
        except (KeyboardInterrupt, EOFError):
            return
        text = text.strip()
        if not text:
            return
        if not text.isdigit() or not 1 <= int(text) <= len(verdicts):
            screen.say(shown(f"{text!r}: type a number from 1 to {len(verdicts)}", "red"))
            continue
        index = int(text) - 1
        voice = voices[index] if index < len(voices) else YOU
        retry_one(screen, verdicts[index], names, voice, theme)
