"""Deal codes: exact, portable deals for Half Moon and its cousins.

Pure and small on purpose: this package imports nothing else of the project, so any
tool (or a port to another language) can depend on it alone.
"""

from .cards import Card, CardError, parse_card, standard_deck
from .codes import (
    DEAL_COUNT,
    BadVariantError,
    DealCode,
    DealCodeError,
    DealNumberError,
    MalformedCodeError,
    PayloadCharacterError,
    PayloadLengthError,
    UnknownTagError,
    UnsupportedVersionError,
    code_pattern,
    known_games,
    parse_code,
    parse_number,
    parse_range,
    sample_numbers,
)
from .eight_and_a_half import (  # registers EH
    EHCard,
    EHDeal,
    deal_eight_and_a_half,
    eh_deal_from_code,
)
from .elevens import (  # registers EL, SE, TN
    GridDeal,
    deal_elevens,
    deal_grid,
    grid_deal_from_code,
)
from .golf import GolfDeal, deal_golf, golf_deal_from_code  # registers GF
from .halfmoon import HalfMoonDeal, deal_from_code, deal_halfmoon
from .rng import SplitMix64, shuffled
from .shithead import (  # registers SH
    ShitheadDeal,
    deal_shithead,
    shithead_deal_from_code,
)
from .spit import SpitDeal, deal_spit, deal_spit_from_code  # registers SP

__all__ = [
    "DEAL_COUNT",
    "code_pattern",
    "BadVariantError",
    "Card",
    "CardError",
    "DealCode",
    "DealCodeError",
    "DealNumberError",
    "HalfMoonDeal",
    "MalformedCodeError",
    "PayloadCharacterError",
    "PayloadLengthError",
    "SplitMix64",
    "UnknownTagError",
    "UnsupportedVersionError",
    "deal_from_code",
    "deal_halfmoon",
    "known_games",
    "parse_card",
    "parse_code",
    "parse_number",
    "parse_range",
    "sample_numbers",
    "shuffled",
    "standard_deck",
]
