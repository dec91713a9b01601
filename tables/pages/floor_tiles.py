"""The pit boss's tiles: every table at a glance, read-only.

A tile's shift figures change only when the table's log grows, so they are cached under the
table's head hash: an idle table costs one cache read, and a push for one table makes only that
tile's figures be read again.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from devices.models import DeviceBinding, MisreadHold
from reports.figures import band_document, hold_percent, quantise, summarise_rounds, table_win
from reports.inputs.table_shift import table_shift_inputs
from reports.inputs.variance import table_shift_band
from tables import games
from tables.engine.custody import CustodyState, chips_total
from tables.models import DealerAssignment, Round, Table
from tables.pages import labels
from tables.services import engine_state
from tables.services.custody import session_shift

CLOSED = "closed"
OPEN = "open"
IN_ROUND = "in_round"
HELD = "held"
SHOE_OFFLINE = "shoe_offline"
TILE_CACHE_SECONDS = 15 * 60


@dataclass(frozen=True)
class ShiftSoFar:
    """The shift so far: drop is the buy-ins until the count team's figure is in, and win is
    the rounds' result until the table is closed and counted."""

    gaming_day: str
    shift: str
    drop: int
    drop_estimated: bool
    win: int | None  # None at a game the house only rakes: its revenue is the rake
    win_from_rounds: bool
    rake: int | None
    hold_percent: Decimal | None
    handle: int
    theoretical_win: Decimal | None
    band: dict[str, Any]


@dataclass(frozen=True)
class FloorTile:
    table_id: int
    # The log's head the tile was drawn at: the page keeps the newest of a pushed and a
    # fetched tile.
    seq: int
    name: str
    game: str
    game_label: str
    limits: tuple[tuple[str, Any], ...]
    dealer: str | None
    status: str
    round_number: int | None
    round_phase: str | None
    hands_this_hour: int
    shift: ShiftSoFar | None

    @property
    def round_phase_label(self) -> str:
        return labels.word(labels.PHASE_LABELS, self.round_phase) if self.round_phase else ""

    @property
    def band_flag(self) -> str | None:
        return self.shift.band.get("flag") if self.shift else None


def floor_tiles(
    now: datetime | None = None, table_ids: Collection[int] | None = None
) -> list[FloorTile]:
    """Every table (or only `table_ids`), in name order."""
    return tiles_for(at_a_glance(now, table_ids=table_ids))


def floor_tile(table: Table, now: datetime | None = None) -> FloorTile:
    (glance,) = at_a_glance(now, table_ids=(table.pk,))
    return tiles_for([glance])[0]


@dataclass(frozen=True)
class TableAtGlance:
    """A table's row and what the floor shows of it from outside its log (dealer, hands this
    hour, a misread hold, the shoe offline): read for the whole floor in one query."""

    table: Table
    dealer: str | None
    hands_this_hour: int
    held_by_shoe: bool
    shoe_offline: bool

    @property
    def stamp(self) -> str:
        """Everything a tile shows, up to the log's head: the rest (round, phase, limits in
        force, shift figures) follows from the head hash, so an equal stamp draws an equal tile."""
        table = self.table
        return repr(
            (table.pk, table.head_seq, table.head_hash, table.name, table.game, table.status,
             sorted(table.settings.items()), self.dealer, self.hands_this_hour,
             self.held_by_shoe, self.shoe_offline)
        )  # fmt: skip


def at_a_glance(
    now: datetime | None = None, table_ids: Collection[int] | None = None
) -> list[TableAtGlance]:
    """Every table (or only `table_ids`) in name order, with its dealer, hands this hour, holds
    and offline shoe as subqueries of the one query (not one query per table, nor per kind)."""
    now = now or timezone.now()
    of_table = OuterRef("pk")
    dealer = DealerAssignment.objects.filter(table=of_table, ended_at__isnull=True)
    hands = (
        Round.objects.filter(table=of_table, opened_at__gte=now - timedelta(hours=1))
        .exclude(status=Round.Status.VOIDED)
        .order_by()
        .values("table")
        .annotate(count=Count("id"))
        .values("count")
    )
    held = MisreadHold.objects.filter(table=of_table, resolved_at__isnull=True)
    offline = DeviceBinding.objects.filter(
        table=of_table, ended_at__isnull=True, approved_at__isnull=False, device__online=False
    )
    query = Table.objects.order_by("name").annotate(
        glance_dealer=Subquery(dealer.order_by("-started_at").values("dealer__username")[:1]),
        glance_hands=Coalesce(Subquery(hands), 0),
        glance_held=Exists(held),
        glance_offline=Exists(offline),
    )
    if table_ids is not None:
        query = query.filter(pk__in=list(table_ids))
    return [
        TableAtGlance(
            table=table,
            dealer=table.glance_dealer,
            hands_this_hour=table.glance_hands,
            held_by_shoe=table.glance_held,
            shoe_offline=table.glance_offline,
        )
        for table in query
    ]


def tiles_for(glances: list[TableAtGlance]) -> list[FloorTile]:
    shifts = cached_shifts_so_far([glance.table for glance in glances])
    return [_tile(glance, shifts[glance.table.pk]) for glance in glances]


def _tile(glance: TableAtGlance, shift: ShiftSoFar | None) -> FloorTile:
    table = glance.table
    binding = games.binding_for(table.game)
    state = engine_state.current_state(table)
    live = binding.live_view(state)
    in_round = binding.round_status(state) == games.ROUND_OPEN
    # The limits the engine plays now: a pit boss may have changed them since the table opened.
    in_force = binding.settings_of(state) if binding.settings_of is not None else table.settings
    return FloorTile(
        table_id=table.pk,
        seq=table.head_seq,
        name=table.name,
        game=table.game,
        game_label=table.get_game_display(),
        limits=tuple((key, in_force.get(key)) for key in binding.limit_keys),
        dealer=glance.dealer,
        status=_status(glance, bool(live.get("held")), in_round),
        round_number=live.get("round") if in_round else None,
        round_phase=str(live.get("phase")) if in_round else None,
        hands_this_hour=glance.hands_this_hour,
        shift=shift,
    )


def _status(glance: TableAtGlance, held: bool, in_round: bool) -> str:
    if glance.table.status == Table.Status.CLOSED:
        return CLOSED
    if held or glance.held_by_shoe:
        return HELD
    if glance.shoe_offline:
        return SHOE_OFFLINE
    return IN_ROUND if in_round else OPEN


def cached_shifts_so_far(tables: list[Table]) -> dict[int, ShiftSoFar | None]:
    """Each table's shift so far, from the cache in one round trip where its log has not moved."""
    keys = {table.pk: f"floor:shift:{table.pk}:{table.head_hash}" for table in tables}
    found = cache.get_many(list(keys.values()))
    shifts: dict[int, ShiftSoFar | None] = {}
    missing: dict[str, ShiftSoFar | bool] = {}
    for table in tables:
        cached: ShiftSoFar | bool | None = found.get(keys[table.pk])
        if cached is None:
            cached = shift_so_far(table) or False  # False: no session, cached as well
            missing[keys[table.pk]] = cached
        shifts[table.pk] = cached if isinstance(cached, ShiftSoFar) else None
    if missing:
        cache.set_many(missing, TILE_CACHE_SECONDS)
    return shifts


def shift_so_far(table: Table) -> ShiftSoFar | None:
    """The figures of the table's current session (the shift of its latest opener)."""
    key = session_shift(table, None)
    inputs = table_shift_inputs(table, key)
    ledger = inputs.ledger
    if ledger.opener is None:
        return None
    totals = summarise_rounds(inputs.rounds, payout_classes=games.payout_classes(table.game))
    counted = ledger.drop is not None
    drop = ledger.drop.amount if ledger.drop is not None else ledger.estimated_drop
    counted_win = counted and ledger.closer is not None
    banked = games.binding_for(table.game).unit_risk is not None
    win: int | None = None
    if banked:
        win = _custody_win(ledger) if counted_win else totals.house_net
    band = table_shift_band(table, inputs.rounds, inputs.settled_seqs)
    theoretical = band.theoretical_win
    return ShiftSoFar(
        gaming_day=key.gaming_day.isoformat(),
        shift=key.shift,
        drop=drop,
        drop_estimated=not counted,
        win=win,
        win_from_rounds=not counted_win,
        rake=None if banked else totals.house_net,
        hold_percent=hold_percent(win, drop) if win is not None else None,
        handle=totals.handle,
        theoretical_win=quantise(theoretical) if theoretical is not None else None,
        band=band_document(band),
    )


def _custody_win(ledger: CustodyState) -> int:
    assert ledger.drop is not None
    assert ledger.opener is not None
    assert ledger.closer is not None
    return table_win(
        drop=ledger.drop.amount,
        opener=chips_total(ledger.opener.chips),
        closer=chips_total(ledger.closer.chips),
        fills=ledger.fills_total,
        credits=ledger.credits_total,
    )
