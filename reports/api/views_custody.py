"""Custody records on a table's log: opener, closer, buy-ins, drop (slips: ``views_slips``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from reports.api.serializers import (
    AmountSerializer,
    ChipCountSerializer,
    CloserSerializer,
    CustodyEventSerializer,
    DropSerializer,
)
from reports.shifts import parse_shift_key
from tables.api.access import acting_user
from tables.api.idempotency import run_idempotently
from tables.api.permissions import Declared, described
from tables.api.views_tables import ERRORS
from tables.engine.custody import SLIP_TYPES
from tables.models import Table, TableEvent
from tables.services import custody
from tables.services.custody.log import shift_ledger

RECORDED = {201: CustodyEventSerializer, **ERRORS}


def valid(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def recorded(event: TableEvent) -> Response:
    return Response(CustodyEventSerializer(event).data, status=status.HTTP_201_CREATED)


class OpenerView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "custody.open"}

    @extend_schema(
        description=described("custody.open"),
        summary="Count the chips to open the table (or carry the last closer over); the "
        "table's dealer confirms the count",
        request=ChipCountSerializer,
        responses=RECORDED,
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid(ChipCountSerializer, request)
        return run_idempotently(
            request,
            lambda key: recorded(
                custody.custody_open(
                    table_id=table_id,
                    pit_boss=acting_user(request),
                    chips=data.get("chips"),
                    carry_over=data["carry_over"],
                    idempotency_key=key,
                )
            ),
        )


class CloserView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "custody.close"}

    @extend_schema(
        description=described("custody.close"),
        summary="Count the chips to close the table's shift; the table's dealer confirms",
        request=CloserSerializer,
        responses=RECORDED,
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid(CloserSerializer, request)
        return run_idempotently(
            request,
            lambda key: recorded(
                custody.custody_close(
                    table_id=table_id,
                    pit_boss=acting_user(request),
                    chips=data["chips"],
                    idempotency_key=key,
                )
            ),
        )


class CountConfirmView(APIView):
    """The table's dealer signs the pit boss's count with his own login."""

    permission_classes = (Declared,)
    policy_commands = {"POST": "custody.confirm"}
    closing = False

    @extend_schema(
        summary="The table's dealer confirms the pit boss's count",
        description=described("custody.confirm"),
        request=None,
        responses=RECORDED,
    )
    def post(self, request: Request, table_id: int) -> Response:
        return run_idempotently(
            request,
            lambda key: recorded(
                custody.count_confirm(
                    table_id=table_id,
                    dealer=acting_user(request),
                    closing=self.closing,
                    idempotency_key=key,
                )
            ),
        )


class OpenerConfirmView(CountConfirmView):
    closing = False


class CloserConfirmView(CountConfirmView):
    closing = True


class BuyInView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "custody.buy_in"}

    @extend_schema(
        description=described("custody.buy_in"),
        summary="Record a buy-in (cash for chips)",
        request=AmountSerializer,
        responses=RECORDED,
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid(AmountSerializer, request)
        return run_idempotently(
            request,
            lambda key: recorded(
                custody.buy_in_record(
                    table_id=table_id,
                    amount=data["amount"],
                    actor=acting_user(request),
                    idempotency_key=key,
                )
            ),
        )


class DropView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "custody.drop"}

    @extend_schema(
        description=described("custody.drop"),
        summary="Enter the counted drop (final)",
        request=DropSerializer,
        responses=RECORDED,
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid(DropSerializer, request)
        key = None
        if data.get("gaming_day") and data.get("shift"):
            key = parse_shift_key(data["gaming_day"], data["shift"])
        return run_idempotently(
            request,
            lambda idempotency_key: recorded(
                custody.drop_count(
                    table_id=table_id,
                    amount=data["amount"],
                    counted_by=acting_user(request),
                    shift=key,
                    idempotency_key=idempotency_key,
                )
            ),
        )


class CustodyView(APIView):
    """The custody of a table and shift, as the ledger folds it."""

    permission_classes = (Declared,)
    policy_commands = {"GET": "custody.read"}

    @extend_schema(
        description=described("custody.read"),
        summary="A table's custody for one shift",
        parameters=[
            OpenApiParameter("gaming_day", str, required=True, description="YYYY-MM-DD"),
            OpenApiParameter("shift", str, required=True),
        ],
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="The ledger's totals"),
            **ERRORS,
        },
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise NotFound("There is no such table.")
        key = parse_shift_key(
            request.query_params.get("gaming_day", ""), request.query_params.get("shift", "")
        )
        ledger = shift_ledger(table, key)
        return Response(
            {
                "table": table.name,
                **key.as_payload(),
                "opened": ledger.opener is not None,
                "closed": ledger.closer is not None,
                "fills_total": ledger.fills_total,
                "credits_total": ledger.credits_total,
                "estimated_drop": ledger.estimated_drop,
                "counted_drop": ledger.drop.amount if ledger.drop else None,
                "outstanding": [
                    {
                        "slip_type": slip.slip_type,
                        "slip_number": slip.slip_number,
                        "stage": slip.stage,
                        "total": slip.total,
                    }
                    for kind in SLIP_TYPES
                    for slip in ledger.slips.outstanding(kind)
                ],
            }
        )
