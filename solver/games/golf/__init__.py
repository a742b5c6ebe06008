"""Six-card Golf: the rules of a round, the exact endgame search and the max^n line.

`rules` holds the values (positions, moves) and the scoring; `kernel` the core's `Game` and the
same rules on packed ints (`_native`, compiled, when built); `maxn` the labelled max^n line for
three or more players; `policy` plays a deal on to its endgame; `adapter` is `halfmoon endgame
golf`."""
