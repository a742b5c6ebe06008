"""The `halfmoon` command line: a click group whose commands live in `cli.commands`."""

from __future__ import annotations

import click

from .commands.curate import generate, survey
from .commands.deals import code, deal
from .commands.endgame import endgame
from .commands.play import replay
from .commands.rules import rules
from .commands.serve import serve
from .commands.solve import hint, solve
from .common import HalfMoonGroup


@click.group(cls=HalfMoonGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="halfmoon-solver", prog_name="halfmoon")
def main() -> None:
    """Half Moon and its cousins: deal codes, exact solving, curated deals, endgames.

    Exit codes: 0 success, 1 internal error, 2 usage error, 3 invalid input, 130 interrupted.
    """


for command in (deal, code, replay):
    main.add_command(command)

for command in (solve, hint):
    main.add_command(command)

main.add_command(endgame)
main.add_command(rules)
main.add_command(generate)
main.add_command(survey)
main.add_command(serve)


if __name__ == "__main__":
    main()
