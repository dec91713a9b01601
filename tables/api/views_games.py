"""One documented endpoint per game command, each a thin alias of the generic command path.

The routes come from the game registry in one loop: every binding's declared commands
(`GameBinding.commands`), each reflected into a request serializer from the same declaration
the one JSON parser reads (`tables.engine.command_json`). The serializers only describe the
body for the OpenAPI schema (and which fields a body may carry); the parser checks it, so every
refusal carries the same codes whichever game and whichever way the command came in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import URLResolver, include, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import games
from tables.api.command_bodies import register_body
from tables.api.permissions import Declared, described
from tables.api.views_tables import ERRORS, STATE, run_command
from tables.engine.command_json import CommandShape, FieldSpec, field_specs

SCALAR_FIELDS: dict[Any, type[serializers.Field[Any, Any, Any, Any]]] = {
    int: serializers.IntegerField,
    str: serializers.CharField,
    bool: serializers.BooleanField,
    Mapping: serializers.DictField,
}


def _serializer_field(spec: FieldSpec, name: str) -> serializers.Field[Any, Any, Any, Any]:
    options: dict[str, Any] = {"required": spec.required, "allow_null": spec.nullable}
    if spec.base is tuple:
        return serializers.ListField(child=_item_field(spec.item, f"{name}Item"), **options)
    if spec.one_of:
        # Described, not an enum: enum components would be named by clashing field names.
        options["help_text"] = "One of: " + ", ".join(spec.one_of) + "."
    return SCALAR_FIELDS[spec.base](**options)


def _item_field(item: Any, name: str) -> serializers.Field[Any, Any, Any, Any]:
    if item in SCALAR_FIELDS:
        return SCALAR_FIELDS[item]()
    return _serializer(name, field_specs(item))()


def _serializer(name: str, specs: tuple[FieldSpec, ...]) -> type[serializers.Serializer[Any]]:
    fields = {spec.name: _serializer_field(spec, name + spec.name.title()) for spec in specs}
    return type(name, (serializers.Serializer,), fields)


def body_serializer(name: str, shape: CommandShape) -> type[serializers.Serializer[Any]]:
    """The command's JSON body for the schema, reflected from its declaration."""
    return _serializer(name, shape.body())


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
            # No read of the table before its lock: run_command's lock answers 404 for a table
            # that does not exist, as the read did.
            return run_command(request, table_id, command_type, request.data)

    GameCommandView.__name__ = f"{game.title()}{command_type.title().replace('_', '')}View"
    return GameCommandView.as_view()


def binding_routes(binding: games.GameBinding) -> URLResolver:
    """`/tables/<id>/<prefix>/<command>` for each command the game routes, under one prefix
    that the resolver matches once: a command's path is found past the game's prefix, not
    tried against every other route of the API first, each failure added to the list of
    patterns tried that a 404 page would show (2.7 % of a worker's CPU under the floor's
    load)."""
    prefix = binding.route_prefix or binding.key
    routes = []
    for command_type in binding.routed_commands:
        name = prefix.title().replace("_", "") + command_type.title().replace("_", "") + "Body"
        body = body_serializer(name, binding.commands[command_type])
        view = command_view(binding.key, command_type, body)
        routes.append(path(command_type.replace("_", "-"), view, name=f"{prefix}-{command_type}"))
    return path(f"tables/<int:table_id>/{prefix}/", include(routes))


def game_routes() -> list[URLResolver]:
    """Every registered game's command endpoints (a game registered later needs the URLconf
    built again to get its own: see tests/devices/test_third_game_end_to_end.py)."""
    return [binding_routes(binding) for binding in games.every_binding()]
