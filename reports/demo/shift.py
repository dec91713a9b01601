"""A whole shift on a few tables, through the services, then its reports.

Per table: the dealer takes the table; an opener counted by the dealer and a pit boss; buy-ins;
rounds of the table's game; fills when the tray runs low and credits when it runs high, each
requested by the pit, issued or received by the cashier and confirmed by the dealer; a closer
that is exactly what the tray must hold; then the count team's drop. Then the cage enters its
own totals of fills and credits, the dealer goes back to the table they came from, and the
shift's report set is built.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from random import Random

from django.contrib.auth.models import User

from reports.builders.period import PERIOD_KINDS
from reports.demo.players import TableDriver, play_siete_round, play_stud_hand
from reports.denominations import table_denominations
from reports.models import Report
from reports.services.documents import PERIOD_SHIFT
from reports.services.storing import produce_report
from reports.shifts import ShiftKey, floor_clock
from tables.engine.custody.codec import CLOSER
from tables.engine.errors import NotAllowedNowError
from tables.models import DealerAssignment, Table, TableEvent
from tables.services import custody
from tables.services.custody import cage, slips
from tables.services.custody.log import custody_events, last_opener_event
from tables.services.floor import dealer_assign, table_create

OPENER_AMOUNT = 5000
LOW_TRAY, HIGH_TRAY, SLIP_AMOUNT = 1500, 9000, 2000
STUD_BUY_IN, STUD_PLAYERS = 400, 5
SIETE_SETTINGS = {"min_stake": 10, "max_stake": 500, "chip": 5}
STUD_SETTINGS = {"small_bet": 20, "chip": 1, "rake_percent": "5", "rake_cap": 30}


@dataclass(frozen=True)
class Staff:
    dealer: User
    pit_boss: User
    other_pit_boss: User
    cashier: User


@dataclass
class TablePlay:
    """What one table did, by the simulator's own arithmetic, to check the reports against."""

    table: str
    rounds: int = 0
    house_net: int = 0
    buy_ins: int = 0
    fills: int = 0
    credits: int = 0
    tray: int = OPENER_AMOUNT  # chips in the tray by slips and buy-ins, before the rounds
    slips: list[int] = field(default_factory=list)


def simulation_tables(count: int) -> list[Table]:
    """The floor's first ``count`` tables that are not open for a shift now (their session
    stays theirs), adding Siete y Medio and Stud tables as needed."""
    tables = [table for table in Table.objects.order_by("name") if not in_session(table)][:count]
    number = 1
    while len(tables) < count:
        name = f"Sim-{number:02d}"
        number += 1
        if Table.objects.filter(name=name).exists():
            continue
        siete = len(tables) % 2 == 0
        tables.append(
            table_create(
                name=name,
                game=Table.Game.SIETE_Y_MEDIO if siete else Table.Game.SEVEN_CARD_STUD,
                seat_count=6 if siete else 8,
                settings=SIETE_SETTINGS if siete else STUD_SETTINGS,
            )
        )
    return tables


def in_session(table: Table) -> bool:
    """The table's latest opener has no closer after it: its shift is being played."""
    opener = last_opener_event(table)
    if opener is None:
        return False
    return not TableEvent.objects.filter(table=table, type=CLOSER, seq__gt=opener.seq).exists()


def free_shift(tables: list[Table], now: datetime, *, look_back: int = 90) -> ShiftKey:
    """The latest ended shift that none of ``tables`` has custody in, so that a second run
    plays the shift before the first one instead of opening a table twice."""
    clock = floor_clock()
    key = clock.last_ended(now)
    for _ in range(look_back):
        if not any(custody_events(table, key) for table in tables):
            return key
        start, _ = clock.bounds(key)
        key = clock.last_ended(start)
    raise NotAllowedNowError(
        f"Every one of the last {look_back} shifts was already played on these tables.",
        code="no_free_shift",
    )


def simulate_shift(
    tables: list[Table],
    *,
    rounds: int,
    seed: int,
    staff: Staff,
    key: ShiftKey | None = None,
    run_reports: bool = True,
) -> tuple[ShiftKey, list[TablePlay]]:
    """Play the shift ``key`` (by default the latest ended one still free) on ``tables``."""
    clock = floor_clock()
    key = key or free_shift(tables, datetime.now().astimezone())
    start, end = clock.bounds(key)
    rng = Random(seed)
    home = _current_table(staff.dealer)
    plays = []
    for index, table in enumerate(tables):
        moment = start + (end - start) * (index + 1) / (len(tables) + 2)
        plays.append(_play_table(table, rounds, rng, staff, moment))
    if home is not None and _current_table(staff.dealer) != home:
        dealer_assign(table_id=home, dealer=staff.dealer, by=staff.pit_boss)
    cage.cage_figures_enter(
        key=key,
        fills_issued=sum(play.fills for play in plays),
        credits_received=sum(play.credits for play in plays),
        cashier=staff.cashier,
        reason="" if cage.latest_cage_figures(key) is None else "the shift was played again",
    )
    if run_reports:
        shift_reports(key)
    return key, plays


def shift_reports(key: ShiftKey) -> list[Report]:
    """The shift's report set and its gaming day's, month's and year's totals, in process
    (the beat and the API queue the same work)."""
    period = ShiftKey(key.gaming_day, PERIOD_SHIFT)
    return [
        produce_report(Report.Kind.FLOOR_SUMMARY, key),
        produce_report(Report.Kind.CASHIER, key),
        produce_report(Report.Kind.AUDIT, key),
        *(produce_report(kind, period) for kind in PERIOD_KINDS),
    ]


def _play_table(
    table: Table, rounds: int, rng: Random, staff: Staff, moment: datetime
) -> TablePlay:
    play = TablePlay(table=table.name)
    denominations = table_denominations(table)
    # The table's own dealer deals and confirms its slips; a table without one borrows ours.
    own_dealer = _table_dealer(table)
    if own_dealer is not None:
        staff = replace(staff, dealer=own_dealer)
    elif _current_table(staff.dealer) != table.pk:
        dealer_assign(table_id=table.pk, dealer=staff.dealer, by=staff.pit_boss)
    custody.custody_open(
        table_id=table.pk,
        pit_boss=staff.pit_boss,
        chips=chips_for(OPENER_AMOUNT, denominations),
        occurred_at=moment,
    )
    custody.count_confirm(table_id=table.pk, dealer=staff.dealer, closing=False, occurred_at=moment)
    # The pit tops the tray up at the start and sends the surplus back before the count.
    _slip(table, staff, play, "fill")
    driver = TableDriver(table.pk, staff.dealer, moment)
    if table.game == Table.Game.SEVEN_CARD_STUD:
        _play_stud(table, driver, rounds, rng, staff, play)
    else:
        _play_siete(table, driver, rounds, rng, staff, play)
    if _on_tray(table, play) >= OPENER_AMOUNT + SLIP_AMOUNT:
        _slip(table, staff, play, "credit")
    custody.custody_close(
        table_id=table.pk,
        pit_boss=staff.pit_boss,
        chips=chips_for(_on_tray(table, play), denominations),
        occurred_at=moment,
    )
    custody.count_confirm(table_id=table.pk, dealer=staff.dealer, closing=True, occurred_at=moment)
    custody.drop_count(table_id=table.pk, amount=play.buy_ins, counted_by=staff.cashier)
    return play


def _table_dealer(table: Table) -> User | None:
    spell = DealerAssignment.objects.filter(table=table, ended_at__isnull=True).first()
    return spell.dealer if spell is not None else None


def _current_table(dealer: User) -> int | None:
    spell = DealerAssignment.objects.filter(dealer=dealer, ended_at__isnull=True).first()
    return spell.table_id if spell is not None else None


def _on_tray(table: Table, play: TablePlay) -> int:
    """A Siete tray also holds the house net of the rounds; a Stud rake goes to the drop."""
    house_banked = table.game == Table.Game.SIETE_Y_MEDIO
    return play.tray + (play.house_net if house_banked else 0)


def _play_siete(
    table: Table, driver: TableDriver, rounds: int, rng: Random, staff: Staff, play: TablePlay
) -> None:
    chip, min_stake = int(table.settings["chip"]), int(table.settings["min_stake"])
    for _ in range(rounds):
        if rng.random() < 0.3:
            _buy_in(table, staff, play, chip * rng.randint(10, 60))
        _balance_tray(table, staff, play)
        play.house_net += play_siete_round(driver, rng, chip=chip, min_stake=min_stake)
        play.rounds += 1


def _play_stud(
    table: Table, driver: TableDriver, rounds: int, rng: Random, staff: Staff, play: TablePlay
) -> None:
    """The rake goes to the drop box, so the tray only changes with buy-ins and slips."""
    stacks = dict.fromkeys(range(1, STUD_PLAYERS + 1), 0)
    for _ in range(rounds):
        for seat, stack in stacks.items():
            if stack < 2 * int(table.settings["small_bet"]):
                _buy_in(table, staff, play, STUD_BUY_IN)
                stacks[seat] = stack + STUD_BUY_IN
        _balance_tray(table, staff, play)
        stacks = play_stud_hand(driver, rng, stacks)
        play.house_net += (driver.state.result or {}).get("rake_total", 0)
        play.rounds += 1


def _buy_in(table: Table, staff: Staff, play: TablePlay, amount: int) -> None:
    """Cash into the drop box, chips out of the tray."""
    custody.buy_in_record(table_id=table.pk, amount=amount, actor=staff.dealer)
    play.buy_ins += amount
    play.tray -= amount


def _balance_tray(table: Table, staff: Staff, play: TablePlay) -> None:
    on_tray = _on_tray(table, play)
    if on_tray < LOW_TRAY:
        _slip(table, staff, play, "fill")
    elif on_tray > HIGH_TRAY:
        _slip(table, staff, play, "credit")


def _slip(table: Table, staff: Staff, play: TablePlay, slip_type: str) -> None:
    """The pit requests, the cage issues (fill) or receives (credit), the dealer confirms."""
    requested = slips.slip_request(
        slip_type=slip_type,
        table_id=table.pk,
        amounts=amounts_for(SLIP_AMOUNT, table_denominations(table)),
        pit_boss=staff.pit_boss,
    )
    number = requested.payload["slip_number"]
    slips.slip_cage_sign(slip_type=slip_type, slip_number=number, cashier=staff.cashier)
    slips.slip_confirm(slip_type=slip_type, slip_number=number, dealer=staff.dealer)
    play.slips.append(number)
    if slip_type == "fill":
        play.fills += SLIP_AMOUNT
        play.tray += SLIP_AMOUNT
    else:
        play.credits += SLIP_AMOUNT
        play.tray -= SLIP_AMOUNT


def chips_for(amount: int, denominations: tuple[int, ...]) -> dict[str, int]:
    """The fewest chips making up ``amount`` (largest denomination first)."""
    if amount < 0:
        raise ValueError(f"a tray cannot hold a negative amount ({amount})")
    chips = {}
    for value in sorted(denominations, reverse=True):
        count, amount = divmod(amount, value)
        if count:
            chips[str(value)] = count
    if amount:
        raise ValueError(f"{amount} cannot be made of the chips {denominations}")
    return chips


def amounts_for(amount: int, denominations: tuple[int, ...]) -> dict[str, int]:
    return {value: count * int(value) for value, count in chips_for(amount, denominations).items()}
