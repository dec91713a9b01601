"""Role changes (two admins): ask, approve, refuse, and the record of every change."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import roles
from tables.api.access import acting_user
from tables.api.idempotency import run_idempotently
from tables.api.permissions import Declared, described
from tables.api.serializers import CorrectionDecisionSerializer
from tables.api.views_tables import ERRORS, valid
from tables.models import RoleGrant
from tables.services import roles as role_service


class RoleGrantRequestSerializer(serializers.Serializer[None]):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=roles.ALL_ROLES)
    reason = serializers.CharField(max_length=2000)
    withdraw = serializers.BooleanField(default=False)


class RoleGrantSerializer(serializers.ModelSerializer[RoleGrant]):
    user = serializers.CharField(source="user.username")
    requested_by = serializers.CharField(source="requested_by.username")
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)
    # Plain text in the schema: the corrections' "status" enum would collide with this one.
    status = serializers.CharField(read_only=True)
    action = serializers.CharField(read_only=True)

    class Meta:
        model = RoleGrant
        fields = (
            "id", "user", "role", "action", "reason", "status", "requested_by",
            "requested_at", "decided_by", "decided_at", "decision_note",
        )  # fmt: skip


class RoleGrantListView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "roles.read", "POST": "role.grant_request"}

    @extend_schema(
        summary="Role changes, asked and decided",
        description=described("roles.read"),
        responses={200: RoleGrantSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        grants = RoleGrant.objects.select_related("user", "requested_by", "decided_by")
        return Response(RoleGrantSerializer(grants, many=True).data)

    @extend_schema(
        summary="Ask to grant or withdraw a role (another admin approves)",
        description=described("role.grant_request"),
        request=RoleGrantRequestSerializer,
        responses={201: RoleGrantSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = valid(RoleGrantRequestSerializer, request)
        user = get_user_model().objects.filter(username=data["username"]).first()
        if user is None:
            raise ValidationError({"username": ["Nobody has this username."]})

        def handle(key: str | None) -> Response:
            grant = role_service.role_grant_request(
                user=user,
                role=data["role"],
                requested_by=acting_user(request),
                reason=data["reason"],
                withdraw=data["withdraw"],
            )
            return Response(RoleGrantSerializer(grant).data, status=status.HTTP_201_CREATED)

        return run_idempotently(request, handle)


class RoleGrantDecisionView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "role.grant_approve"}
    decide: Any = staticmethod(role_service.role_grant_approve)

    def post(self, request: Request, grant_id: int) -> Response:
        data = valid(CorrectionDecisionSerializer, request)

        def handle(key: str | None) -> Response:
            grant = self.decide(grant_id=grant_id, approver=acting_user(request), note=data["note"])
            return Response(RoleGrantSerializer(grant).data)

        return run_idempotently(request, handle)


class RoleGrantApproveView(RoleGrantDecisionView):
    @extend_schema(
        summary="Approve a role change (an admin other than the one who asked)",
        description=described("role.grant_approve"),
        request=CorrectionDecisionSerializer,
        responses={200: RoleGrantSerializer, **ERRORS},
    )
    def post(self, request: Request, grant_id: int) -> Response:
        return super().post(request, grant_id)


class RoleGrantRefuseView(RoleGrantDecisionView):
    policy_commands = {"POST": "role.grant_refuse"}
    decide = staticmethod(role_service.role_grant_refuse)

    @extend_schema(
        summary="Refuse a role change",
        description=described("role.grant_refuse"),
        request=CorrectionDecisionSerializer,
        responses={200: RoleGrantSerializer, **ERRORS},
    )
    def post(self, request: Request, grant_id: int) -> Response:
        return super().post(request, grant_id)
