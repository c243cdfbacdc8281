"""How a game is hosted: one value that ``umtali host`` builds and :class:`Host` reads.

Part of it is kept beside the game's record (the ``.hosted`` note), so that resuming
the game hosts it again as before; the rest (how quickly the bot moves, how long an
idle player is waited for, which bot gives hints) belongs to one run of the host.
"""

from __future__ import annotations

from dataclasses import dataclass

from umtali.ui.seating import STAND_IN as STAND_IN  # the hint's bot and the stand-in

#: The options the ``.hosted`` note keeps, in the order it writes them.
NOTED = ("listen", "port", "seat", "grace", "spectators")


@dataclass(frozen=True, slots=True)
class HostOptions:
    """How a game is hosted; the :data:`NOTED` part is kept beside its record."""

    listen: str = "127.0.0.1"
    port: int = 2222
    seat: int | None = None  # the seat the host plays here, if any
    grace: float = 600.0  # seconds a player may be away or silent
    spectators: bool = False
    # This run's alone (``umtali resume`` takes them from its own command line):
    delay: float = 0.6  # seconds a bot's move stays in view before the next one
    patience: float | None = None  # seconds a player may be silent (None: the grace)
    hint: str = STAND_IN.name  # the level a player's hint comes from

    def noted(self) -> dict[str, object]:
        """The options the ``.hosted`` note keeps, by name."""
        return {name: getattr(self, name) for name in NOTED}
