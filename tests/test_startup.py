"""Starting quickly: a command imports what it uses, and the tables cost little.

What is checked here is which modules a start loads, never how long it takes
(``umtali bench startup`` measures that, and a test below runs it briefly).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import umtali
from umtali.engine import cards, melds


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    show = "import json, sys; print(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\n{show}"], capture_output=True, text=True, check=False
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


#: What the parser needs: the level names (the registry, not the bots), the variants'
#: names, the version.
PARSER_NEEDS = {
    "umtali",
    "umtali.bots",
    "umtali.bots.levels",
    "umtali.cli",
    "umtali.cli.main",
    "umtali.cli.options",
    "umtali.engine",
    "umtali.engine.errors",
    "umtali.engine.lazy",
    "umtali.engine.rules",
    "umtali.ui",
    "umtali.ui.textsafe",
}


def unused(modules: set[str]) -> list[str]:
    """Modules a start loaded that the command line does not use."""
    ours = {m for m in modules if m.split(".")[0] == "umtali"} - PARSER_NEEDS
    theirs = {m for m in modules if m.split(".")[0] in ("rich", "prompt_toolkit", "markdown_it")}
    return sorted(ours | theirs)


def test_importing_the_command_line_loads_no_bot_no_machine_and_no_rich() -> None:
    assert unused(loaded_after("import umtali.cli.main")) == []


@pytest.mark.parametrize("args", [["--help"], ["play", "--help"], ["host", "--help"]])
def test_asking_for_help_loads_no_bot_no_machine_and_no_rich(args: list[str]) -> None:
    code = (
        f"from umtali.cli.main import main\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass"
    )
    assert unused(loaded_after(code)) == []


def test_the_test_would_catch_a_command_line_that_loads_the_bots() -> None:
    modules = loaded_after("import umtali.cli.main, umtali.bots.hard")
    assert "umtali.bots.hard" in unused(modules) and "umtali.engine.state" in unused(modules)


def test_importing_umtali_loads_neither_the_engine_nor_the_bots() -> None:
    modules = loaded_after("import umtali; umtali.__all__, umtali.__version__")
    ours = {m for m in modules if m.startswith("umtali")}
    assert ours == {"umtali", "umtali.engine", "umtali.engine.lazy"}


def test_every_public_name_is_there_on_first_use() -> None:
    code = (
        "import umtali\n"
        "from umtali import *\n"
        "missing = [n for n in umtali.__all__ if n not in globals()]\n"
        "assert not missing, missing\n"
        "assert umtali.Card.parse('QS') is umtali.engine.cards.Card.parse('QS')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert set(umtali.__all__) <= set(dir(umtali))
    with pytest.raises(AttributeError, match="no attribute 'Dael'"):
        umtali.Dael  # type: ignore[attr-defined]  # noqa: B018


def test_the_engine_names_where_each_public_name_lives() -> None:
    import umtali.engine

    assert set(umtali.engine.HOMES) == set(umtali.engine.__all__)
    for name, home in umtali.engine.HOMES.items():
        module = sys.modules.get(f"umtali.engine.{home}") or __import__(
            f"umtali.engine.{home}", fromlist=[name]
        )
        assert getattr(umtali.engine, name) is getattr(module, name)


def test_a_bot_level_loads_only_its_own_bot() -> None:
    modules = loaded_after("import umtali.bots; umtali.bots.make_bot('hard', 1)")
    assert "umtali.bots.hard" in modules
    assert "umtali.bots.expert" not in modules and "umtali.bots.inference" not in modules
    assert "umtali.bots.hard" not in loaded_after("from umtali.bots import LEVELS, make_bot")


def test_the_rule_book_is_parsed_when_it_is_shown_not_before() -> None:
    code = (
        "import io, sys\n"
        "from umtali.ui.rulebook import RuleBook\n"
        "book = RuleBook(ascii_only=True)\n"
        "assert 'rich.markdown' not in sys.modules\n"
        "from rich.console import Console\n"
        "console = Console(width=80, record=True, color_system=None, file=io.StringIO())\n"
        "console.print(book)\n"
        "assert 'How to play Umtali' in console.export_text()\n"
        "assert 'rich.markdown' in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_suit_tables_hold_what_their_definitions_say() -> None:
    patterns = range(1 << 13)
    ranks = [tuple(r for r in range(13) if p >> r & 1) for p in patterns]
    assert list(cards._SUIT_INDICES) == ranks
    assert list(cards._SUIT_RUMMY) == [sum(min(r + 1, 10) for r in rs) for rs in ranks]
    assert list(melds.MELDABLE13) == [melds._meldable13(p) for p in patterns]
    assert list(melds.RUMMY_MELDABLE13) == [melds._rummy_meldable13(p) for p in patterns]
    for suit in range(4):
        assert list(melds._MELDABLE_IN_SUIT[suit]) == [m << 13 * suit for m in melds.MELDABLE13]


@pytest.mark.slow  # real terminals: CI runs it
def test_bench_startup_reports_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from umtali.lab import bench
    from umtali.lab.benches import startup

    if startup.missing() is not None:
        pytest.skip(startup.missing())
    assert bench.main(["startup", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["benchmark"] == "startup" and figures["runs"] == 2
    for key in ("help_median_ms", "help_p90_ms", "first_screen_median_ms", "help_cpu_median_ms"):
        assert figures[key] > 0
    assert figures["first_screen_p90_ms"] >= figures["first_screen_median_ms"]
    assert out.startswith("startup, 2 runs each: umtali --help median ")


def test_bench_startup_refuses_no_runs() -> None:
    from umtali.lab import bench

    with pytest.raises(SystemExit) as stopped:
        bench.main(["startup", "--runs", "0"])
    assert stopped.value.code == 2


def test_the_percentile_is_by_nearest_rank() -> None:
    from umtali.lab.benches.startup import percentile

    assert percentile([5.0], 0.9) == 5.0
    assert percentile([float(n) for n in range(1, 11)], 0.9) == 9.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
