"""The Elevens family as data: rule files, one rules engine, and the search adapter.

`schema` reads and validates rule files; `presets` ships Half Moon, Elevens, Suit Elevens and
Tens; `rules` plays any of them as immutable positions; `kernel` is the packed search state with
the family's sound reductions, `search` decides deals with it on the shared solitaire core;
`render` draws a position; `adapter` is the catalogue's record. The independent brute force the
tests compare with lives in tests/support/family_brute.py."""
