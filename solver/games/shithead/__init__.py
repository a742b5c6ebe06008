"""Shithead (Palace): the rules, the packed kernel and the compiled df-pn provers.

`rules` holds the values (positions, moves) and replays lines; `kernel` the packed key, the hot
loop and the core's `Game`, with the compiled provers (`_native` for two seats, `_native3` for
three, from `_prover.pxi`) when built; `policy` plays a deal on to its endgame; `adapter` is
`halfmoon endgame shithead`."""
