"""The public namespaces (`halfmoon`, `halfmoon.atlas`, `halfmoon.service`), each built from one map.

A namespace lists where each of its names lives; a name is imported from there on first use, so
`import halfmoon` (and every `halfmoon` command, ``--help`` included) does not import the
solvers, numpy or OR-tools up front. Names that moved keep working for one release, with a
`DeprecationWarning` naming their new home.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any, Mapping, Sequence


class Namespace:
    """The public names of module `module`: ``{home module: names}``, ``{old name: "new.home.name"}``, and
    the submodules that load on first use too (``halfmoon.atlas`` after a plain ``import halfmoon``)."""

    def __init__(self, module: str, homes: Mapping[str, Sequence[str]], moved: Mapping[str, str] | None = None,
                 submodules: Sequence[str] = ()) -> None:
        self.module = module
        self.submodules = tuple(submodules)
        self.homes = {name: home for home, names in homes.items() for name in names}
        if len(self.homes) != sum(map(len, homes.values())):
            raise AssertionError(f"{module}: a public name is listed under two homes")
        self.moved = dict(moved or {})
        self.names = sorted(self.homes)

    def load(self, name: str) -> Any:
        """The value of `name`, imported from its home (and kept in the module), or of a moved name."""
        home = self.homes.get(name)
        if home is not None:
            value = getattr(importlib.import_module(home), name)
            setattr(sys.modules[self.module], name, value)
            return value
        if name in self.submodules:
            return importlib.import_module(f"{self.module}.{name}")  # which makes it an attribute of the module
        new = self.moved.get(name)
        if new is None:
            raise AttributeError(f"module {self.module!r} has no attribute {name!r}")
        warnings.warn(f"{self.module}.{name} is deprecated: use {new} (the old name goes in the next release)",
                      DeprecationWarning, stacklevel=3)
        module, _, attribute = new.rpartition(".")
        return getattr(importlib.import_module(module), attribute)
