"""The shoe's bookkeeping: what has been drawn since the last shuffle, and duplicate detection.

Between two shuffles a rank+suit may be drawn at most `decks` times and a physical card (its
RFID or barcode id) at most once. A reshuffle during a round puts the discards back; the cards
still on the table (boxes not yet settled, the bank, cards waiting for a draw) keep counting.
"""

from __future__ import annotations

from tables.engine.frozen import changed
from tables.engine.siete.state import HandCard, Round, Shoe

PHYSICAL_DUPLICATE = "physical_id"
RANK_SUIT_DUPLICATE = "rank_and_suit"


def duplicate_reason(
    shoe: Shoe, card: str | None, physical_id: str | None, decks: int
) -> str | None:
    """Why drawing this card now would be a duplicate, or None if it may be drawn."""
    if physical_id is not None and physical_id in shoe.physical_ids:
        return PHYSICAL_DUPLICATE
    if card is not None and shoe.drawn.count(card) >= decks:
        return RANK_SUIT_DUPLICATE
    return None


def count_drawn(shoe: Shoe, hand_card: HandCard) -> Shoe:
    """Record that a card left the shoe (an unknown card counts once it is identified)."""
    drawn = shoe.drawn if hand_card.card is None else (*shoe.drawn, hand_card.card)
    ids = shoe.physical_ids
    if hand_card.physical_id is not None:
        ids = ids | {hand_card.physical_id}
    return changed(shoe, drawn=drawn, physical_ids=ids)


def count_identified(shoe: Shoe, card: str) -> Shoe:
    return changed(shoe, drawn=(*shoe.drawn, card))


def cards_on_table(round_: Round | None) -> tuple[HandCard, ...]:
    """Cards a reshuffle leaves out: unsettled boxes, the bank, misdrawn cards awaiting a draw."""
    if round_ is None or round_.settled or round_.voided:
        return ()
    on_table: list[HandCard] = []
    for box in round_.boxes:
        if box.removed is None and box.result is None:
            on_table.extend(box.cards)
    on_table.extend(round_.bank)
    on_table.extend(round_.misdrawn_waiting)
    return tuple(on_table)


def shuffled(shoe: Shoe, round_: Round | None, burns_due: int) -> Shoe:
    """The shoe after a shuffle: only the cards still on the table keep counting."""
    staying = cards_on_table(round_)
    return Shoe(
        drawn=tuple(c.card for c in staying if c.card is not None),
        physical_ids=frozenset(c.physical_id for c in staying if c.physical_id is not None),
        burns_due=burns_due,
        cut_card_out=False,
        shuffles=shoe.shuffles + 1,
    )
