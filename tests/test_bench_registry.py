"""``umtali bench`` is built from one registry, and every bench module is in it."""

from __future__ import annotations

import pkgutil

import pytest

from umtali.lab import bench, benches


def test_every_bench_module_has_one_entry_and_every_entry_a_module() -> None:
    modules = {m.name for m in pkgutil.iter_modules(benches.__path__) if not m.name.startswith("_")}
    names = [entry.name for entry in bench.REGISTRY]
    assert len(names) == len(set(names))
    assert {name.replace("-", "_") for name in names} == modules
    for entry in bench.REGISTRY:
        module = entry.run.__module__
        assert module == f"umtali.lab.benches.{entry.name.replace('-', '_')}"
        assert entry.options.__module__ == module


def test_the_help_lists_the_registry_in_its_order(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        bench.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "{" + ",".join(entry.name for entry in bench.REGISTRY) + "}" in out
    for entry in bench.REGISTRY:
        assert entry.name in out


@pytest.mark.parametrize("entry", bench.REGISTRY, ids=lambda entry: entry.name)
def test_each_bench_parses_its_defaults(entry: bench.Bench) -> None:
    # Every command takes no arguments but equity (its --out is required).
    argv = [entry.name, "--out", "x.json"] if entry.name == "equity" else [entry.name]
    args = bench.build_parser().parse_args(argv)
    assert args.what == entry.name
