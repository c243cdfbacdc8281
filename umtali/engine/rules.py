"""The rule set a hand, game and session are played under.

Rules are data: every choice the engine makes that a variant could change
reads a field of :class:`RuleSet`, never a scattered ``if variant == ...``.
``classic`` (the old rule book) is the preset built so far.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One way of playing Umtali."""

    name: str
    #: cards dealt to the player who takes the extra card, and to the other
    big_hand: int = 11
    small_hand: int = 10
    #: a hand that reaches this many turns (both players counted) ends dead
    turn_limit: int = 200
    #: points each K and Q scores when laid together as a marriage
    marriage_card_points: int = 10
    hands_per_game: int = 4
    games_per_session: int = 3

    def __str__(self) -> str:
        return self.name


CLASSIC = RuleSet(name="classic")

PRESETS: dict[str, RuleSet] = {CLASSIC.name: CLASSIC}


def rules_named(name: str | RuleSet) -> RuleSet:
    """Look a preset up by name (a RuleSet passes through unchanged)."""
    if isinstance(name, RuleSet):
        return name
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown rules {name!r}: the presets are {known}") from None
