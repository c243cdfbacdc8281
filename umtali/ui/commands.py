"""What the player types, turned into an action or a command for the loop.

Actions use the engine's notation, with short aliases: ``d`` draw, ``t``
take, ``t 2`` take two, ``tn`` take next, ``m`` meld, ``p`` play, ``x``
discard, ``e`` end.  A bare card
plays it if it can be played (otherwise discards it, in the discard step);
bare cards that form a meld lay it.  Other words are commands for the table:
help, hint, score, rules, all, quit.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import Card
from umtali.engine.errors import InvalidNotation
from umtali.engine.rules import RuleSet
from umtali.engine.view import PlayerView

ALIASES = {
    "d": "draw",
    "t": "take",
    "m": "meld",
    "p": "play",
    "x": "discard",
    "t2": "take 2",
    "tn": "take next",
    "e": "end",
}
META = {
    "help": "help",
    "h": "help",
    "?": "help",
    "hint": "hint",
    "why": "why",
    "score": "score",
    "scores": "score",
    "rules": "rules",
    "all": "all",
    "a": "all",
    "undo": "undo",
    "u": "undo",
    "quit": "quit",
    "q": "quit",
    "exit": "quit",
    "resign": "resign",
}

HELP = [
    ("draw  (d)", "take the top card of the stock"),
    ("take  (t)", "take the top card of the discard pile"),
    ("take 2  (t 2)", "take the top two discards (both must be played this turn)"),
    ("take next  (tn)", "after playing the discard you took, take the next one too"),
    ("take 7H  (t 7H)", "take 7H and every discard above it; 7H must be played"),
    ("end  (e)", "end your last turn (the cards left in your hand are forfeited)"),
    ("meld 7S 6S 5S  (m)", "lay a run, group, marriage, or a pair that takes you out"),
    ("play JS  (p)", "play one card: a jack, or an addition (... on 10D to choose where)"),
    ("discard 4C  (x)", "discard and end your turn; add 'down' to go out face down"),
    ("7S 6S 5S", "cards alone: meld them, or play / discard a single card"),
    ("all  (a)", "make every play that is forced (stops at the first real choice)"),
    ("hint", "what the bot would do here, and why"),
    ("why", "why the bot made the moves of its last turn"),
    ("say hello", "a line to the other player, when you play at two terminals"),
    ("undo  (u)", "take back this turn's moves, up to a stock draw"),
    ("score / rules / help", "the scores, the rules, this list"),
    ("quit  (q)", "leave the game, saved to resume (asks first)"),
    ("resign", "give the game up: it counts as a loss in your record (asks first)"),
]


# The help rows that belong to one rule set only, by the rule that has them.
_ONLY = {
    "take 2  (t 2)": "take_two",
    "take next  (tn)": "take_next",
    "take 7H  (t 7H)": "take_deep",
}


def help_rows(rules: RuleSet) -> list[tuple[str, str]]:
    """The help list for a rule set: its own draws, and ``end`` where melding is optional."""
    rows = []
    for what, why in HELP:
        if what in _ONLY and not getattr(rules, _ONLY[what]):
            continue
        if what.startswith("end") and (rules.mandatory_play or not rules.last_turn):
            continue
        if what.startswith("all") and not rules.mandatory_play:
            continue
        if what.startswith("meld") and not rules.jacks_alone:
            why = "lay a run or a group (a jack is an ordinary card here)"
        elif what.startswith("meld") and rules.final_two_run:
            why = "lay a run, group or marriage; two cards only to go out"
        rows.append((what, why))
    return rows


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed line: either an action in notation, or a table command."""

    action: Action | None = None
    meta: str | None = None
    text: str = ""  # what follows ``say``: a line for the other player


def _expand(words: list[str]) -> list[str]:
    head = words[0].lower()
    if head in ALIASES:
        return ALIASES[head].split() + words[1:]
    return words


_VERBS = ("draw", "take", "meld", "play", "discard", "end")
_RANK_START = re.compile(r"^(10|[2-9AJQKT])", re.IGNORECASE)


def parse_command(text: str, view: PlayerView) -> Command:
    """Read a line typed at the prompt; raises InvalidNotation for nonsense."""
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidNotation("type an action (draw, meld 7S 6S 5S, discard 4C...) or 'help'")
    if len(words) == 1 and words[0].lower() in META:
        return Command(meta=META[words[0].lower()])
    if words[0].lower() == "say":
        said = text.strip()[3:].strip()
        if not said:
            raise InvalidNotation("say what? Type say and a line for the other player")
        return Command(meta="say", text=said)
    words = _expand(words)
    verb = words[0].lower()
    if verb in _VERBS:
        if len(words) == 1 and verb in ("meld", "play", "discard"):
            raise InvalidNotation(_which_cards(verb, view))
        return Command(action=Action.parse(" ".join(words)))
    try:
        cards = [Card.parse(w) for w in words]
    except InvalidNotation as err:
        raise InvalidNotation(_not_a_command(text, words, err)) from None
    if len(cards) > 1:
        return Command(action=Action.parse("meld " + " ".join(words)))
    card = cards[0]
    play = Action(ActionKind.PLAY, (card,))
    discard = Action(ActionKind.DISCARD, (card,))
    if discard in view.legal and play not in view.legal:
        return Command(action=discard)
    return Command(action=play)


def _which_cards(verb: str, view: PlayerView) -> str:
    """A bare ``meld``, ``play`` or ``discard``: which cards, with the legal ones as examples."""
    kind = {"meld": ActionKind.MELD, "play": ActionKind.PLAY, "discard": ActionKind.DISCARD}[verb]
    legal = [str(a) for a in view.legal if a.kind is kind]
    shape = {"meld": "meld <cards>", "play": "play <card>", "discard": "discard <card>"}[verb]
    if not legal:
        return f"{verb} needs its cards ({shape}); none is legal now"
    more = f" and {len(legal) - 4} more" if len(legal) > 4 else ""
    return f"{verb} needs its cards ({shape}): legal now are {', '.join(legal[:4])}{more}"


def _not_a_command(text: str, words: list[str], err: InvalidNotation) -> str:
    """Why a line that is neither a command nor cards is refused: a near-miss of a
    command, a card mistyped, or nonsense."""
    head = words[0].lower()
    near = difflib.get_close_matches(head, [*_VERBS, *META], n=1, cutoff=0.7)
    if near:
        return f"{text.strip()!r} is not a command: did you mean {near[0]}?"
    bad = next((w for w in words if not _is_card(w)), words[0])
    if _RANK_START.match(bad) and len(bad) <= 4:
        return str(err)  # a card mistyped: Card.parse names it and says how to write one
    return f"{text.strip()!r} is not a command: try draw, take, meld, play, discard, or help"


def _is_card(word: str) -> bool:
    try:
        Card.parse(word)
    except InvalidNotation:
        return False
    return True


def forced_action(view: PlayerView) -> Action | None:
    """The next play if every remaining play is forced, else None.

    Forced means no choice changes the outcome: only plays and melds are open,
    and no card could go into two different melds or be either melded or
    played alone.  Single plays come in any order, so they never count as a
    choice.
    """
    if not view.rules.mandatory_play:
        return None  # where melding is optional, no play is ever forced
    actions = view.legal
    if not actions or any(a.kind not in (ActionKind.MELD, ActionKind.PLAY) for a in actions):
        return None
    used: set[Card] = set()
    for a in actions:
        if used & set(a.cards):
            return None
        used.update(a.cards)
    return actions[0]


def completions_for(view: PlayerView) -> list[str]:
    """What Tab offers: exactly the legal actions, then the table commands."""
    return [
        *view.legal_actions,
        *("all", "hint", "why", "undo", "help", "score", "rules", "quit", "resign"),
    ]


class LegalCompleter(Completer):
    """Completes from the legal actions of the current view (read at each keystroke)."""

    def __init__(self, current: Callable[[], PlayerView | None]) -> None:
        self._current = current

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        view = self._current()
        if view is None:
            return
        typed = document.text_before_cursor.lower()
        for option in _matching(completions_for(view), typed):
            yield Completion(option, start_position=-len(document.text_before_cursor))


def _matching(options: Iterable[str], typed: str) -> list[str]:
    words = typed.split()
    if words and words[0] in ALIASES and (len(words) > 1 or typed.endswith(" ")):
        words = ALIASES[words[0]].split() + words[1:]
    prefix = " ".join(words) + (" " if typed.endswith(" ") and words else "")
    return [o for o in options if o.lower().startswith(prefix)]
