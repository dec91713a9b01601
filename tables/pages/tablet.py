"""The dealer's tablet: `/tablet/` opens the dealer's table, whose state is one fragment.

The page itself never writes: its buttons send the same API commands a tablet app would
(through the browser's queue, with idempotency keys), and the fragment is re-read after each
answer and each live notice.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from tables import policy, roles
from tables.models import DealerAssignment, Table
from tables.pages.screen import table_screen


def _refused(request: HttpRequest, heading: str, explanation: str, status: int) -> HttpResponse:
    context = {"heading": heading, "explanation": explanation}
    return render(request, "pages/no_screen.html", context, status=status)


@login_required
def tablet_home(request: HttpRequest) -> HttpResponse:
    assignment = DealerAssignment.objects.filter(
        dealer_id=request.user.pk, ended_at__isnull=True
    ).first()
    if assignment is not None:
        return redirect("tablet-table", table_id=assignment.table_id)
    if roles.has_role(request.user, roles.PIT_BOSS):
        return render(request, "tablet/choose_table.html", {"tables": Table.objects.all()})
    return _refused(
        request,
        _("No table assigned"),
        _("You are not assigned to a table. Ask the pit boss to assign you."),
        200,
    )


def _table_or_refusal(
    request: HttpRequest, table_id: int
) -> tuple[Table, policy.TableFacts] | HttpResponse:
    """The table and the facts its policy check read, which the screen reuses."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return _refused(request, _("No such table"), _("There is no table here."), 404)
    facts = policy.TableFacts(table.pk)
    if not policy.allowed(request.user, table, facts=facts):
        return _refused(request, _("Not your table"), _("You are not assigned to this table."), 403)
    return table, facts


@login_required
@never_cache
def tablet_table(request: HttpRequest, table_id: int) -> HttpResponse:
    found = _table_or_refusal(request, table_id)
    if isinstance(found, HttpResponse):
        return found
    context = table_screen(request.user, *found)
    return render(request, "tablet/table.html", context)


@login_required
@never_cache
def tablet_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    found = _table_or_refusal(request, table_id)
    if isinstance(found, HttpResponse):
        return found
    context = table_screen(request.user, *found)
    return render(request, "tablet/_state.html", context)
