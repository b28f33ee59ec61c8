"""The two rule sets, as data plus a few hooks (python-chess / lidraughts style).

Nobody compares variant names in the middle of the rules: the generator reads the
attributes below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from rulebook_build.rules.board import ALL_DIRECTIONS, DIAGONALS, Direction


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    """Key used on the command line and in files: ``international`` or ``frisian``."""
    gametype: int
    """PDN GameType number (20 International, 40 Frisian)."""
    title: str
    """One line for people."""
    capture_directions: tuple[Direction, ...]
    """Directions in which men and kings capture (KNDB art. 4: diagonal; Fries Spel art. 7/9: also
    horizontal and vertical)."""
    kings_capture_value_weighted: bool
    """Fries Spel art. 11: majority by value (a king is worth more than one man, less than two);
    otherwise KNDB art. 5: majority by number of pieces."""
    king_capture_precedence: bool
    """Fries Spel art. 12: at equal value the capture with a king goes first."""
    max_consecutive_king_moves: int | None
    """Fries Spel art. 17: a player with kings and men may make at most this many non-capturing
    moves in a row with the same king.  None: no limit."""
    aliases: tuple[str, ...] = field(default=())

    def capture_value(self, men: int, kings: int) -> int:
        """Value of capturing ``men`` men and ``kings`` kings, as an exact integer.

        International (KNDB art. 5): the number of pieces.  Frisian (art. 11): k kings are worth
        less than 2k men and more than 2k-1 men; with at most 20 kings, ``(2k + m) * 32 - k``
        orders every capture exactly that way.
        """
        if self.kings_capture_value_weighted:
            return (2 * kings + men) * 32 - kings
        return men + kings

    def __str__(self) -> str:
        return self.name


INTERNATIONAL: Final = Variant(
    name="international",
    gametype=20,
    title="International draughts (FMJD/KNDB): diagonal captures, majority by number",
    capture_directions=DIAGONALS,
    kings_capture_value_weighted=False,
    king_capture_precedence=False,
    max_consecutive_king_moves=None,
    aliases=("20", "intl", "standard", "internationaal", "dammen"),
)

FRISIAN: Final = Variant(
    name="frisian",
    gametype=40,
    title="Frisian draughts (Fries Spel): also orthogonal captures, majority by value",
    capture_directions=ALL_DIRECTIONS,
    kings_capture_value_weighted=True,
    king_capture_precedence=True,
    max_consecutive_king_moves=3,
    aliases=("40", "fries", "fries spel", "fries-spel", "frysk"),
)

VARIANTS: Final[tuple[Variant, ...]] = (INTERNATIONAL, FRISIAN)


def find_variant(name: str | int) -> Variant:
    """Find a variant by name, alias or PDN GameType (``"40,W,10,10,N2,0"`` works too).

    Raises KeyError with the list of known names when nothing matches.
    """
    key = str(name).strip().lower()
    if "," in key:
        key = key.split(",", 1)[0].strip()
    for variant in VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant
    known = ", ".join(v.name for v in VARIANTS)
    raise KeyError(f"unknown variant {name!r} (known: {known}; PDN GameType 20 or 40)")
