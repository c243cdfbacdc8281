"""``umtali replay``: the table it draws (each seat where it sits, both hands alike)."""

from __future__ import annotations

import os
from pathlib import Path

from prompting import recording_console

import umtali
from umtali.bots import NormalBot
from umtali.bots.arena import play_game
from umtali.engine.record import PlayerInfo, format_record
from umtali.ui.replay import Position, ReplayViewer
from umtali.ui.screen import LineScreen
from umtali.ui.theme import Theme

PLAYERS = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (normal)", "normal"))
ROOT = Path(__file__).resolve().parent.parent
ASCII = Theme(ascii=True)


def finished(seed: int = 2) -> umtali.Game:
    return play_game(umtali.Game(seed=seed), [NormalBot(), NormalBot()])


def saved(data: Path, name: str, game: umtali.Game, when: int) -> Path:
    """``game``'s record in the games folder under ``data``, last written at ``when``."""
    games = data / "games"
    games.mkdir(exist_ok=True)
    path = games / f"{name}.umtali"
    path.write_text(format_record(game, PLAYERS), encoding="utf-8")
    os.utime(path, (when, when))
    return path


# ------------------------------------------------------------- the table


def screens(game: umtali.Game, steps: range) -> list[str]:
    """The replay's table at each of ``steps`` of the first hand, as text."""
    console = recording_console()
    viewer = ReplayViewer(game, PLAYERS, LineScreen(console, None, ASCII), ASCII)
    out = []
    for step in steps:
        viewer.show(Position(0, 0, step))
        out.append(console.export_text())
    return out


def grouped(cards: list[umtali.Card]) -> str:
    """A hand as the player's own is drawn: suits apart, a wider gap between them."""
    suits: dict[str, list[str]] = {}
    for card in cards:
        suits.setdefault(str(card.suit), []).append(ASCII.plain(card))
    return "  " + "   ".join(" ".join(group) for group in suits.values())


def test_each_seat_stays_where_it_sits_and_both_hands_are_drawn_alike() -> None:
    from umtali.engine.hand import replay

    game = finished()
    hand = game.hands[0]
    movers = set()
    for step, text in zip(range(12), screens(game, range(12)), strict=True):
        rows = text.splitlines()
        top = next(n for n, row in enumerate(rows) if row.startswith(" Bot (normal) "))
        bottom = next(n for n, row in enumerate(rows) if row.startswith(" Ann "))
        assert top < bottom, text  # the first seat at the bottom, whoever is to move
        state = replay(hand.deal, hand.played()[:step], hand.rules)
        movers.add(state.to_move)
        # Both hands face up, grouped by suit the same way; no card backs anywhere.
        assert rows[top + 1] == grouped(state.cards_in_hand(2)), text
        assert rows[bottom + 1] == grouped(state.cards_in_hand(1)), text
        assert ASCII.back not in rows[top] and ASCII.back not in rows[bottom]
        # The line under the table says whose turn it is, from either seat.
        if state.to_move is not None:
            whose = "Ann's" if state.to_move == 1 else "Bot (normal)'s"
            assert f"{whose} turn" in text, text
    assert movers == {1, 2}  # both players moved in the steps looked at


