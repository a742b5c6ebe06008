"""The pile rules of Eight and a half, stated once as small pure functions.

Everything about the central pile — what may go on it, what it then stands at, when a card
catches an offender — is decided here, card by card; the packed kernel (`kernel.py`) turns these
functions into lookup tables and the readable `Position` uses them to read a pile's value.
Rules text: docs/rules/eight_and_a_half.md.

The pile's state is two numbers:
- `v2`, the value in half steps (``2 × value``: 3½ is 7, 8½ is 17), or `NONE` while no card
  with a value lies on the pile (empty, or only Demons): then any card may be played;
- `lh` ("last is a half"): the last non-Demon card is a ½, so an 8 played now sticks to it.
"""

from __future__ import annotations

from halfmoon.dealcodes.eight_and_a_half import EHCard

NONE = 31  # v2 of a pile without a value (5 bits in the packed state)
FIVE = 10  # v2 of a pile standing at 5: the five rule
EIGHT_HALF = 17  # v2 of 8½
MAX_CATCHABLE = EIGHT_HALF  # X½ above 8½ has no policeman (there is no 10)
HALF = int(EHCard.HALF)
DEMON = int(EHCard.DEMON)
EIGHT = int(EHCard.EIGHT)


def format_value(v2: int) -> str:
    """``3½``, ``5``, ``½``, or ``-`` for a pile without a value."""
    if v2 == NONE:
        return "-"
    whole, half = divmod(v2, 2)
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


def is_offence(v2: int) -> bool:
    """The pile stands at X½ with X ≤ 8: whoever left it so is an offender who can be caught."""
    return v2 != NONE and v2 % 2 == 1 and v2 <= MAX_CATCHABLE


def card_fits(v2: int, face: int) -> bool:
    """May one card of `face` go on a pile standing at `v2`?

    Demon: always. ½: anywhere except on 8½. 0: on any whole number (never on X½).
    A number 1-9: on a pile at 5 (the five rule) only 5 or lower; otherwise equal to or
    higher than the pile (so X+1 or more on X½; an 8 never goes on 8½).
    """
    if face == DEMON:
        return True
    if face == HALF:
        return v2 != EIGHT_HALF
    if v2 == NONE:
        return True
    if face == 0:
        return v2 % 2 == 0
    if v2 == FIVE:
        return face <= 5
    return 2 * face >= v2


def card_effect(v2: int, lh: bool, face: int) -> tuple[int, bool]:
    """What the pile stands at after one card of `face` lands on it (legality not checked).

    Demon: unchanged (transparent, also for the 8–½ sticking). ½: adds a half to the last
    number (to 0 on a pile without one). 0: resets to 0. An 8 on a ½ (Demons between do not
    matter) sticks to it: 8½. Any other number: that number.
    """
    if face == DEMON:
        return v2, lh
    if face == HALF:
        return (0 if v2 == NONE else v2) + 1, True
    if face == EIGHT and lh:
        return EIGHT_HALF, False
    return 2 * face, False


def is_catch(v2: int, lh: bool, face: int) -> bool:
    """Does one card of `face` on this pile catch the offender? Only the policeman X+1 on X½,
    and an 8 on 7½ is no catch: it sticks to the ½ and makes 8½."""
    if face > 9 or not is_offence(v2):
        return False
    if face == EIGHT and lh:
        return False
    return 2 * face == v2 + 1


def play_cards(v2: int, lh: bool, face: int, count: int) -> tuple[int, bool, bool] | None:
    """Several identical cards put down in one turn, one on another: each must fit where it
    lands. Returns (v2, lh, catch) after the move, or None if it is illegal. Only the first
    card can catch (after it the pile stands at a whole number or is taken)."""
    if count < 1:
        return None
    catch = is_catch(v2, lh, face)
    for _ in range(count):
        if not card_fits(v2, face):
            return None
        v2, lh = card_effect(v2, lh, face)
    return v2, lh, catch


def combo_fits(v2: int) -> bool:
    """8 and ½ together as one card: on a pile not higher than 8½, and not on a pile at 5
    (the pair is not a joker and the five rule asks for 5 or lower)."""
    return v2 == NONE or (v2 <= EIGHT_HALF and v2 != FIVE)


def pile_state(cards: "tuple[int, ...] | list[int]") -> tuple[int, bool]:
    """Read a pile bottom → top: its (v2, lh). The 8+½ pair is recorded as ½ then 8."""
    v2, lh = NONE, False
    for face in cards:
        v2, lh = card_effect(v2, lh, int(face))
    return v2, lh
