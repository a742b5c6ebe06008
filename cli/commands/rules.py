"""`halfmoon rules`: the rule files of the Elevens family (presets, and checking your own).

Every other command takes a rule file with --rules FILE (deal, replay, solve, hint, survey,
generate), so there is nothing game-specific to do here beyond listing, showing and checking.
"""

from __future__ import annotations

import click

from ..common import echo_json, json_option


@click.group()
def rules() -> None:
    """Rule files of the Elevens family: Half Moon, Elevens, Suit Elevens, Tens, or your own."""


@rules.command(name="list")
@json_option
def list_rules(as_json: bool) -> None:
    """List the preset rule files.

    --json prints one object per preset: {"preset", "name", "tag", "deck", "piles", "depths",
    "reserve", "stock", "removals", "win"}.
    """
    import halfmoon

    for stem in halfmoon.service.rule_presets():
        preset = halfmoon.service.rule_file(stem)
        if as_json:
            echo_json({"preset": stem} | preset.summary())
        else:
            click.echo(f"{stem:<13} {preset.tag or '--':<3} {preset.name}: {preset.summary_line()}")


@rules.command()
@click.argument("preset")
@json_option
def show(preset: str, as_json: bool) -> None:
    """Print PRESET's rule file (a name such as 'elevens' or a tag such as EL).

    The text is the file as shipped: copy it to start a rule file of your own. --json prints
    the canonical form of the validated rules.
    """
    import halfmoon

    if as_json:
        echo_json(halfmoon.service.rule_file(preset).to_json())
    else:
        click.echo(halfmoon.service.rule_preset_text(preset).rstrip("\n"))


@rules.command()
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def check(file: str, as_json: bool) -> None:
    """Validate a rule FILE (JSON or TOML); a bad file is one line naming the key (exit 3)."""
    import halfmoon

    rules_set = halfmoon.service.rule_file(file if "/" in file or "." in file else f"./{file}")
    if as_json:
        echo_json({"ok": True} | rules_set.summary())
    else:
        click.echo(f"ok: {rules_set.name}: {rules_set.summary_line()}")
