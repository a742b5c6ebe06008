"""One test (at least) for every rule of docs/rules/eight_and_a_half.md, named by its label.

Positions are written in the text form (`Position.parse`): ``hand/open/blind/bank`` per seat,
seats separated by ``;``, then ``| pile bottom→top | seat to move``. The engine under test is
the packed one the solver runs (`EightAndAHalf`), read back through `decode`.
"""

from collections import Counter

import pytest

from halfmoon.dealcodes.eight_and_a_half import (
    COPIES,
    DECK_SIZE,
    EHCard,
    deal_eight_and_a_half,
)
from halfmoon.solver.errors import IllegalMoveError, LineError
from halfmoon.solver.games.eight_and_a_half.kernel import EightAndAHalf, decode
from halfmoon.solver.games.eight_and_a_half.position import Position, describe, first_player

G = EightAndAHalf()


def start(text: str) -> int:
    return G.start(text)


def legal(text: str) -> list[str]:
    return [str(m) for m in G.legal_moves(start(text))]


def after(text: str, line: str) -> Position:
    return decode(G.replay(start(text), line))


def illegal(text: str, move: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        G.play(start(text), move)
    return info.value.reason


# -- Deal (D) ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, sizes", [(2, [36, 36]), (3, [24] * 3), (4, [18] * 4), (5, [15, 15, 14, 14, 14])])
def test_D1_all_72_cards_dealt_evenly(players, sizes):
    deal = deal_eight_and_a_half(12345, players)
    got = [len(s.blind) + len(s.open) + len(s.hand) + len(s.bank) for s in deal.seats]
    assert got == sizes and sum(got) == DECK_SIZE
    everything = Counter(c for s in deal.seats for c in (*s.blind, *s.open, *s.hand, *s.bank))
    assert everything == Counter({EHCard(f): n for f, n in enumerate(COPIES)})


def test_D2_three_blind_three_open_three_in_hand():
    for seat in Position.from_deal(deal_eight_and_a_half(7, 5)).seats:
        assert (len(seat.blind), len(seat.open), len(seat.hand)) == (3, 3, 3)
        assert not seat.table and seat.eaten == 0


def test_D3_hand_refilled_to_three_from_the_bank_in_draw_order():
    here = after("778/-/5/9D4 ; 123/-/5 | - | 0", "77")
    assert [str(c) for c in here.seats[0].hand] == ["8", "9", "D"] and [str(c) for c in here.seats[0].bank] == ["4"]
    # The last bank card: the hand gets what is left and then runs down.
    here = after("778/-/5/4 ; 123/-/5 | - | 0", "77")
    assert [str(c) for c in here.seats[0].hand] == ["4", "8"] and here.seats[0].bank == ()


def test_D4_table_cards_only_when_bank_and_hand_are_empty():
    assert legal("3/5/6 ; 1/2/2 | - | 0") == ["3"]
    assert "hand cards before table cards" in illegal("3/5/6 ; 1/2/2 | - | 0", "o5")
    assert legal("-/5/6 ; 1/2/2 | - | 0") == ["o5"]
    assert "open cards before blind" in illegal("-/5/6 ; 1/2/2 | - | 0", "b6")


def test_D5_first_player_lowest_number_card_in_hand():
    def seats(*hands):
        return Position.parse(" ; ".join(f"{h}/-/5" for h in hands) + " | - | 0").seats

    assert first_player(seats("789", "456")) == 1
    assert first_player(seats("HD9", "DD0")) == 1  # 0 is lowest; jokers ½ and Demon do not count
    assert first_player(seats("HH1", "DD1", "HD1")) == 0  # ties to the earlier seat
    assert first_player(seats("HHD", "DDH")) == 0  # nobody holds a number card
    assert first_player(seats("HHD", "DD8")) == 1  # a player with only jokers cannot open by this rule
    deal = deal_eight_and_a_half(0, 4)
    assert Position.from_deal(deal).to_move == first_player(Position.from_deal(deal).seats)


def test_D5_the_opener_may_open_with_any_card():
    assert legal("91H/-/5 ; 2/-/5 | - | 0") == ["1", "9", "H"]


# -- A turn (T) ----------------------------------------------------------------------------------


def test_T1_number_must_be_equal_or_higher_and_play_goes_clockwise():
    assert legal("467/-/5 ; 1/-/5 ; 1/-/5 | 6 | 0") == ["6", "7"]
    assert "lower than the pile's 6" in illegal("467/-/5 ; 1/-/5 ; 1/-/5 | 6 | 0", "4")
    assert [after("467/-/5 ; 1/-/5 ; 1/-/5 | 6 | 0", "6").to_move, after("-/5/5 ; 2/-/5 ; 9/-/5 | 6 | 2", "9").to_move] == [1, 0]


def test_T2_several_identical_cards_in_one_turn():
    assert legal("777/-/5 ; 1/-/5 | 6 | 0") == ["7", "77", "777"]
    assert after("777/-/5 ; 1/-/5 | 6 | 0", "777").pile_value == "7"
    assert {"DD", "00", "HH"} <= set(legal("DD00HH/-/5 ; 1/-/5 | 3 | 0"))


def test_T2_identical_means_same_face_and_each_card_must_fit():
    with pytest.raises(LineError):
        after("78/-/5 ; 1/-/5 | - | 0", "78")
    assert "HH" not in legal("HH/-/5 ; 1/-/5 | 8 | 0")  # the second ½ would land on 8½
    assert "card 2 of 2" in illegal("HH/-/5 ; 1/-/5 | 8 | 0", "HH")


def test_T2_counts_as_one_move_for_the_half_rule():
    here = after("HH/-/5 ; 1/-/5 | 3 | 0", "HH")
    assert here.pile_value == "4" and here.offender is None


def test_T3_a_player_who_cannot_play_eats_and_sets_the_pile_aside():
    assert legal("34/-/5 ; 1/-/5 | 9D | 0") == ["eat"]
    here = after("34/-/5 ; 1/-/5 | 9D | 0", "eat")
    assert here.pile == () and here.seats[0].eaten == 2 and [str(c) for c in here.seats[0].hand] == ["3", "4"]


def test_T3_eating_is_never_voluntary():
    assert "only for a player who cannot" in illegal("349/-/5 ; 1/-/5 | 9 | 0", "eat")


def test_T4_after_eating_the_next_player_opens_with_any_card():
    here = after("34/-/5 ; 12/-/5 ; 0/-/5 | 9 | 0", "eat")
    assert here.to_move == 1 and here.pile == ()
    assert legal(str(here)) == ["1", "2"]


def test_T4_after_a_catch_the_catcher_opens_the_new_pile():
    here = after("HD/-/5 ; 45/-/5 | 3 | 0", "H 4")
    assert here.pile == () and here.seats[0].eaten == 3 and here.to_move == 1
    assert legal(str(here)) == ["5"]


def test_T5_a_pile_of_only_demons_has_no_value():
    assert set(legal("01H/-/5 ; 1/-/5 | DD | 0")) == {"0", "1", "H"}
    assert after("01H/-/5 ; 1/-/5 | DD | 0", "H").pile_value == "½"


# -- Jokers (J) ----------------------------------------------------------------------------------


@pytest.mark.parametrize("pile", ["-", "0", "1", "5", "3H", "8H", "38", "9", "9H", "9HHH", "D"])
def test_J1_demon_goes_on_any_number(pile):
    assert "D" in legal(f"D4/-/5 ; 1/-/5 | {pile} | 0")


def test_J2_demon_is_transparent_also_on_a_demon():
    here = after("D/5/5 ; 4/5/5 | 6 | 0", "D")
    assert here.pile_value == "6" and legal(str(here)) == ["eat"]  # the next player still faces 6
    assert "D" in legal("D/5/5 ; 4/5/5 | 6D | 0")
    assert after("D/5/5 ; 7/5/5 | 6D | 0", "D 7").pile_value == "7"


@pytest.mark.parametrize("pile", ["-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "3H", "9H", "9HH"])
def test_J3_half_goes_on_any_number(pile):
    assert "H" in legal(f"H4/-/5 ; 1/-/5 | {pile} | 0")


@pytest.mark.parametrize("pile", ["8H", "H8", "3H8", "8DH", "7HHH"])
def test_J3_but_not_on_eight_and_a_half(pile):
    assert Position.parse(f"H/-/5 ; 1/-/5 | {pile} | 0").pile_value == "8½"
    assert "H" not in legal(f"HD/-/5 ; 1/-/5 | {pile} | 0")
    assert "8½" in illegal(f"HD/-/5 ; 1/-/5 | {pile} | 0", "H")


def test_J4_half_sticks_to_the_last_number():
    assert after("H/5/5 ; 1/-/5 | 3 | 0", "H").pile_value == "3½"
    assert after("H/5/5 ; 1/-/5 | 6 | 0", "H").pile_value == "6½"
    assert after("H/5/5 ; 1/-/5 | 6DD | 0", "H").pile_value == "6½"  # through Demons


def test_J5_several_halves_two_add_one_three_add_one_and_a_half():
    assert after("HHH/5/5 ; 1/-/5 | 3 | 0", "HH").pile_value == "4"
    assert after("HHH/5/5 ; 1/-/5 | 3 | 0", "HHH").pile_value == "4½"


def test_J5_two_halves_on_seven_and_a_half():
    here = after("1/5/5 ; HH/5/5 | 7H | 1", "HH")
    assert here.pile_value == "8½" and here.offender == 1
    assert "HHH" not in legal("1/5/5 ; HHH/5/5 | 7H | 1")  # the third would land on 8½


def test_J6_half_on_an_empty_pile_is_zero_and_a_half_caught_by_a_one():
    here = after("HD/5/5 ; 12/5/5 | - | 0", "H")
    assert here.pile_value == "½" and here.offender == 0
    caught = after("HD/5/5 ; 12/5/5 | - | 0", "H 1")
    assert caught.seats[0].eaten == 2 and caught.pile == ()


def test_J7_leaving_x_and_a_half_is_an_offence():
    here = after("H/5/5 ; 1/5/5 | 3 | 0", "H")
    assert here.offender == 0
    assert G.offender(start(str(here))) == 0


def test_J8_policeman_catches_and_the_offender_eats_the_pile_with_it():
    here = after("HD/5/5 ; 49/5/5 | 23 | 0", "H 4")
    assert here.seats[0].eaten == 4  # 2, 3, ½ and the policeman 4
    assert here.seats[1].eaten == 0 and [str(c) for c in here.seats[1].hand] == ["9"]
    assert after("HD/5/5 ; 7/5/5 | 6 | 0", "H 7").seats[0].eaten == 3  # 7 catches 6½


def test_J8_a_caught_offender_at_the_table_takes_the_pile_into_his_hand():
    here = after("H/5/5 ; 49/5/5 | 3 | 0", "H 4")
    assert here.seats[0].table and [str(c) for c in here.seats[0].hand] == ["3", "4", "H"]


def test_J9_the_next_player_need_not_catch():
    text = "H/5/5 ; 459/5/5 | 3 | 0"
    assert legal(after(text, "H").__str__()) == ["4", "5", "9"]
    free = after(text, "H 5")
    assert free.pile_value == "5" and free.seats[0].eaten == 0 and free.pile != ()


def test_J10_half_on_x_and_a_half_makes_x_plus_one_no_offence_no_catch():
    here = after("H/5/5 ; H9/5/5 | 3 | 0", "H H")
    assert here.pile_value == "4" and here.offender is None
    assert here.seats[0].eaten == 0 and len(here.pile) == 3


def test_J11_a_whole_number_is_never_an_offence():
    for line, pile in [("4", "3"), ("0", "3"), ("9", "3H"), ("HH", "3")]:
        here = after(f"{line[0] * len(line)}/5/5 ; 1/5/5 | {pile} | 0", line)
        assert here.offender is None and "½" not in here.pile_value


def test_J12_demon_on_x_and_a_half_makes_a_new_offender():
    here = after("HD/5/5 ; DD/5/5 ; 4/5/5 | 3 | 0", "H D")
    assert here.offender == 1 and here.pile_value == "3½"
    caught = after("HD/5/5 ; DD/5/5 ; 4/5/5 | 3 | 0", "H D 4")
    assert caught.seats[1].eaten == 4 and caught.seats[0].eaten == 0


@pytest.mark.parametrize("pile", ["-", "0", "1", "4", "5", "8", "9", "3HH", "9HH"])
def test_J13_zero_goes_on_any_whole_number(pile):
    assert "0" in legal(f"0/5/5 ; 1/5/5 | {pile} | 0")


@pytest.mark.parametrize("pile", ["3H", "H", "8H", "9H", "9HHH"])
def test_J13_zero_never_on_x_and_a_half(pile):
    assert "0" not in legal(f"0D/5/5 ; 1/5/5 | {pile} | 0")
    assert "never on a number and a half" in illegal(f"0D/5/5 ; 1/5/5 | {pile} | 0", "0")


def test_J14_zero_resets_the_pile():
    here = after("0/5/5 ; 1/5/5 | 9 | 0", "0")
    assert here.pile_value == "0" and legal(str(here)) == ["1"]


def test_J15_above_nine_the_pile_climbs_with_halves():
    here = after("HHHHHHHH/5/5 ; 1/5/5 | 9 | 0", "HHHHHHHH")
    assert here.pile_value == "13"
    assert after("HHH/5/5 ; 1/5/5 | 9 | 0", "HHH").pile_value == "10½"


def test_J16_a_half_above_nine_carries_no_risk():
    for line in ["H", "HHH"]:
        here = after(f"{line}/5/5 ; 9/5/5 | 9 | 0", line)
        assert here.offender is None
        assert legal(str(here)) == ["eat"]  # nothing catches 9½ or 10½ (there is no 10)


# -- Five (F) ------------------------------------------------------------------------------------


@pytest.mark.parametrize("pile", ["5", "4HH", "3H5", "5D"])
def test_F1_on_five_the_next_player_must_go_down(pile):
    assert Position.parse(f"1/5/5 ; 1/5/5 | {pile} | 0").pile_value == "5"
    assert legal(f"123456789/5/5 ; 1/5/5 | {pile} | 0") == ["1", "2", "3", "4", "5"]
    assert "five rule" in illegal(f"6/5/5 ; 1/5/5 | {pile} | 0", "6")


def test_F2_any_joker_is_allowed_on_five():
    assert legal("0HD9/5/5 ; 1/5/5 | 5 | 0") == ["0", "H", "D"]


def test_F3_only_the_next_player_the_one_after_plays_normally():
    here = after("3/5/5 ; 69/5/5 | 5 | 0", "3")
    assert here.pile_value == "3" and legal(str(here)) == ["6", "9"]


def test_F3_decision_the_rule_belongs_to_the_pile_demon_and_five_on_five():
    assert legal(str(after("D/5/5 ; 369/5/5 | 5 | 0", "D"))) == ["3"]
    assert legal(str(after("5/5/5 ; 369/5/5 | 5 | 0", "5"))) == ["3"]


def test_F4_the_five_is_not_a_joker():
    assert legal("5/5/5 ; 1/5/5 | 6 | 0") == ["eat"]
    assert legal("5/5/5 ; 1/5/5 | 4 | 0") == ["5"]
    assert legal("5/5/5 ; 1/5/5 | 5 | 0") == ["5"]


def test_F5_eight_and_half_together_is_not_allowed_on_five():
    assert "8+H" not in legal("8H/5/5 ; 1/5/5 | 5 | 0")
    assert "five rule" in illegal("8H/5/5 ; 1/5/5 | 5 | 0", "8+H")


# -- Eight and a half (E) ------------------------------------------------------------------------


@pytest.mark.parametrize("pile", ["H", "3H", "3HH", "3HD", "3HDD", "7H", "7HH"])
def test_E1_an_eight_on_a_half_sticks_even_through_demons(pile):
    here = after(f"8/5/5 ; 1/5/5 | {pile} | 0", "8")
    assert here.pile_value == "8½" and here.offender == 0


@pytest.mark.parametrize("pile", ["8", "8D", "8DD", "38"])
def test_E1_a_half_on_an_eight_sticks(pile):
    assert after(f"H/5/5 ; 1/5/5 | {pile} | 0", "H").pile_value == "8½"


def test_E1_only_the_eight_sticks():
    assert after("9/5/5 ; 1/5/5 | 3H | 0", "9").pile_value == "9"
    assert after("7/5/5 ; 1/5/5 | 3H | 0", "7").pile_value == "7"
    assert after("8/5/5 ; 1/5/5 | 3H0 | 0", "8").pile_value == "8"  # the 0 ended the ½


def test_E2_eight_on_seven_and_a_half_makes_eight_and_a_half_not_a_catch():
    here = after("H/5/5 ; 8/5/5 ; 1/5/5 | 7 | 0", "H 8")
    assert here.pile_value == "8½" and here.offender == 1
    assert here.seats[0].eaten == 0 and len(here.pile) == 3


@pytest.mark.parametrize("pile, ok", [("-", True), ("3", True), ("3H", True), ("8", True), ("8H", True),
                                      ("9", False), ("9H", False), ("DD", True), ("0", True)])
def test_E3_eight_and_half_together_if_the_pile_is_not_higher(pile, ok):
    assert ("8+H" in legal(f"8H/5/5 ; 1/5/5 | {pile} | 0")) == ok
    if ok:
        here = after(f"8H/5/5 ; 1/5/5 | {pile} | 0", "8+H")
        assert here.pile_value == "8½" and here.offender == 0
        assert [str(c) for c in here.pile[-2:]] == ["H", "8"]  # recorded as ½ then 8


def test_E3_the_pair_comes_from_the_hand_not_the_table():
    assert "8+H" not in legal("-/8H/5 ; 1/5/5 | 3 | 0")
    assert legal("-/8H/5 ; 1/5/5 | 3 | 0") == ["o8", "oH"]


def test_E4_on_eight_and_a_half_only_demon_the_pair_or_nine():
    assert legal("0789DH/5/5 ; 1/5/5 | 3H8 | 0") == ["9", "D", "8+H"]
    caught = after("HD/5/5 ; 9/5/5 | 8 | 0", "H 9")
    assert caught.seats[0].eaten == 3 and caught.pile == ()


# -- Playing from the table (P) ------------------------------------------------------------------


def test_P1_last_hand_cards_then_open_cards_one_a_turn_chosen_freely():
    assert legal("6/559/12 ; 1/5/5 | 4 | 0") == ["6"]
    assert legal("-/559/12 ; 1/5/5 | 4 | 0") == ["o5", "o9"]
    assert "55" not in legal("-/559/12 ; 1/5/5 | 4 | 0")
    here = after("-/559/12 ; 1/5/5 | 4 | 0", "o9")
    assert [str(c) for c in here.seats[0].open] == ["5", "5"]


def test_P2_blind_cards_one_a_turn_a_fitting_one_is_played_with_its_effects():
    assert legal("-/-/279 ; 1/5/5 | 4 | 0") == ["b2", "b7", "b9"]
    here = after("-/-/279 ; 1/5/5 | 4 | 0", "b7")
    assert here.pile_value == "7" and [str(c) for c in here.seats[0].blind] == ["2", "9"]
    caught = after("HD/5/5 ; -/-/249 | 3 | 0", "H b4")  # a blind policeman catches
    assert caught.seats[0].eaten == 3


def test_P2_a_blind_card_that_does_not_fit_eats_the_pile_with_it():
    here = after("-/-/279 ; 1/5/5 | 46 | 0", "b2")
    assert [str(c) for c in here.seats[0].hand] == ["2", "4", "6"] and here.pile == ()
    assert here.seats[0].eaten == 0 and here.to_move == 1


def test_P3_after_starting_the_table_eating_goes_into_the_hand():
    here = after("-/3/5 ; 1/5/5 | 9 | 0", "eat")
    assert [str(c) for c in here.seats[0].hand] == ["9"] and here.seats[0].eaten == 0
    assert here.seats[0].table


def test_P3_the_hand_must_be_emptied_before_going_back_to_the_table():
    here = after("-/3/5 ; 1/5/5 | 9 | 0", "eat 1")
    assert legal(str(here)) == ["9"]  # the 9 from the hand, not the open 3


def test_P3_before_the_table_eating_is_set_aside():
    here = after("3/4/5 ; 1/5/5 | 9 | 0", "eat")
    assert here.seats[0].eaten == 1 and not here.seats[0].table


def test_P3_decision_reaching_the_table_is_bank_and_hand_empty():
    here = after("H/5/5 ; 4/5/5 | 3 | 0", "H")
    assert here.seats[0].table  # he played his last hand card: the table has started
    assert Position.parse("-/5/5 ; 1/5/5 | - | 0").seats[0].table


def test_P4_an_open_card_that_fits_must_be_played():
    assert legal("-/37/5 ; 1/5/5 | 5 | 0") == ["o3"]
    assert legal("-/79/5 ; 1/5/5 | 5 | 0") == ["eat"]


# -- End and scoring (S) -------------------------------------------------------------------------


def test_S1_the_first_player_out_wins_and_the_game_ends():
    p = G.replay(start("-/-/7 ; 1/5/5 | 4 | 0"), "b7")
    result = G.terminal(p)
    assert result.winner == 0 and G.legal_moves(p) == []
    with pytest.raises(IllegalMoveError):
        G.play(p, "1")


def test_S1_going_out_on_an_offence_still_wins_and_a_last_policeman_still_catches():
    assert G.terminal(G.replay(start("H/-/- ; 1/5/5 | 3 | 0"), "H")).winner == 0
    end = G.replay(start("H/5/5 ; -/-/4 | 3 | 0"), "H b4")
    result = G.terminal(end)
    assert result.winner == 1 and decode(end).seats[0].hand  # the offender took the pile


def test_S2_counts_and_the_big_loser():
    end = G.replay(start("-/-/7#5 ; 12/5/5#1 ; 3/-/-#9 | 4 | 0"), "b7")
    result = G.terminal(end)
    assert result.cards == (5, 5, 10)  # eaten plus unplayed; seat 1: 1 + hand 2 + open 1 + blind 1
    assert result.big_losers == (2,) and result.places == (0, 1, 2)


def test_S2_ties_for_big_loser_are_all_big_losers():
    result = G.terminal(G.replay(start("-/-/7 ; 12/5/5 ; 3/-/-#3 | 4 | 0"), "b7"))
    assert result.cards == (0, 4, 4) and result.big_losers == (1, 2)


def test_S3_points_winner_two_fewest_one_winner_with_fewest_three():
    result = G.terminal(G.replay(start("-/-/7#9 ; 12/5/5 ; 3/-/-#3 | 4 | 0"), "b7"))
    assert result.cards == (9, 4, 4) and result.scores == (2, 1, 1)
    result = G.terminal(G.replay(start("-/-/7#1 ; 12/5/5 ; 3/-/-#3 | 4 | 0"), "b7"))
    assert result.scores == (3, 0, 0)
    result = G.terminal(G.replay(start("-/-/7#4 ; 12/5/5 ; 3/-/-#3 | 4 | 0"), "b7"))
    assert result.scores == (3, 0, 0)  # a winner tied for the fewest has the fewest


def test_S5_endless_play_is_a_draw_for_the_solver():
    from halfmoon.solver.core.exact import solve
    from halfmoon.solver.core.game import WinLoss

    # Seat 0 (open 5) cannot play on 9 and eats 0 and 9 into his hand; seat 1 opens his 1.
    # Seat 0 must answer 9 (a 0 would let seat 1 out with his open 7); seat 1 cannot play the
    # 7 on 9 and eats 1 and 9; seat 0 opens 0; seat 1 must answer 9 (a 1 lets seat 0 out with
    # his 5); seat 0 eats 0 and 9 … and round it goes: neither can force going out.
    p = start("-/5/- ; 1/7/- | 09 | 0")
    solution = solve(G, p, WinLoss(0))
    assert solution.status == "solved" and solution.value == 0
    assert solution.line_end == "repetition"
    assert [str(m) for m in solution.line[:6]] == ["eat", "1", "9", "eat", "0", "9"]


# -- Rule collisions (C) -------------------------------------------------------------------------


def test_C1_on_seven_and_a_half_an_eight_makes_eight_and_a_half_not_a_catch():
    text = "H/5/5 ; 8/5/5 | 7 | 0"
    here = after(text, "H")
    assert here.pile_value == "7½" and here.offender == 0
    played = after(text, "H 8")
    assert played.pile_value == "8½" and played.offender == 1 and played.seats[0].eaten == 0


def test_C1_the_position_text_says_nobody_catches_at_seven_and_a_half():
    """The describe text must not name an 8 as the policeman at 7½ (an 8 sticks to the ½)."""
    text = describe(after("H/5/5 ; 8/5/5 | 7 | 0", "H"))
    assert "8 catches" not in text
    assert "nobody can catch" in text
    assert "9 catches" in describe(after("H/5/5 ; 8/5/5 | 7 | 0", "H 8"))  # at 8½ the 9 is the policeman
    assert "4 catches" in describe(after("H/5/5 ; 8/5/5 | 3 | 0", "H"))


def test_C2_on_five_a_half_makes_five_and_a_half_and_the_next_must_go_higher():
    here = after("H/5/5 ; 3469/5/5 | 5 | 0", "H")
    assert here.pile_value == "5½"
    assert legal(str(here)) == ["6", "9"]  # 6 is the policeman; 3 and 4 are lower
