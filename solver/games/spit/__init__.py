"""Spit: the rules of one round under the project's alternating model, and a solitaire count.

`rules` holds the values (`SpitPosition`, `SpitMove`), the rules and the core's `Game`
(`GAME`); `solitaire` counts the fewest actions a player needs to clear the stock alone;
`rounds` settles a finished round (slapping, gathering) and lays out the next; `endgame` is
the adapter for `halfmoon endgame spit`."""
