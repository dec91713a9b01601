"""GET /api/me: who the tablet or dashboard is signed in as, and with which roles."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api.permissions import Declared, described
from tables.roles import roles_of


class MeView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "me.read"}

    @extend_schema(
        summary="The signed-in user",
        description=described("me.read"),
        responses=inline_serializer(
            "Me",
            {
                "username": serializers.CharField(),
                "roles": serializers.ListField(child=serializers.CharField()),
            },
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(
            {"username": request.user.get_username(), "roles": sorted(roles_of(request.user))}
        )
