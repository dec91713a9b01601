"""One documented endpoint per game command, each a thin alias of the generic command path.

The request serializers only describe the body for the OpenAPI schema; the engine's own
`command_from_json` checks it, so every refusal carries the engine's codes whichever way
the command came in.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import selectors
from tables.api.command_bodies import register_body
from tables.api.permissions import Declared, described
from tables.api.views_tables import ERRORS, STATE, run_command
from tables.engine import siete, stud
from tables.engine.stud import commands as stud_commands

FIELD_FOR_TYPE: dict[Any, type[serializers.Field[Any, Any, Any, Any]]] = {
    int: serializers.IntegerField,
    str: serializers.CharField,
    bool: serializers.BooleanField,
}


def _serializer_field(annotation: Any, required: bool) -> serializers.Field[Any, Any, Any, Any]:
    args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    nullable = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    base = args[0] if nullable and args else annotation
    field_class = FIELD_FOR_TYPE.get(base)
    if field_class is None:
        return serializers.JSONField(required=required)
    return field_class(required=required, allow_null=nullable)


def body_serializer(name: str, command_class: type) -> type[serializers.Serializer[Any]]:
    hints = typing.get_type_hints(command_class)
    fields = {}
    for field in dataclasses.fields(command_class):
        required = (
            field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        )
        fields[field.name] = _serializer_field(hints[field.name], required)
    return type(name, (serializers.Serializer,), fields)


def command_view(game: str, command_type: str, body: type[serializers.Serializer[Any]]) -> Any:
    register_body(game, command_type, frozenset(body().fields))

    class GameCommandView(APIView):
        permission_classes = (Declared,)
        policy_game = game
        policy_command = command_type

        @extend_schema(
            operation_id=f"{game}_{command_type}",
            summary=command_type.replace("_", " ").capitalize(),
            description=described(command_type, game=game),
            tags=[game],
            request=body,
            responses={201: STATE, **ERRORS},
        )
        def post(self, request: Request, table_id: int) -> Response:
            table = selectors.table_get(table_id)
            return run_command(request, table, command_type, request.data)

    GameCommandView.__name__ = f"{game.title()}{command_type.title().replace('_', '')}View"
    return GameCommandView.as_view()


def _siete_routes() -> list[URLPattern]:
    routes = []
    for command_type, command_class in siete.COMMAND_TYPES.items():
        name = "Siete" + command_type.title().replace("_", "") + "Body"
        view = command_view("siete_y_medio", command_type, body_serializer(name, command_class))
        url = f"tables/<int:table_id>/siete/{command_type.replace('_', '-')}"
        routes.append(path(url, view, name=f"siete-{command_type}"))
    return routes


STUD_COMMANDS: dict[str, type] = {
    "record_card": stud_commands.RecordCard,
    "burn": stud_commands.Burn,
    "show": stud_commands.Show,
    "muck": stud_commands.Muck,
    "award_pots": stud_commands.AwardPots,
    "clock_expired": stud_commands.ClockExpired,
    "ask_to_see": stud_commands.AskToSee,
    "show_mucked": stud_commands.ShowMucked,
    **dict.fromkeys(stud_commands.ACTION_KINDS, stud_commands.Action),
}


def _stud_routes() -> list[URLPattern]:
    routes = []
    for command_type, command_class in STUD_COMMANDS.items():
        name = "Stud" + command_type.title().replace("_", "") + "Body"
        body = body_serializer(name, command_class)
        if command_class is stud_commands.Action:
            body = type(name, (serializers.Serializer,), {
                "seat": serializers.IntegerField(),
                "amount": serializers.IntegerField(required=False, allow_null=True),
            })  # fmt: skip
        view = command_view("seven_card_stud", command_type, body)
        url = f"tables/<int:table_id>/stud/{command_type.replace('_', '-')}"
        routes.append(path(url, view, name=f"stud-{command_type}"))
    return routes


def game_routes() -> list[URLPattern]:
    assert stud.STUD is not None  # both engines load with the routes
    return _siete_routes() + _stud_routes()
