"""Deal codes such as ``HM1-N-AAAAAAB``: parsing, formatting, and the registry of game tags.

Shape: a two-letter game tag and its codec version, a variant (``N`` or a player count),
and a 7-letter base-26 payload (A=0 … Z=25, big-endian) that is the deal number.
Input is accepted in any case with surrounding white space; every other deviation raises
a specific `DealCodeError` naming the part that is wrong and what was expected.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Iterable, Iterator

from .rng import SplitMix64

PAYLOAD_LENGTH = 7
DEAL_COUNT = 26**PAYLOAD_LENGTH  # 8,031,810,176 deal numbers: 0 … DEAL_COUNT - 1
ALPHABET = string.ascii_uppercase


class DealCodeError(ValueError):
    """A deal code or deal number that cannot be decoded."""


class MalformedCodeError(DealCodeError):
    """The code does not have the TAG+VERSION-VARIANT-PAYLOAD shape at all."""


class UnknownTagError(DealCodeError):
    """The two-letter game tag names no game this project deals."""


class UnsupportedVersionError(DealCodeError):
    """The game is known but this codec version of it is not."""


class BadVariantError(DealCodeError):
    """The variant field is not one the game allows."""


class PayloadLengthError(DealCodeError):
    """The payload does not have exactly seven letters."""


class PayloadCharacterError(DealCodeError):
    """The payload holds a character outside A–Z."""


class DealNumberError(DealCodeError):
    """A deal number outside 0 … 26^7 - 1, or not a number."""


@dataclass(frozen=True)
class GameCodec:
    """What the code layer must know about one game: its tag, versions and variants."""

    tag: str
    name: str
    versions: frozenset[int]
    variants: tuple[str, ...]
    variant_help: str  # e.g. "N" or "a player count 2-5"


_GAMES: dict[str, GameCodec] = {}


def register_game(codec: GameCodec) -> GameCodec:
    _GAMES[codec.tag] = codec
    return codec


def known_games() -> dict[str, GameCodec]:
    return dict(_GAMES)


def code_pattern(tags: Iterable[str] | None = None) -> str:
    """A regular expression matching exactly the deal codes of these games (all when None): tag, version
    and variant as the codecs define them, 7 payload letters, any case, nothing around.

    The same text works as a Python and an ECMAScript (JSON Schema) pattern, so a service can
    publish it in its API description and enforce the very same rule.
    """
    wanted = None if tags is None else {tag.upper() for tag in tags}
    forms = []
    for tag, codec in sorted(known_games().items()):
        if wanted is not None and tag not in wanted:
            continue
        for version in sorted(codec.versions):
            for variant in codec.variants:
                forms.append("".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c
                                     for c in f"{tag}{version}-{variant}-"))
    return "^(?:" + "|".join(forms) + ")[A-Za-z]{7}$"


def parse_range(text: str) -> range:
    """``A:B`` → deal numbers A … B-1 (underscores allowed: ``0:1_000_000``)."""
    parts = text.replace("_", "").split(":")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise DealNumberError(f"range {text!r}: expected A:B with whole numbers, e.g. 0:10000")
    start, stop = (int(p) for p in parts)
    if start >= stop:
        raise DealNumberError(f"range {text!r}: the start must be below the end")
    if stop > DEAL_COUNT:
        raise DealNumberError(f"range {text!r}: the end may be at most {DEAL_COUNT}")
    return range(start, stop)


def _coprime_step(rng: SplitMix64) -> int:
    """A multiplier coprime to 26^7 (odd and not a multiple of 13)."""
    while True:
        step = rng.below(DEAL_COUNT) | 1
        if step % 13:
            return step


def sample_numbers(seed: int, count: int | None = None, skip: int = 0) -> Iterator[int]:
    """Distinct deal numbers spread over all 26^7 deals, reproducible from `seed`.

    An affine permutation ``i -> (a*i + b) mod 26^7`` with `a` coprime to 26^7: never a repeat,
    constant memory, and neighbouring numbers are unrelated deals anyway (each is shuffled by
    SplitMix64 from its own number).
    """
    rng = SplitMix64(seed)
    step = _coprime_step(rng)
    offset = rng.below(DEAL_COUNT)
    stop = DEAL_COUNT if count is None else min(DEAL_COUNT, skip + count)
    for index in range(skip, stop):
        yield (step * index + offset) % DEAL_COUNT


def check_number(number: int) -> int:
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(f"deal number {number!r}: expected a whole number")
    if not 0 <= number < DEAL_COUNT:
        raise DealNumberError(f"deal number {number}: expected 0 … {DEAL_COUNT - 1:,}".replace(",", " "))
    return number


def parse_number(text: str) -> int:
    """A deal number written on its own (digits, optional surrounding white space)."""
    token = text.strip().replace("_", "")
    if not token.isdigit():
        raise DealNumberError(f"deal number {text!r}: expected a whole number 0 … {DEAL_COUNT - 1}")
    return check_number(int(token))


def number_to_payload(number: int) -> str:
    check_number(number)
    letters = []
    for _ in range(PAYLOAD_LENGTH):
        number, digit = divmod(number, 26)
        letters.append(ALPHABET[digit])
    return "".join(reversed(letters))


def payload_to_number(payload: str) -> int:
    if len(payload) != PAYLOAD_LENGTH:
        raise PayloadLengthError(
            f"payload {payload!r} has {len(payload)} characters, expected {PAYLOAD_LENGTH} letters A–Z"
        )
    number = 0
    for position, char in enumerate(payload, start=1):
        if char not in ALPHABET:
            raise PayloadCharacterError(
                f"payload {payload!r}: character {char!r} at position {position} is not a letter A–Z"
            )
        number = number * 26 + ALPHABET.index(char)
    return number


@dataclass(frozen=True, order=True)
class DealCode:
    """A parsed deal code; ``str()`` gives the canonical form, ``parse(str(c)) == c``."""

    game: str
    version: int
    variant: str
    number: int

    def __post_init__(self) -> None:
        codec = _GAMES.get(self.game)
        if codec is None:
            raise UnknownTagError(f"unknown game tag {self.game!r}, expected one of {_tag_list()}")
        if self.version not in codec.versions:
            supported = ", ".join(f"{codec.tag}{v}" for v in sorted(codec.versions))
            raise UnsupportedVersionError(
                f"unsupported version {self.game}{self.version}: {codec.name} codes are {supported}"
            )
        if self.variant not in codec.variants:
            raise BadVariantError(
                f"bad variant {self.variant!r} for {self.game}{self.version}: expected {codec.variant_help}"
            )
        check_number(self.number)

    @property
    def payload(self) -> str:
        return number_to_payload(self.number)

    def __str__(self) -> str:
        return f"{self.game}{self.version}-{self.variant}-{self.payload}"

    @classmethod
    def parse(cls, text: str) -> DealCode:
        return parse_code(text)


def _tag_list() -> str:
    return ", ".join(sorted(_GAMES)) or "(none registered)"


def parse_code(text: str, expect_game: str | None = None) -> DealCode:
    """Parse a deal code in any case with surrounding white space.

    `expect_game` (a tag such as ``HM``) turns a valid code of another game into an error,
    for commands that only make sense for one game.
    """
    if not isinstance(text, str):
        raise MalformedCodeError(f"deal code {text!r}: expected text such as 'HM1-N-AAAAAAB'")
    token = text.strip().upper()
    parts = token.split("-")
    if len(parts) != 3:
        raise MalformedCodeError(
            f"deal code {text.strip()!r}: expected three parts separated by '-', "
            f"like 'HM1-N-AAAAAAB' (game tag with version, variant, 7-letter payload)"
        )
    head, variant, payload = parts
    tag, version_text = head[:2], head[2:]
    if len(tag) != 2 or not tag.isalpha():
        raise UnknownTagError(f"deal code {text.strip()!r}: game tag {tag!r} is not two letters, expected one of {_tag_list()}")
    if tag not in _GAMES:
        raise UnknownTagError(f"deal code {text.strip()!r}: unknown game tag {tag!r}, expected one of {_tag_list()}")
    if not version_text.isdigit():
        raise UnsupportedVersionError(
            f"deal code {text.strip()!r}: expected a version number after {tag!r}, e.g. '{tag}1'"
        )
    number = payload_to_number(payload)
    code = DealCode(tag, int(version_text), variant, number)
    if expect_game is not None and code.game != expect_game:
        raise UnknownTagError(
            f"deal code {str(code)!r} is a {_GAMES[code.game].name} code; this needs a {_GAMES[expect_game].name} code ({expect_game}…)"
        )
    return code
