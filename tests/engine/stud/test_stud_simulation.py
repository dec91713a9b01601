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


SETTING_CHOICES: dict[str, list[object]] = {
    "raise_cap": [0, 1, 3],
    "heads_up_uncapped": [True, False],
    "open_pair_big_bet": [True, False],
    "bring_in_tie": ["position", "suit"],
    "high_hand_tie": ["position", "suit"],
    "odd_chip": ["high_card_by_suit", "left_of_dealer"],
    "burns": [True, False],
    "short_stub": ["community", "reshuffle_burns"],
    "community_first_actor": ["with_community", "sixth_street"],
    "short_ante": ["all_in", "sit_out"],
    "out_of_turn": ["binding_if_unchanged", "refused"],
    "rake_percent": ["0", "5", "10"],
    "rake_cap": [None, 3, 50],
}


@pytest.mark.slow
def test_every_setting_combination_drawn_keeps_every_invariant() -> None:
    rng = Random(2026)
    for round_number in range(60):
        table_settings: dict[str, object] = {"small_bet": rng.choice([10, 20, 100])}
        table_settings.update({name: rng.choice(v) for name, v in SETTING_CHOICES.items()})
        players = rng.choice([2, 3, 7, 8, 8])
        policy = rng.choice(["random", "calling-station"])

        report = simulate(25, players, policy, Random(round_number), table_settings)

        assert report["violations"] == [], (table_settings, players, policy)
