"""Device registry endpoints. Every write is four-eyes where the rules say so, and idempotent
with an Idempotency-Key like the table API."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from devices.api.serializers import (
    BindingRequestSerializer,
    CardEntrySerializer,
    EnrollSerializer,
    NoteSerializer,
    ReasonSerializer,
)
from devices.models import Device, DeviceGap
from devices.registry import enrollment, gaps, holds
from devices.reporting import binding_summary, device_report, device_summary, link_quality_of
from tables.api.access import acting_user
from tables.api.idempotency import run_idempotently
from tables.api.permissions import Declared, described
from tables.api.views_tables import ERRORS, valid
from tables.engine.errors import NotAllowedNowError


def device_get(device_id: int) -> Device:
    device = Device.objects.filter(pk=device_id).first()
    if device is None:
        raise NotAllowedNowError("There is no such device.", code="device_not_found", status=404)
    return device


def listing(device: Device) -> dict[str, Any]:
    return {**device_summary(device), "link_quality": link_quality_of(device)}


class DeviceListView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "devices.read", "POST": "device.enroll"}

    @extend_schema(
        description=described("devices.read"),
        summary="Shoes with their status, binding and link quality",
        responses=None,
        operation_id="devices_list",
    )
    def get(self, request: Request) -> Response:
        return Response([listing(device) for device in Device.objects.all()])

    @extend_schema(
        description=described("device.enroll"),
        summary="Enrol a shoe (pending); with table_id, ask for its binding too",
        request=EnrollSerializer,
        responses={201: None, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = valid(EnrollSerializer, request)

        def handle(key: str | None) -> Response:
            by = acting_user(request)
            with transaction.atomic():
                device = enrollment.device_enroll(
                    serial=data["serial"], port_url=data["port_url"], key=data["key"], by=by
                )
                if data["table_id"] is not None:
                    enrollment.binding_request(
                        device_id=device.pk, table_id=data["table_id"], by=by
                    )
            return Response(listing(device), status=status.HTTP_201_CREATED)

        return run_idempotently(request, handle)


class DeviceDetailView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "devices.read"}

    @extend_schema(
        description=described("devices.read"),
        summary="A shoe's report: status, binding, counters, cards",
        responses=None,
    )
    def get(self, request: Request, device_id: int) -> Response:
        return Response(device_report(device_get(device_id)))


class BindingRequestView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "device.bind"}

    @extend_schema(
        description=described("device.bind"),
        summary="Ask for a shoe's binding to a table",
        request=BindingRequestSerializer,
        responses={201: None, **ERRORS},
    )
    def post(self, request: Request, device_id: int) -> Response:
        data = valid(BindingRequestSerializer, request)

        def handle(key: str | None) -> Response:
            binding = enrollment.binding_request(
                device_id=device_get(device_id).pk,
                table_id=data["table_id"],
                by=acting_user(request),
            )
            return Response(binding_summary(binding), status=status.HTTP_201_CREATED)

        return run_idempotently(request, handle)


class BindingApproveView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "device.bind_approve"}

    @extend_schema(
        description=described("device.bind_approve"),
        summary="Approve a binding (a pit boss other than the requester)",
        request=None,
        responses=ERRORS,
    )
    def post(self, request: Request, binding_id: int) -> Response:
        def handle(key: str | None) -> Response:
            binding = enrollment.binding_approve(binding_id=binding_id, by=acting_user(request))
            return Response(binding_summary(binding))

        return run_idempotently(request, handle)


class DeviceRetireView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "device.retire"}

    @extend_schema(
        description=described("device.retire"),
        summary="Retire a shoe",
        request=ReasonSerializer,
        responses=ERRORS,
    )
    def post(self, request: Request, device_id: int) -> Response:
        data = valid(ReasonSerializer, request)

        def handle(key: str | None) -> Response:
            device = enrollment.device_retire(
                device_id=device_get(device_id).pk, by=acting_user(request), reason=data["reason"]
            )
            return Response(listing(device))

        return run_idempotently(request, handle)


class DeviceReactivateView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "device.reactivate"}

    @extend_schema(
        description=described("device.reactivate"),
        summary="Reactivate a quarantined shoe",
        request=None,
        responses=ERRORS,
    )
    def post(self, request: Request, device_id: int) -> Response:
        def handle(key: str | None) -> Response:
            device = enrollment.device_reactivate(
                device_id=device_get(device_id).pk, by=acting_user(request)
            )
            return Response(listing(device))

        return run_idempotently(request, handle)


class HoldEntryView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "hold.enter"}

    @extend_schema(
        description=described("hold.enter"),
        summary="Enter the card the shoe could not read (dealer at the table)",
        request=CardEntrySerializer,
        responses=ERRORS,
    )
    def post(self, request: Request, hold_id: int) -> Response:
        data = valid(CardEntrySerializer, request)

        def handle(key: str | None) -> Response:
            entered = holds.hold_enter(hold_id=hold_id, card=data["card"], by=acting_user(request))
            return Response({"hold": entered.pk, "entered": True})

        return run_idempotently(request, handle)


class HoldApproveView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "hold.approve"}

    @extend_schema(
        description=described("hold.approve"),
        summary="Approve the entered card (not the person who entered it); the shoe's "
        "waiting cards follow",
        request=None,
        responses=ERRORS,
    )
    def post(self, request: Request, hold_id: int) -> Response:
        def handle(key: str | None) -> Response:
            hold = holds.hold_approve(hold_id=hold_id, by=acting_user(request))
            return Response({"hold": hold.pk, "resolved_at": hold.resolved_at})

        return run_idempotently(request, handle)


class GapResolveView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "gap.resolve"}

    @extend_schema(
        description=described("gap.resolve"),
        summary="Write off events a shoe lost",
        request=NoteSerializer,
        responses=ERRORS,
    )
    def post(self, request: Request, gap_id: int) -> Response:
        data = valid(NoteSerializer, request)

        def handle(key: str | None) -> Response:
            gap: DeviceGap = gaps.gap_resolve(
                gap_id=gap_id, by=acting_user(request), note=data["note"]
            )
            return Response({"gap": gap.pk, "resolved_at": gap.resolved_at})

        return run_idempotently(request, handle)
