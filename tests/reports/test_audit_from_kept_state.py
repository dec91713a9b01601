"""The shift's audit starts at the previous shift's end, from the state its checkpoint kept:
it finds what a full verification from seq 1 finds, walks and reads only the shift's own
events, refuses a kept state altered in the database, and an older checkpoint without one
still works (from the snapshot before it, as before)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from reports.demo.shift import Staff
from reports.inputs.audit import AuditFindings, findings_to_json, table_findings
from reports.inputs.rounds import shift_window
from reports.shifts import ShiftKey
from tables.games import binding_for
from tables.models import Table, VerifiedCheckpoint
from tables.services.engine_state import initial_state
from tests.reports.audit_history import history_tables, play_audited_shifts, shift_keys
from tests.reports.test_audit_reads_its_shift import log_reads

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="rows read are PostgreSQL's"),
]
SHIFTS = 4
ROUNDS = 3


@pytest.fixture
def played(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> tuple[list[Table], list[ShiftKey]]:
    """SHIFTS shifts on a table of each game, each audited: from the second on, each audit
    started from the state the one before kept."""
    staff = Staff(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)
    tables, keys = history_tables("Kept"), shift_keys(SHIFTS)
    play_audited_shifts(tables, keys, rounds=ROUNDS, staff=staff)
    return tables, keys


def previous_checkpoint(table: Table, key: ShiftKey) -> VerifiedCheckpoint:
    window = shift_window(table, key)
    assert window is not None
    return VerifiedCheckpoint.objects.filter(table=table, seq__lt=window[0]).latest("seq")


def comparable(findings: AuditFindings) -> dict[str, Any]:
    """The findings but for how much was walked to reach them."""
    data = findings_to_json(findings)
    del data["rounds_replayed"]
    for check in data["chain"]:
        del check["events_checked"]
    return data


def test_an_audit_from_a_kept_state_finds_what_a_full_verification_finds(
    played: tuple[list[Table], list[ShiftKey]],
) -> None:
    tables, keys = played
    for table in tables:
        from_kept: dict[ShiftKey, tuple[dict[str, Any], Any]] = {}
        for key in keys[1:]:
            start = previous_checkpoint(table, key)
            assert start.state is not None
            findings = table_findings(table, key)
            check = findings.chain[0]
            assert check.verified, check.detail
            assert check.head_seq - check.events_checked == start.seq  # walked from its end
            window = shift_window(table, key)
            assert window is not None
            kept = VerifiedCheckpoint.objects.get(table=table, seq=window[1])
            from_kept[key] = (comparable(findings), (kept.state, kept.state_digest))
        for key in keys[1:]:
            VerifiedCheckpoint.objects.filter(table=table).delete()
            findings = table_findings(table, key)
            assert findings.chain[0].head_seq == findings.chain[0].events_checked  # from seq 1
            window = shift_window(table, key)
            assert window is not None
            full = VerifiedCheckpoint.objects.get(table=table, seq=window[1])
            # The same findings, and the same engine and custody state kept at the shift's end.
            assert from_kept[key] == (comparable(findings), (full.state, full.state_digest)), (
                table.game,
                str(key),
            )


def previous_shift_reads(reads: list[tuple[int, str]], key: ShiftKey) -> list[str]:
    """The statements that select the custody facts of the shift `key` by its payload."""
    day, shift = f"'\"{key.gaming_day.isoformat()}\"'", f"'\"{key.shift}\"'"
    return [sql for _, sql in reads if day in sql and shift in sql]


def test_the_audit_from_a_kept_state_reads_only_the_shifts_events(
    played: tuple[list[Table], list[ShiftKey]],
) -> None:
    tables, keys = played
    last, before = keys[-1], keys[-2]
    for table in tables:
        start = previous_checkpoint(table, last)
        with log_reads() as reads:
            check = table_findings(table, last).chain[0]
        assert check.verified, check.detail
        after = table.head_seq - start.seq
        assert check.events_checked == after  # the walk: nothing before the checkpoint
        # No statement reads more of the log than the events after the checkpoint.
        assert max(read for read, _ in reads) <= after, [read for read, _ in reads]
        # The previous shift's custody came from the kept state: none of its facts was read.
        assert previous_shift_reads(reads, before) == []
        # Without it (an older checkpoint) they are, and the walk starts before the checkpoint.
        VerifiedCheckpoint.objects.filter(pk=start.pk).update(state=None, state_digest="")
        with log_reads() as reads:
            check = table_findings(table, last).chain[0]
        assert check.verified, check.detail
        assert check.head_seq - check.events_checked < start.seq
        assert previous_shift_reads(reads, before)


def test_a_kept_state_altered_is_refused(played: tuple[list[Table], list[ShiftKey]]) -> None:
    tables, keys = played
    for table in tables:
        start = previous_checkpoint(table, keys[-1])
        assert isinstance(start.state, dict)
        forged = dict(start.state)
        codec = binding_for(table.game).state_codec
        assert codec is not None
        forged["engine"] = codec.encode(initial_state(table))  # a plausible state, not the one
        VerifiedCheckpoint.objects.filter(pk=start.pk).update(state=forged)
        check = table_findings(table, keys[-1]).chain[0]
        assert not check.verified
        assert check.first_bad_seq == start.seq
        assert check.detail == (
            f"table {table.name} seq {start.seq}: the checkpoint's kept state does not match "
            "its digest (altered); walked from the snapshot before it instead"
        )
        # The rest was still verified, from the snapshot before the checkpoint.
        assert check.head_seq - check.events_checked < start.seq


def test_an_old_checkpoint_without_a_kept_state_still_starts_the_audit(
    played: tuple[list[Table], list[ShiftKey]],
) -> None:
    tables, keys = played
    for table in tables:
        VerifiedCheckpoint.objects.filter(table=table).update(state=None, state_digest="")
        start = previous_checkpoint(table, keys[-1])
        check = table_findings(table, keys[-1]).chain[0]
        assert check.verified, check.detail
        walked_from = check.head_seq - check.events_checked
        assert 0 < walked_from <= start.seq  # the snapshot at or before it, not seq 1
        # The shift's end, verified again, gets the state kept: the next audit starts there.
        window = shift_window(table, keys[-1])
        assert window is not None
        end = VerifiedCheckpoint.objects.get(table=table, seq=window[1])
        assert end.state is not None
        assert end.state_digest
