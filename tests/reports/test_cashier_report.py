import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from report_samples import context, ledger, mesa_1_facts, mesa_3_facts, mesa_4_facts

from reports.builders.cashier import build_cashier_report, slip_sequence
from reports.builders.document import Document
from reports.custody import SlipVoided
from tables.engine.errors import NotAllowedNowError

BLANK_SPOILED = SlipVoided("fill", 1005, "spoiled at the cage", "carla", "cesar")


def cage_report(*, mesa_1_closed: bool = True, allow_provisional: bool = True) -> Document:
    mesa_1 = mesa_1_facts() if mesa_1_closed else mesa_1_facts()[:8]
    return build_cashier_report(
        context=context(),
        ledgers=[
            ledger("T1", *mesa_1),
            ledger("T3", *mesa_3_facts()),
            ledger("T4", *mesa_4_facts()),
        ],
        issued={"fill": range(1001, 1007), "credit": range(501, 503)},
        cage_voids=[BLANK_SPOILED],
        cage_figures={"fill": 2100, "credit": 500},
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
    assert (fills["slips"], fills["voided"], fills["amount"]) == (2, 2, 2000)
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
        (1005, None, "void"),
    ]
    assert fills[1]["void_approved_by"] == "mara"
    assert (fills[0]["requested_by"], fills[0]["cashier"], fills[0]["confirmed_by"]) == (
        "pablo",
        "carla",
        "dana",
    )


def test_the_slip_series_shows_used_voided_and_missing_numbers() -> None:
    sequence = cage_report()["sequence"]
    assert sequence["fill"] == {
        "issued": [1001, 1002, 1003, 1004, 1005, 1006],
        "used": [1001, 1003],
        "voided": [1002, 1005],
        "missing": [1004, 1006],
        "not_issued": [],
        "duplicates": [],
        "intact": False,
    }
    assert sequence["credit"]["missing"] == [502]


def test_over_short_is_the_cage_figure_less_the_slips() -> None:
    over_short = cage_report()["over_short"]
    assert over_short["fill"] == {
        "cage": 2100,
        "computed": 2000,
        "difference": 100,
        "status": "over",
    }
    assert over_short["credit"]["status"] == "balanced"


def test_a_short_cage_has_a_negative_difference() -> None:
    report = build_cashier_report(
        context=context(),
        ledgers=[ledger("T4", *mesa_4_facts())],
        issued={"fill": [1003]},
        cage_figures={"fill": 450},
        watermark={"T4": 30},
    )
    assert report["over_short"]["fill"]["difference"] == -50
    assert report["over_short"]["fill"]["status"] == "short"
    assert report["over_short"]["credit"] is None
    assert report["sequence"]["fill"]["intact"] is True


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
