"""The band a table shift's actual win should lie in, from the settings each round met.

Each round r at settings v adds its handle h_r x edge_v to the theoretical win and
h_r² x variance_v to the variance of the shift's result (rounds are dealt from freshly
shuffled shoes, so they are independent). A round's boxes share the bank's hand, so their
results are not independent: the round's whole handle is taken as one stake, which bounds the
round's spread from above (Cauchy-Schwarz) and keeps the band from ever being too narrow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from reports.figures import RoundSummary, ShiftBand, no_band, shift_band
from reports.inputs.house_edge import handles_by_version, round_handles, settings_changes, unit_risk
from tables.games import binding_for
from tables.models import Table


def table_shift_band(
    table: Table,
    rounds: Sequence[RoundSummary],
    settled_seqs: Mapping[int, int] | None = None,
) -> ShiftBand:
    """The shift's band at this table; not applicable at a game the house only rakes."""
    if binding_for(table.game).unit_risk is None:
        return no_band()
    handles = round_handles(table, rounds, settled_seqs)
    theoretical, variance = shift_risk(table.game, table.settings, settings_changes(table), handles)
    actual = sum(summary.house_net for summary in rounds if not summary.voided)
    return shift_band(theoretical_win=theoretical, result_variance=variance, actual_win=actual)


def shift_risk(
    game: str,
    initial: Mapping[str, object],
    changes: Sequence[tuple[int, Mapping[str, object]]],
    handles: Sequence[tuple[int, int | None]],
) -> tuple[Fraction, Fraction]:
    """(theoretical win, variance of the result) of rounds given as (handle, settlement seq)."""
    theoretical, variance = Fraction(0), Fraction(0)
    for settings, amounts in handles_by_version(initial, changes, handles):
        if not amounts:
            continue
        edge, unit_variance = unit_risk(game, settings)
        theoretical += sum(amounts) * edge
        variance += sum(amount * amount for amount in amounts) * unit_variance
    return theoretical, variance
