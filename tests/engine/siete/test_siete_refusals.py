"""Every refusal code the engine has, each met once (the others are met in the round tests)."""

from __future__ import annotations

from typing import Any

import pytest
from siete_table import Table, refusal

from tables.engine.errors import RuleError
from tables.engine.siete import (
    Command,
    CorrectHeldCard,
    IdentifyCard,
    MoveCard,
    PlaceWager,
    RecordCard,
    RequestDraw,
    Reveal,
    RevealBank,
    Stand,
)


def dealt(*cards: str, boxes: tuple[int, ...] = (1,), **settings: Any) -> Table:
    table = Table(**settings)
    for box in boxes:
        table.do(PlaceWager(box, 10))
    for card in cards:
        table.do(RecordCard(card, source="shoe"))
    return table


def test_malformed_card_records_are_refused() -> None:
    table = dealt()
    assert refusal(table, RecordCard("2O", source="dealer")) == "invalid_source"
    assert refusal(table, RecordCard("2O", physical_id="")) == "invalid_physical_id"
    assert refusal(table, RecordCard("2O", face_up="yes")) == "invalid_face_up"  # type: ignore[arg-type]
    assert refusal(table, RecordCard("2O", target="player")) == "invalid_target"
    assert refusal(table, RecordCard("2O", target="box")) == "invalid_box"
    assert refusal(table, RecordCard("8O")) == "invalid_card"


def test_player_actions_wait_for_the_deal_and_for_a_requested_card() -> None:
    table = dealt("2O")
    assert refusal(table, Stand(1)) == "deal_not_complete"
    table.do(RecordCard("3C", source="shoe"))
    table.do(RequestDraw(1))
    assert refusal(table, Stand(1)) == "draw_pending"
    assert refusal(table, RequestDraw(1)) == "draw_pending"


def test_a_tablet_card_for_a_box_that_already_has_its_deal_card_is_out_of_order() -> None:
    table = dealt("2O", boxes=(1, 2))
    assert refusal(table, RecordCard("3C", target="box", box=1)) == "card_out_of_order"


def test_a_card_the_shoe_read_is_turned_up_as_read_and_never_compared_with_a_guess() -> None:
    table = dealt("2O", "3C")
    # Right or wrong, an entry answers the same: a guess learns nothing of the hidden card.
    wrong, right = refused(table, Reveal(1, card="4E")), refused(table, Reveal(1, card="2o"))
    assert (wrong.code, wrong.message, wrong.params) == (right.code, right.message, right.params)
    assert wrong.code == "card_already_read"
    table.do(Reveal(1))
    assert table.view()["boxes"][0]["cards"] == [{"card": "2O"}]
    assert refusal(table, Reveal(1)) == "no_face_down_card"


def test_a_duplicate_entry_reads_the_same_whether_the_first_copy_is_hidden_or_not() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(RecordCard("5O", source="shoe"))  # box 1, face down
    table.do(RecordCard("3C"))  # the bank, face down
    table.do(RequestDraw(1))
    table.do(RecordCard("6E"))  # face up
    table.do(RequestDraw(1))
    hidden, seen = refused(table, RecordCard("5O")), refused(table, RecordCard("6E"))
    assert (hidden.code, hidden.message, hidden.params) == (seen.code, seen.message, seen.params)
    assert hidden.code == "duplicate_card"
    assert "5O" not in hidden.message
    assert "3C" not in refused(table, RecordCard(" 3c")).message


def refused(table: Table, command: Command) -> RuleError:
    before = table.state
    with pytest.raises(RuleError) as error:
        table.do(command)
    assert table.state is before
    return error.value


def test_the_bank_card_is_revealed_once_and_an_unknown_one_before_the_bank_draws() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(RecordCard("6O"))
    table.do(RecordCard(None))
    table.do(Stand(1))
    assert refusal(table, RecordCard("2B")) == "bank_card_not_revealed"
    table.do(RevealBank("1C"))
    assert refusal(table, RevealBank("1C")) == "bank_already_revealed"


def test_a_tablet_card_after_the_round_with_no_bank_turn_is_not_due() -> None:
    table = dealt("6O", "3C")
    table.do(RequestDraw(1))
    table.do(RecordCard("7O", source="shoe"))
    table.do(RequestDraw(1))
    table.do(RecordCard("4E", source="shoe"))  # visible bust: no bank turn
    assert table.phase == "settled"
    assert refusal(table, RecordCard("2B")) == "no_card_due"


def test_only_an_unknown_card_can_be_identified() -> None:
    table = dealt("6O", "2C", "3C", boxes=(1, 2))
    table.do(Stand(1))
    assert refusal(table, IdentifyCard(1, "2B")) == "no_unknown_card"


def test_nothing_to_correct_or_move() -> None:
    table = dealt("6O", boxes=(1, 2))
    assert refusal(table, CorrectHeldCard("2B", "dealer", "pit")) == "nothing_held"
    assert refusal(table, MoveCard(2, 1, "dealer", "pit")) == "no_card_to_move"
