"""The seams of the architecture: the engine stands alone; views hide what they must."""

from __future__ import annotations

import subprocess
import sys

import umtali


def test_importing_the_engine_loads_neither_rich_nor_prompt_toolkit() -> None:
    code = (
        "import sys, umtali.engine, umtali; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('rich', 'prompt_toolkit')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_view_holds_no_opponent_hand_and_no_stock_order() -> None:
    hand = umtali.deal_hand(seed=12)
    view = hand.view(2)
    assert not set(view.hand) & set(hand.cards_in_hand(1))
    assert view.opponent_hand_size == 11 and view.stock_size == 31
    fields = set(type(view).__dataclass_fields__)
    assert not {"stock", "opponent_hand", "hands", "deal"} & fields


def test_the_players_own_draw_is_shown_to_them_only() -> None:
    hand = umtali.deal_hand(seed=12)
    while hand.to_move == 1:
        hand.play(hand.legal_actions()[0])
    hand.play("draw")
    drawn = str(umtali.Card.from_index(hand.log[-1][3]))
    assert hand.view(2).history[-1] == (2, f"draw ({drawn})")
    assert hand.view(1).history[-1] == (2, "draw")


def test_a_face_down_discard_is_hidden_from_the_opponent() -> None:
    hand = umtali.deal_hand(
        ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "4D"],
        ["KH", "QS", "2H", "5H", "7C", "9C", "2D", "6D", "8D", "AC"],
    )
    hand.play("meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS")
    hand.play("discard 4D down")
    assert hand.view(2).history[-1] == (1, "discard face down")
    assert hand.view(2).discard_top is None and hand.view(2).discard_down
    assert hand.view(1).history[-1] == (1, "discard 4D down")


def test_the_full_history_shows_every_card_for_study() -> None:
    hand = umtali.deal_hand(seed=12)
    while hand.to_move == 1:
        hand.play(hand.legal_actions()[0])
    hand.play("draw")
    drawn = str(umtali.Card.from_index(hand.log[-1][3]))
    assert hand.history()[-1] == (2, f"draw ({drawn})")
    assert hand.view(1).history[-1] == (2, "draw")  # what the full history adds
