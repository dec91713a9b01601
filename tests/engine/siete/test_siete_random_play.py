"""Random play under the settings a casino may choose: every invariant holds, every option and
every irregular case is met, and no refusal names a hidden card."""

from __future__ import annotations

import os
from random import Random

import pytest

from tables.engine.errors import RuleError
from tables.engine.siete import PlaceWager, RecordCard, RequestDraw, SieteState
from tables.engine.siete.decide import decide_and_evolve
from tables.engine.siete.invariants import RoundChecks, hidden_cards
from tables.engine.siete.random_play import CHOICES, random_settings, simulate_random_play
from tables.engine.siete.simulation import simulate_settings

# The slow tier's figures; larger runs: python manage.py simulate_siete --random-play --rounds N
SOAK_ENGINE_ROUNDS = int(os.environ.get("SIETE_SOAK_ROUNDS", "50000"))
SOAK_RULE_ROUNDS = 1_000_000


def test_random_rounds_keep_every_invariant_and_meet_the_rare_cases() -> None:
    report = simulate_random_play(1500, Random(2))

    assert report["violations"] == []
    assert report["rounds"] == 1500
    checked = report["invariants"]
    for name in ("replay_reproduces_state", "no_card_twice", "chips_conserved",
                 "refusal_names_no_hidden_card", "live_view_shows_no_hidden_card",
                 "bank_face_up_at_settlement"):  # fmt: skip
        assert checked[name]["checked"] > 0, name
    tallies = report["tallies"]
    for seen in ("bust.refused", "card.held", "card.misdrawn", "alert:undeclared_bust",
                 "alert:bank_rule_violation", "refused:card_already_read",
                 "refused:duplicate_card", "voided"):  # fmt: skip
        assert tallies.get(seen, 0) > 0, seen


def test_the_drawn_settings_cover_every_value_of_every_option() -> None:
    rng = Random(4)
    drawn = [random_settings(rng) for _ in range(300)]
    for name, values in CHOICES.items():
        assert {getattr(s, name) for s in drawn} == set(values), name


def test_the_same_seed_plays_the_same_rounds() -> None:
    assert simulate_random_play(150, Random(9)) == simulate_random_play(150, Random(9))


def test_a_refusal_that_named_a_face_down_card_would_be_caught() -> None:
    state = SieteState()
    for command in (PlaceWager(1, 10), RecordCard("6C", source="shoe"), RecordCard("4C")):
        state = decide_and_evolve(state, command)[0]
    assert hidden_cards(state) == {"6C", "4C"}
    checks = RoundChecks()
    checks.refusal(state, RuleError("The shoe read this card as 6C, not 7O.", code="x"))
    checks.refusal(state, RuleError("Box 1 holds 3.", code="x", params={"card": "4C"}))
    assert len(checks.violations) == 2
    state = decide_and_evolve(state, RequestDraw(1))[0]
    with pytest.raises(RuleError) as duplicate:
        decide_and_evolve(state, RecordCard("6c"))
    checks.refusal(state, duplicate.value)
    assert len(checks.violations) == 2


def test_rounds_by_the_rule_functions_under_drawn_settings_pay_exactly() -> None:
    report = simulate_settings(20_000, Random(5))
    assert report["violations"] == []
    assert report["invariants"]["net_is_the_paytable_rounded"]["checked"] > 1000


@pytest.mark.slow
def test_a_million_rounds_by_the_rules_and_a_soak_through_the_engine_keep_every_invariant() -> None:
    by_rules = simulate_settings(SOAK_RULE_ROUNDS, Random(2026))
    assert by_rules["rounds"] == SOAK_RULE_ROUNDS
    assert by_rules["violations"] == []

    through_engine = simulate_random_play(SOAK_ENGINE_ROUNDS, Random(2026))
    assert through_engine["rounds"] == SOAK_ENGINE_ROUNDS
    assert through_engine["violations"] == []
