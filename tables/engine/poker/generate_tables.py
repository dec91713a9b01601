"""Generate ``hand_tables.py``, the evaluator's lookup tables, from the ranking rules.

Run ``python -m tables.engine.poker.generate_tables`` after changing the card encoding or the
strength layout. The test suite regenerates the module and compares it with the checked-in one.

The tables:

* unsuited, for every multiset of 5 to 7 ranks (at most four of a rank): the strength of its
  best hand when no flush is possible, by rank key (the sum of
  :func:`~tables.engine.poker.cards.rank_weight` over the cards). The 49,205 seven-rank
  multisets go into a slot array addressed by the perfect hash of
  :mod:`~tables.engine.poker.rank_hash` (with its per-bucket multipliers); the 24,570
  multisets of five or six ranks are listed as keys and strengths;
* flush: for every 13-bit set of ranks of one suit, the strength of its best flush or straight
  flush (0 when fewer than five ranks are set).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from tables.engine.poker import rank_hash
from tables.engine.poker.cards import rank_weight
from tables.engine.poker.ranking import ACE, flush_strength, unsuited_strength
from tables.engine.poker.table_codec import LINE_CHARS, encode_uints

RANKS = tuple(range(2, ACE + 1))
MODULE_PATH = Path(__file__).with_name("hand_tables.py")

HEADER = '''"""Lookup tables for the hand evaluator. Generated: do not edit.

Written by ``python -m tables.engine.poker.generate_tables`` (see that module for what the
tables hold); the test suite regenerates them and compares. Each constant is base64 text of
little-endian unsigned 32-bit ints, decoded by ``tables.engine.poker.table_codec``.
"""
'''


def rank_count_vectors(cards_left: int, rank_index: int = 0) -> Iterator[tuple[int, ...]]:
    """Every count per rank, at most four each, over the ranks from `rank_index` up, using
    at most `cards_left` cards."""
    if rank_index == len(RANKS):
        yield ()
        return
    for count in range(min(4, cards_left) + 1):
        for rest in rank_count_vectors(cards_left - count, rank_index + 1):
            yield (count, *rest)


def unsuited_tables() -> dict[int, dict[int, int]]:
    """By card count (5, 6, 7): rank key to unsuited strength, for every multiset of ranks."""
    tables: dict[int, dict[int, int]] = {5: {}, 6: {}, 7: {}}
    for counts in rank_count_vectors(7):
        if sum(counts) < 5:
            continue
        key = sum(count * rank_weight(rank) for rank, count in zip(RANKS, counts, strict=True))
        tables[sum(counts)][key] = unsuited_strength(dict(zip(RANKS, counts, strict=True)))
    return tables


def flush_table() -> list[int]:
    """Strength by 13-bit suited rank set (bit 0 is the deuce); 0 below five ranks."""
    strengths = []
    for bits in range(1 << len(RANKS)):
        ranks = [rank for rank in RANKS if bits >> (rank - 2) & 1]
        strengths.append(flush_strength(ranks) if len(ranks) >= 5 else 0)
    return strengths


def render() -> str:
    """The full text of ``hand_tables.py``."""
    unsuited = unsuited_tables()
    spread, slots = rank_hash.build(unsuited[7])
    short = sorted((unsuited[5] | unsuited[6]).items())
    constants = {
        "SEVEN_CARD_SPREAD": encode_uints(spread, "B"),
        "SEVEN_CARD_SLOTS": encode_uints(slots),
        "SHORT_HAND_KEYS": encode_uints(key for key, _ in short),
        "SHORT_HAND_STRENGTHS": encode_uints(strength for _, strength in short),
        "FLUSH_STRENGTHS": encode_uints(flush_table()),
    }
    parts = [HEADER]
    for name, text in constants.items():
        lines = (text[at : at + LINE_CHARS] for at in range(0, len(text), LINE_CHARS))
        body = "".join(f'    "{line}"\n' for line in lines)
        parts.append(f"\n{name} = (\n{body})\n")
    return "".join(parts)


def main() -> int:
    MODULE_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {MODULE_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
