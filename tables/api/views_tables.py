"""Tables: list, create, open/close, assign a dealer, open a round, run a command, read the log."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import games, roles, selectors
from tables.api.access import acting_user, check_can_act_at
from tables.api.idempotency import run_idempotently
from tables.api.permissions import IsAuditor, IsFloorStaff, IsPitBoss
from tables.api.serializers import (
    AppendedEventSerializer,
    AssignDealerSerializer,
    CommandSerializer,
    EventSerializer,
    SeatSerializer,
    TableCreateSerializer,
    TableSerializer,
)
from tables.api.tablet_clock import checked_tablet_time
from tables.card_feeds import device_feeds_table, table_hold_reason
from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.models import Table, TableEvent
from tables.services import floor
from tables.services.commands import CommandOutcome, table_command

# Commands that put a card on the table: the shoe's job while one is online at the table.
CARD_COMMANDS = frozenset({"record_card", "burn"})
STATE = OpenApiResponse(
    OpenApiTypes.OBJECT, description="The table, the events appended and the live state"
)
ERRORS = {
    400: OpenApiResponse(description="Malformed request (uniform error body)"),
    403: OpenApiResponse(description="Not allowed for this role or table"),
    409: OpenApiResponse(description="The rules refuse it now; nothing recorded"),
    422: OpenApiResponse(description="Invalid input; nothing recorded"),
}


def outcome_body(outcome: CommandOutcome) -> dict[str, Any]:
    return {
        "table": TableSerializer(outcome.table).data,
        "round": outcome.round.number if outcome.round else None,
        "events": AppendedEventSerializer(outcome.events, many=True).data,
        "state": games.binding_for(outcome.table.game).live_view(outcome.state),
    }


def valid(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class TableListView(APIView):
    permission_classes = (IsPitBoss,)

    def get_permissions(self) -> list[Any]:
        return [IsFloorStaff()] if self.request.method == "GET" else [IsPitBoss()]

    @extend_schema(summary="List the tables", responses=TableSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(TableSerializer(Table.objects.all(), many=True).data)

    @extend_schema(
        summary="Create a table (pit boss)",
        request=TableCreateSerializer,
        responses={201: TableSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = valid(TableCreateSerializer, request)
        table = floor.table_create(actor=acting_user(request), **data)
        return Response(TableSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    permission_classes = (IsFloorStaff,)

    @extend_schema(summary="A table and its live state (no face-down card, ever)", responses=STATE)
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        body = {
            "table": TableSerializer(table).data,
            "seats": SeatSerializer(table.seats.all(), many=True).data,
            "state": selectors.table_live_view(table),
        }
        return Response(body)


class TableStatusView(APIView):
    permission_classes = (IsPitBoss,)
    new_status = Table.Status.OPEN

    @extend_schema(request=None, responses={200: TableSerializer, **ERRORS})
    def post(self, request: Request, table_id: int) -> Response:
        selectors.table_get(table_id)
        table = floor.table_set_status(
            table_id=table_id, status=self.new_status, actor=acting_user(request)
        )
        return Response(TableSerializer(table).data)


class TableOpenView(TableStatusView):
    new_status = Table.Status.OPEN


class TableCloseView(TableStatusView):
    new_status = Table.Status.CLOSED


class TableDealerView(APIView):
    permission_classes = (IsPitBoss,)

    @extend_schema(
        summary="Assign a dealer to the table (pit boss)",
        request=AssignDealerSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid(AssignDealerSerializer, request)
        dealer = get_user_model().objects.filter(username=data["dealer"]).first()
        if dealer is None or not dealer.groups.filter(name="dealer").exists():
            raise ValidationError({"dealer": ["No dealer has this username."]})
        selectors.table_get(table_id)
        floor.dealer_assign(table_id=table_id, dealer=dealer, by=acting_user(request))
        return Response({"table": table_id, "dealer": dealer.get_username()})


class RoundOpenView(APIView):
    permission_classes = (IsFloorStaff,)

    @extend_schema(summary="Open the next round", request=None, responses={201: None, **ERRORS})
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        check_can_act_at(request.user, table)
        check_not_held(table)

        def handle(key: str | None) -> Response:
            outcome = floor.round_open(
                table_id=table.pk, actor=acting_user(request), idempotency_key=key
            )
            return Response(outcome_body(outcome), status=status.HTTP_201_CREATED)

        return run_idempotently(request, handle)


class RoundCloseView(APIView):
    permission_classes = (IsFloorStaff,)

    @extend_schema(
        summary="Close the settled round",
        request=None,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        check_can_act_at(request.user, table)

        def handle(key: str | None) -> Response:
            round_ = floor.round_close(table_id=table.pk, actor=acting_user(request))
            return Response({"round": round_.number, "status": round_.status})

        return run_idempotently(request, handle)


class TableCommandView(APIView):
    """Any engine command by name; the games' own endpoints are thin aliases of this."""

    permission_classes = (IsFloorStaff,)

    @extend_schema(
        summary="Run a game command", request=CommandSerializer, responses={201: STATE, **ERRORS}
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        check_can_act_at(request.user, table)
        data = valid(CommandSerializer, request)
        return run_command(request, table, data["type"], data["data"])


def check_not_held(table: Table) -> None:
    reason = table_hold_reason(table.pk)
    if reason is not None:
        raise NotAllowedNowError(f"The round is held: {reason}.", code="round_held")


def run_command(request: Request, table: Table, command_type: str, data: Any) -> Response:
    if not isinstance(data, dict):
        raise InvalidInputError("The command's data must be an object.", code="invalid_input")
    if data.get("source", TableEvent.Source.TABLET) != TableEvent.Source.TABLET:
        # Only the shoe's own reader may say a card came from the shoe.
        raise InvalidInputError("A tablet command's source is the tablet.", code="invalid_source")
    binding = games.binding_for(table.game)
    if command_type in binding.approval_commands:
        raise NotAllowedNowError(
            f"{command_type} needs a pit boss's approval: ask for it as a correction.",
            code="needs_approval",
        )
    check_not_held(table)
    if command_type in CARD_COMMANDS and device_feeds_table(table.pk):
        raise NotAllowedNowError(
            "The shoe is reading this table's cards; do not enter them on the tablet.",
            code="shoe_feeds_table",
        )
    if command_type in binding.pit_boss_commands and not roles.has_role(
        request.user, roles.PIT_BOSS
    ):
        raise PermissionDenied("Only a pit boss may do this.")
    if command_type in binding.service_commands:
        raise NotAllowedNowError(
            f"{command_type} is not sent directly; open the round (POST .../rounds) instead.",
            code="use_round_open",
        )
    command = binding.command_from_json(command_type, data)
    occurred_at = checked_tablet_time(request, table)

    def handle(key: str | None) -> Response:
        outcome = table_command(
            table_id=table.pk,
            command=command,
            actor=acting_user(request),
            source=TableEvent.Source.TABLET,
            occurred_at=occurred_at,
            idempotency_key=key,
        )
        return Response(outcome_body(outcome), status=status.HTTP_201_CREATED)

    return run_idempotently(request, handle)


class TableEventsView(APIView):
    permission_classes = (IsAuditor,)

    @extend_schema(
        summary="The table's log (auditor; rounds in play are held back)",
        responses=EventSerializer(many=True),
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        events = selectors.table_events_for_audit(table)
        return Response(EventSerializer(events, many=True).data)


class RoundAuditView(APIView):
    """A finished round in full, face-down cards included: for auditors, after it is closed."""

    permission_classes = (IsAuditor,)

    @extend_schema(summary="A closed round's full record (auditor)", responses=STATE)
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
