"""The README is the front door: its examples run and CI runs its commands."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_examples_run() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted > 5
    assert result.failed == 0


def test_ci_runs_the_readme_test_command() -> None:
    command = re.search(
        r"pip install -e '\.\[test,research\]' && \.venv/bin/python -m pytest", README
    )
    assert command, "the README's test command changed: update .ci/run to match"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip\" install --quiet -e '.[test,research]'" in ci
    assert '"$venv/bin/python" -m pytest' in ci


def test_the_readme_install_command_starts_the_game() -> None:
    assert ".venv/bin/pip install . && .venv/bin/umtali play" in README


def test_the_table_picture_is_what_the_renderer_draws() -> None:
    from umtali.ui.snapshot import snapshot_svg

    def texts(svg: str) -> list[str]:
        return re.findall(r">([^<>]+)</text>", svg)

    committed = (ROOT / "docs" / "table.svg").read_text(encoding="utf-8")
    assert texts(committed) == texts(snapshot_svg())
    assert "docs/table.svg" in README
