"""Tables: list, create, open/close, assign a dealer, open a round, run a command, read the log.

Views parse, call one service and serialise; the policy is checked by the service under the
table lock, and the permission class lets through the roles the policy declares.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import selectors
from tables.api.access import acting_user
from tables.api.command_bodies import check_fields
from tables.api.idempotency import run_idempotently
from tables.api.permissions import Declared, described
from tables.api.serializers import (
    AppendedEventSerializer,
    AssignDealerSerializer,
    CommandSerializer,
    EventSerializer,
    SeatSerializer,
    TableCreateSerializer,
    TableSerializer,
)
from tables.api.state import caller_state
from tables.api.tablet_clock import checked_tablet_time, tablet_times
from tables.engine.errors import NotAllowedNowError
from tables.models import Table, TableEvent
from tables.selectors import NO_SUCH_TABLE
from tables.services import engine_state, floor
from tables.services.alerts import tablet_clock_alert
from tables.services.append_statements import TABLE_NOT_FOUND
from tables.services.commands import CommandOutcome, table_command_from_json

STATE = OpenApiResponse(
    OpenApiTypes.OBJECT, description="The table, the events appended and the live state"
)
ERRORS = {
    400: OpenApiResponse(description="Malformed request (uniform error body)"),
    401: OpenApiResponse(description="Not signed in"),
    403: OpenApiResponse(description="Not allowed for this role or table"),
    404: OpenApiResponse(description="No such table or record"),
    409: OpenApiResponse(description="The rules refuse it now; nothing recorded"),
    422: OpenApiResponse(description="Invalid input; nothing recorded"),
}


# The fields TableSerializer and AppendedEventSerializer give, read straight off the rows: a
# ModelSerializer builds its fields anew on every answer, a tenth of a command's processor time.
_TABLE_FIELDS = TableSerializer.Meta.fields
_EVENT_FIELDS = AppendedEventSerializer.Meta.fields


def outcome_body(outcome: CommandOutcome, actor: Any) -> dict[str, Any]:
    return {
        "table": {name: getattr(outcome.table, name) for name in _TABLE_FIELDS},
        "round": outcome.round.number if outcome.round else None,
        "events": [{name: getattr(row, name) for name in _EVENT_FIELDS} for row in outcome.events],
        "state": caller_state(actor, outcome.table, outcome.state, outcome.facts),
    }


def valid(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class TableListView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "table.read", "POST": "table.create"}

    @extend_schema(
        summary="List the tables",
        description=described("table.read"),
        responses={200: TableSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        return Response(TableSerializer(Table.objects.all(), many=True).data)

    @extend_schema(
        summary="Create a table (pit boss)",
        description=described("table.create"),
        request=TableCreateSerializer,
        responses={201: TableSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = valid(TableCreateSerializer, request)
        table = floor.table_create(actor=acting_user(request), **data)
        return Response(TableSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "table.read"}

    @extend_schema(
        summary="A table and its live state (no face-down card, ever)",
        description=described("table.read")
        + " The state's `legal` lists what the rules take now, narrowed to what the caller may "
        "send; `allowed` lists every command the policy lets the caller send now.",
        responses={200: STATE, **ERRORS},
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        body = {
            "table": TableSerializer(table).data,
            "seats": SeatSerializer(table.seats.all(), many=True).data,
            "state": caller_state(request.user, table, engine_state.current_state(table)),
        }
        return Response(body)


class TableStatusView(APIView):
    permission_classes = (Declared,)
    new_status = Table.Status.OPEN
    policy_commands = {"POST": "table.open"}

    def post(self, request: Request, table_id: int) -> Response:
        selectors.table_get(table_id)
        table = floor.table_set_status(
            table_id=table_id, status=self.new_status, actor=acting_user(request)
        )
        return Response(TableSerializer(table).data)


class TableOpenView(TableStatusView):
    new_status = Table.Status.OPEN
    policy_commands = {"POST": "table.open"}

    @extend_schema(
        summary="Open the table", description=described("table.open"), request=None,
        responses={200: TableSerializer, **ERRORS},
    )  # fmt: skip
    def post(self, request: Request, table_id: int) -> Response:
        return super().post(request, table_id)


class TableCloseView(TableStatusView):
    new_status = Table.Status.CLOSED
    policy_commands = {"POST": "table.close"}

    @extend_schema(
        summary="Close the table", description=described("table.close"), request=None,
        responses={200: TableSerializer, **ERRORS},
    )  # fmt: skip
    def post(self, request: Request, table_id: int) -> Response:
        return super().post(request, table_id)


class TableDealerView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "table.assign_dealer"}

    @extend_schema(
        summary="Assign a dealer to the table (pit boss)",
        description=described("table.assign_dealer"),
        request=AssignDealerSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid(AssignDealerSerializer, request)
        dealer = get_user_model().objects.filter(username=data["dealer"]).first()
        if dealer is None:
            raise ValidationError({"dealer": ["No dealer has this username."]})
        selectors.table_get(table_id)
        floor.dealer_assign(table_id=table_id, dealer=dealer, by=acting_user(request))
        return Response({"table": table_id, "dealer": dealer.get_username()})


class RoundOpenView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "round.open"}

    @extend_schema(
        summary="Open the next round", description=described("round.open"), request=None,
        responses={201: STATE, **ERRORS},
    )  # fmt: skip
    def post(self, request: Request, table_id: int) -> Response:
        occurred_at = checked_tablet_time(request, table_id)

        def handle(key: str | None) -> Response:
            actor = acting_user(request)
            with missing_table_is_404():
                outcome = floor.round_open(
                    table_id=table_id, actor=actor, occurred_at=occurred_at, idempotency_key=key
                )
            return Response(outcome_body(outcome, actor), status=status.HTTP_201_CREATED)

        return run_idempotently(request, handle)


class RoundCloseView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "round.close"}

    @extend_schema(
        summary="Close the settled round",
        description=described("round.close"),
        request=None,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)

        def handle(key: str | None) -> Response:
            round_ = floor.round_close(table_id=table.pk, actor=acting_user(request))
            return Response({"round": round_.number, "status": round_.status})

        return run_idempotently(request, handle)


class TableCommandView(APIView):
    """Any engine command by name; the games' own endpoints are thin aliases of this."""

    permission_classes = (Declared,)
    policy_commands = {"POST": "table.command"}

    @extend_schema(
        summary="Run a game command",
        description="Who may call: dealer (at the table assigned to them) or pit boss; each "
        "game command's own rule (pit boss only, four eyes, not while held, not while a shoe "
        "feeds the table) is the one documented at the game's endpoint.",
        request=CommandSerializer,
        responses={201: STATE, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        # Read first, so that an unknown table is a 404 before its body is a 400.
        table = selectors.table_get(table_id)
        data = valid(CommandSerializer, request)
        return run_command(request, table.pk, data["type"], data["data"])


def run_command(request: Request, table_id: int, command_type: str, data: Any) -> Response:
    """Run a tablet's command on the table. The table is read once, by the command's own lock:
    a table that does not exist is the same 404 as where the view reads it first."""
    occurred_at, skew = tablet_times(request)
    if skew is not None:
        # Rare: the alert is recorded on its own, before the command, on a table that exists.
        table = selectors.table_get(table_id)
        check_fields(table.game, command_type, data)
        tablet_clock_alert(table_id=table.pk, by=acting_user(request), offset_seconds=skew)

    def check_body(table: Table) -> None:
        check_fields(table.game, command_type, data)

    def handle(key: str | None) -> Response:
        actor = acting_user(request)
        with missing_table_is_404():
            outcome = table_command_from_json(
                table_id=table_id,
                command_type=command_type,
                data=data,
                actor=actor,
                source=TableEvent.Source.TABLET,
                occurred_at=occurred_at,
                idempotency_key=key,
                check_body=check_body,
            )
        return Response(outcome_body(outcome, actor), status=status.HTTP_201_CREATED)

    return run_idempotently(request, handle)


class TableEventsView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "table.events"}

    @extend_schema(
        summary="The table's log (auditor; rounds in play are held back)",
        description=described("table.events"),
        responses={200: EventSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        events = selectors.table_events_for_audit(table)
        return Response(EventSerializer(events, many=True).data)


class RoundAuditView(APIView):
    """A finished round in full, face-down cards included: for auditors, after it is closed."""

    permission_classes = (Declared,)
    policy_commands = {"GET": "round.audit"}

    @extend_schema(
        summary="A closed round's full record (auditor)",
        description=described("round.audit"),
        responses={200: STATE, **ERRORS},
    )
    def get(self, request: Request, table_id: int, number: int) -> Response:
        table = selectors.table_get(table_id)
        round_ = selectors.finished_round_get(table, number)
        body = {
            "table": table.name,
            "round": round_.number,
            "status": round_.status,
            "opened_at": round_.opened_at,
            "closed_at": round_.closed_at,
            "state": round_.state,
        }
        return Response(body)


@contextmanager
def missing_table_is_404() -> Iterator[None]:
    """A command's lock found no such table: the same 404 as a view that reads it first."""
    try:
        yield
    except NotAllowedNowError as refused:
        if refused.code == TABLE_NOT_FOUND:
            raise NotFound(NO_SUCH_TABLE) from None
        raise
