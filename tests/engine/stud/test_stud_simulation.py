"""Whole hands played through the engine: every invariant holds, and the rare cases happen."""

import os
from random import Random

import pytest

from tables.engine.stud.simulation import draw_settings, simulate


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


# The slow tier's figure; larger runs: python manage.py simulate_stud --random-settings --hands N
SOAK_HANDS = int(os.environ.get("STUD_SOAK_HANDS", "100000"))


def test_drawn_settings_and_short_stacks_keep_every_invariant() -> None:
    report = simulate(400, 8, "random", Random(8), random_settings=True)

    assert report["violations"] == []
    assert set(report["all_in_by_street"]) == {"3", "4", "5", "6", "7"}
    drawn = report["settings_drawn"]
    for value in ("position", "suit"):
        assert drawn[f"high_hand_tie={value}"] > 0
    assert drawn["heads_up_uncapped=True"] > 0
    assert drawn["heads_up_uncapped=False"] > 0
    assert drawn["explicit_ante"] > 0
    assert report["invariants"]["a_lone_player_is_asked_only_when_he_owes"]["checked"] > 0


def test_drawn_settings_give_explicit_antes_and_bring_ins_below_the_small_bet() -> None:
    rng = Random(3)
    drawn = [draw_settings(rng) for _ in range(500)]
    assert any(s.ante * 5 != s.small_bet for s in drawn)
    assert any(s.bring_in * 2 != s.small_bet for s in drawn)
    assert all(s.bring_in < s.small_bet for s in drawn)
    assert {s.high_hand_tie for s in drawn} == {"position", "suit"}
    assert {s.heads_up_uncapped for s in drawn} == {True, False}


@pytest.mark.slow
@pytest.mark.timeout(1800)  # ≈ 4.5 min of one core; a busy shared machine stretches it
def test_a_soak_of_random_settings_keeps_every_invariant() -> None:
    report = simulate(SOAK_HANDS, 8, "random", Random(2026), random_settings=True)

    assert report["hands"] == SOAK_HANDS
    assert report["violations"] == []
    assert report["invariants"]["a_returned_pot_is_unraked"]["checked"] > 0
