"""Build a large finished shift on PostgreSQL for the reports benchmark, fast.

Rounds are played once per game through the pure engines (the same command choices as
``simulate_shift``), then written for every table with bulk INSERTs: each table's events are
chained (seq, prev_hash, hash) exactly as the append service does, and each Round row holds
the engine's audit view, so the audit report's verifier replays and checks all of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from random import Random
from typing import Any

from django.db import transaction

from reports.demo.players import play_siete_round, play_stud_hand
from reports.demo.shift import chips_for
from reports.denominations import table_denominations
from reports.models import Slip, SlipSeries
from reports.shifts import ShiftKey
from tables import games
from tables.engine.custody import Closer, DropCounted, Fill, Opener
from tables.engine.custody.codec import encode
from tables.engine.siete import StartRound
from tables.log.chain import ChainedFact, chain_hash, json_ready
from tables.models import Round, Table, TableEvent
from tables.services.floor import table_create

PREFIX = "B-"
SIETE_SETTINGS = {"min_stake": 10, "max_stake": 500, "chip": 5}
STUD_SETTINGS = {"small_bet": 20, "chip": 1, "rake_percent": "5", "rake_cap": 30}
OPENER = 100_000
FILL = 20_000
BUY_INS = 40
PEOPLE = {"dealer": "bench-dealer", "pit": "bench-pit", "cashier": "bench-cashier"}


@dataclass
class PlayedRound:
    events: list[tuple[str, dict[str, Any], str]]
    audit_view: dict[str, Any]
    house_net: int


class MemoryDriver:
    """Drives the pure engine directly, keeping each command's events and source."""

    def __init__(self, game: str, settings: dict[str, Any]) -> None:
        self.binding = games.binding_for(game)
        self.state = self.binding.engine.new_state(self.binding.parse_settings(settings))
        self.events: list[tuple[str, dict[str, Any], str]] = []

    def do(self, command: Any, source: str = "tablet") -> None:
        for event in self.binding.engine.decide(self.state, command):
            self.state = self.binding.engine.evolve(self.state, event)
            self.events.append((event.type, json_ready(dict(event.data)), source))

    def open_round(self) -> None:
        """Only Siete opens a round on its own; a Stud hand starts with its seats' stacks."""
        self.do(StartRound())

    def take_round(self, house_net: int) -> PlayedRound:
        played = PlayedRound(
            self.events, json_ready(self.binding.audit_view(self.state)), house_net
        )
        self.events = []
        return played


def template_rounds(game: str, event_budget: int, seed: int) -> list[PlayedRound]:
    """Rounds of one game, played in sequence from a fresh table, up to ``event_budget``."""
    rng = Random(seed)
    if game == Table.Game.SIETE_Y_MEDIO:
        driver = MemoryDriver(game, SIETE_SETTINGS)
    else:
        driver = MemoryDriver(game, STUD_SETTINGS)
    rounds: list[PlayedRound] = []
    stacks = dict.fromkeys(range(1, 6), 1000)
    used = 0
    while used < event_budget:
        if game == Table.Game.SIETE_Y_MEDIO:
            net = play_siete_round(driver, rng, chip=5, min_stake=10)
        else:
            stacks = {seat: max(stack, 400) for seat, stack in stacks.items()}
            stacks = play_stud_hand(driver, rng, stacks)
            net = (driver.state.result or {}).get("rake_total", 0)
        rounds.append(driver.take_round(net))
        used += len(rounds[-1].events) + 1  # and its table.round_closed
    return rounds


def build_floor(key: ShiftKey, *, tables: int, events: int, start: datetime) -> float:
    """Write the shift; returns the seconds it took."""
    began = time.perf_counter()
    budget = events // tables - BUY_INS - 6
    templates = {
        game: template_rounds(game, budget, seed=index)
        for index, game in enumerate((Table.Game.SIETE_Y_MEDIO, Table.Game.SEVEN_CARD_STUD))
    }
    print(f"  templates played in {time.perf_counter() - began:.1f} s", flush=True)
    for index in range(tables):
        game = Table.Game.SIETE_Y_MEDIO if index % 2 == 0 else Table.Game.SEVEN_CARD_STUD
        with transaction.atomic():
            _write_table(index, game, templates[game], key, start + timedelta(seconds=index))
        if index % 10 == 9:
            print(f"  {index + 1} tables written, {time.perf_counter() - began:.0f} s", flush=True)
    SlipSeries.objects.update_or_create(slip_type="fill", defaults={"last_number": tables})
    return time.perf_counter() - began


def _write_table(
    index: int, game: str, rounds: list[PlayedRound], key: ShiftKey, moment: datetime
) -> None:
    settings = SIETE_SETTINGS if game == Table.Game.SIETE_Y_MEDIO else STUD_SETTINGS
    table = table_create(name=f"{PREFIX}{index:03d}", game=game, seat_count=8, settings=settings)
    chain = _Chain(table, moment)
    shift = key.as_payload()
    denominations = table_denominations(table)
    opener = Opener(chips_for(OPENER, denominations), PEOPLE["dealer"], PEOPLE["pit"])
    chain.custody(opener, shift)
    buy_in_total = 0
    for number in range(BUY_INS):
        amount = 100 * (1 + (index + number) % 7)
        buy_in_total += amount
        chain.add("custody.buy_in", {"amount": amount} | shift, None, "tablet")
    fill = Fill(
        index + 1,
        chips_for(FILL, denominations),
        PEOPLE["pit"],
        PEOPLE["cashier"],
        PEOPLE["dealer"],
    )
    fill_event = chain.custody(fill, shift)
    round_rows = _round_rows(table, rounds, chain.seq, moment)
    for row, played in zip(round_rows, rounds, strict=True):
        for event_type, data, source in played.events:
            chain.add(event_type, data, row, source)
        chain.add("table.round_closed", {"round": row.number}, row, "system")
    house_net = (
        sum(played.house_net for played in rounds) if game == Table.Game.SIETE_Y_MEDIO else 0
    )
    tray = OPENER + FILL - buy_in_total + house_net
    chain.custody(Closer(chips_for(tray, denominations), PEOPLE["dealer"], PEOPLE["pit"]), shift)
    chain.custody(DropCounted(buy_in_total, PEOPLE["cashier"]), shift)
    TableEvent.objects.bulk_create(chain.rows, batch_size=5000)
    Table.objects.filter(pk=table.pk).update(
        head_seq=chain.seq, head_hash=chain.head, status=Table.Status.CLOSED
    )
    Slip.objects.create(
        slip_type="fill", number=fill.slip_number, table=table, gaming_day=key.gaming_day,
        shift=key.shift, seq=fill_event, issued_at=moment,
    )  # fmt: skip


def _round_rows(
    table: Table, rounds: list[PlayedRound], first_seq: int, moment: datetime
) -> list[Round]:
    """Round rows with their final audit view and last seq, worked out before the events."""
    rows, seq = [], first_seq
    for number, played in enumerate(rounds, start=1):
        seq += len(played.events) + 1
        rows.append(
            Round(
                table=table, number=number, status=Round.Status.CLOSED, state=played.audit_view,
                last_seq=seq, opened_at=moment, closed_at=moment,
            )
        )  # fmt: skip
    return Round.objects.bulk_create(rows, batch_size=2000)


class _Chain:
    """Appends to one table's chain in memory, as the append service would."""

    def __init__(self, table: Table, moment: datetime) -> None:
        self.table, self.moment = table, moment
        self.seq, self.head = table.head_seq, table.head_hash
        self.rows: list[TableEvent] = []

    def custody(self, fact: Any, shift: dict[str, str]) -> int:
        event_type, payload = encode(fact)
        self.add(event_type, payload | shift, None, "system")
        return self.seq

    def add(
        self, event_type: str, payload: dict[str, Any], round_: Round | None, source: str
    ) -> None:
        self.seq += 1
        fact = ChainedFact(
            table_id=self.table.pk, seq=self.seq, round_number=round_.number if round_ else None,
            type=event_type, payload=payload, schema_version=1, actor_id=None, source=source,
            occurred_at=self.moment, recorded_at=self.moment, idempotency_key=None,
        )  # fmt: skip
        digest = chain_hash(self.head, fact)
        self.rows.append(
            TableEvent(
                table=self.table, round=round_, seq=self.seq, type=event_type, payload=payload,
                source=source, occurred_at=self.moment, recorded_at=self.moment,
                prev_hash=self.head, hash=digest,
            )
        )  # fmt: skip
        self.head = digest
