"""Builds the compiled kernels (the Half Moon search and the endgame provers), optionally.

The project's metadata lives in pyproject.toml; this file only adds the Cython extensions.
Without a working C compiler (or without Cython) the build prints one warning per kernel and
goes on: the package then runs the Python reference, which gives the same answers, slower.
"""

from __future__ import annotations

import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

KERNEL = "halfmoon.solver.games.halfmoon._kernel"
SOURCE = "solver/games/halfmoon/_kernel.pyx"
# the multiplayer endgame provers (each game keeps a Python reference; the tests compare them)
ENDGAME_KERNELS = [
    ("halfmoon.solver.games.shithead._native", "solver/games/shithead/_native.pyx"),
    ("halfmoon.solver.games.shithead._native3", "solver/games/shithead/_native3.pyx"),
    ("halfmoon.solver.games.eight_and_a_half._native", "solver/games/eight_and_a_half/_native.pyx"),
    ("halfmoon.solver.games.golf._native", "solver/games/golf/_native.pyx"),
    ("halfmoon.solver.games.spit._native", "solver/games/spit/_native.pyx"),
]


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing: the kernel is an accelerator, not a requirement."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any build failure means: no kernel
            self._warn("the compiled kernels were", error)

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            self._warn(f"{ext.name} was", error)

    @staticmethod
    def _warn(what: str, error: BaseException) -> None:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        print(f"WARNING: {what} not built ({first}); the Python reference will be used", file=sys.stderr)


def extensions() -> list:
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError:
        print("WARNING: Cython is not available; the compiled kernels will not be built", file=sys.stderr)
        return []
    try:
        return cythonize(
            [Extension(KERNEL, [SOURCE], extra_compile_args=["-O3"])]
            + [Extension(name, [source], extra_compile_args=["-O3"]) for name, source in ENDGAME_KERNELS],
            compiler_directives={"language_level": "3"},
            quiet=True,
        )
    except Exception as error:  # noqa: BLE001
        print(f"WARNING: the compiled kernels could not be translated ({error}); "
              "the Python reference will be used", file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
