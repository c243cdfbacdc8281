"""The README is the front door: short, its examples run, and CI runs its commands.

The pages behind it, under docs/, are checked by test_docs.py.
"""

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


def test_the_readme_is_a_front_door() -> None:
    # What is not for a newcomer's first minutes lives under docs/.
    assert len(README.splitlines()) <= 260


def test_ci_runs_the_readme_test_command() -> None:
    command = re.search(
        r"\. \.venv/bin/activate && pip install -e '\.\[test,research\]' && python -m pytest",
        README,
    )
    assert command, "the README's test command changed: update .ci/run to match"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # The same extras, and the documentation's generator in the same pip call.
    assert "pip\" install --quiet -e '.[test,research,docs]'" in ci
    assert '"$venv/bin/python" -m pytest' in ci


def test_ci_builds_the_documentation_the_readme_shows() -> None:
    assert "pip install -e '.[docs]' && mkdocs build --strict" in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '"$venv/bin/mkdocs" build --strict --site-dir "$(mktemp -d)"' in ci
    assert "site/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_the_readme_install_command_starts_the_game() -> None:
    install = "python3 -m venv .venv && . .venv/bin/activate && pip install . && umtali play"
    assert install in README
    # Said once: every later command is typed in the activated environment.
    assert "A new terminal needs\n`. .venv/bin/activate` again" in README
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        assert ".venv/bin/umtali" not in page.read_text(encoding="utf-8"), page.name
        assert ".venv/bin/pip" not in page.read_text(encoding="utf-8"), page.name


def test_the_table_picture_is_what_the_renderer_draws() -> None:
    from umtali.ui.snapshot import snapshot_svg

    def texts(svg: str) -> list[str]:
        return re.findall(r">([^<>]+)</text>", svg)

    committed = (ROOT / "docs" / "table.svg").read_text(encoding="utf-8")
    assert texts(committed) == texts(snapshot_svg())
    assert "docs/table.svg" in README
