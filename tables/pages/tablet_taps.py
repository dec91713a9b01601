"""A tap's command answered with the screen it leads to: the API's own answer (the same view,
policy, idempotency and refusals) plus the table's fragment as it is after the commit, so the
tablet redraws without a second request. The push of that change is then only for the other
screens; changes made elsewhere still reach this one by its push."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tables import policy
from tables.api.views_tables import TableCommandView
from tables.models import Table
from tables.pages.screen import table_screen

_command_view = TableCommandView.as_view()
# The API's own headers that an answer keeps (a replayed key says so); the body is new.
_DROPPED_HEADERS = {"content-type", "content-length"}


# No login_required: a signed-out tap gets the API's own 403 in JSON, not a login page.
@never_cache
@require_POST
def tablet_command(request: HttpRequest, table_id: int) -> HttpResponse:
    answer = _command_view(request, table_id=table_id)
    answer.render()
    table = Table.objects.filter(pk=table_id).first()
    if answer.status_code != 201 or table is None:
        return answer  # a refusal as the API gives it: the screen stays as it was
    facts = policy.TableFacts(table.pk)
    if not policy.allowed(request.user, table, facts=facts):
        return answer
    body = json.loads(answer.content)
    context = table_screen(request.user, table, facts)
    body["fragment"] = render_to_string("tablet/_state.html", context, request)
    reply = JsonResponse(body, status=answer.status_code)
    for name, value in answer.items():
        if name.lower() not in _DROPPED_HEADERS:
            reply[name] = value
    return reply
