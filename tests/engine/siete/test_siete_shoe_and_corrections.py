"""Duplicates, misdrawn cards, voids, reshuffles, burns, the cut card and exposed cards."""

from __future__ import annotations

from siete_table import Table, refusal

from tables.engine.siete import (
    CorrectHeldCard,
    CutCard,
    MoveCard,
    PlaceWager,
    RecordCard,
    RecordPayout,
    RequestDraw,
    Reshuffle,
    RevealBank,
    SitOut,
    Stand,
    StartRound,
    UpdateSettings,
    VoidBox,
    VoidRound,
    audit_view,
)


def shoe(table: Table, *cards: str, face_up: bool | None = None) -> None:
    for card in cards:
        table.do(RecordCard(card, source="shoe", face_up=face_up))


def one_box_dealt(**settings: object) -> Table:
    table = Table(**settings)
    table.do(PlaceWager(1, 10))
    shoe(table, "2O", "3C")
    return table


def test_a_duplicate_typed_on_the_tablet_is_refused() -> None:
    table = one_box_dealt()
    table.do(RequestDraw(1))
    assert refusal(table, RecordCard("2O")) == "duplicate_card"
    assert refusal(table, RecordCard("2o")) == "duplicate_card"


def test_a_duplicate_read_by_the_shoe_holds_the_round_until_corrected_with_approval() -> None:
    table = one_box_dealt()
    table.do(RequestDraw(1))
    shoe(table, "3C")
    assert table.alerts() == ["duplicate_card"]
    assert table.view()["held"] == "duplicate_card"
    assert refusal(table, Stand(1)) == "round_held"
    assert refusal(table, RecordCard("4C", source="shoe")) == "round_held"
    assert refusal(table, CorrectHeldCard("4C", "dealer", "dealer")) == "approver_must_differ"
    assert refusal(table, CorrectHeldCard("4C", "dealer", "")) == "approval_required"
    assert refusal(table, CorrectHeldCard("2O", "dealer", "pit")) == "duplicate_card"
    table.do(CorrectHeldCard("4C", "dealer", "pit"))
    assert table.view()["boxes"][0]["cards"][-1] == {"card": "4C"}
    assert table.view()["held"] is None


def test_a_physical_card_id_seen_twice_is_a_duplicate() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(RecordCard("2O", source="shoe", physical_id="rfid-1"))
    table.do(RecordCard("5O", source="shoe", physical_id="rfid-1"))
    assert table.alerts() == ["duplicate_card"]
    assert table.events[-1].data["duplicate_of"] == "physical_id"


def test_with_two_decks_a_card_may_appear_twice_but_not_three_times() -> None:
    table = Table(decks=2)
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    shoe(table, "2O", "2O")
    assert refusal(table, RecordCard("2O")) == "duplicate_card"


def test_a_shoe_card_nobody_asked_for_is_a_dead_misdrawn_card() -> None:
    table = one_box_dealt()
    shoe(table, "5E")
    assert table.types()[-2:] == ["card.dead", "alert.raised"]
    assert table.alerts() == ["misdrawn_card"]
    assert refusal(table, RecordCard("6E")) == "no_draw_requested"


def test_a_tablet_card_for_the_wrong_box_is_refused() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    shoe(table, "2O", "3C", "4E")
    table.do(RequestDraw(1))
    assert refusal(table, RecordCard("6E", target="box", box=2)) == "not_your_turn"
    assert refusal(table, RecordCard("6E", target="bank")) == "not_bank_turn"
    assert refusal(table, RecordCard("6E", target="burn")) == "no_burn_due"


def test_a_card_dealt_to_a_box_without_a_wager_is_dead() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(RecordCard("2O", target="box", box=4))
    assert table.types()[-2:] == ["card.dead", "alert.raised"]
    assert table.phase == "dealing"


def test_a_misdrawn_card_goes_to_the_next_draw_when_the_table_says_so() -> None:
    table = one_box_dealt(misdrawn_card="next_draw")
    shoe(table, "5E")
    assert table.types()[-2:] == ["card.misdrawn", "alert.raised"]
    table.do(RequestDraw(1))
    assert table.view()["boxes"][0]["cards"][-1] == {"card": "5E"}


def test_a_misdrawn_card_waiting_goes_to_the_bank_when_it_must_draw() -> None:
    table = one_box_dealt(misdrawn_card="next_draw")
    shoe(table, "6E")  # misdrawn: box 1 asked for nothing
    table.do(Stand(1))
    table.do(RevealBank())  # the bank holds 3 and must draw: it takes the waiting 6E
    assert [c["card"] for c in table.view()["bank"]["cards"]] == ["3C", "6E"]
    assert table.phase == "settled"


def test_a_misdrawn_card_nobody_draws_is_dead_when_the_round_closes() -> None:
    table = Table(misdrawn_card="next_draw")
    table.do(PlaceWager(1, 10))
    shoe(table, "2O", "5C")
    shoe(table, "6E")
    table.do(Stand(1))
    table.do(RevealBank())  # the bank stands on 5
    assert table.phase == "settled"
    assert table.types()[-2:] == ["card.dead", "round.settled"]
    assert table.state.round is not None
    assert table.state.round.misdrawn_waiting == ()


def test_a_void_returns_every_stake_busted_boxes_included() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 20))
    shoe(table, "7O", "3C", "4E")
    table.do(RequestDraw(1))
    shoe(table, "5B")  # ½ + 5 visible: not certain; the shoe knows it is 12
    assert refusal(table, VoidRound("", "dealer", "pit")) == "reason_required"
    assert refusal(table, VoidRound("misdeal", "pit", "pit")) == "approver_must_differ"
    table.do(VoidRound("misdeal", "dealer", "pit"))
    assert table.events[-1].data["returned"] == 30
    assert table.phase == "voided"
    assert refusal(table, VoidRound("again", "dealer", "pit")) == "round_not_open"
    table.do(RecordPayout(1, 0))
    assert table.alerts() == []


def test_a_void_is_refused_once_the_round_is_settled() -> None:
    table = one_box_dealt()
    table.do(Stand(1))
    table.do(RevealBank())
    shoe(table, "4B")
    assert table.phase == "settled"
    assert refusal(table, VoidRound("late", "dealer", "pit")) == "round_not_open"
    assert refusal(table, VoidBox(1, "late", "dealer", "pit")) == "round_not_open"


def test_a_void_box_returns_its_stake_and_the_round_goes_on() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 20))
    shoe(table, "7O", "3C", "4E")
    table.do(VoidBox(1, "card flashed", "dealer", "pit"))
    assert table.view()["turn"] == {"hand": "box", "box": 2}
    assert refusal(table, VoidBox(1, "again", "dealer", "pit")) == "no_wager"
    table.do(Stand(2))
    table.do(RevealBank())
    shoe(table, "3B")
    assert table.phase == "settled"
    round_settled = table.events[-1].data
    assert round_settled["staked"] == 20


def test_a_reshuffle_mid_round_keeps_the_cards_on_the_table_counting() -> None:
    table = Table(burn_after_shuffle=1)
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    table.do(RecordCard("12O", source="shoe"))  # burned after the opening shuffle
    shoe(table, "2O", "3C", "4E")
    table.do(RequestDraw(1))
    shoe(table, "7C")
    table.do(RequestDraw(1))
    shoe(table, "1C")  # ½ + 7 + 1: box 1 busts and is settled, its cards go to the discards
    table.do(Reshuffle())
    assert table.state.shoe.burns_due == 1
    assert sorted(table.state.shoe.drawn) == ["3C", "4E"]
    assert refusal(table, RecordCard("3C")) == "duplicate_card"
    table.do(RecordCard("7C"))  # back in play after the reshuffle: the burn
    table.do(RequestDraw(2))
    table.do(RecordCard("2O"))
    assert table.view()["boxes"][1]["cards"][-1] == {"card": "2O"}


def test_with_every_round_shuffle_each_round_gets_a_fresh_shoe() -> None:
    table = one_box_dealt()
    table.do(Stand(1))
    table.do(RevealBank())
    shoe(table, "4B")
    table.do(PlaceWager(1, 10))
    assert table.types().count("shoe.shuffled") == 2
    shoe(table, "2O")  # the same card again: new shoe


def test_with_the_cut_card_the_shoe_is_shuffled_only_after_it_comes_out() -> None:
    table = one_box_dealt(shuffle="cut_card")
    table.do(Stand(1))
    table.do(RevealBank())
    shoe(table, "4B")
    table.do(PlaceWager(1, 10))
    assert table.types().count("shoe.shuffled") == 1
    assert refusal(table, RecordCard("2O")) == "duplicate_card"
    table.do(CutCard())
    assert refusal(table, CutCard()) == "cut_card_already_out"
    shoe(table, "5O", "6O")
    table.do(Stand(1))
    table.do(RevealBank())
    table.do(StartRound())
    assert table.types().count("shoe.shuffled") == 2


def test_an_exposed_bank_card_holds_the_round_for_a_void() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "2O")
    shoe(table, "3C", face_up=True)
    assert table.alerts() == ["bank_card_exposed"]
    assert refusal(table, Stand(1)) == "round_held"
    table.do(VoidRound("bank card exposed", "dealer", "pit"))
    assert table.phase == "voided"


def test_an_exposed_bank_card_plays_face_up_when_the_table_says_so() -> None:
    table = Table(exposed_bank_card="plays")
    table.do(PlaceWager(1, 10))
    shoe(table, "2O")
    shoe(table, "3C", face_up=True)
    assert table.view()["bank"]["cards"] == [{"card": "3C"}]
    table.do(Stand(1))
    shoe(table, "4C")  # the bank draws without a separate reveal
    assert table.phase == "settled"


def test_an_exposed_player_card_plays_face_up_by_default() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "2O", face_up=True)
    shoe(table, "3C")
    assert table.view()["boxes"][0]["cards"] == [{"card": "2O"}]
    assert refusal(table, SitOut(1)) == "sit_out_not_offered"


def test_an_exposed_player_card_may_be_taken_back_before_any_decision_under_player_option() -> None:
    table = Table(exposed_player_card="player_option")
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    shoe(table, "2O", face_up=True)
    shoe(table, "3O", "4C")
    assert refusal(table, SitOut(2)) == "card_not_exposed"
    table.do(SitOut(1))
    assert table.view()["boxes"][0]["status"] == "sat_out"
    assert table.view()["turn"] == {"hand": "box", "box": 2}


def test_a_sit_out_is_refused_after_the_first_decision() -> None:
    table = Table(exposed_player_card="player_option")
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    shoe(table, "2O")
    shoe(table, "3O", face_up=True)
    shoe(table, "4C")
    table.do(Stand(1))
    assert refusal(table, SitOut(2)) == "decisions_started"


def test_extra_boxes_next_to_the_seat_up_to_the_limit() -> None:
    table = Table(boxes_per_player=2)
    table.do(PlaceWager(3, 10))
    assert refusal(table, PlaceWager(5, 10, seat=3)) == "box_not_adjacent"
    table.do(PlaceWager(4, 10, seat=3))
    assert refusal(table, PlaceWager(2, 10, seat=3)) == "too_many_boxes"
    assert refusal(Table(), PlaceWager(2, 10, seat=3)) == "box_not_your_seat"


def test_a_wager_outside_new_limits_plays_in_full_with_an_alert() -> None:
    table = Table(max_stake=100)
    table.do(PlaceWager(1, 100))
    table.do(UpdateSettings({"max_stake": 50}))
    shoe(table, "2O")
    assert table.alerts() == ["wager_outside_limits"]
    assert table.state.round.boxes[0].stake == 100
    assert refusal(table, UpdateSettings({})) == "round_in_progress"


def test_a_shoe_card_with_no_round_open_is_dead() -> None:
    table = Table()
    shoe(table, "2O")
    assert table.types() == ["card.dead", "alert.raised"]
    assert table.alerts() == ["misdrawn_card"]
    assert refusal(table, RecordCard("3O")) == "no_round_open"


def test_deal_cards_on_the_wrong_boxes_are_moved_with_approval_before_any_decision() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    shoe(table, "2O", "3C", "4E")
    assert refusal(table, MoveCard(1, 2, "dealer", "dealer")) == "approver_must_differ"
    assert refusal(table, MoveCard(1, 4, "dealer", "pit")) == "no_wager"
    table.do(MoveCard(1, 2, "dealer", "pit"))
    audit = audit_view(table.state)
    assert [b["cards"][0]["card"] for b in audit["boxes"]] == ["3C", "2O"]
    table.do(Stand(1))
    assert refusal(table, MoveCard(1, 2, "dealer", "pit")) == "decisions_started"


def test_a_payout_record_is_corrected_only_with_approval_and_checked_again() -> None:
    from tables.engine.siete import CorrectPayout, Reveal

    table = Table()
    table.do(PlaceWager(1, 20))
    table.do(RecordCard("3O", face_up=False))
    table.do(RecordCard("4C", face_up=False))
    table.do(Reveal(1))
    table.do(Stand(1))
    table.do(RevealBank())
    table.do(RecordCard("1E"))
    assert refusal(table, CorrectPayout(1, -20, "typo", "dora", "pedro")) == "payout_not_recorded"
    table.do(RecordPayout(1, 20))
    assert refusal(table, CorrectPayout(1, -20, "typo", "dora", "dora")) == "approver_must_differ"
    events = table.do(CorrectPayout(1, 10, "typo", "dora", "pedro"))
    assert [event.type for event in events] == ["payout.corrected", "alert.raised"]
    table.do(CorrectPayout(1, -20, "typo again", "dora", "pedro"))
    assert table.state.round is not None
    box = table.state.round.box(1)
    assert box is not None
    assert box.recorded_payout == -20
