"""Fill and credit slips step by step, their voids, and the cage's own figures of a shift."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from reports.api.serializers import (
    CageFiguresOutSerializer,
    CageFiguresSerializer,
    CreditRequestSerializer,
    SlipRequestSerializer,
    SlipStepSerializer,
    VoidSerializer,
)
from reports.api.views_custody import RECORDED, recorded, valid
from reports.models import CageFigures
from reports.shifts import parse_shift_key
from tables.api.access import acting_user
from tables.api.idempotency import run_idempotently
from tables.api.permissions import Declared, described
from tables.api.serializers import CorrectionSerializer
from tables.api.views_tables import ERRORS
from tables.services.custody import cage, slips


class SlipRequestView(APIView):
    """The pit asks for a fill or a credit; the answer carries the slip's number."""

    permission_classes = (Declared,)
    policy_commands = {"POST": "slip.request"}
    slip_type = "fill"

    @extend_schema(
        summary="Request a fill or credit (amounts by denomination); the slip gets its number",
        description=described("slip.request"),
        request=SlipRequestSerializer,
        responses=RECORDED,
    )
    def post(self, request: Request, table_id: int) -> Response:
        body = SlipRequestSerializer if self.slip_type == "fill" else CreditRequestSerializer
        data = valid(body, request)
        return run_idempotently(
            request,
            lambda key: recorded(
                slips.slip_request(
                    slip_type=self.slip_type,
                    table_id=table_id,
                    amounts=data["amounts"],
                    pit_boss=acting_user(request),
                    idempotency_key=key,
                )
            ),
        )


class SlipCageView(APIView):
    """A cashier issues a requested fill's chips, or receives a requested credit's."""

    permission_classes = (Declared,)
    policy_commands = {"POST": "slip.cage_sign"}
    slip_type = "fill"

    @extend_schema(
        summary="Issue a fill / receive a credit at the cage, exactly as requested",
        description=described("slip.cage_sign"),
        request=SlipStepSerializer,
        responses=RECORDED,
    )
    def post(self, request: Request, number: int) -> Response:
        data = valid(SlipStepSerializer, request)
        return run_idempotently(
            request,
            lambda key: recorded(
                slips.slip_cage_sign(
                    slip_type=self.slip_type,
                    slip_number=number,
                    cashier=acting_user(request),
                    amounts=data.get("amounts"),
                    idempotency_key=key,
                )
            ),
        )


class SlipConfirmView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "slip.confirm"}

    @extend_schema(
        summary="Confirm a slip at the table (the table's dealer); only now it counts",
        description=described("slip.confirm"),
        request=SlipStepSerializer,
        responses=RECORDED,
    )
    def post(self, request: Request, slip_type: str, number: int) -> Response:
        data = valid(SlipStepSerializer, request)
        return run_idempotently(
            request,
            lambda key: recorded(
                slips.slip_confirm(
                    slip_type=slip_type,
                    slip_number=number,
                    dealer=acting_user(request),
                    amounts=data.get("amounts"),
                    idempotency_key=key,
                )
            ),
        )


class SlipVoidView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "slip.void_request"}

    @extend_schema(
        summary="Ask for a slip's void at any step; a different pit boss approves it at "
        "POST /api/corrections/{id}/approve",
        description=described("slip.void_request", "slip.void_approve"),
        request=VoidSerializer,
        responses={201: CorrectionSerializer, **ERRORS},
    )
    def post(self, request: Request, slip_type: str, number: int) -> Response:
        data = valid(VoidSerializer, request)
        return run_idempotently(
            request,
            lambda key: Response(
                CorrectionSerializer(
                    slips.slip_void_request(
                        slip_type=slip_type,
                        slip_number=number,
                        reason=data["reason"],
                        requested_by=acting_user(request),
                    )
                ).data,
                status=status.HTTP_201_CREATED,
            ),
        )


class CageFiguresView(APIView):
    """The cage's totals of fills issued and credits received for a shift, every version."""

    permission_classes = (Declared,)
    policy_commands = {"POST": "cage.figures", "GET": "cage.read"}

    @extend_schema(
        summary="Enter the cage's figures for a shift (a correction needs a reason)",
        description=described("cage.figures"),
        request=CageFiguresSerializer,
        responses={201: CageFiguresOutSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = valid(CageFiguresSerializer, request)
        key = parse_shift_key(data["gaming_day"], data["shift"])

        def enter(_: str | None) -> Response:
            row = cage.cage_figures_enter(
                key=key,
                fills_issued=data["fills_issued"],
                credits_received=data["credits_received"],
                cashier=acting_user(request),
                reason=data["reason"],
            )
            return Response(CageFiguresOutSerializer(row).data, status=status.HTTP_201_CREATED)

        return run_idempotently(request, enter)

    @extend_schema(
        summary="The cage's figures for a shift, every version",
        description=described("cage.read"),
        parameters=[
            OpenApiParameter("gaming_day", str, required=True, description="YYYY-MM-DD"),
            OpenApiParameter("shift", str, required=True),
        ],
        responses={200: CageFiguresOutSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        key = parse_shift_key(
            request.query_params.get("gaming_day", ""), request.query_params.get("shift", "")
        )
        rows = CageFigures.objects.filter(gaming_day=key.gaming_day, shift=key.shift)
        return Response(CageFiguresOutSerializer(rows.select_related("entered_by"), many=True).data)
