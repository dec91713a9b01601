from __future__ import annotations

import json

from siete_table import Table

from tables.engine.siete import PlaceWager, RecordCard, RequestDraw, Reveal, Stand, audit_view


def shoe(table: Table, *cards: str) -> None:
    for card in cards:
        table.do(RecordCard(card, source="shoe"))


def test_face_down_cards_never_reach_the_live_view_even_when_the_shoe_read_them() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    shoe(table, "7O", "6C", "5E")
    table.do(RequestDraw(1))
    shoe(table, "4B")  # box 1 is over 7½ but the table cannot know
    text = json.dumps(table.view())
    for hidden in ("7O", "6C", "5E"):
        assert hidden not in text
    assert table.view()["boxes"][0]["cards"] == [{"face_down": True}, {"card": "4B"}]
    assert table.view()["boxes"][0]["visible_total"] == "4"
    table.do(Stand(1))  # an undeclared bust: alert to the pit, nothing on the tablet
    assert "bust" not in json.dumps(table.view()["boxes"])
    assert "7O" in json.dumps(audit_view(table.state))


def test_the_live_view_lists_what_the_dealer_may_do_now() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "2O", "3C")
    legal = table.view()["legal"]
    assert {"type": "stand", "box": 1} in legal
    assert {"type": "request_draw", "box": 1, "face_down": False} in legal
    assert {"type": "request_draw", "box": 1, "face_down": True} not in legal
    assert {"type": "reveal", "box": 1} in legal
    table.do(Reveal(1))
    assert {"type": "request_draw", "box": 1, "face_down": True} in table.view()["legal"]


def test_the_live_view_shows_results_once_settled() -> None:
    table = Table()
    table.do(PlaceWager(1, 10))
    shoe(table, "2O", "3C")
    table.do(Stand(1))
    table.do(RecordCard("4E", source="shoe"))  # the bank's card is turned up as it draws
    view = table.view()
    assert view["phase"] == "settled"
    assert view["results"][0]["outcome"] == "loss"
    assert view["results"][0]["net"] == -10
    json.dumps(audit_view(table.state))  # JSON-ready throughout


def test_the_live_view_says_where_the_next_card_goes() -> None:
    table = Table(burn_after_shuffle=1)
    table.do(PlaceWager(2, 10))
    assert table.view()["next_card"] == {"hand": "burn"}
    shoe(table, "5O")
    assert table.view()["next_card"] == {"hand": "box", "box": 2}
    shoe(table, "2O")
    assert table.view()["next_card"] == {"hand": "bank"}
    shoe(table, "3C")
    assert table.view()["next_card"] is None
    table.do(RequestDraw(2))
    assert table.view()["next_card"] == {"hand": "box", "box": 2, "face_down": False}


def test_a_burn_may_be_recorded_from_the_tablet_before_the_first_wager() -> None:
    from tables.engine.siete import StartRound

    table = Table(burn_after_shuffle=1)
    table.do(StartRound())
    table.do(RecordCard("5O"))
    assert table.types()[-1] == "card.burned"
    assert table.phase == "betting"


def test_a_visibly_busted_box_with_an_unknown_card_is_identified_as_it_is_collected() -> None:
    from tables.engine.siete import IdentifyCard

    table = Table()
    table.do(PlaceWager(1, 10))
    table.do(PlaceWager(2, 10))
    table.do(RecordCard(None))
    table.do(RecordCard(None))
    table.do(RecordCard(None))
    table.do(RequestDraw(1))
    table.do(RecordCard("7O"))
    table.do(RequestDraw(1))
    table.do(RecordCard("1O"))  # ½ hidden + 8: bust for certain, the hidden card unknown
    assert {"type": "identify_card", "box": 1} in table.view()["legal"]
    table.do(IdentifyCard(1, "3C"))
    assert table.settled(1)["outcome"] == "player_bust"
    assert table.view()["turn"] == {"hand": "box", "box": 2}
