"""`python -m halfmoon`: the command line, as the `halfmoon` script runs it."""

from halfmoon.cli.main import main

if __name__ == "__main__":
    main()
