"""Poker seats: a player sits down with a buy-in, adds chips, leaves with their stack."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import selectors
from tables.api.access import acting_user
from tables.api.idempotency import run_idempotently
from tables.api.permissions import Declared, described
from tables.api.serializers import (
    AddChipsSerializer,
    LeaveSerializer,
    SeatPlayerSerializer,
    SeatSerializer,
)
from tables.api.views_tables import ERRORS, valid
from tables.services import seating


class SeatingView(APIView):
    permission_classes = (Declared,)
    body: type = SeatPlayerSerializer

    def act(self, table_id: int, user: Any, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id)
        data = valid(self.body, request)

        def handle(key: str | None) -> Response:
            result = self.act(table.pk, acting_user(request), data)
            body = SeatSerializer(result).data if not isinstance(result, dict) else result
            return Response(body, status=status.HTTP_201_CREATED)

        return run_idempotently(request, handle)


class SeatPlayerView(SeatingView):
    body = SeatPlayerSerializer
    policy_commands = {"POST": "seat.sit"}

    @extend_schema(summary="Seat a player with a buy-in", request=SeatPlayerSerializer,
                   description=described("seat.sit"),
                   responses={201: SeatSerializer, **ERRORS})  # fmt: skip
    def post(self, request: Request, table_id: int) -> Response:
        return super().post(request, table_id)

    def act(self, table_id: int, user: Any, data: dict[str, Any]) -> Any:
        return seating.player_seat(table_id=table_id, actor=user, **data)


class AddChipsView(SeatingView):
    body = AddChipsSerializer
    policy_commands = {"POST": "seat.add_chips"}

    @extend_schema(
        summary="Add chips to a seated player (from the next hand if one is on)",
        description=described("seat.add_chips"),
        request=AddChipsSerializer,
        responses={201: SeatSerializer, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        return super().post(request, table_id)

    def act(self, table_id: int, user: Any, data: dict[str, Any]) -> Any:
        return seating.chips_add(table_id=table_id, actor=user, **data)


class LeaveView(SeatingView):
    body = LeaveSerializer
    policy_commands = {"POST": "seat.leave"}

    @extend_schema(summary="A player leaves between hands", request=LeaveSerializer,
                   description=described("seat.leave"),
                   responses={201: SeatSerializer, **ERRORS})  # fmt: skip
    def post(self, request: Request, table_id: int) -> Response:
        return super().post(request, table_id)

    def act(self, table_id: int, user: Any, data: dict[str, Any]) -> Any:
        return seating.player_leave(table_id=table_id, actor=user, **data)
