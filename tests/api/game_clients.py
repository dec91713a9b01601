"""What the game endpoint tests share: tables of each game, a tablet client, refusal checks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tables.models import Table, TableEvent
from tables.services.floor import table_create
from tests.reports.custody_floor import open_books

OPENING_CHIPS = {"5": 100, "25": 40}

SIETE_SETTINGS = {"min_stake": 10, "max_stake": 200, "chip": 5}
STUD_SETTINGS = {"small_bet": 20, "chip": 1, "rake_percent": "5", "rake_cap": 3}
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]  # a Stud table's deck


def open_table(
    name: str, game: str, settings: dict[str, Any], dealer: User, pit_boss: User
) -> Table:
    seats = 6 if game == "siete_y_medio" else 8
    table = table_create(name=name, game=game, seat_count=seats, settings=settings)
    # Opened with a count, as on the floor: a seat's buy-in is a custody buy-in.
    open_books(table.pk, dealer=dealer, pit_boss=pit_boss, chips=OPENING_CHIPS)  # and assigns
    table.refresh_from_db()
    return table


def recorded(table: Table) -> tuple[int, int]:
    """What the log holds for the table: its event count and its head sequence number."""
    head_seq = Table.objects.values_list("head_seq", flat=True).get(pk=table.pk)
    return TableEvent.objects.filter(table=table).count(), head_seq


def assert_refused(response: Any, status: int, code: str, table: Table, before: Any) -> None:
    """A refusal: the uniform body, the expected status and code, and nothing recorded."""
    body = response.json()
    assert set(body) == {"code", "detail", "fields"}, body
    assert (response.status_code, body["code"]) == (status, code), body
    assert isinstance(body["detail"], str)
    assert body["detail"]
    assert recorded(table) == before


class Tablet:
    """A client at one table; `game_path` is "siete" or "stud" for the game's own endpoints."""

    def __init__(self, client: APIClient, table: Table, game_path: str) -> None:
        self.client = client
        self.table = table
        self.game_path = game_path
        self.sent: list[str] = []  # the game commands accepted, in order

    def url(self, path: str) -> str:
        return f"/api/tables/{self.table.pk}/{path}"

    def command_url(self, command: str) -> str:
        return self.url(f"{self.game_path}/{command.replace('_', '-')}")

    def raw(self, path: str, body: Any = None, key: str | None = None) -> Any:
        headers: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        return self.client.post(self.url(path), body, format="json", **headers)

    def post(self, path: str, expect: int = 201, **body: Any) -> dict[str, Any]:
        response = self.raw(path, body)
        assert response.status_code == expect, response.json()
        return dict(response.json())

    def send(self, command: str, expect: int = 201, **body: Any) -> dict[str, Any]:
        response = self.client.post(self.command_url(command), body, format="json")
        assert response.status_code == expect, response.json()
        if response.status_code == 201:
            self.sent.append(command)
        return dict(response.json())

    def detail(self) -> dict[str, Any]:
        return dict(self.client.get(self.url("")[:-1]).json())

    def state(self) -> dict[str, Any]:
        return dict(self.detail()["state"])

    def live_text(self) -> str:
        return json.dumps(self.detail())


def signed_in_as(request: pytest.FixtureRequest, persona: str | None, table: Table) -> APIClient:
    """A client for a persona fixture by name (None: nobody signed in).

    Dan is a dealer assigned to another table of the same game, so his refusal is about
    the table, not his role.
    """
    client = APIClient()
    if persona is None:
        return client
    user = request.getfixturevalue(persona)
    if persona == "dealer_dan":
        boss = request.getfixturevalue("pit_boss_pedro")
        open_table(f"{table.name}-2", table.game, dict(table.settings), user, boss)
    client.force_authenticate(user)
    return client


def ask_correction(client: APIClient, table: Table, command: str, data: dict[str, Any]) -> int:
    response = client.post(
        f"/api/tables/{table.pk}/corrections",
        {"command": {"type": command, "data": data}, "reason": "seen on the camera"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return int(response.json()["id"])


def approve(client: APIClient, correction_id: int, expect: int = 200) -> dict[str, Any]:
    response = client.post(f"/api/corrections/{correction_id}/approve")
    assert response.status_code == expect, response.json()
    return dict(response.json())


def play_to_the_end(tablet: Tablet, deck: list[str]) -> dict[str, Any]:
    """Deal what is due, and every player calls (or checks) to the showdown."""
    for _ in range(400):
        state = tablet.state()
        if state["phase"] in ("complete", "voided"):
            return state
        if state["card_due"] is not None:
            tablet.send("record_card", card=deck.pop())
        elif state["to_act"] is not None:
            by_kind = {option["action"]: option for option in state["legal_actions"]}
            kind = next(k for k in ("check", "call", "bring_in") if k in by_kind)
            tablet.send(kind, seat=state["to_act"], amount=by_kind[kind]["amount"])
        elif state["next_to_show"] is not None:
            tablet.send("show", seat=state["next_to_show"])
        else:
            tablet.send("award_pots")
    raise AssertionError("the hand did not finish")
