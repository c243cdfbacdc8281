"""The documentation works as written: the README and every page under docs/.

Their ``>>>`` examples run; every ``umtali …`` command in a shell block parses with
the program's own parser, so a renamed or dropped option breaks this test rather than
a reader; the quick, harmless ones run; every page is in the site's nav (mkdocs.yml)
and every relative link leads to a file, and to a heading, that is there.  MkDocs
itself builds the site in .ci/run; these checks need no MkDocs.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from umtali.cli.options import build_parser
from umtali.lab import bench

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def _blocks(text: str, languages: tuple[str, ...]) -> list[str]:
    """The code blocks of a Markdown text fenced with one of ``languages``."""
    found = re.findall(r"^```([\w-]*)\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    return [body for language, body in found if language in languages]


def _commands(page: Path) -> list[list[str]]:
    """Every ``umtali …`` command in the page's shell blocks, as its words after ``umtali``.

    A line may chain commands (``pip install . && umtali play``) and start with a
    prompt (``$``); ``python -m umtali`` is the same program.
    """
    commands = []
    for block in _blocks(page.read_text(encoding="utf-8"), ("sh", "console", "bash", "shell")):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            for part in re.split(r"&&|\|\||;|\|", line):
                words = shlex.split(part, comments=True)
                if words[:3] in (["python", "-m", "umtali"], ["python3", "-m", "umtali"]):
                    words = ["umtali", *words[3:]]
                if words[:1] == ["umtali"]:
                    commands.append(words[1:])
    return commands


ALL_COMMANDS = [(page, words) for page in PAGES for words in _commands(page)]


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_the_examples_run(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, verbose=False)
    assert result.failed == 0


def test_there_are_examples_and_commands_to_check() -> None:
    # A change to the fences or to the extraction would otherwise check nothing.
    examples = sum(page.read_text(encoding="utf-8").count("\n>>> ") for page in PAGES)
    assert examples > 30
    assert len(ALL_COMMANDS) > 40


def _parse(words: list[str]) -> None:
    """Parse ``umtali WORDS`` as the program would; SystemExit(2) on a refusal."""
    if words[:1] == ["bench"]:
        bench.build_parser().parse_args(words[1:])
    else:
        build_parser().parse_args(words)


@pytest.mark.parametrize(
    ("page", "words"),
    ALL_COMMANDS,
    ids=[f"{_name(page)}: umtali {shlex.join(words)}" for page, words in ALL_COMMANDS],
)
def test_every_command_shown_parses(page: Path, words: list[str]) -> None:
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            _parse(words)
    except SystemExit as stop:
        # --help and --version stop the parser with 0; anything else is a refusal.
        assert stop.code == 0, f"umtali {shlex.join(words)}: {errors.getvalue().strip()}"


def test_a_changed_option_is_caught() -> None:
    with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
        _parse(["play", "--bots", "hard"])
    with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
        _parse(["bench", "bots", "--matchs", "4"])
    with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
        _parse(["serve", "member", "Ben", "ban"])


#: Commands that are quick and touch nothing but a data folder made for the test.
QUICK = (["rules"], ["learn", "--list"], ["stats"])


@pytest.mark.parametrize("words", QUICK, ids=shlex.join)
def test_the_quick_commands_shown_run(words: list[str], tmp_path: Path) -> None:
    assert words in [shown for _, shown in ALL_COMMANDS], "no longer shown: drop it here"
    env = {
        **os.environ,
        "UMTALI_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": str(ROOT),  # this checkout's umtali, whatever is installed
    }
    done = subprocess.run(
        [sys.executable, "-m", "umtali", *words],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert not done.stderr


def _nav() -> list[str]:
    """The pages named in mkdocs.yml's nav (``- Title: page.md``)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:\n") :]
    return re.findall(r"^\s+- (?:[^:\n]+: )?(\S+\.md)\s*$", nav, flags=re.MULTILINE)


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page() -> None:
    pages = sorted(page.name for page in DOCS.glob("*.md"))
    nav = _nav()
    assert sorted(nav) == pages
    assert len(nav) == len(set(nav))
    assert "docs_dir: docs" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_the_rule_book_page_is_the_rule_book() -> None:
    # Linked, not copied: one rule book, which the site and the program both show.
    assert (DOCS / "rules.md").resolve() == (ROOT / "RULES.md").resolve()


def _slug(heading: str) -> str:
    """A heading's anchor, as MkDocs (Python-Markdown's toc) makes it."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"`", "", text)
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    outside_code = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", outside_code, flags=re.MULTILINE)}


def _links(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    outside_code = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    outside_code = re.sub(r"`[^`\n]*`", "", outside_code)
    return re.findall(r"\]\(([^)\s]+)\)", outside_code)


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    for link in _links(page):
        if re.match(r"[a-z]+:", link):
            continue  # a web address
        target, _, anchor = link.partition("#")
        where = (page.parent / target) if target else page
        assert where.exists(), f"{_name(page)}: {link} leads nowhere"
        if anchor:
            assert anchor in _anchors(where), f"{_name(page)}: {link}: no such heading"


def test_the_slugs_are_mkdocs_slugs() -> None:
    assert _slug("A club: play by correspondence") == "a-club-play-by-correspondence"
    assert _slug("Plain mode over SSH") == "plain-mode-over-ssh"
    assert _slug("The `umtali` command's options") == "the-umtali-commands-options"


def test_the_guides_first_turn_is_the_screen_the_game_draws() -> None:
    """The guide's 80×24 first turn is the golden screen a real game draws
    (tests/test_golden_game.py), empty rows left out: a changed screen changes both."""
    guide = (DOCS / "guide.md").read_text(encoding="utf-8")
    after = guide[guide.index("### Your first turn") :]
    shown = _blocks(after, ("text",))[0].splitlines()
    golden = (ROOT / "tests" / "golden" / "game_80x24_first_table.txt").read_text("utf-8")
    assert shown == [line for line in golden.splitlines() if line.strip()]
    assert "umtali play --seed 5 --bot normal" in after
