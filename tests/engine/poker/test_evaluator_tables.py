"""The checked-in lookup tables are exactly what the generator writes from the ranking rules."""

from __future__ import annotations

from math import comb

from tables.engine.poker import generate_tables, hand_tables
from tables.engine.poker.table_codec import decode_uints, encode_uints


def test_the_checked_in_tables_match_a_fresh_generation() -> None:
    assert generate_tables.render() == generate_tables.MODULE_PATH.read_text(encoding="utf-8")


def test_every_multiset_of_five_to_seven_ranks_has_an_entry() -> None:
    # With at most four cards of a rank: 6,175 five-rank, 18,395 six-rank and 49,205
    # seven-rank multisets.
    assert len(decode_uints(hand_tables.UNSUITED_KEYS)) == 6_175 + 18_395 + 49_205
    assert len(set(decode_uints(hand_tables.UNSUITED_KEYS))) == 73_775


def test_the_flush_table_covers_every_set_of_five_to_seven_suited_ranks() -> None:
    flush = decode_uints(hand_tables.FLUSH_STRENGTHS)
    assert len(flush) == 8192
    assert sum(1 for strength in flush if strength) == sum(
        comb(13, n) for n in (5, 6, 7, 8, 9, 10, 11, 12, 13)
    )


def test_the_codec_round_trips_32_bit_values() -> None:
    values = [0, 1, 7462, 2**31, 2**32 - 1]
    assert list(decode_uints(encode_uints(values))) == values
