"""A round from the wagers to the payouts, through the engine's decide and evolve."""

from __future__ import annotations

from siete_table import Table, refusal

from tables.engine.siete import (
    BankStand,
    CancelWager,
    ChangeWager,
    DeclareBust,
    IdentifyCard,
    PlaceWager,
    RecordCard,
    RecordPayout,
    RequestDraw,
    Reveal,
    RevealBank,
    Stand,
    StartRound,
)


def shoe(table: Table, *cards: str, face_up: bool | None = None) -> None:
    for card in cards:
        table.do(RecordCard(card, source="shoe", face_up=face_up))


def dealt_to(table: Table) -> list[object]:
    return [
        e.data["box"] if e.data["hand"] == "box" else "bank"
        for e in table.events
        if e.type == "card.dealt"
    ]


def test_a_round_opens_with_the_first_wager_and_shuffles_the_shoe() -> None:
    table = Table()
    table.do(PlaceWager(2, 10))
    assert table.types() == ["shoe.shuffled", "round.opened", "wager.placed"]
    assert table.phase == "betting"


def test_start_round_is_refused_while_a_round_is_in_progress() -> None:
    table = Table()
    table.do(StartRound())
    assert refusal(table, StartRound()) == "round_in_progress"


def test_wagers_outside_the_table_limits_are_refused() -> None:
    table = Table(min_stake=10, max_stake=100, chip=5)
    assert refusal(table, PlaceWager(1, 5)) == "stake_below_minimum"
    assert refusal(table, PlaceWager(1, 105)) == "stake_above_maximum"
    assert refusal(table, PlaceWager(1, 12)) == "stake_not_chip_multiple"
    assert refusal(table, PlaceWager(1, 0)) == "invalid_amount"
    assert refusal(table, PlaceWager(7, 10)) == "invalid_box"
    assert refusal(table, PlaceWager(0, 10)) == "invalid_box"


def test_one_wager_per_box_and_changes_only_to_existing_wagers() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    assert refusal(table, PlaceWager(1, 20)) == "box_taken"
    assert refusal(table, ChangeWager(2, 20)) == "no_wager"
    assert refusal(table, CancelWager(2)) == "no_wager"
    table.do(ChangeWager(1, 20))
    table.do(CancelWager(1))
    assert table.state.round is not None
    assert table.state.round.boxes == ()


def test_no_wager_is_placed_changed_or_withdrawn_after_the_first_card() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "3O")
    assert refusal(table, PlaceWager(2, 10)) == "wagers_closed"
    assert refusal(table, ChangeWager(1, 20)) == "wagers_closed"
    assert refusal(table, CancelWager(1)) == "wagers_closed"


def test_a_round_starts_only_when_a_box_has_a_wager() -> None:
    table = Table()
    table.do(StartRound())
    assert refusal(table, RecordCard("3O")) == "no_wagers"


def test_the_initial_deal_goes_to_boxes_in_order_then_the_bank_face_down() -> None:
    table = Table()
    for box in (5, 1, 3):
        table.do(PlaceWager(box, 10))
    shoe(table, "1O", "2O", "3O", "4O")
    assert dealt_to(table) == [1, 3, 5, "bank"]
    assert all(not e.data["face_up"] for e in table.events if e.type == "card.dealt")
    assert table.view()["turn"] == {"hand": "box", "box": 1}


def test_the_bank_must_draw_at_four_and_a_half_and_stands_at_five() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "6O", "4C")
    table.do(Stand(1))
    table.do(RevealBank())
    assert refusal(table, BankStand()) == "bank_must_draw"
    shoe(table, "10B")  # 4½
    assert table.phase == "bank"
    assert refusal(table, BankStand()) == "bank_must_draw"
    shoe(table, "10E")  # 5: the bank stands by itself
    assert "bank.finished" in table.types()
    assert table.settled(1)["outcome"] == "win"
    assert table.phase == "settled"


def test_a_card_drawn_for_the_bank_at_five_is_dead_and_raises_a_bank_rule_alert() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "6O", "5C")
    table.do(Stand(1))
    table.do(RevealBank())
    shoe(table, "2B")
    assert table.phase == "settled"
    assert table.settled(1)["outcome"] == "win"
    assert table.events[-2].type == "card.dead"
    assert table.alerts() == ["bank_rule_violation"]


def test_face_down_draw_refused_while_holding_a_face_down_card_and_allowed_after_a_reveal() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "1O", "4C")
    assert refusal(table, RequestDraw(1, face_down=True)) == "face_down_limit"
    table.do(Reveal(1))
    table.do(RequestDraw(1, face_down=True))
    shoe(table, "2B", face_up=False)
    box = table.state.round.boxes[0]
    assert [c.face_up for c in box.cards] == [True, False]
    assert refusal(table, RequestDraw(1, face_down=True)) == "face_down_limit"


def test_a_card_asked_face_down_but_dealt_face_up_belongs_face_up() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "1O", "4C")
    table.do(Reveal(1))
    table.do(RequestDraw(1, face_down=True))
    shoe(table, "2B", face_up=True)
    assert all(c.face_up for c in table.state.round.boxes[0].cards)


def test_all_face_up_seven_and_a_half_stands_at_once_but_a_hidden_one_may_draw() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    shoe(table, "7O", "3C", "4C")
    table.do(Reveal(1))
    table.do(RequestDraw(1))
    shoe(table, "10O")
    assert table.view()["turn"] == {"hand": "box", "box": 2}
    table.do(RequestDraw(2))
    shoe(table, "4O")  # ½ hidden + 4 visible: the table cannot see 7½
    table.do(RequestDraw(2))
    assert table.view()["turn"] == {"hand": "box", "box": 2}


def test_declaring_bust_on_seven_and_a_half_or_less_is_refused() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "3O", "4C")
    table.do(RequestDraw(1))
    shoe(table, "4B")
    table.do(Reveal(1))
    assert refusal(table, DeclareBust(1)) == "not_bust"


def test_r1_a_false_bust_declaration_turns_the_face_down_card_up() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "6C", "4C")
    events = table.do(DeclareBust(1))
    assert [e.type for e in events] == ["card.revealed", "bust.refused"]
    assert events[1].data == {"box": 1, "code": "not_bust", "total_halves": 12}
    assert table.view()["boxes"][0]["cards"] == [{"card": "6C"}]
    table.do(RequestDraw(1, face_down=True))  # refused face_down_limit before R1
    assert table.view()["turn"] == {"hand": "box", "box": 1}


def test_a_declared_bust_loses_at_once_before_the_bank_plays() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    shoe(table, "6O", "3C", "4C")
    table.do(RequestDraw(1))
    shoe(table, "3B")
    table.do(DeclareBust(1))
    assert table.settled(1)["outcome"] == "player_bust"
    assert table.view()["turn"] == {"hand": "box", "box": 2}


def test_a_tablet_face_down_card_is_entered_when_the_bust_is_declared() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(RecordCard(None))
    table.do(RecordCard(None))
    table.do(RequestDraw(1))
    table.do(RecordCard("6B"))
    assert refusal(table, DeclareBust(1)) == "card_required"
    table.do(DeclareBust(1, card="5O"))
    assert table.settled(1)["outcome"] == "player_bust"
    assert table.phase == "settling"  # the bank's unknown card must still be turned up
    table.do(RevealBank("2C"))
    assert table.phase == "settled"


def test_a_visible_bust_is_recorded_at_once() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "10O", "4C")
    table.do(RequestDraw(1))
    shoe(table, "7B")
    table.do(RequestDraw(1))
    shoe(table, "1C")  # ½ hidden + 7 + 1 = 8½: bust for certain
    bust = [e.data for e in table.events if e.type == "box.bust"]
    assert bust == [{"box": 1, "kind": "visible"}]
    assert table.phase == "settled"  # no box stands: no bank turn, the bank's card is known


def test_a_shoe_read_bust_on_a_stand_is_an_undeclared_bust() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "6O", "4C")
    table.do(RequestDraw(1))
    shoe(table, "4B")  # 6 hidden + 4 = 10: over, but the table sees 4½
    assert table.view()["turn"] == {"hand": "box", "box": 1}
    stood = table.do(Stand(1))
    # Nothing may show the bust before the card is turned up (the stand's answer included).
    assert [e.type for e in stood] == ["box.stood"]
    assert table.alerts() == []
    assert table.phase == "bank"  # an undeclared bust is not visible: the box counts as standing
    assert table.view()["boxes"][0]["status"] == "stood"
    table.do(RevealBank())
    shoe(table, "7C")  # the bank busts on 11
    assert table.alerts() == ["undeclared_bust"]
    assert table.settled(1)["outcome"] == "player_bust"


def test_a_tablet_face_down_card_shown_on_a_false_bust_declaration_is_face_up() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(RecordCard(None))
    table.do(RecordCard(None))
    table.do(RequestDraw(1))
    table.do(RecordCard("6B"))
    events = table.do(DeclareBust(1, card="1O"))
    assert [e.type for e in events] == ["card.revealed", "bust.refused"]
    assert table.view()["boxes"][0]["cards"] == [{"card": "1O"}, {"card": "6B"}]


def test_a_player_who_keeps_drawing_while_bust_raises_an_undeclared_bust() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "6O", "4C")
    table.do(RequestDraw(1))
    shoe(table, "4B")
    table.do(RequestDraw(1))
    shoe(table, "3B")  # visible ½ + 7 = 7½ ... still not certain
    table.do(RequestDraw(1))
    shoe(table, "1B")
    assert [e.data["kind"] for e in table.events if e.type == "box.bust"] == ["visible"]
    assert table.alerts() == ["undeclared_bust"]
    assert table.phase == "settled"  # the bust is visible now: no bank turn


def test_an_unknown_card_found_over_the_limit_at_settlement_loses_though_the_bank_busts() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(RecordCard(None))
    table.do(RecordCard(None))
    table.do(RequestDraw(1))
    table.do(RecordCard("5B"))
    table.do(Stand(1))
    assert refusal(table, IdentifyCard(1, "4O")) == "not_at_settlement"
    table.do(RevealBank("4C"))
    table.do(RecordCard("7C"))  # the bank busts
    assert table.phase == "settling"  # waiting for box 1's card
    table.do(IdentifyCard(1, "4O"))
    assert table.alerts() == ["undeclared_bust"]
    assert table.settled(1)["outcome"] == "player_bust"
    assert table.phase == "settled"


def test_payouts_are_recorded_and_a_difference_is_a_payout_mismatch() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 5))
    shoe(table, "10O", "5C", "6E")
    table.do(RequestDraw(1))
    shoe(table, "7O")
    table.do(Stand(1))
    assert refusal(table, RecordPayout(1, 20)) == "round_not_settled"
    table.do(Stand(2))
    table.do(RevealBank())
    table.do(RecordPayout(1, 20))
    assert table.alerts() == []
    assert refusal(table, RecordPayout(1, 20)) == "payout_already_recorded"
    table.do(RecordPayout(2, 0))
    assert table.alerts() == ["payout_mismatch"]
    mismatch = table.events[-1].data
    assert (mismatch["expected"], mismatch["recorded"]) == (-5, 0)


def test_replaying_the_events_gives_the_same_state() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(4, 20))
    shoe(table, "10O", "5C", "6E")
    table.do(RequestDraw(1, face_down=False))
    shoe(table, "7O")
    table.do(Stand(1))
    table.do(Stand(4))
    table.do(RevealBank())
    assert table.replayed() == table.state


def test_a_bank_card_exposed_after_the_first_decision_plays_face_up() -> None:
    from tables.engine.siete import ExposeBankCard

    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    table.do(RecordCard("3O", source="shoe"))
    table.do(RecordCard("4C", source="shoe"))
    table.do(RecordCard("6E", source="shoe"))
    table.do(Stand(1))
    events = table.do(ExposeBankCard())
    assert [event.type for event in events] == ["card.revealed", "alert.raised"]
    assert table.view()["bank"]["cards"] == [{"card": "6E"}]
    assert table.phase == "players"  # the round goes on: the deal stands
    table.do(Stand(2))
    assert table.phase == "settled"  # the bank, at 6, stands by itself


def test_a_bank_card_exposed_before_any_decision_holds_the_round_on_void_tables() -> None:
    from tables.engine.siete import ExposeBankCard

    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(RecordCard("3O", source="shoe"))
    table.do(RecordCard("6E", source="shoe"))
    events = table.do(ExposeBankCard())
    assert [event.type for event in events] == ["card.revealed", "round.held", "alert.raised"]
    assert refusal(table, Stand(1)) == "round_held"  # the pit boss voids it or lets it play
