"""Spit: the rules of one round under the project's alternating model, and a solitaire count.

`rules` holds the values (`SpitPosition`, `SpitMove`) and the rules; `kernel` the core's `Game`
(`GAME`) and the same rules on packed ints for its alpha-beta (`_native`, compiled, when built);
`search` counts the fewest actions a player needs to clear the stock alone; `rounds` settles a
finished round (slapping, gathering) and lays out the next; `adapter` is the adapter for
`halfmoon endgame spit`."""
