"""Audit from checkpoints: each verification walks from the last verified head, not seq 1."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tables.models import EngineSnapshot, Table, TableEvent, VerifiedCheckpoint
from tables.services.snapshots import SNAPSHOT_EVERY
from tables.verification import verify_table
from tests.tables.service_play import SIETE_SETTINGS, open_table, play_siete
from tests.tables.test_log_service import tamper

pytestmark = pytest.mark.django_db


@pytest.fixture
def audited_table(pit_boss_paula: User) -> Table:
    """A Siete table whose first shift was played and fully verified."""
    table = open_table("SyM-AUDIT", "siete_y_medio", SIETE_SETTINGS, pit_boss_paula)
    play_siete(table, pit_boss_paula, rounds=8, seed=1)
    first = verify_table(table, checkpoint=True)
    assert first.ok
    assert (first.verified_from_seq, first.events_checked) == (0, first.head_seq)
    return table


def play_a_shift(table: Table, pit_boss: User, seed: int) -> None:
    play_siete(table, pit_boss, rounds=8, seed=seed)
    table.refresh_from_db()


def test_the_next_audit_walks_from_the_last_checkpoint(
    audited_table: Table, pit_boss_paula: User
) -> None:
    checkpoint = VerifiedCheckpoint.objects.get(table=audited_table)
    play_a_shift(audited_table, pit_boss_paula, seed=2)
    result = verify_table(audited_table, from_checkpoint=True, checkpoint=True)
    assert result.ok, result.problems
    assert checkpoint.seq - SNAPSHOT_EVERY <= result.verified_from_seq <= checkpoint.seq
    assert result.events_checked == audited_table.head_seq - result.verified_from_seq
    assert result.snapshots_compared > 0
    assert (result.head_seq, result.head_hash) == (audited_table.head_seq, audited_table.head_hash)
    latest = VerifiedCheckpoint.objects.filter(table=audited_table).latest("seq")
    assert (latest.seq, latest.head_hash) == (result.head_seq, result.head_hash)


def test_an_audit_costs_one_shift_whatever_the_history(
    audited_table: Table, pit_boss_paula: User
) -> None:
    walked = []
    for seed in range(2, 7):
        before = audited_table.head_seq
        play_a_shift(audited_table, pit_boss_paula, seed=seed)
        result = verify_table(audited_table, from_checkpoint=True, checkpoint=True)
        assert result.ok, result.problems
        walked.append(result.events_checked - (audited_table.head_seq - before))
    # Beyond the shift's own events, only the tail after the snapshot before the checkpoint.
    assert all(0 <= extra <= SNAPSHOT_EVERY for extra in walked)


def test_an_edit_after_the_checkpoint_is_found_from_it(
    audited_table: Table, pit_boss_paula: User
) -> None:
    checkpoint = VerifiedCheckpoint.objects.get(table=audited_table)
    play_a_shift(audited_table, pit_boss_paula, seed=2)
    victim = TableEvent.objects.filter(
        table=audited_table, seq__gt=checkpoint.seq, type="wager.placed"
    ).first()
    assert victim is not None
    tamper(victim, '{"box": 1, "amount": 4000}')
    result = verify_table(audited_table, from_checkpoint=True, checkpoint=True)
    assert result.problems[0] == (
        f"table SyM-AUDIT seq {victim.seq}: the content does not match its hash (edited)"
    )
    assert VerifiedCheckpoint.objects.filter(table=audited_table).count() == 1


def test_an_edit_before_the_checkpoint_takes_the_full_walk(
    audited_table: Table, pit_boss_paula: User
) -> None:
    play_a_shift(audited_table, pit_boss_paula, seed=2)
    victim = TableEvent.objects.get(table=audited_table, seq=3)
    tamper(victim, '{"forged": true}')
    assert verify_table(audited_table, from_checkpoint=True).ok  # trusted, as designed
    call_command("verify_log", "--table", "SyM-AUDIT")
    with pytest.raises(Exception, match="SyM-AUDIT seq 3: the content does not match"):
        call_command("verify_log", "--table", "SyM-AUDIT", "--full")


def test_a_forged_snapshot_is_found_by_the_audit_that_passes_it(
    audited_table: Table, pit_boss_paula: User
) -> None:
    checkpoint = VerifiedCheckpoint.objects.get(table=audited_table)
    play_a_shift(audited_table, pit_boss_paula, seed=2)
    forged = EngineSnapshot.objects.filter(table=audited_table, seq__gt=checkpoint.seq).first()
    assert forged is not None
    state = dict(forged.state)
    state["rounds_opened"] = 999
    EngineSnapshot.objects.filter(pk=forged.pk).update(state=state)
    result = verify_table(audited_table, from_checkpoint=True)
    assert result.problems == [
        f"table SyM-AUDIT seq {forged.seq}: the stored snapshot differs from the replay"
    ]
    assert not verify_table(audited_table).ok


def test_a_checkpoint_the_log_no_longer_holds_is_not_trusted(
    audited_table: Table, pit_boss_paula: User
) -> None:
    VerifiedCheckpoint.objects.filter(table=audited_table).update(head_hash="e" * 64)
    play_a_shift(audited_table, pit_boss_paula, seed=2)
    result = verify_table(audited_table, from_checkpoint=True)
    assert result.ok
    assert (result.verified_from_seq, result.events_checked) == (0, audited_table.head_seq)


def test_verify_log_says_where_each_walk_began(
    audited_table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("verify_log", "--table", "SyM-AUDIT", "--full")
    assert "events checked after seq 0," in capsys.readouterr().out
    call_command("verify_log", "--table", "SyM-AUDIT")
    assert "events checked after seq 0," not in capsys.readouterr().out
