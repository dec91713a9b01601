"""How the generated lookup tables are stored: unsigned ints, little-endian, base64.

A base64 text constant in a Python module loads in milliseconds, needs no package data files,
and keeps the type checker and the formatter away from hundreds of thousands of literals.
Values are 32-bit (``"I"``) unless a table says it fits in bytes (``"B"``).
"""

from __future__ import annotations

import base64
import sys
from array import array
from collections.abc import Iterable

_ITEM_SIZES = {"B": 1, "I": 4}
LINE_CHARS = 88


def encode_uints(values: Iterable[int], typecode: str = "I") -> str:
    """Base64 text of the values as little-endian unsigned ints of the typecode's size."""
    packed = _uint_array(values, typecode)
    if sys.byteorder == "big":
        packed.byteswap()
    return base64.b64encode(packed.tobytes()).decode("ascii")


def decode_uints(text: str, typecode: str = "I") -> array[int]:
    """The values written by :func:`encode_uints` with the same typecode."""
    packed = _uint_array((), typecode)
    packed.frombytes(base64.b64decode(text))
    if sys.byteorder == "big":
        packed.byteswap()
    return packed


def _uint_array(values: Iterable[int], typecode: str) -> array[int]:
    packed = array(typecode, values)
    if packed.itemsize != _ITEM_SIZES[typecode]:  # pragma: no cover - no supported platform
        raise RuntimeError(f"The tables need a {_ITEM_SIZES[typecode]}-byte unsigned int array.")
    return packed
