"""The seams of the architecture: the engine stands alone; views hide what they must."""

from __future__ import annotations

import functools
import subprocess
import sys

import pytest

import umtali
from umtali.engine.hand import machine_of


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
    drawn = str(hand.events()[-1].cards[0])
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
    drawn = str(hand.events()[-1].cards[0])
    assert hand.history()[-1] == (2, f"draw ({drawn})")
    assert hand.view(1).history[-1] == (2, "draw")  # what the full history adds


def _imports() -> dict[str, set[str]]:
    """Every umtali module and the umtali modules it imports, wherever in its text: an
    import inside a function (put off until first use) closes a circle as surely as one
    at the top.  ``from umtali.engine import record_read`` imports the module
    ``umtali.engine.record_read`` (and its package), not a name of the package.  A fresh
    copy for each caller of the one reading of the sources."""
    return {module: set(deps) for module, deps in _read_imports().items()}


@functools.cache
def _read_imports() -> dict[str, frozenset[str]]:
    """Parsing every module is most of what the import tests cost, and the sources do not
    change while the tests run: they are read once (per worker)."""
    import ast
    from pathlib import Path

    root = Path(umtali.__file__).parent
    files: dict[str, Path] = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, frozenset[str]] = {}
    for name, path in files.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        # A package's __init__ that imports its own modules names itself: no circle.
        graph[name] = frozenset(m for m in found if m in files and m != name)
    return graph


#: The layers from the bottom up: a package imports only packages of lower layers (and
#: modules of its own).  Every package of ``umtali`` must be named here.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine",),
    ("store",),  # the file door: every layer above passes its files through it
    ("bots",),
    ("ui",),
    ("play",),  # seats people and bots at a table
    ("host", "learn", "review", "stats"),  # the other ways of using Umtali
    ("club",),  # umtali serve: the club, built on the host's door
    # the researchers' door (OpenSpiel, PettingZoo): only the lab and the command line
    # reach it
    ("research",),
    ("lab",),  # research tooling: only the command line reaches it
    ("cli",),
)


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _layer(module: str) -> int:
    package = _package(module)
    for depth, packages in enumerate(LAYERS):
        if package in packages:
            return depth
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS")


def test_every_module_sits_in_a_package_that_names_its_layer() -> None:
    loose = [m for m in _imports() if m.count(".") == 1 and _package(m) not in ("__main__",)]
    loose = [m for m in loose if not any(_package(m) in layer for layer in LAYERS)]
    assert not loose, f"modules loose beside the packages: {loose}"
    for module in _imports():
        if module not in ("umtali", "umtali.__main__"):
            _layer(module)


def test_each_layer_imports_only_the_layers_below_it() -> None:
    graph = _imports()
    backwards = [
        f"{m} imports {dep}"
        for m, deps in graph.items()
        if m not in ("umtali", "umtali.__main__")
        for dep in deps
        if dep != "umtali" and _package(dep) != _package(m) and _layer(dep) >= _layer(m)
    ]
    assert not backwards


def test_nothing_but_the_command_line_imports_the_lab() -> None:
    graph = _imports()
    reaching = [
        f"{m} imports {dep}"
        for m, deps in graph.items()
        for dep in deps
        if _package(dep) == "lab" and _package(m) not in ("lab", "cli")
    ]
    assert not reaching


def test_nothing_but_the_lab_and_the_command_line_imports_the_research_door() -> None:
    graph = _imports()
    reaching = [
        f"{m} imports {dep}"
        for m, deps in graph.items()
        for dep in deps
        if _package(dep) == "research" and _package(m) not in ("research", "lab", "cli")
    ]
    assert not reaching


def test_the_research_doors_core_needs_none_of_its_libraries() -> None:
    """Without OpenSpiel, PettingZoo and numpy the action ids, the episode, the
    resampler and the level play still import, and so does the package, which says
    what is missing instead of registering the game."""
    code = (
        "import sys; "
        "sys.modules.update(dict.fromkeys(('pyspiel', 'pettingzoo', 'numpy'))); "  # absent
        "import umtali.research, umtali.research.action_ids, umtali.research.episode, "
        "umtali.research.resample, umtali.research.level_play; "
        "print(umtali.research.MISSING)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    said = out.stdout.strip()
    assert "OpenSpiel game python_umtali is not registered" in said, said
    assert "pip install 'umtali[research]'" in said


def test_a_layer_test_that_would_catch_a_module_reaching_up() -> None:
    assert _layer("umtali.engine.hand") < _layer("umtali.bots.hard") < _layer("umtali.ui.app")
    assert _layer("umtali.host.game") == _layer("umtali.learn.teach")
    assert _layer("umtali.lab.bench") < _layer("umtali.cli.main")


def test_no_module_imports_itself_round_a_circle() -> None:
    graph = _imports()
    state: dict[str, int] = {}  # 1 while on the path, 2 when done

    def visit(m: str, path: list[str]) -> list[str]:
        state[m] = 1
        for dep in sorted(graph.get(m, ())):
            if dep == "umtali" or dep not in graph:
                continue
            if state.get(dep) == 1:
                return [*path, m, dep]
            if dep not in state:
                circle = visit(dep, [*path, m])
                if circle:
                    return circle
        state[m] = 2
        return []

    for module in sorted(graph):
        if module not in state:
            assert not visit(module, []), "import circle"


def test_a_public_view_holds_no_hand_no_stock_draw_and_no_face_down_discard() -> None:
    from umtali.engine.view import public_view

    hand = umtali.deal_hand(
        ["8S", "7S", "6S", "9D", "9C", "9H", "KH", "QH", "3D", "3C", "2H"],
        ["AD", "3S", "5D", "7D", "JC", "2C", "4C", "6C", "8C", "10C"],
        dealer=1,
        eleven=1,
        seed=1,
    )
    for action in ("meld 8S 7S 6S", "meld 9D 9C 9H", "meld KH QH", "discard 2H down"):
        hand.play(action)
    hand.play("meld 3D 3C")  # player 1 is out; player 2's last turn draws blind
    hand.play("draw")
    assert hand.view(2).events[-1].cards  # player 2 saw the card drawn
    for player in (1, 2):
        public = public_view(hand.view(player))
        assert public.hand == () and public.hidden_hand == len(hand.hand_of(player))
        assert public.legal == () and public.discard_top is None
        drawn = [e for e in public.events if e.kind.value == "draw"]
        assert drawn and all(e.cards == () for e in drawn)
        down = [e for e in public.events if e.kind.value == "discard" and e.down]
        assert down and all(e.cards == () for e in down)
        assert public.sides == hand.view(player).sides


def _two_tables(p1_a: str, p1_b: str, script: str) -> tuple[umtali.Hand, umtali.Hand]:
    """Two classic hands whose player 1 (to move, with the eleventh card) holds
    ``p1_a`` or ``p1_b`` and plays ``script``; player 2 holds the same cards in both."""
    p2 = "AD 3S 5D 7D JC 2C 4C 6C 8C 10C"
    hands = []
    for p1 in (p1_a, p1_b):
        hand = umtali.deal_hand(p1.split(), p2.split(), dealer=1, eleven=1, seed=1)
        for action in filter(None, (a.strip() for a in script.split(";"))):
            hand.play(action)
        hands.append(hand)
    return hands[0], hands[1]


@pytest.mark.parametrize(
    ("p1_a", "p1_b", "script"),
    [
        # At the start of the turn: 8S 7S 6S could be laid, or nothing could.
        ("8S 7S 6S 9D 10H KH 3D QC 2H 5H 4H", "8S 2D 6S 9D 10H KH 3D QC 2H 5H 4H", ""),
        # After a meld: the mover still holds the marriage KH QH, or nothing to lay.
        (
            "8S 7S 6S 9D 10H KH QH 3D QC 2H 4H",
            "8S 7S 6S 9D 10H KH QD 3D QC 2H 4H",
            "meld 8S 7S 6S",
        ),
    ],
)
def test_the_other_seat_and_a_spectator_cannot_tell_whether_the_mover_can_play_more(
    p1_a: str, p1_b: str, script: str
) -> None:
    from umtali.engine.view import Step, public_view

    can, cannot = _two_tables(p1_a, p1_b, script)
    # The mover sees its own step exactly.
    assert can.view(1).step is Step.PLAY and cannot.view(1).step is Step.DISCARD
    # The other seat and a spectator (made from either seat's view) see the same table.
    assert can.view(2) == cannot.view(2) and can.view(2).step is Step.PLAY
    for player in (1, 2):
        assert public_view(can.view(player)) == public_view(cannot.view(player))
        assert public_view(cannot.view(player)).step is Step.PLAY


def test_no_view_but_the_movers_tells_a_discard_step_in_any_variant() -> None:
    import random

    from umtali.engine.rules import PRESETS
    from umtali.engine.view import Step, public_view, step_of

    seen = 0
    for variant in PRESETS:
        rng = random.Random(len(variant))
        for seed in range(6):
            hand = umtali.deal_hand(seed=seed, rules=PRESETS[variant])
            while hand.to_move is not None:
                mover = hand.to_move
                truth = step_of(machine_of(hand))
                assert hand.view(mover).step is truth
                for player in (1, 2):
                    public = public_view(hand.view(player))
                    assert public.step is (Step.PLAY if truth is Step.DISCARD else truth)
                assert hand.view(3 - mover).step is public.step
                seen += truth is Step.DISCARD
                hand.play(rng.choice(hand.legal_actions()))
    assert seen > 50


def test_the_table_loads_the_coach_only_when_a_review_is_asked_for() -> None:
    """Seating a table and driving a game loads no search: the coach's review (and the
    analysis behind it) is imported the first time a player types ``review``."""
    code = (
        "import sys, umtali.ui.loop, umtali.play.table, umtali.host.game\n"
        "print(sorted(m for m in sys.modules if m.startswith('umtali.bots.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = out.stdout
    assert "umtali.bots.arena" in loaded  # the sanity of the check: the driver is there
    for heavy in ("umtali.bots.coach", "umtali.bots.analysis", "umtali.bots.expert"):
        assert heavy not in loaded
