"""Websocket routes."""

from django.urls import path

from tables.live.consumers import FloorConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/floor/", FloorConsumer.as_asgi()),
]
