"""The Elevens family as data: rule files, one rules engine, and the search adapter.

`schema` reads and validates rule files; `presets` ships Half Moon, Elevens, Suit Elevens and
Tens; `engine` plays any of them as immutable positions; `search` decides them on the shared
solitaire core with the family's sound reductions; `brute` is the small independent checker."""
