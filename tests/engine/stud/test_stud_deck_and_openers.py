"""The short stub (community card or burns scrambled back) and who opens 7th street with it."""

from tables.engine.stud.dealing import open_dealing
from tables.engine.stud.settings import StudSettings
from tables.engine.stud.showing import opener_for_street
from tables.engine.stud.state import COMMUNITY, SeatState, StreetRecord, StudState


def _state(settings: dict[str, object], players: int, drawn: int) -> StudState:
    seats = tuple(SeatState(n, f"p{n}", 100, 100) for n in range(1, players + 1))
    return StudState(
        StudSettings.from_mapping({"small_bet": 10, **settings}),
        seats=seats,
        drawn=drawn,
        burns=("Tc", "Td", "Th"),
        known_cards=frozenset({"Tc", "Td", "Th"}),
    )


def test_a_stub_of_exactly_the_cards_needed_is_dealt_without_a_burn() -> None:
    dealing = open_dealing(_state({}, 3, 49), 7)

    assert [due.seat for due in dealing.deal_queue] == [1, 2, 3]
    assert not dealing.burn_open


def test_a_stub_too_short_for_everyone_gives_one_community_card_after_a_burn() -> None:
    dealing = open_dealing(_state({}, 3, 50), 7)

    assert [due.seat for due in dealing.deal_queue] == [COMMUNITY]
    assert dealing.burn_open


def test_an_empty_stub_takes_the_burns_back_and_deals_the_community_card_without_a_burn() -> None:
    dealing = open_dealing(_state({}, 3, 52), 7)

    assert [due.seat for due in dealing.deal_queue] == [COMMUNITY]
    assert not dealing.burn_open
    assert dealing.drawn == 49
    assert "Td" not in dealing.known_cards


def test_reshuffle_burns_scrambles_the_burns_back_when_they_make_up_the_shortfall() -> None:
    dealing = open_dealing(_state({"short_stub": "reshuffle_burns"}, 3, 49), 7)

    assert [due.seat for due in dealing.deal_queue] == [1, 2, 3]
    assert dealing.burn_open
    assert dealing.burns == ()
    assert dealing.drawn == 46


def test_reshuffle_burns_falls_back_to_the_community_card() -> None:
    dealing = open_dealing(_state({"short_stub": "reshuffle_burns"}, 8, 51), 7)

    assert [due.seat for due in dealing.deal_queue] == [COMMUNITY]


def _seventh_with_community(rule: str) -> StudState:
    state = _state({"community_first_actor": rule}, 3, 51)
    ups = {1: ("Kc", "7d", "2h", "9s"), 2: ("Qc", "Qd", "3h", "4s"), 3: ("Ac", "8d", "5h", "Js")}
    seats = tuple(SeatState(n, f"p{n}", 100, 100, up=ups[n]) for n in (1, 2, 3))
    record = StreetRecord(6, first_actor=2, last_aggressor=None)
    return StudState(state.settings, seats=seats, community=("Ks",), streets=(record,), street=7)


def test_with_the_community_card_the_highest_showing_hand_counts_it() -> None:
    assert opener_for_street(_seventh_with_community("with_community"), 7) == 1


def test_under_sixth_street_the_first_to_act_on_sixth_opens_seventh() -> None:
    assert opener_for_street(_seventh_with_community("sixth_street"), 7) == 2
