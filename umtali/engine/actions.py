"""Actions and their notation: what a player types, what a record stores.

>>> str(Action.parse("MELD 5s 7s 6s"))
'meld 7S 6S 5S'
>>> str(Action.parse("play td on jd"))
'play 10D on JD'
>>> Action.parse("discard 4c down") == Action.parse(str(Action.parse("discard 4c down")))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from umtali.engine.cards import Card, by_rank_desc, mask_of
from umtali.engine.errors import InvalidNotation
from umtali.engine.kinds import ARITY, ActionKind

USAGE = (
    "actions are: draw, take, take 2, meld <cards>, play <card> [on <card>], discard <card> [down]"
    " (and in some variants: take next, take <card>, end)"
)


class _Impossible(InvalidNotation):
    """An action that cannot exist (a meld naming a card twice): bad notation, which
    :meth:`Action.parse` reports with the text it was given."""


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a turn.  Meld cards are kept highest first, so order typed never matters."""

    kind: ActionKind
    cards: tuple[Card, ...] = ()
    target: Card | None = None
    down: bool = False

    def __post_init__(self) -> None:
        arity = ARITY.get(self.kind)
        if arity is not None and len(self.cards) != arity:
            raise _Impossible(f"{self.kind.value} takes {arity} card(s), not {len(self.cards)}")
        if self.kind is ActionKind.MELD:
            if len(self.cards) < 2:
                raise _Impossible("a meld has at least two cards")
            if len(set(self.cards)) != len(self.cards):
                raise _Impossible("a meld cannot name the same card twice")
            object.__setattr__(self, "cards", tuple(by_rank_desc(self.cards)))
        if self.target is not None and self.kind is not ActionKind.PLAY:
            raise _Impossible("only play takes a target card")
        if self.target is not None and self.target in self.cards:
            raise _Impossible(f"{self.target} cannot be played on itself")
        if self.down and self.kind is not ActionKind.DISCARD:
            raise _Impossible("only a discard can go face down")

    @property
    def mask(self) -> int:
        """The action's cards as a card set (the target is not among them)."""
        return mask_of(self.cards)

    def __str__(self) -> str:
        return self.spelled(str)

    def spelled(self, card: Callable[[Card], str]) -> str:
        """The action in notation with each card written by ``card`` (a screen's
        suit symbols, say); ``str`` gives the notation itself.

        >>> Action.parse("play 10d on jd").spelled(lambda c: c.rank_name + "d")
        'play 10d on Jd'
        """
        verb = "take" if self.kind is ActionKind.TAKE_FROM else self.kind.value
        parts = [verb, *(card(c) for c in self.cards)]
        if self.target is not None:
            parts += ["on", card(self.target)]
        if self.down:
            parts.append("down")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action in Umtali notation (case-insensitive)."""
        return Action.parse_words(text.replace(",", " ").split(), text.strip())

    @staticmethod
    def parse_words(words: Sequence[str], text: str | None = None) -> Action:
        """Read an action from the words of its notation, split already (a line typed
        at the prompt, its aliases given as the words they stand for); ``text`` is
        how a refusal quotes it (by default the words, a space apart)."""
        if text is None:
            text = " ".join(words)
        if not words:
            raise InvalidNotation(f"an empty command is not an action: {USAGE}")
        verb = words[0].lower()
        rest = list(words[1:])
        try:
            if verb in ("draw", "take") and not rest:
                return Action(ActionKind(verb))
            if verb == "take" and rest == ["2"]:
                return Action(ActionKind.TAKE_TWO)
            if verb == "take" and [w.lower() for w in rest] == ["next"]:
                return Action(ActionKind.TAKE_NEXT)
            if verb == "take" and len(rest) == 1:
                return Action(ActionKind.TAKE_FROM, (Card.parse(rest[0]),))
            if verb == "end" and not rest:
                return Action(ActionKind.END)
            if verb == "meld" and rest:
                return Action(ActionKind.MELD, tuple(Card.parse(w) for w in rest))
            if verb == "play" and len(rest) in (1, 3):
                target = None
                if len(rest) == 3:
                    if rest[1].lower() != "on":
                        raise InvalidNotation(f"{text.strip()!r}: write play <card> on <card>")
                    target = Card.parse(rest[2])
                return Action(ActionKind.PLAY, (Card.parse(rest[0]),), target)
            if verb == "discard" and len(rest) in (1, 2):
                down = False
                if len(rest) == 2:
                    if rest[1].lower() not in ("down", "facedown"):
                        raise InvalidNotation(f"{text.strip()!r}: write discard <card> [down]")
                    down = True
                return Action(ActionKind.DISCARD, (Card.parse(rest[0]),), down=down)
        except _Impossible as e:
            raise InvalidNotation(f"{text.strip()!r}: {e}") from None
        raise InvalidNotation(f"{text.strip()!r} is not an action: {USAGE}")


# The actions that name no card, made once.
DRAW_ACTION = Action(ActionKind.DRAW)
TAKE_ACTION = Action(ActionKind.TAKE)
TAKE_TWO_ACTION = Action(ActionKind.TAKE_TWO)
TAKE_NEXT_ACTION = Action(ActionKind.TAKE_NEXT)
END_ACTION = Action(ActionKind.END)

__all__ = [
    "DRAW_ACTION",
    "END_ACTION",
    "TAKE_ACTION",
    "TAKE_NEXT_ACTION",
    "TAKE_TWO_ACTION",
    "USAGE",
    "Action",
    "ActionKind",
]
