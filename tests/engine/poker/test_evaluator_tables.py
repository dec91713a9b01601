"""The checked-in lookup tables are exactly what the generator writes from the ranking rules."""

from __future__ import annotations

from math import comb

import pytest

from tables.engine.poker import generate_tables, hand_tables, rank_hash
from tables.engine.poker.cards import RANK_CHARS, parse_card
from tables.engine.poker.evaluator import best_hand, strength_of
from tables.engine.poker.table_codec import decode_uints, encode_uints


def test_the_checked_in_tables_match_a_fresh_generation() -> None:
    assert generate_tables.render() == generate_tables.MODULE_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def seven_rank_strengths() -> dict[int, int]:
    """Rank key to strength by the ranking rules, for every multiset of seven ranks."""
    return generate_tables.unsuited_tables()[7]


def test_every_multiset_of_five_or_six_ranks_has_an_entry() -> None:
    # With at most four cards of a rank: 6,175 five-rank and 18,395 six-rank multisets.
    keys = decode_uints(hand_tables.SHORT_HAND_KEYS)
    assert len(keys) == len(set(keys)) == 6_175 + 18_395


def test_every_multiset_of_seven_ranks_finds_its_own_strength_in_the_slots(
    seven_rank_strengths: dict[int, int],
) -> None:
    assert len(seven_rank_strengths) == 49_205
    spread = bytes(decode_uints(hand_tables.SEVEN_CARD_SPREAD, "B"))
    slots = decode_uints(hand_tables.SEVEN_CARD_SLOTS)
    assert len(spread) == rank_hash.BUCKETS
    assert len(slots) == rank_hash.SLOTS
    for key, strength in seven_rank_strengths.items():
        assert slots[rank_hash.slot_of(key, spread)] == strength, key


def test_both_evaluators_read_the_slots_as_the_hash_says(
    seven_rank_strengths: dict[int, int],
) -> None:
    # One seven-card hand per rank multiset, suits dealt round so that none has a flush.
    for key, strength in seven_rank_strengths.items():
        codes = [f"{RANK_CHARS[rank]}{'cdhs'[index % 4]}" for index, rank in _ranks(key)]
        assert strength_of([parse_card(code) for code in codes]) == strength, codes
        assert best_hand(codes).strength == strength, codes


def _ranks(key: int) -> list[tuple[int, int]]:
    """(card index, rank index) of the seven cards of a base-5 rank key."""
    ranks = [rank for rank in range(13) for _ in range(key // 5**rank % 5)]
    return list(enumerate(ranks))


def test_the_generator_refuses_a_table_it_cannot_place() -> None:
    # Two keys of different strength in one bucket, a slot count apart: every multiplier
    # sends them to the same slot.
    clash = {1: 10, 1 + rank_hash.SLOTS * rank_hash.BUCKETS: 20}
    with pytest.raises(RuntimeError):
        rank_hash.build(clash)


def test_the_flush_table_covers_every_set_of_five_to_seven_suited_ranks() -> None:
    flush = decode_uints(hand_tables.FLUSH_STRENGTHS)
    assert len(flush) == 8192
    assert sum(1 for strength in flush if strength) == sum(
        comb(13, n) for n in (5, 6, 7, 8, 9, 10, 11, 12, 13)
    )


def test_the_codec_round_trips_32_bit_values() -> None:
    values = [0, 1, 7462, 2**31, 2**32 - 1]
    assert list(decode_uints(encode_uints(values))) == values


def test_the_codec_round_trips_bytes() -> None:
    values = [0, 1, 174, 255]
    assert list(decode_uints(encode_uints(values, "B"), "B")) == values
