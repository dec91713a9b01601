"""How the generated lookup tables are stored: unsigned 32-bit ints, little-endian, base64.

A base64 text constant in a Python module loads in milliseconds, needs no package data files,
and keeps the type checker and the formatter away from hundreds of thousands of literals.
"""

from __future__ import annotations

import base64
import sys
from array import array
from collections.abc import Iterable

_TYPECODE = "I"
LINE_CHARS = 88


def encode_uints(values: Iterable[int]) -> str:
    """Base64 text of the values as little-endian 32-bit unsigned ints."""
    packed = _uint_array(values)
    if sys.byteorder == "big":
        packed.byteswap()
    return base64.b64encode(packed.tobytes()).decode("ascii")


def decode_uints(text: str) -> array[int]:
    """The values written by :func:`encode_uints`."""
    packed = _uint_array(())
    packed.frombytes(base64.b64decode(text))
    if sys.byteorder == "big":
        packed.byteswap()
    return packed


def _uint_array(values: Iterable[int]) -> array[int]:
    packed = array(_TYPECODE, values)
    if packed.itemsize != 4:  # pragma: no cover - no supported platform has another size
        raise RuntimeError("The tables need a 4-byte unsigned int array type.")
    return packed
