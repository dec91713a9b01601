"""What a shoe message means to a game, before any database: card codes by the table's deck, an
unidentified card is never guessed, and which engine command a card becomes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from devices import feeding
from devices.codec.cards import UNIDENTIFIED_BYTE, DeckType, card_byte
from devices.codec.messages import CardDrawn, CardMisread, CutCard, Fault, ShoeLoaded
from tables.engine import siete
from tables.engine.stud import STUD
from tables.engine.stud import commands as stud
from tables.engine.stud import state as stud_state


def drawn(byte: int, uid: bytes = b"\x0a\x0b") -> CardDrawn:
    return CardDrawn(5, byte, CardDrawn.METHOD_RFID, 1234, uid)


def test_a_card_is_named_in_the_table_deck() -> None:
    spanish = feeding.read_message(drawn(card_byte(DeckType.SPANISH, "12C")), DeckType.SPANISH)
    assert (spanish.kind, spanish.card, spanish.physical_id) == ("card", "12C", "0a0b")
    assert spanish.draw_index == 5
    assert spanish.payload["dev_ms"] == 1234
    french = feeding.read_message(drawn(card_byte(DeckType.FRENCH, "Td")), DeckType.FRENCH)
    assert french.card == "Td"


@pytest.mark.parametrize(
    "byte",
    [UNIDENTIFIED_BYTE, 0x08, 0x1D, 0x4F],  # unread; no 8 in a Spanish deck; no king; no suit 4
)
def test_a_card_outside_the_deck_is_a_misread_never_a_guess(byte: int) -> None:
    reading = feeding.read_message(drawn(byte), DeckType.SPANISH)
    assert (reading.kind, reading.card) == ("misread", None)
    assert reading.payload["card_byte"] == byte


def test_misreads_cut_cards_and_other_messages_are_told_apart() -> None:
    assert feeding.read_message(CardMisread(9, 3, 0), DeckType.FRENCH).kind == "misread"
    assert feeding.read_message(CutCard(40, 0), DeckType.FRENCH).kind == "cut"
    loaded = feeding.read_message(ShoeLoaded(DeckType.FRENCH, 6, 77, 0), DeckType.FRENCH)
    assert (loaded.kind, loaded.message_type) == ("other", "SHOE_LOADED")
    fault = feeding.read_message(Fault(0x09, 2, True, 0), DeckType.FRENCH)
    assert fault.payload == {"code": 9, "severity": 2, "active": True, "dev_ms": 0}


def test_a_siete_card_goes_to_whoever_the_round_expects() -> None:
    command = feeding.card_command("siete_y_medio", None, "7O", "ab")
    assert command == siete.RecordCard("7O", physical_id="ab", source="shoe")


def test_a_stud_card_is_a_burn_when_a_burn_is_due_and_dealt_otherwise() -> None:
    state = STUD.new_state({"small_bet": 10})
    dealing = replace(state, phase=stud_state.DEALING, burn_open=True)
    assert feeding.card_command("seven_card_stud", dealing, "As", None) == stud.Burn(
        "As", physical_id=None, source="shoe"
    )
    no_burn = replace(dealing, burn_open=False)
    assert feeding.card_command("seven_card_stud", no_burn, "As", "01") == stud.RecordCard(
        "As", seat=None, physical_id="01", source="shoe"
    )


def test_a_card_the_dealer_enters_is_a_tablet_entry() -> None:
    entered = feeding.card_command("siete_y_medio", None, "3B", None, source="tablet")
    assert entered.source == "tablet"


def test_there_is_no_feeding_for_an_unknown_game() -> None:
    with pytest.raises(ValueError, match="no shoe feeding"):
        feeding.card_command("baccarat", None, "As", None)
    assert feeding.deck_for("baccarat") is None
