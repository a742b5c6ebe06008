"""One conformance suite over every preset of the family (and a few custom rule files).

For each game: random legal playouts keep the invariants; the search agrees with the plain
brute-force solver on small deals and endgames; every winning line replays to a win.
Randomness comes from SplitMix64 with fixed seeds, so every run checks the same cases.
"""

from collections import Counter

import pytest
from support.family_brute import BruteForceLimit, brute_force

from halfmoon.dealcodes import Card, SplitMix64
from halfmoon.solver.core.verdicts import Verdict
from halfmoon.solver.games.family.presets import load_preset, preset_names
from halfmoon.solver.games.family.rules import Game, Position, find_groups, rule_accepts
from halfmoon.solver.games.family.schema import rules_from_json
from halfmoon.solver.games.family.search import solve_position

MINI = {
    # Small members of the family for exhaustive comparison: same rule kinds, small decks.
    "mini-halfmoon": {
        "name": "Mini Half Moon", "deck": {"copies": 1, "ranks": "A23456789TJQK", "suits": "CD"},
        "tableau": {"piles": 6, "depth": 4}, "reserve": 2,
        "removals": [{"kind": "sum", "target": 11, "ranks": "A23456789T"}, {"kind": "set", "ranks": "JQK"}],
    },
    "mini-two-deck": {
        "name": "Two-deck Mini", "deck": {"copies": 2, "ranks": "A23456JQK", "suits": "C"},
        "tableau": {"piles": 4, "depth": 4}, "reserve": 2,
        "removals": [{"kind": "sum", "target": 7, "ranks": "A23456"}, {"kind": "set", "ranks": "JQK"}],
    },
    "mini-elevens": {
        "name": "Mini Elevens", "deck": {"ranks": "A23456789TJQK", "suits": "CD"},
        "tableau": {"piles": 5, "depth": 1},
        "removals": [{"kind": "sum", "target": 11, "ranks": "A23456789T"}, {"kind": "set", "ranks": "JQK"}],
    },
    "mini-suit-piles": {
        "name": "Suited piles with a stock", "deck": {"ranks": "A2345678JQK", "suits": "CDH"},
        "tableau": {"piles": 4, "depth": 2}, "reserve": 1,
        "removals": [{"kind": "sum", "target": 9, "ranks": "A2345678", "same_suit": True},
                     {"kind": "set", "ranks": "JQK", "same_suit": True}],
    },
    "mini-tens": {
        "name": "Mini Tens", "deck": {"ranks": "A23456789TJQK", "suits": "CDHS"},
        "tableau": {"piles": 7, "depth": 1},
        "removals": [{"kind": "sum", "target": 10, "ranks": "A23456789"},
                     {"kind": "same-rank", "ranks": "TJQK", "count": 4}],
    },
    "mini-fifteens": {
        "name": "Fifteens-like (sums of three)", "deck": {"ranks": "A23456789", "suits": "CD"},
        "tableau": {"piles": 5, "depth": 1}, "win": "all-removed",
        "removals": [{"kind": "sum", "target": 15, "cards": 3, "ranks": "A23456789"},
                     {"kind": "same-rank", "ranks": "A23456789", "count": 2}],
    },
    "mini-deal-out-piles": {
        "name": "Piles, a reserve and a stock, won when the stock is dealt",
        "deck": {"ranks": "A23456789TJQK", "suits": "CD"}, "tableau": {"piles": 4, "depth": 2}, "reserve": 1,
        "win": "stock-dealt",
        "removals": [{"kind": "sum", "target": 11, "ranks": "A23456789T"}, {"kind": "set", "ranks": "JQK"}],
    },
    "mini-deal-out": {
        "name": "Elevens, won when the stock is dealt", "deck": {"ranks": "A23456789TJQK", "suits": "CD"},
        "tableau": {"piles": 5, "depth": 1}, "win": "stock-dealt",
        "removals": [{"kind": "sum", "target": 11, "ranks": "A23456789T"}, {"kind": "set", "ranks": "JQK"}],
    },
}

GAMES = {name: Game(load_preset(name)) for name in preset_names()} | {
    name: Game(rules_from_json(data, name)) for name, data in MINI.items()
}


def choices(seed: int):
    rng = SplitMix64(seed)
    while True:
        yield rng.next()


def check_step(game: Game, before: Position, move, after: Position) -> None:
    """The invariants of one move, whatever the game."""
    taken = [before.card_at(place) for place in move.places]
    assert any(rule_accepts(rule, taken) for rule in game.rules.removals)
    assert game.why_illegal(before, move) is None
    left_before, left_after = Counter(before.all_cards()), Counter(after.all_cards())
    assert left_before - left_after == Counter(taken) and not left_after - left_before  # cards are only removed
    refilled = len(before.stock) - len(after.stock)
    assert after.stock == before.stock[refilled:]  # the stock deals in order
    if after.stock:
        assert all(after.piles)  # no place stays empty while the stock lasts
    for place in move.places:  # a place that was not emptied shows the card that was under it
        if not place.in_reserve and len(before.piles[place.index]) > 1:
            assert after.piles[place.index] == before.piles[place.index][:-1]
    assert Position.parse(str(after)) == after and Position.from_json(after.to_json()) == after
    game.check_layout(after)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_keep_the_invariants(name):
    game = GAMES[name]
    for number in range(6):
        start = game.deal(number)
        game.check_layout(start)
        assert Counter(start.all_cards()) == Counter(game.deck())
        last = start
        for before, move in game.playouts(start, choices(number)):
            after = game.apply(before, move)
            check_step(game, before, move, after)
            last = after
        assert game.is_won(last) or game.is_dead(last)


def endgame(game: Game, seed: int, groups: int, extra: bool) -> Position:
    """A small position of `game`: `groups` random removable groups (plus maybe one stray card),
    laid out in a random order over the game's places (piles, reserve, stock)."""
    rng = SplitMix64(seed)
    deck = game.deck()
    rng.shuffle(deck)
    picked: list[Card] = []
    for _ in range(groups):
        items = [(i, c.rank, c.suit) for i, c in enumerate(deck[:40])]
        found = find_groups(game.rules.removals, items)
        if not found:
            break
        group = found[rng.below(len(found))]
        picked += [deck[i] for i in group]
        deck = [c for i, c in enumerate(deck) if i not in group]
    if extra and deck:
        picked.append(deck[0])
    rng.shuffle(picked)
    rules = game.rules
    piles: list[list[Card]] = [[] for _ in range(rules.piles)]
    reserve: list[Card | None] = [None] * rules.reserve
    stock: list[Card] = []
    has_stock = rules.stock_size > 0
    for card in picked:
        if has_stock:
            if any(not p for p in piles):
                next(p for p in piles if not p).append(card)
            else:
                stock.append(card)
            continue
        slot = rng.below(rules.piles + rules.reserve)
        if slot >= rules.piles and reserve[slot - rules.piles] is None:
            reserve[slot - rules.piles] = card
        else:
            piles[slot % rules.piles].append(card)
    if has_stock and stock:
        for pile in piles:  # pile depths above one: move some stock cards under the tops
            while len(pile) < max(rules.depths) and len(stock) > 2 and rng.below(2):
                pile.insert(0, stock.pop())
    return Position(tuple(map(tuple, piles)), tuple(reserve), tuple(stock))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_search_agrees_with_brute_force_on_small_positions(name):
    game = GAMES[name]
    verdicts = Counter()
    cases = [endgame(game, seed, groups=2 + seed % 6, extra=seed % 5 == 4) for seed in range(40)]
    if name.startswith("mini"):
        cases += [game.deal(number) for number in range(15)]
    for position in cases:
        game.check_layout(position)
        expected, line = brute_force(game, position)
        result = solve_position(game.rules, position)
        assert result.verdict == (Verdict.WINNABLE if expected else Verdict.UNWINNABLE), str(position)
        verdicts[result.verdict] += 1
        if expected:
            assert game.is_won(game.replay(position, line).position)
            assert result.line is not None and game.is_won(game.replay(position, result.line).position)

    assert verdicts[Verdict.WINNABLE] and verdicts[Verdict.UNWINNABLE], verdicts  # both answers were exercised


def full_deals_agree(name: str, numbers: range) -> None:
    """Whole deals; those with more positions than brute force can hold are left out (at most 1 in 10)."""
    game = GAMES[name]
    skipped = 0
    for number in numbers:
        position = game.deal(number)
        try:
            expected, _ = brute_force(game, position, max_positions=400_000)
        except BruteForceLimit:
            skipped += 1
            continue
        result = solve_position(game.rules, position)
        assert result.verdict == (Verdict.WINNABLE if expected else Verdict.UNWINNABLE), number
        if expected:
            assert game.is_won(game.replay(position, result.line).position)
    assert skipped * 10 <= len(numbers), f"brute force gave up on {skipped} deals"


@pytest.mark.parametrize("name, count", [("elevens", 3), ("suit-elevens", 20)])
def test_full_deals_of_the_grid_games_agree_with_brute_force(name, count):
    """Whole deals, where brute force is affordable (Tens has too many positions for it)."""
    full_deals_agree(name, range(count))


@pytest.mark.slow
@pytest.mark.parametrize("name, count", [("elevens", 100), ("suit-elevens", 300)])
def test_many_full_deals_agree_with_brute_force(name, count):
    full_deals_agree(name, range(100, 100 + count))


@pytest.mark.parametrize("name", ["elevens", "suit-elevens", "tens"])
def test_grid_games_are_pure_chance(name):
    """Any maximal play of a grid game ends the same way (docs/rules/elevens-family.md): a random
    playout wins exactly the deals the search calls winnable. Two independent routes to one answer."""
    game = GAMES[name]
    wins = 0
    for number in range(80):
        last = position = game.deal(number)
        for _, move in game.playouts(position, choices(1000 + number)):
            last = game.apply(last, move)
        played_win = game.is_won(last)
        assert played_win == (solve_position(game.rules, position).verdict == Verdict.WINNABLE), number
        wins += played_win
    assert wins  # the sample holds winnable deals


def test_dead_cards_lose_only_when_every_card_must_go():
    """5C lies on the only 6C, so it can never be removed: lost if every card must go, but the
    stock can still be dealt out, so won under `stock-dealt`."""
    data = {"name": "blocked", "deck": {"ranks": "A2569T", "suits": "C"}, "tableau": {"piles": 2, "depths": [2, 1]},
            "reserve": 2, "removals": [{"kind": "sum", "target": 11}]}
    layout = {"piles": [["6C", "5C"], ["9C"]], "reserve": ["2C", "TC"], "stock": ["AC"]}
    for win, expected in (("all-removed", Verdict.UNWINNABLE), ("stock-dealt", Verdict.WINNABLE)):
        game = Game(rules_from_json(data | {"win": win}))
        position = game.layout_from_json(layout)
        assert brute_force(game, position)[0] == (expected == Verdict.WINNABLE)
        assert solve_position(game.rules, position).verdict == expected
