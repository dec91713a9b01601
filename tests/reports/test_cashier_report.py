import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from report_samples import context, ledger, mesa_1_facts, mesa_3_facts, mesa_4_facts

from reports.builders.cashier import build_cashier_report, slip_sequence
from reports.builders.document import Document
from tables.engine.custody import (
    Closer,
    CustodyFact,
    Opener,
    SlipCageSigned,
    SlipRequested,
    SlipVoided,
)
from tables.engine.custody.cage import CageTotals
from tables.engine.errors import NotAllowedNowError

BLANK_SPOILED = SlipVoided("fill", 1005, "spoiled at the cage", "carla", "cesar")
CAGE = CageTotals(fills_issued=2100, credits_received=700, entered_by="carla")


def mesa_5_facts() -> tuple[CustodyFact, ...]:
    """Slips that never reached the table's confirmation: fill 1004 only requested (100),
    credit 502 received at the cage (200), fill 1006 issued and then voided (50)."""
    return (
        Opener({25: 40}, dealer="dino", pit_boss="pablo"),
        SlipRequested("fill", 1004, {25: 4}, "pablo"),
        SlipRequested("credit", 502, {100: 2}, "pablo"),
        SlipCageSigned("credit", 502, {100: 2}, "carla"),
        SlipRequested("fill", 1006, {25: 2}, "pablo"),
        SlipCageSigned("fill", 1006, {25: 2}, "carla"),
        SlipVoided("fill", 1006, "the table closed its box", "pablo", "mara"),
        Closer({25: 40}, dealer="dino", pit_boss="pablo"),
    )


def cage_report(*, mesa_1_closed: bool = True, allow_provisional: bool = True) -> Document:
    mesa_1 = mesa_1_facts() if mesa_1_closed else mesa_1_facts()[:8]
    return build_cashier_report(
        context=context(),
        ledgers=[
            ledger("T1", *mesa_1),
            ledger("T3", *mesa_3_facts()),
            ledger("T4", *mesa_4_facts()),
            ledger("T5", *mesa_5_facts()),
        ],
        issued={"fill": range(1001, 1007), "credit": range(501, 503)},
        cage_voids=[BLANK_SPOILED],
        cage_figures=CAGE,
        watermark={"T1": 412, "T3": 2, "T4": 30},
        cashier="carla",
        cage_supervisor="cesar",
        allow_provisional=allow_provisional,
    )


def test_fills_and_credits_are_totalled_by_table_and_denomination() -> None:
    report = cage_report()
    assert report["by_table_and_denomination"] == [
        {"slip_type": "credit", "table": "T1", "denomination": 100, "count": 5, "amount": 500},
        {"slip_type": "fill", "table": "T1", "denomination": 25, "count": 20, "amount": 500},
        {"slip_type": "fill", "table": "T1", "denomination": 100, "count": 10, "amount": 1000},
        {"slip_type": "fill", "table": "T4", "denomination": 100, "count": 5, "amount": 500},
    ]
    fills = report["totals"]["fill"]
    assert (fills["slips"], fills["voided"], fills["amount"]) == (2, 3, 2000)
    assert fills["outstanding"] == {"slips": 1, "amount": 100}
    assert report["totals"]["credit"]["outstanding"] == {"slips": 1, "amount": 200}
    assert fills["by_denomination"] == {
        "25": {"count": 20, "amount": 500},
        "100": {"count": 15, "amount": 1500},
    }
    assert report["totals"]["credit"]["amount"] == 500
    assert report["totals"]["net_to_tables"] == 1500


def test_every_slip_is_listed_with_its_status_and_signers() -> None:
    fills = cage_report()["slips"]["fill"]
    assert [(row["slip_number"], row["table"], row["status"]) for row in fills] == [
        (1001, "T1", "used"),
        (1002, "T1", "void"),
        (1003, "T4", "used"),
        (1004, "T5", "requested"),
        (1005, None, "void"),
        (1006, "T5", "void"),
    ]
    assert fills[1]["void_approved_by"] == "mara"
    assert (fills[3]["cashier"], fills[3]["confirmed_by"]) == (None, None)
    assert (fills[5]["stage"], fills[5]["cashier"]) == ("issued", "carla")
    credits = cage_report()["slips"]["credit"]
    assert [(row["slip_number"], row["status"], row["cashier"]) for row in credits] == [
        (501, "used", "carla"),
        (502, "received", "carla"),
    ]
    assert (fills[0]["requested_by"], fills[0]["cashier"], fills[0]["confirmed_by"]) == (
        "pablo",
        "carla",
        "dana",
    )


def test_the_slip_series_shows_used_voided_and_outstanding_numbers() -> None:
    sequence = cage_report()["sequence"]
    assert sequence["fill"] == {
        "issued": [1001, 1002, 1003, 1004, 1005, 1006],
        "used": [1001, 1003],
        "voided": [1002, 1005, 1006],
        "outstanding": [1004],
        "missing": [],
        "not_issued": [],
        "duplicates": [],
        "intact": False,
    }
    assert (sequence["credit"]["outstanding"], sequence["credit"]["missing"]) == ([502], [])


def test_a_number_no_slip_accounts_for_is_missing() -> None:
    report = build_cashier_report(
        context=context(),
        ledgers=[ledger("T1", *mesa_1_facts())],
        issued={"fill": range(1001, 1004), "credit": [501]},
        cage_figures=None,
        watermark={"T1": 412},
    )
    assert report["sequence"]["fill"]["missing"] == [1003]
    assert report["sequence"]["credit"]["intact"] is True


def test_over_short_is_the_cage_figure_less_the_slips_the_cage_signed() -> None:
    report = cage_report()
    assert report["over_short"]["fill"] == {
        "cage": 2100,
        "computed": 2000,
        "awaiting_confirmation": 0,
        "difference": 100,
        "status": "over",
    }
    # Credit 502 reached the cage but not the table's confirmation: the cage balances, and the
    # slip is outstanding in the sequence.
    assert report["over_short"]["credit"] == {
        "cage": 700,
        "computed": 700,
        "awaiting_confirmation": 200,
        "difference": 0,
        "status": "balanced",
    }
    assert report["cage_figures"] == {
        "fills_issued": 2100,
        "credits_received": 700,
        "entered_by": "carla",
        "version": 1,
        "reason": None,
    }


def test_a_short_cage_has_a_negative_difference() -> None:
    report = build_cashier_report(
        context=context(),
        ledgers=[ledger("T4", *mesa_4_facts())],
        issued={"fill": [1003]},
        cage_figures=CageTotals(450, 0, "carla", version=2, reason="miscounted the 100s"),
        watermark={"T4": 30},
    )
    assert report["over_short"]["fill"]["difference"] == -50
    assert report["over_short"]["fill"]["status"] == "short"
    assert report["over_short"]["credit"]["status"] == "balanced"
    assert report["sequence"]["fill"]["intact"] is True
    assert report["cage_figures"]["reason"] == "miscounted the 100s"
    assert report["watermark"] == {"T4": 30, "cage_figures": 2}


def test_without_the_cage_figures_over_short_says_not_entered() -> None:
    report = build_cashier_report(
        context=context(),
        ledgers=[ledger("T4", *mesa_4_facts())],
        issued={"fill": [1003]},
        cage_figures=None,
        watermark={"T4": 30},
    )
    assert report["cage_figures"] is None
    assert report["over_short"]["fill"] == {
        "cage": None,
        "computed": 500,
        "awaiting_confirmation": 0,
        "difference": None,
        "status": "not_entered",
    }
    assert report["watermark"] == {"T4": 30}


def test_the_cashier_report_is_provisional_while_a_table_is_open() -> None:
    report = cage_report(mesa_1_closed=False)
    assert report["provisional_reasons"] == ["table_open:T1"]
    with pytest.raises(NotAllowedNowError):
        cage_report(mesa_1_closed=False, allow_provisional=False)


def test_the_cashier_report_names_who_signs() -> None:
    assert cage_report()["signatures"] == [
        {"role": "cashier", "name": "carla"},
        {"role": "cage_supervisor", "name": "cesar"},
    ]


def test_a_gap_in_the_issued_series_is_missing() -> None:
    sequence = slip_sequence(issued=[1, 2, 3, 5], used=[1, 2, 3, 5], voided=[])
    assert sequence.missing == (4,)


def test_numbers_the_cage_never_issued_and_numbers_used_twice_are_flagged() -> None:
    sequence = slip_sequence(issued=range(10, 14), used=[10, 11, 11, 14], voided=[12, 13])
    assert sequence.not_issued == (14,)
    assert sequence.duplicates == (11,)
    assert sequence.missing == ()
    assert not sequence.intact


def test_a_stray_number_far_outside_the_series_does_not_stretch_it() -> None:
    sequence = slip_sequence(
        issued=range(1001, 1004), used=[1001, 1002, 1003, 1_000_001], voided=[]
    )
    assert sequence.missing == ()
    assert sequence.not_issued == (1_000_001,)


def test_a_series_with_nothing_issued_or_used_is_intact() -> None:
    assert slip_sequence([], [], []).intact


@settings(max_examples=200, deadline=None)
@given(
    st.sets(st.integers(1, 60), max_size=30),
    st.lists(st.integers(1, 60), max_size=30),
    st.lists(st.integers(1, 60), max_size=10),
)
def test_every_number_of_the_series_is_used_voided_or_missing(
    issued: set[int], used: list[int], voided: list[int]
) -> None:
    sequence = slip_sequence(issued, used, voided)
    bounds = issued or set(used) | set(voided)
    span = set(range(min(bounds), max(bounds) + 1)) if bounds else set()
    assert set(sequence.missing) | (set(used) | set(voided)) & span == span
    assert not set(sequence.missing) & (set(used) | set(voided))
    assert set(sequence.not_issued) == (set(used) | set(voided)) - issued
