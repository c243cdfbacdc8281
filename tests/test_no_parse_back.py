"""Nobody parses back text that the program itself wrote (STYLE.md, habits 10 and 11).

Words for people are made at the last moment from structured values (a verdict's
reasons, an event, a record read by its one reader); a module that once cut such
words apart is scanned here, with ``ast``, so that it cannot start again:

* it imports no ``re``;
* every call that cuts or searches a string (``split``, ``partition``,
  ``startswith``, ``find``...) is listed below, with the text it reads: a line the
  player typed, the program's own data, a terminal screen read at a documented
  mark.  A new one fails until it is listed, and a listed one that is gone fails
  too, so that the list stays true;
* no string constant is looked for ``in`` another string (``"better" in part``);
* the research tools read no private attribute of another object (a seat's view,
  a screen's question): what they need is given to them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import umtali
from umtali.engine.kinds import WORDS, ActionKind

ROOT = Path(umtali.__file__).parent.parent

#: The modules that once parsed the program's own words.
MODULES = (
    "umtali/bots/coach.py",
    "umtali/ui/coaching.py",
    "umtali/learn/tutor.py",
    "umtali/learn/teach.py",
    "umtali/store/saves.py",
    "umtali/ui/commands.py",
    "umtali/lab/benches/host.py",
    "umtali/lab/fuzzing.py",
    "umtali/lab/ladder.py",
)
#: Modules that drive the program from outside, as a person would.
DRIVERS = ("umtali/lab/benches/host.py", "umtali/lab/fuzzing.py")

CUTS = {"split", "rsplit", "splitlines", "partition", "rpartition", "startswith", "endswith"}
CUTS |= {"find", "rfind", "index", "rindex"}

#: (module, function, method): the text it reads.
ALLOWED = {
    ("umtali/store/saves.py", "find_record", "endswith"): "the game's name the player typed",
    ("umtali/ui/commands.py", "parse_command", "split"): "the line the player typed",
    ("umtali/ui/commands.py", "_not_a_command", "startswith"): "a word the player typed",
    ("umtali/ui/commands.py", "_matching", "split"): "what the player typed before Tab",
    ("umtali/ui/commands.py", "_matching", "endswith"): "what the player typed before Tab",
    ("umtali/ui/commands.py", "_matching", "startswith"): "Tab: the options the typed text begins",
    (
        "umtali/learn/teach.py",
        "get_completions",
        "startswith",
    ): "Tab: the options typed text begins",
    ("umtali/learn/teach.py", "lesson", "index"): "a lesson's place in the list of lessons",
    ("umtali/learn/teach.py", "run", "index"): "a lesson's place in the list of lessons",
    ("umtali/learn/teach.py", "print_course", "index"): "a lesson's place in the list of lessons",
    ("umtali/lab/fuzzing.py", "<module>", "split"): "the fuzz's own word lists, one string each",
    ("umtali/lab/benches/host.py", "hint", "startswith"): "the client's screen, at HINT_LABEL",
    ("umtali/lab/benches/host.py", "hint", "find"): "the client's screen: the hint's dash",
}


def _tree(module: str) -> ast.Module:
    return ast.parse((ROOT / module).read_text(encoding="utf-8"), module)


def _functions(tree: ast.Module) -> dict[ast.AST, str]:
    """Each node's innermost enclosing function ('<module>' outside any)."""
    where: dict[ast.AST, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = (
                child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else name
            )
            where[child] = inner
            visit(child, inner)

    visit(tree, "<module>")
    return where


def _cuts(module: str) -> list[tuple[str, str, int]]:
    """Every call in ``module`` that cuts or searches a string: (function, method, line)."""
    tree = _tree(module)
    where = _functions(tree)
    return [
        (where[node], node.func.attr, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in CUTS
    ]


@pytest.mark.parametrize("module", MODULES)
def test_no_regular_expressions(module: str) -> None:
    imported = [
        node.lineno
        for node in ast.walk(_tree(module))
        if (isinstance(node, ast.Import) and any(a.name == "re" for a in node.names))
        or (isinstance(node, ast.ImportFrom) and node.module == "re")
    ]
    assert imported == [], f"{module} imports re (line {imported})"


@pytest.mark.parametrize("module", MODULES)
def test_every_string_cut_is_of_text_the_program_did_not_write(module: str) -> None:
    found = _cuts(module)
    unlisted = [
        f"{module}:{line}: {method} in {function}"
        for function, method, line in found
        if (module, function, method) not in ALLOWED
    ]
    assert unlisted == [], "cutting text apart (list it in ALLOWED if it is input):\n" + "\n".join(
        unlisted
    )
    here = {(module, function, method) for function, method, _ in found}
    gone = [key for key in ALLOWED if key[0] == module and key not in here]
    assert gone == [], f"listed but no longer there: {gone}"


@pytest.mark.parametrize("module", MODULES)
def test_no_words_are_looked_for_in_text(module: str) -> None:
    looked = [
        f"{module}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Constant | ast.JoinedStr)
        and (not isinstance(node.left, ast.Constant) or isinstance(node.left.value, str))
        and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
    ]
    assert looked == []


@pytest.mark.parametrize("module", DRIVERS)
def test_the_drivers_read_nothing_private(module: str) -> None:
    private = [
        f"{module}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]
    assert private == []


def test_the_notation_words_are_the_kinds_words() -> None:
    """kinds.WORDS, which the prompt reads, spells each kind as its notation does."""
    for kind in ActionKind:
        spelled = " ".join(WORDS[kind])
        assert spelled == ("take" if kind is ActionKind.TAKE_FROM else kind.value)
