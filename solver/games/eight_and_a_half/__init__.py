"""Eight and a half ("Shmone VaHetzi"): rules engine, positions, and the endgame adapter.

`position` holds the readable values (Position, Seat, Move, text and JSON), `rules` the pile's
rules card by card, `engine` the packed-int game the exact core solves."""
