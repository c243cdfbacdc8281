"""The club's settings: what its admin chooses, kept in the ``settings`` table.

Each setting is one JSON value under its key; a key not set reads as its default, so
a new setting needs no migration.

>>> turn_time("3d"), turn_time("1h"), turn_words(turn_time("14d"))
(259200000, 3600000, '14 days')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from enum import Enum

from umtali.engine.errors import UmtaliError
from umtali.engine.rules import PRESETS
from umtali.store.database import Transaction

HOUR = 3600 * 1000
DAY = 24 * HOUR

#: The turn times a game may have: from an hour to two weeks.
TURN_TIMES: dict[str, int] = {
    "1h": HOUR,
    "6h": 6 * HOUR,
    "12h": 12 * HOUR,
    "1d": DAY,
    "2d": 2 * DAY,
    "3d": 3 * DAY,
    "5d": 5 * DAY,
    "7d": 7 * DAY,
    "14d": 14 * DAY,
}
#: Days of holiday a member may take in a year (their clocks stop).
HOLIDAY_DAYS = 30
#: Turns in a row the bot may play for a member before the game is forfeited.
TIMEOUTS_MOST = 3


class SettingError(UmtaliError):
    """A setting that cannot be set so; the message names what can."""


class TimeoutPolicy(str, Enum):
    #: The bot plays the turn for the member, and the game says so.
    BOT = "bot"
    #: The member whose time ran out loses the game.
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class Settings:
    name: str = "Umtali club"
    variants: tuple[str, ...] = tuple(PRESETS)
    turn_ms: int = TURN_TIMES["3d"]
    timeout: TimeoutPolicy = TimeoutPolicy.BOT
    spectators: bool = True


def turn_time(words: str) -> int:
    """The turn time ``words`` names (``1h`` ... ``14d``)."""
    found = TURN_TIMES.get(words.strip().lower())
    if found is None:
        raise SettingError(f"A turn time is one of {', '.join(TURN_TIMES)}, not {words!r}.")
    return found


def turn_words(ms: int) -> str:
    """A turn time in words: ``3 days``, ``1 hour``."""
    if ms % DAY == 0:
        days = ms // DAY
        return f"{days} day{'s' if days != 1 else ''}"
    hours = max(1, ms // HOUR)
    return f"{hours} hour{'s' if hours != 1 else ''}"


def load(tx: Transaction) -> Settings:
    """The club's settings as stored, defaults for the rest."""
    stored = dict(tx.all("SELECT key, value FROM settings"))
    found = Settings()
    for field in fields(Settings):
        if field.name in stored:
            found = _with(found, field.name, json.loads(stored[field.name]))
    return found


def change(tx: Transaction, name: str, value: str) -> Settings:
    """Set one setting from what an admin typed; SettingError says what is allowed."""
    current = load(tx)
    if name not in {f.name for f in fields(Settings)}:
        known = ", ".join(f.name for f in fields(Settings))
        raise SettingError(f"There is no setting {name!r}: the settings are {known}.")
    typed: object
    if name == "variants":
        typed = [v for v in value.replace(",", " ").split() if v]
    elif name == "turn_ms":
        typed = turn_time(value)
    elif name == "spectators":
        if value.lower() not in ("yes", "no", "on", "off"):
            raise SettingError("spectators is yes or no.")
        typed = value.lower() in ("yes", "on")
    else:
        typed = value
    updated = _with(current, name, typed)
    tx.execute("DELETE FROM settings WHERE key = ?", (name,))
    tx.execute("INSERT INTO settings (key, value) VALUES (?, ?)", (name, _stored(updated, name)))
    return updated


def _stored(settings: Settings, name: str) -> str:
    value = getattr(settings, name)
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value)


def _with(settings: Settings, name: str, value: object) -> Settings:
    """``settings`` with one field set from a JSON value, checked."""
    if name == "variants":
        names = tuple(str(v) for v in value) if isinstance(value, list) else ()
        unknown = [v for v in names if v not in PRESETS]
        if not names or unknown:
            raise SettingError(f"variants are some of {', '.join(PRESETS)}.")
        return replace(settings, variants=names)
    if name == "turn_ms":
        if not isinstance(value, int) or value not in TURN_TIMES.values():
            raise SettingError(f"A turn time is one of {', '.join(TURN_TIMES)}.")
        return replace(settings, turn_ms=value)
    if name == "timeout":
        try:
            return replace(settings, timeout=TimeoutPolicy(str(value)))
        except ValueError:
            raise SettingError("timeout is bot or forfeit.") from None
    if name == "spectators":
        return replace(settings, spectators=bool(value))
    if name == "name":
        text = str(value).strip()
        if not text or len(text) > 40 or not text.isprintable():
            raise SettingError("The club's name is 1 to 40 printable characters.")
        return replace(settings, name=text)
    raise SettingError(f"There is no setting {name!r}.")
