"""Names a package loads from its modules the first time they are asked for.

``umtali``, ``umtali.engine`` and ``umtali.bots`` list their public names with the
module that holds each, and hand the list to :func:`first_use`; the module
``__getattr__`` it returns (PEP 562) imports that module when the name is first
read, and keeps the value, so a command imports only the parts it uses.

>>> space: dict[str, object] = {}
>>> getter, listing = first_use("demo", {"sqrt": "math"}, space)
>>> getter("sqrt")(9.0), "sqrt" in space, listing()
(3.0, True, ['sqrt'])
>>> getter("cube")
Traceback (most recent call last):
AttributeError: module 'demo' has no attribute 'cube'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping


def first_use(
    package: str, homes: Mapping[str, str], namespace: MutableMapping[str, object]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A module ``__getattr__`` for ``package`` that imports each name of ``homes`` (a
    name and the full name of its module) on first use and keeps it in ``namespace``
    (the package's ``globals()``), and a ``__dir__`` that lists them beside the rest."""

    def getter(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value  # the next look-up is an ordinary one
        return value

    def listing() -> list[str]:
        return sorted({*namespace, *homes})

    return getter, listing
