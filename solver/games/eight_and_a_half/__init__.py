"""Eight and a half ("Shmone VaHetzi"): rules engine, positions, and the endgame adapter.

`position` holds the readable values (Position, Seat, Move, text and JSON), `rules` the pile's
rules card by card, `kernel` the packed-int game the exact core solves (`_native`: its compiled
prover, when built); `policy` plays a deal on to its endgame; `adapter` is `halfmoon endgame
eight-and-a-half`."""
