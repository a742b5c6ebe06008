"""Half Moon: the rules, the exact solvers and the drawing of the app's table.

`rules` holds the values (positions, moves) and replays lines; `search` is what the search
knows (packed state, safe moves, dead positions) and `kernel` picks the compiled port of it
(`_kernel`) or the Python reference; `cpsat` is the CP-SAT model; `portfolio` runs them (the
`auto` method); `render` draws a table; `adapter` is the catalogue's record."""
