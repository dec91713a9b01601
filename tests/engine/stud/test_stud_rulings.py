"""The rulings of RULES.md (R7-R14) for Stud, each reproduced as the issue found it."""

import pytest

from tables.engine.errors import RuleError
from tables.engine.stud.commands import (
    AwardPots,
    Bet,
    BringIn,
    Call,
    Complete,
    Fold,
    Raise,
    Show,
)
from tables.engine.stud.settings import StudSettings
from tables.engine.stud.showing import suit_tiebreak
from tables.engine.stud.table import StudTable
from tables.engine.stud.view import live_view

THIRD_STREET = ["9h", "Th", "Jh", "9d", "Td", "Jd", "2c", "Kh", "Qs"]


def legal(table: StudTable) -> list[tuple[str, int]]:
    return [(a["action"], a["amount"]) for a in live_view(table.state)["legal_actions"]]


def test_r7_an_explicit_ante_is_taken_as_given() -> None:
    settings = StudSettings.from_mapping({"small_bet": 4, "ante": 1, "bring_in": 2})
    assert (settings.ante, settings.bring_in) == (1, 2)


def test_r7_a_missing_ante_still_follows_the_ratio_and_is_checked() -> None:
    assert StudSettings.from_mapping({"small_bet": 10}).ante == 2
    with pytest.raises(RuleError) as refused:
        StudSettings.from_mapping({"small_bet": 4, "bring_in": 2})
    assert refused.value.code == "not_whole_chips"
    assert refused.value.params == {"setting": "ante", "divisor": 5}


@pytest.mark.parametrize("bring_in", [10, 12])
def test_r8_a_bring_in_of_the_small_bet_or_more_is_refused(bring_in: int) -> None:
    with pytest.raises(RuleError) as refused:
        StudSettings.from_mapping({"small_bet": 10, "ante": 0, "bring_in": bring_in})
    assert refused.value.code == "bad_limits"
    assert refused.value.params == {"bring_in": bring_in, "small_bet": 10}


def test_r9_a_short_completion_by_the_bring_in_player_may_be_called_or_completed() -> None:
    table = StudTable({"small_bet": 10, "ante": 0, "bring_in": 3})
    table.start({1: 4, 2: 20, 3: 20})
    table.deal(THIRD_STREET)
    table.apply(Complete(1, 4))
    assert legal(table) == [("fold", 0), ("call", 4), ("complete", 10)]
    table.apply(Call(2))
    table.apply(Call(3))
    assert table.state.street == 4
    assert [s.committed for s in table.state.seats] == [4, 4, 4]


def test_r10_a_capping_raise_that_leaves_play_heads_up_keeps_the_cap() -> None:
    table = StudTable({"small_bet": 10, "ante": 0, "bring_in": 5, "raise_cap": 3})
    table.start({1: 100, 2: 40, 3: 100})
    table.deal(THIRD_STREET)
    for command in (BringIn(1), Complete(2), Raise(3, 20), Raise(1, 30), Raise(2, 40)):
        table.apply(command)
    assert legal(table) == [("fold", 20), ("call", 40)]


def test_r11_the_lone_player_is_not_asked_for_a_bring_in() -> None:
    table = StudTable({"small_bet": 10})
    table.start({1: 2, 2: 100, 3: 100})
    table.deal(THIRD_STREET)
    table.apply(Fold(2))
    assert table.state.phase == "dealing"
    assert live_view(table.state)["to_act"] is None


def test_r11_the_lone_player_is_not_asked_to_check_on_a_later_street() -> None:
    table = StudTable({"small_bet": 10, "ante": 0, "bring_in": 5})
    table.start({1: 5, 2: 100, 3: 100})
    table.deal(["9h", "Th", "Jh", "9d", "Td", "Jd", "2c", "3h", "Qs"])
    table.apply(BringIn(1))
    table.apply(Call(2))
    table.apply(Call(3))
    table.deal(["4c", "5c", "6c"])
    assert live_view(table.state)["to_act"] == 3
    table.apply(Fold(3))
    assert table.state.phase == "dealing"
    assert table.state.street == 5


def test_r11_a_lone_player_who_owes_chips_is_still_asked() -> None:
    table = StudTable({"small_bet": 10, "ante": 0, "bring_in": 5})
    table.start({1: 100, 2: 15})
    table.deal(["9h", "Th", "9d", "Td", "2c", "Kh"])
    table.apply(BringIn(1))
    table.apply(Call(2))
    table.deal(["4c", "5c"])
    table.apply(Bet(2, 10))
    assert legal(table) == [("fold", 0), ("call", 10)]


def test_r12_the_unmatched_ante_is_returned_unraked() -> None:
    table = StudTable({"small_bet": 500, "rake_percent": "10"})
    table.start({1: 60, 2: 1000})
    table.deal(["9h", "Ah", "9d", "Ad", "2c", "Kh", "3c", "Ac", "4d", "5s", "7h", "8s", "Jc", "Qc"])
    table.apply(Show(2))
    table.apply(Show(1))
    table.apply(AwardPots())
    result = table.state.result
    assert result is not None
    assert result["rake_total"] == 12
    assert [(p["amount"], p["rake"], p["returned"]) for p in result["pots"]] == [
        (120, 12, False),
        (40, 0, True),
    ]
    assert [s.stack for s in table.state.seats] == [0, 1048]


def test_r14_suit_ties_compare_the_highest_card_the_king() -> None:
    assert suit_tiebreak(["Qc", "Qh", "Ks"]) > suit_tiebreak(["Qs", "Qd", "Kc"])
