"""The `halfmoon` command line: a click group whose commands live in `cli.commands`.

Every command module imports only click and this package at load time and the facade
(`import halfmoon`) inside its function, so `halfmoon --help` starts fast.
"""

from __future__ import annotations

import click

from .commands.atlas import atlas
from .commands.deals import code, deal, games
from .commands.endgame import endgame
from .commands.replay import replay
from .commands.rules import rules
from .commands.serve import serve
from .commands.solve import analyze, hint, solve
from .commands.survey import generate, survey
from .common import HalfMoonGroup


@click.group(cls=HalfMoonGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="halfmoon-solver", prog_name="halfmoon")
def main() -> None:
    """Half Moon and its cousins: deal codes, exact solving, curated deals, endgames.

    Exit codes: 0 success, 1 internal error, 2 usage error, 3 invalid input, 130 interrupted.
    """


for command in (games, deal, code, replay, solve, hint, analyze, endgame, rules, generate, survey, atlas,
                serve):
    main.add_command(command)


if __name__ == "__main__":
    main()
