"""Where a seven-card rank key sits in the evaluator's slot table: a perfect hash.

A dictionary of the 49,205 seven-card rank keys costs several dependent memory reads per lookup
(its index, its entry, the key object), spread over about 5 MB; on a machine shared with other
work those reads were most of an evaluation. Here a key's slot in a 65,521-entry array is
``key * spread[key % BUCKETS] % SLOTS``, where `spread` holds one multiplier per bucket, chosen
when the tables are generated so that no two keys of different strength share a slot (keys of
equal strength may). A lookup reads one byte of a 16 KB string and one entry of a 256 KB array.

Only seven-card keys are placed: a key of any other rank multiset lands on some slot all the
same, so callers must know they hold seven distinct cards.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Slots in the table: a prime, so that multiplying by a bucket's multiplier permutes them.
SLOTS = 65_521
#: Buckets of keys sharing one multiplier: a prime, three keys a bucket on average.
BUCKETS = 16_381
_LARGEST_MULTIPLIER = 255  # one byte


def slot_of(rank_key: int, spread: bytes) -> int:
    """The slot of a seven-card rank key (the evaluator inlines this formula)."""
    return rank_key * spread[rank_key % BUCKETS] % SLOTS


def build(strengths: Mapping[int, int]) -> tuple[bytes, list[int]]:
    """Each bucket's multiplier and each slot's strength (0 where no key lands).

    Buckets are placed largest first, each with the smallest multiplier that puts all its keys
    on free slots or on slots already holding their strength. Deterministic, so the generated
    tables can be compared byte for byte.
    """
    buckets: dict[int, list[int]] = {}
    for key in sorted(strengths):
        buckets.setdefault(key % BUCKETS, []).append(key)
    spread = bytearray(BUCKETS)
    slots = [0] * SLOTS
    for bucket in sorted(buckets, key=lambda bucket: (-len(buckets[bucket]), bucket)):
        keys = buckets[bucket]
        for multiplier in range(1, _LARGEST_MULTIPLIER + 1):
            placed = _place(keys, multiplier, strengths, slots)
            if placed is not None:
                for slot, strength in placed.items():
                    slots[slot] = strength
                spread[bucket] = multiplier
                break
        else:
            raise RuntimeError(f"No multiplier places bucket {bucket}; change SLOTS or BUCKETS.")
    return bytes(spread), slots


def _place(
    keys: list[int], multiplier: int, strengths: Mapping[int, int], slots: list[int]
) -> dict[int, int] | None:
    """The slots the keys take with this multiplier, or None if one would clash."""
    placed: dict[int, int] = {}
    for key in keys:
        slot = key * multiplier % SLOTS
        strength = strengths[key]
        if slots[slot] not in (0, strength) or placed.setdefault(slot, strength) != strength:
            return None
    return placed
