"""One module per command family; `cli.main` registers them."""
