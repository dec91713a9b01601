"""The pit boss's review work: corrections (four eyes) and alerts."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import selectors
from tables.api.access import acting_user, check_can_act_at
from tables.api.idempotency import run_idempotently
from tables.api.permissions import IsFloorStaff, IsPitBoss
from tables.api.serializers import (
    AlertSerializer,
    CorrectionDecisionSerializer,
    CorrectionRequestSerializer,
    CorrectionSerializer,
)
from tables.api.views_tables import ERRORS, outcome_body, valid
from tables.services import alerts, corrections


class CorrectionCreateView(APIView):
    permission_classes = (IsFloorStaff,)

    @extend_schema(
        summary="Ask for a correction (void a card or a round, correct a payout)",
        request=CorrectionRequestSerializer,
        responses={201: CorrectionSerializer, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        check_can_act_at(request.user, table)
        data = valid(CorrectionRequestSerializer, request)

        def handle(key: str | None) -> Response:
            correction = corrections.correction_request(
                table_id=table.pk,
                command_type=data["command"]["type"],
                command_data=data["command"].get("data", {}),
                reason=data["reason"],
                requested_by=acting_user(request),
            )
            return Response(CorrectionSerializer(correction).data, status=status.HTTP_201_CREATED)

        return run_idempotently(request, handle)


class CorrectionListView(APIView):
    permission_classes = (IsPitBoss,)

    @extend_schema(
        summary="Correction requests",
        parameters=[OpenApiParameter("status", str, enum=["pending", "approved", "refused"])],
        responses=CorrectionSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        return Response(
            CorrectionSerializer(selectors.corrections_list(status=wanted), many=True).data
        )


class CorrectionApproveView(APIView):
    permission_classes = (IsPitBoss,)

    @extend_schema(
        summary="Approve a correction (another pit boss)", request=None, responses=ERRORS
    )
    def post(self, request: Request, correction_id: int) -> Response:
        def handle(key: str | None) -> Response:
            outcome = corrections.correction_approve(
                correction_id=correction_id, approver=acting_user(request)
            )
            return Response(outcome_body(outcome))

        return run_idempotently(request, handle)


class CorrectionRefuseView(APIView):
    permission_classes = (IsPitBoss,)

    @extend_schema(
        summary="Refuse a correction",
        request=CorrectionDecisionSerializer,
        responses={200: CorrectionSerializer, **ERRORS},
    )
    def post(self, request: Request, correction_id: int) -> Response:
        data = valid(CorrectionDecisionSerializer, request)

        def handle(key: str | None) -> Response:
            correction = corrections.correction_refuse(
                correction_id=correction_id, approver=acting_user(request), note=data["note"]
            )
            return Response(CorrectionSerializer(correction).data)

        return run_idempotently(request, handle)


class AlertListView(APIView):
    permission_classes = (IsPitBoss,)

    @extend_schema(
        summary="Alerts for the pit",
        parameters=[OpenApiParameter("table", int), OpenApiParameter("open", bool)],
        responses=AlertSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        table = request.query_params.get("table")
        open_only = request.query_params.get("open", "").lower() in {"1", "true", "yes"}
        table_id = int(table) if table and table.isdigit() else None
        found = selectors.alerts_list(table_id=table_id, open_only=open_only)
        return Response(AlertSerializer(found, many=True).data)


class AlertAcknowledgeView(APIView):
    permission_classes = (IsPitBoss,)

    @extend_schema(
        summary="Acknowledge an alert",
        request=CorrectionDecisionSerializer,
        responses={200: AlertSerializer, **ERRORS},
    )
    def post(self, request: Request, alert_id: int) -> Response:
        data = valid(CorrectionDecisionSerializer, request)

        def handle(key: str | None) -> Response:
            alert = alerts.alert_acknowledge(
                alert_id=alert_id, by=acting_user(request), note=data["note"]
            )
            return Response(AlertSerializer(alert).data)

        return run_idempotently(request, handle)
