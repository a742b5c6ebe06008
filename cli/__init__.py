"""Interfaces only: the `halfmoon` command line (and later the HTTP service). No game logic here."""
