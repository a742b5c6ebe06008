"""Rule files for the Elevens family: the schema, its validation, and the `RuleSet` value.

A rule file (JSON, or TOML with the same keys) says everything that differs between the
games of the family: the deck, the tableau, the reserve, the stock and how it refills, which
groups of cards may be removed, and when the game is won. Validation is strict on purpose:
an unknown key, a deck that cannot fill the table, or a sum no group of cards can reach is an
error naming the key and the problem, never a silently unwinnable game.
The schema is documented in docs/rules/elevens-family.md.
"""

from __future__ import annotations

import difflib
import json
import tomllib
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, Mapping

from halfmoon.dealcodes.cards import RANKS, SUITS
from halfmoon.solver.errors import RuleFileError

SCHEMA_ID = "halfmoon-rules/1"
REFILL_NONE = "none"
REFILL_EMPTY_PILES = "empty-piles-in-order"
REFILLS = (REFILL_NONE, REFILL_EMPTY_PILES)
WIN_ALL_REMOVED = "all-removed"
WIN_STOCK_DEALT = "stock-dealt"
WINS = (WIN_ALL_REMOVED, WIN_STOCK_DEALT)
KIND_SUM, KIND_SET, KIND_SAME_RANK = "sum", "set", "same-rank"
KINDS = (KIND_SUM, KIND_SET, KIND_SAME_RANK)
MAX_COPIES = 8
#: The largest rule file read: real ones are about 1 KB.
MAX_RULE_FILE_BYTES = 256 * 1024
MAX_SUM_CARDS = 4


def rank_text(ranks: tuple[int, ...]) -> str:
    """Ranks as the letters of the schema, e.g. ``A23456789T``."""
    return "".join(RANKS[r - 1] for r in ranks)


@dataclass(frozen=True)
class Removal:
    """One way to remove cards.

    ``sum``: `cards` cards of `ranks` whose values (A=1 … K=13) add up to `target`.
    ``set``: one card of each rank in `ranks` (J+Q+K).
    ``same-rank``: `count` cards of one rank taken from `ranks` (four tens in Tens).
    `same_suit` asks every card of the group to share one suit.
    """

    kind: str
    ranks: tuple[int, ...]
    same_suit: bool = False
    target: int = 0
    cards: int = 2
    count: int = 0

    @property
    def size(self) -> int:
        """How many cards one group of this kind removes."""
        if self.kind == KIND_SUM:
            return self.cards
        if self.kind == KIND_SET:
            return len(self.ranks)
        return self.count

    def describe(self) -> str:
        suit = " of one suit" if self.same_suit else ""
        if self.kind == KIND_SUM:
            return f"{self.cards} cards{suit} from {rank_text(self.ranks)} summing to {self.target}"
        if self.kind == KIND_SET:
            return f"{'+'.join(RANKS[r - 1] for r in self.ranks)}{suit}"
        return f"{self.count} cards of one rank{suit} from {rank_text(self.ranks)}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.kind == KIND_SUM:
            data |= {"target": self.target, "cards": self.cards}
        if self.kind == KIND_SAME_RANK:
            data["count"] = self.count
        data["ranks"] = rank_text(self.ranks)
        data["same_suit"] = self.same_suit
        return data


@dataclass(frozen=True)
class RuleSet:
    """A validated game of the family. Build it with `load_rules` / `rules_from_json`."""

    name: str
    copies: int
    ranks: tuple[int, ...]
    suits: tuple[int, ...]
    depths: tuple[int, ...]
    reserve: int
    refill: str
    removals: tuple[Removal, ...]
    win: str = WIN_ALL_REMOVED
    tag: str | None = None
    description: str = ""
    columns: int | None = None

    @property
    def piles(self) -> int:
        return len(self.depths)

    @property
    def deck_size(self) -> int:
        return self.copies * len(self.ranks) * len(self.suits)

    @property
    def table_size(self) -> int:
        return sum(self.depths) + self.reserve

    @property
    def stock_size(self) -> int:
        return self.deck_size - self.table_size

    @property
    def uses_suits(self) -> bool:
        return any(r.same_suit for r in self.removals)

    def summary(self) -> dict[str, Any]:
        """The facts a reader wants first (what `halfmoon rules list --json` prints)."""
        return {
            "name": self.name, "tag": self.tag, "deck": self.deck_size, "piles": self.piles,
            "depths": sorted(set(self.depths)), "reserve": self.reserve, "stock": self.stock_size,
            "removals": [rule.describe() for rule in self.removals], "win": self.win,
        }

    def summary_line(self) -> str:
        depth = "/".join(map(str, sorted(set(self.depths))))
        places = f"{self.piles} piles of {depth}" + (f", {self.reserve} reserve" if self.reserve else "")
        stock = f", stock {self.stock_size} ({self.refill})" if self.stock_size else ", no stock"
        return f"{places}{stock}; removes {'; '.join(r.describe() for r in self.removals)}; win: {self.win}"

    def to_json(self) -> dict[str, Any]:
        """The canonical file form; `rules_from_json(r.to_json()) == r`."""
        data: dict[str, Any] = {"schema": SCHEMA_ID, "name": self.name}
        if self.tag:
            data["tag"] = self.tag
        if self.description:
            data["description"] = self.description
        data["deck"] = {"copies": self.copies, "ranks": rank_text(self.ranks), "suits": "".join(SUITS[s] for s in self.suits)}
        same = len(set(self.depths)) == 1
        data["tableau"] = {"piles": self.piles} | ({"depth": self.depths[0]} if same else {"depths": list(self.depths)})
        if self.columns:
            data["tableau"]["columns"] = self.columns
        data["reserve"] = self.reserve
        data["stock"] = {"size": self.stock_size, "refill": self.refill}
        data["removals"] = [r.to_json() for r in self.removals]
        data["win"] = self.win
        return data


# -- reading ---------------------------------------------------------------------------------


class _Reader:
    """Validation helpers that remember where in the file they are (for the error messages)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> RuleFileError:
        return RuleFileError(f"rules {self.source}: {where}: {problem}")

    def object(self, value: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"expected an object with keys {', '.join(required + optional)}")
        allowed = required + optional
        for key in value:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise self.fail(f"{where}.{key}" if where != "(top level)" else key,
                                f"unknown key{hint}; expected one of {', '.join(allowed)}")
        for key in required:
            if key not in value:
                raise self.fail(f"{where}.{key}" if where != "(top level)" else key, "missing (required)")
        return value

    def integer(self, value: Any, where: str, low: int, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"expected a whole number, got {value!r}")
        if value < low or (high is not None and value > high):
            bound = f"{low} … {high}" if high is not None else f"at least {low}"
            raise self.fail(where, f"{value} is out of range: expected {bound}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected text, got {value!r}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {value!r}")
        return value

    def letters(self, value: Any, where: str, alphabet: str, what: str) -> tuple[int, ...]:
        """Rank or suit letters such as ``A23456789T`` (``10`` is accepted for ten)."""
        raw = self.text(value, where).upper().replace("10", "T").replace(" ", "").replace(",", "")
        if not raw:
            raise self.fail(where, f"expected at least one {what}")
        picked: list[int] = []
        for char in raw:
            if char not in alphabet:
                raise self.fail(where, f"{char!r} is not a {what}; expected letters from {alphabet}")
            index = alphabet.index(char)
            if index in picked:
                raise self.fail(where, f"{what} {char!r} is listed twice")
            picked.append(index)
        return tuple(sorted(picked))


TOP_REQUIRED = ("name", "deck", "tableau", "removals")
TOP_OPTIONAL = ("schema", "tag", "description", "reserve", "stock", "win", "notes")


def rules_from_json(data: Any, source: str = "(data)") -> RuleSet:
    """Validate a parsed rule file and build its `RuleSet`; errors name the key at fault."""
    r = _Reader(source)
    top = r.object(data, "(top level)", TOP_REQUIRED, TOP_OPTIONAL)
    if "schema" in top and top["schema"] != SCHEMA_ID:
        raise r.fail("schema", f"{top['schema']!r} is not supported; expected {SCHEMA_ID!r}")
    name = r.text(top["name"], "name").strip()
    if not name:
        raise r.fail("name", "must not be empty")
    tag = None
    if "tag" in top:
        tag = r.text(top["tag"], "tag").strip().upper()
        if len(tag) != 2 or not tag.isalpha():
            raise r.fail("tag", f"{top['tag']!r}: expected a two-letter deal-code tag such as 'EL'")
    description = r.text(top.get("description", ""), "description")
    if "notes" in top:
        r.text(top["notes"], "notes")

    deck = r.object(top["deck"], "deck", ("ranks",), ("copies", "suits"))
    copies = r.integer(deck.get("copies", 1), "deck.copies", 1, MAX_COPIES)
    ranks = tuple(i + 1 for i in r.letters(deck["ranks"], "deck.ranks", RANKS, "rank"))
    suits = r.letters(deck.get("suits", SUITS), "deck.suits", SUITS, "suit")
    deck_size = copies * len(ranks) * len(suits)

    tableau = r.object(top["tableau"], "tableau", ("piles",), ("depth", "depths", "columns"))
    piles = r.integer(tableau["piles"], "tableau.piles", 1, 200)
    if ("depth" in tableau) == ("depths" in tableau):
        raise r.fail("tableau", "give exactly one of 'depth' (every pile) or 'depths' (a list, one per pile)")
    if "depth" in tableau:
        depths = (r.integer(tableau["depth"], "tableau.depth", 1, 200),) * piles
    else:
        raw = tableau["depths"]
        if not isinstance(raw, list) or len(raw) != piles:
            raise r.fail("tableau.depths", f"expected a list of {piles} pile depths (tableau.piles is {piles})")
        depths = tuple(r.integer(d, f"tableau.depths[{i}]", 1, 200) for i, d in enumerate(raw))
    columns = r.integer(tableau["columns"], "tableau.columns", 1, piles) if "columns" in tableau else None
    reserve = r.integer(top.get("reserve", 0), "reserve", 0, 200)

    table = sum(depths) + reserve
    if table > deck_size:
        raise r.fail(
            "tableau",
            f"impossible deck: the tableau ({sum(depths)} cards) and reserve ({reserve}) need {table} cards, "
            f"but deck has {copies} × {len(ranks)} ranks × {len(suits)} suits = {deck_size}",
        )
    stock_data = r.object(top.get("stock", {}), "stock", (), ("size", "refill"))
    refill = r.text(stock_data.get("refill", REFILL_NONE if table == deck_size else REFILL_EMPTY_PILES), "stock.refill")
    if refill not in REFILLS:
        raise r.fail("stock.refill", f"{refill!r} is not a refill rule; expected one of {', '.join(REFILLS)}")
    stock_size = deck_size - table
    if "size" in stock_data:
        size = r.integer(stock_data["size"], "stock.size", 0)
        if size != stock_size:
            raise r.fail(
                "stock.size",
                f"{size} does not match the deck: {deck_size} cards - {table} on the table = {stock_size}",
            )
    if stock_size and refill == REFILL_NONE:
        raise r.fail("stock.refill", f"'none', but {stock_size} cards are left for the stock and could never be played")

    raw_removals = top["removals"]
    if not isinstance(raw_removals, list) or not raw_removals:
        raise r.fail("removals", "expected a non-empty list of removal rules")
    removals = tuple(_removal(r, item, f"removals[{i}]", ranks, suits, copies) for i, item in enumerate(raw_removals))

    covered = {rank for rule in removals for rank in rule.ranks}
    stranded = [rank for rank in ranks if rank not in covered]
    if stranded:
        raise r.fail(
            "deck.ranks",
            f"rank(s) {' '.join(RANKS[x - 1] for x in stranded)} appear in no removal rule, so no deal could be won",
        )
    win = r.text(top.get("win", WIN_ALL_REMOVED), "win")
    if win not in WINS:
        raise r.fail("win", f"{win!r} is not a win condition; expected one of {', '.join(WINS)}")
    if win == WIN_STOCK_DEALT and stock_size == 0:
        raise r.fail("win", "'stock-dealt' needs a stock, but the deck leaves no cards for one")
    return RuleSet(name, copies, ranks, suits, depths, reserve, refill, removals, win, tag, description, columns)


def _removal(r: _Reader, item: Any, where: str, deck_ranks: tuple[int, ...], suits: tuple[int, ...], copies: int) -> Removal:
    if not isinstance(item, Mapping) or "kind" not in item:
        raise r.fail(where, f"expected an object with a 'kind' ({', '.join(KINDS)})")
    kind = r.text(item["kind"], f"{where}.kind")
    if kind not in KINDS:
        raise r.fail(f"{where}.kind", f"{kind!r} is not a removal kind; expected one of {', '.join(KINDS)}")
    optional = {KIND_SUM: ("cards", "ranks", "same_suit"), KIND_SET: ("same_suit",), KIND_SAME_RANK: ("same_suit",)}[kind]
    required = {KIND_SUM: ("kind", "target"), KIND_SET: ("kind", "ranks"), KIND_SAME_RANK: ("kind", "ranks", "count")}[kind]
    r.object(item, where, required, optional)
    same_suit = r.boolean(item.get("same_suit", False), f"{where}.same_suit")
    ranks = tuple(i + 1 for i in r.letters(item["ranks"], f"{where}.ranks", RANKS, "rank")) if "ranks" in item else deck_ranks
    missing = [x for x in ranks if x not in deck_ranks]
    if missing:
        raise r.fail(f"{where}.ranks", f"{' '.join(RANKS[x - 1] for x in missing)} not in deck.ranks ({rank_text(deck_ranks)})")
    per_rank = copies * (1 if same_suit else len(suits))  # cards of one rank (of one suit) in the deck
    if kind == KIND_SUM:
        cards = r.integer(item.get("cards", 2), f"{where}.cards", 2, MAX_SUM_CARDS)
        target = r.integer(item["target"], f"{where}.target", 1)
        reachable = {
            sum(combo)
            for combo in combinations_with_replacement(ranks, cards)
            if all(combo.count(x) <= per_rank for x in set(combo))
        }
        if target not in reachable:
            span = f"{min(reachable)} … {max(reachable)}" if reachable else "none"
            raise r.fail(
                f"{where}.target",
                f"{target} cannot be reached: no {cards} cards of ranks {rank_text(ranks)} sum to it (reachable: {span})",
            )
        useless = [x for x in ranks if not any(x in c and sum(c) == target for c in combinations_with_replacement(ranks, cards)
                                               if all(c.count(y) <= per_rank for y in set(c)))]
        if useless:
            raise r.fail(
                f"{where}.ranks",
                f"{' '.join(RANKS[x - 1] for x in useless)} can never be part of {cards} cards summing to {target}",
            )
        return Removal(kind, ranks, same_suit, target=target, cards=cards)
    if kind == KIND_SET:
        if len(ranks) < 2:
            raise r.fail(f"{where}.ranks", "a set needs at least two different ranks")
        return Removal(kind, ranks, same_suit)
    count = r.integer(item["count"], f"{where}.count", 2)
    if count > per_rank:
        of = "of one rank and suit" if same_suit else "of one rank"
        raise r.fail(f"{where}.count", f"{count} cards {of}, but the deck has only {per_rank}")
    return Removal(kind, ranks, same_suit, count=count)


def load_rules(path: str | Path) -> RuleSet:
    """Read and validate a rule file (``.json``, or ``.toml`` with the same keys)."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_RULE_FILE_BYTES + 1)
    except OSError as error:
        raise RuleFileError(f"rules {path}: cannot read: {error.strerror or error}") from None
    if len(data) > MAX_RULE_FILE_BYTES:
        raise RuleFileError(f"rules {path}: larger than {MAX_RULE_FILE_BYTES >> 10} KB; no rule file is that large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RuleFileError(f"rules {path}: not UTF-8 text (byte {error.start})") from None
    return rules_from_text(text, str(path), toml=path.suffix.lower() == ".toml")


def rules_from_text(text: str, source: str = "(text)", toml: bool = False) -> RuleSet:
    try:
        data = tomllib.loads(text) if toml else json.loads(text)
    except json.JSONDecodeError as error:
        raise RuleFileError(f"rules {source}: not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except tomllib.TOMLDecodeError as error:
        raise RuleFileError(f"rules {source}: not valid TOML: {error}") from None
    except RecursionError:
        raise RuleFileError(f"rules {source}: nested too deeply") from None
    return rules_from_json(data, source)
