"""Whole hands played through the engine: every invariant holds, and the rare cases happen."""

from random import Random

import pytest

from tables.engine.stud.simulation import simulate


@pytest.mark.parametrize("policy", ["random", "calling-station"])
@pytest.mark.parametrize("players", [2, 5, 8])
def test_simulated_hands_keep_every_invariant(policy: str, players: int) -> None:
    report = simulate(25, players, policy, Random(players))

    assert report["violations"] == []
    assert report["hands"] == 25
    assert report["chips_start"] == report["chips_end"] + report["rake_total"]
    assert report["invariants"]["replay_reproduces_state"]["checked"] == 25


def test_eight_calling_players_always_need_the_community_card() -> None:
    report = simulate(20, 8, "calling-station", Random(3))

    assert report["community_card_hands"] == 20
    assert report["ok"]


def test_short_stacks_make_side_pots_and_all_ins() -> None:
    report = simulate(40, 6, "random", Random(11))

    assert report["side_pots"] > 0
    assert report["all_in_hands"] > 0
    assert report["showdowns"] > 0
    assert report["rake_total"] > 0


def test_simulation_is_reproducible_from_its_seed() -> None:
    assert simulate(20, 4, "random", Random(5)) == simulate(20, 4, "random", Random(5))
