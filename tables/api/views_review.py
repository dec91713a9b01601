"""The pit boss's review work: corrections (four eyes) and alerts."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import selectors
from tables.api.access import acting_user
from tables.api.bounds import query_id
from tables.api.idempotency import run_idempotently
from tables.api.permissions import Declared, described
from tables.api.serializers import (
    AlertSerializer,
    CorrectionDecisionSerializer,
    CorrectionRequestSerializer,
    CorrectionSerializer,
)
from tables.api.views_tables import ERRORS, STATE, outcome_body, valid
from tables.services import alerts, corrections


class CorrectionCreateView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "correction.request"}

    @extend_schema(
        summary="Ask for a correction (void a card or a round, correct a payout, change the "
        "paytable or tie rule)",
        description=described("correction.request"),
        request=CorrectionRequestSerializer,
        responses={201: CorrectionSerializer, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
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
    permission_classes = (Declared,)
    policy_commands = {"GET": "corrections.read"}

    @extend_schema(
        summary="Correction requests",
        description=described("corrections.read"),
        parameters=[OpenApiParameter("status", str, enum=["pending", "approved", "refused"])],
        responses={200: CorrectionSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        return Response(
            CorrectionSerializer(selectors.corrections_list(status=wanted), many=True).data
        )


def approval_body(outcome: corrections.ApprovalOutcome, actor: Any) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if outcome.command is not None:
        body = outcome_body(outcome.command, actor)
    if outcome.event is not None:
        body = {"event": {"seq": outcome.event.seq, "type": outcome.event.type}}
    return {**body, "correction": CorrectionSerializer(outcome.correction).data}


class CorrectionApproveView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "correction.approve"}

    @extend_schema(
        summary="Approve a correction (another pit boss); the note is kept",
        description=described("correction.approve"),
        request=CorrectionDecisionSerializer,
        responses={200: STATE, **ERRORS},
    )
    def post(self, request: Request, correction_id: int) -> Response:
        data = valid(CorrectionDecisionSerializer, request)

        def handle(key: str | None) -> Response:
            actor = acting_user(request)
            outcome = corrections.correction_approve(
                correction_id=correction_id, approver=actor, note=data["note"]
            )
            return Response(approval_body(outcome, actor))

        return run_idempotently(request, handle)


class CorrectionRefuseView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "correction.refuse"}

    @extend_schema(
        summary="Refuse a correction",
        description=described("correction.refuse"),
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
    permission_classes = (Declared,)
    policy_commands = {"GET": "alerts.read"}

    @extend_schema(
        summary="Alerts for the pit",
        description=described("alerts.read"),
        parameters=[OpenApiParameter("table", int), OpenApiParameter("open", bool)],
        responses={200: AlertSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        table_id = query_id(request, "table")
        open_only = request.query_params.get("open", "").lower() in {"1", "true", "yes"}
        found = selectors.alerts_list(table_id=table_id, open_only=open_only)
        return Response(AlertSerializer(found, many=True).data)


class AlertAcknowledgeView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "alert.acknowledge"}

    @extend_schema(
        summary="Acknowledge an alert",
        description=described("alert.acknowledge"),
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
