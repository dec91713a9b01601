"""A table's custody replayed from its log, shift by shift, through the pure fold: what the
verifier checks and what the rebuild projects from, as the live services did.

Each custody event is decoded by the one codec and folded into the state of the shift its
payload names; a fact the rules refuse is a `CustodyRefusedError` naming its seq. Walking from a
checkpoint, a shift's facts from before it are folded from the log first (the checkpoint
vouches for them), so a shift is always judged whole; a shift whose state the checkpoint kept
starts from that state instead (the same fold of the same facts, done by the walk before).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from reports.models import Slip
from reports.shifts import ShiftKey
from tables.engine.custody import codec
from tables.engine.custody.state import CustodyState, SlipStatus, fold, slip_statuses
from tables.engine.custody.state_codec import OpenShifts
from tables.engine.errors import RuleError
from tables.models import Table
from tables.services.custody.log import custody_events, empty_state, ledger_from_events


class CustodyRefusedError(Exception):
    """A custody event of the log that the custody rules refuse (or cannot read)."""

    def __init__(self, table: Table, seq: int, error: RuleError) -> None:
        super().__init__(
            f"table {table.name} seq {seq}: the custody rules refuse it "
            f"({error.code}: {error.message})"
        )
        self.seq, self.code = seq, error.code


class CustodyReplay:
    def __init__(
        self,
        table: Table,
        *,
        after_seq: int = 0,
        kept: OpenShifts | None = None,
    ) -> None:
        self.table, self.after_seq = table, after_seq
        self.empty = empty_state(table)
        self.kept: Mapping[codec.ShiftId, tuple[int, CustodyState]] = kept.shifts if kept else {}
        self.opener_seq = kept.opener_seq if kept else 0
        # The shifts this walk folded (those a checkpoint kept but the walk did not touch
        # are not compared again), and the seq of each one's latest fact.
        self.states: dict[codec.ShiftId, CustodyState] = {}
        self.last_seqs: dict[codec.ShiftId, int] = {}
        self.refused = False

    def fold(self, seq: int, event_type: str, payload: Any) -> CustodyState:
        """The state of the event's shift after it; `CustodyRefusedError` when the rules
        refuse it (the replay then stops being a reference: `refused` says so)."""
        try:
            fact = codec.decode(event_type, payload)
            shift = codec.shift_id(payload)
            state = self.states.get(shift)
            if state is None:
                state = self._before_the_walk(shift)
            state = self.states[shift] = fold(state, fact)
            self.last_seqs[shift] = seq
            if event_type == codec.OPENER:
                self.opener_seq = seq
        except RuleError as error:
            self.refused = True
            raise CustodyRefusedError(self.table, seq, error) from None
        return state

    def _before_the_walk(self, shift: codec.ShiftId) -> CustodyState:
        if not self.after_seq:
            return self.empty
        if shift in self.kept:
            return self.kept[shift][1]
        key = ShiftKey(date.fromisoformat(shift[0]), shift[1])
        earlier = [row for row in custody_events(self.table, key) if row.seq <= self.after_seq]
        return ledger_from_events(self.table, earlier)

    def open_shifts(self) -> OpenShifts:
        """The shifts with a fact since the latest opener, for a checkpoint here: the same
        whether the walk began at seq 1 or at the previous checkpoint."""
        shifts = {
            **self.kept,
            **{key: (self.last_seqs[key], self.states[key]) for key in self.states},
        }
        return OpenShifts(
            self.opener_seq,
            {key: kept for key, kept in shifts.items() if kept[0] >= self.opener_seq},
        )

    def slip_problems(self) -> list[str]:
        """The `Slip` rows of the shifts replayed against the fold: every slip the fold knows
        has its row at the same step and void mark, and no row stands for a slip it does not."""
        folded: dict[tuple[str, str, str, int], SlipStatus] = {
            (*shift, slip_type, number): status
            for shift, state in self.states.items()
            for (slip_type, number), status in slip_statuses(state).items()
        }
        # The replayed shifts' rows only (one shift, two at most: one probe each of the
        # (table, gaming day, shift) index); the table's every slip would grow with its age.
        rows = [
            row
            for day, shift in self.states
            for row in Slip.objects.filter(
                table=self.table, gaming_day=date.fromisoformat(day), shift=shift
            ).values_list("gaming_day", "shift", "slip_type", "number", "stage", "voided")
        ]
        stored = {
            (day.isoformat(), shift, slip_type, number): SlipStatus(stage, voided)
            for day, shift, slip_type, number, stage, voided in rows
        }
        problems = []
        for key in sorted(folded.keys() | stored.keys()):
            if folded.get(key) != stored.get(key):
                day, shift, slip_type, number = key
                problems.append(
                    f"table {self.table.name} {slip_type} slip {number} ({day} {shift}): "
                    f"the replayed custody ({_said(folded.get(key))}) differs from its "
                    f"projection ({_said(stored.get(key))})"
                )
        return problems


def _said(status: SlipStatus | None) -> str:
    if status is None:
        return "no such slip"
    return status.stage + (", void" if status.voided else "")
