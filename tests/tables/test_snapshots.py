"""Engine state from stored snapshots: snapshot + tail equals the replay from seq 1, always."""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Max

from tables.engine.errors import RuleError
from tables.engine.game import Event
from tables.engine.siete.commands import Stand
from tables.games import binding_for
from tables.models import EngineSnapshot, Table, TableEvent
from tables.services import engine_state
from tables.services.commands import table_command
from tables.services.event_types import is_engine_event
from tables.services.snapshots import SNAPSHOT_EVERY, latest_stored_state
from tests.tables.service_play import (
    SIETE_SETTINGS,
    STUD_SETTINGS,
    open_table,
    play_siete,
    play_stud,
)

pytestmark = pytest.mark.django_db


def states_after_every_event(table: Table) -> dict[int, Any]:
    """The reference: the state after each seq, folded once from seq 1."""
    engine = binding_for(table.game).engine
    state = engine_state.initial_state(table)
    states = {}
    for seq, kind, payload in (
        TableEvent.objects.filter(table=table).order_by("seq").values_list("seq", "type", "payload")
    ):
        if is_engine_event(kind):
            state = engine.evolve(state, Event(kind, payload))
        states[seq] = state
    return states


def assert_snapshot_and_tail_equal_full_replay(table: Table) -> None:
    table.refresh_from_db()
    reference = states_after_every_event(table)
    assert len(reference) == table.head_seq
    from_snapshots = 0
    for seq, expected in reference.items():
        found, stored_seq = engine_state.stored_state(table, up_to_seq=seq)
        assert found == expected, f"seq {seq} (snapshot at {stored_seq})"
        from_snapshots += stored_seq > 0
    assert from_snapshots > 0.9 * len(reference)  # the tail alone is the exception
    engine_state.forget(table.pk)  # a fresh process
    assert engine_state.current_state(table) == reference[table.head_seq]
    assert engine_state.replay_table(table) == reference[table.head_seq]


def assert_every_snapshot_is_the_replayed_state(table: Table) -> None:
    codec = binding_for(table.game).state_codec
    assert codec is not None
    reference = states_after_every_event(table)
    hashes = dict(TableEvent.objects.filter(table=table).values_list("seq", "hash"))
    snapshots = EngineSnapshot.objects.filter(table=table).order_by("seq")
    assert snapshots.exists()
    for snapshot in snapshots:
        assert snapshot.head_hash == hashes[snapshot.seq]
        assert snapshot.codec_version == codec.version
        assert codec.decode(snapshot.state) == reference[snapshot.seq]


def assert_tails_are_bounded(table: Table) -> None:
    """What a command costs: the events after the latest snapshot, never the whole log."""
    seqs = list(EngineSnapshot.objects.filter(table=table).order_by("seq").values_list("seq"))
    gaps = [later[0] - earlier[0] for earlier, later in pairwise(seqs)]
    longest_command = 8  # a Stud action that closes a street, deals and burns stays well under
    assert max(gaps) <= SNAPSHOT_EVERY + longest_command


@pytest.fixture
def pit_boss(pit_boss_paula: User) -> User:
    return pit_boss_paula


def test_siete_snapshot_plus_tail_equals_full_replay_at_every_event(pit_boss: User) -> None:
    table = open_table("SyM-SNAP", "siete_y_medio", SIETE_SETTINGS, pit_boss)
    play_siete(table, pit_boss, rounds=40)
    assert Table.objects.get(pk=table.pk).head_seq > 600
    assert_snapshot_and_tail_equal_full_replay(table)
    assert_every_snapshot_is_the_replayed_state(table)
    assert_tails_are_bounded(table)


def test_stud_snapshot_plus_tail_equals_full_replay_at_every_event(pit_boss: User) -> None:
    table = open_table("STUD-SNAP", "seven_card_stud", STUD_SETTINGS, pit_boss)
    tally = play_stud(table, pit_boss, hands=25)
    assert tally.violations == []
    assert Table.objects.get(pk=table.pk).head_seq > 600
    assert_snapshot_and_tail_equal_full_replay(table)
    assert_every_snapshot_is_the_replayed_state(table)
    assert_tails_are_bounded(table)


def test_the_stored_form_survives_json_exactly(pit_boss: User) -> None:
    table = open_table("STUD-JSON", "seven_card_stud", STUD_SETTINGS, pit_boss)
    play_stud(table, pit_boss, hands=3)
    codec = binding_for(table.game).state_codec
    assert codec is not None
    for state in states_after_every_event(table).values():
        text = json.dumps(codec.encode(state), sort_keys=True)
        assert codec.decode(json.loads(text)) == state
        assert json.dumps(codec.encode(codec.decode(json.loads(text))), sort_keys=True) == text


def test_a_snapshot_the_log_no_longer_vouches_for_is_not_used(pit_boss: User) -> None:
    table = open_table("SyM-FORGED", "siete_y_medio", SIETE_SETTINGS, pit_boss)
    play_siete(table, pit_boss, rounds=3)
    table.refresh_from_db()
    latest = EngineSnapshot.objects.filter(table=table).order_by("-seq").first()
    assert latest is not None
    fresh_start = engine_state.initial_state(table)
    codec = binding_for(table.game).state_codec
    assert codec is not None
    # A later snapshot of a wrong state, at a seq whose hash it does not carry.
    EngineSnapshot.objects.create(
        table=table, seq=table.head_seq, head_hash="f" * 64, codec_version=codec.version,
        state=codec.encode(fresh_start), taken_at=latest.taken_at,
    )  # fmt: skip
    # And one in a codec version this engine does not speak, at the right hash.
    EngineSnapshot.objects.filter(pk=latest.pk).update(codec_version="0-retired")
    engine_state.forget(table.pk)
    stored = latest_stored_state(table)
    assert stored is None or stored.seq < latest.seq
    assert engine_state.current_state(table) == engine_state.replay_table(table)


def test_a_refused_command_stores_no_snapshot(pit_boss: User) -> None:
    table = open_table("SyM-REFUSED", "siete_y_medio", SIETE_SETTINGS, pit_boss)
    play_siete(table, pit_boss, rounds=2)
    before = EngineSnapshot.objects.filter(table=table).aggregate(last=Max("seq"))["last"]
    with pytest.raises(RuleError):
        table_command(table_id=table.pk, command=Stand(6), actor=pit_boss, source="tablet")
    after = EngineSnapshot.objects.filter(table=table).aggregate(last=Max("seq"))["last"]
    assert after == before
