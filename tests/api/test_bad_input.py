"""No request produces a 500 and no number is unbounded: every malformed value is a 400 whose
`detail` names the first bad field."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from reports.renderers.as_csv import escape_formula
from tables.models import Table, TableEvent
from tests.api.game_clients import SIETE_SETTINGS, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-B", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


def refused(response: Any, field: str) -> dict[str, Any]:
    assert response.status_code == 400, response.content
    body = dict(response.json())
    assert body["code"] == "invalid_input", body
    assert field in body["fields"], body
    assert body["detail"].startswith(f"{field}:"), body
    return body


def test_an_integer_past_64_bits_in_a_body_names_its_field(
    client_for: Any, dealer_dora: User, table: Table
) -> None:
    before = TableEvent.objects.filter(table=table).count()
    response = client_for(dealer_dora).post(
        f"/api/tables/{table.pk}/siete/place-wager",
        '{"box": 1, "amount": 123456789012345678901234567890}',
        content_type="application/json",
    )
    refused(response, "amount")
    assert TableEvent.objects.filter(table=table).count() == before


def test_an_id_past_64_bits_in_the_address_is_a_400(client_for: Any, pit_boss_paula: User) -> None:
    response = client_for(pit_boss_paula).get(f"/api/tables/{2**70}")
    refused(response, "table_id")


def test_json_nested_too_deep_is_a_400(client_for: Any, dealer_dora: User, table: Table) -> None:
    deep = "[" * 5000 + "]" * 5000
    response = client_for(dealer_dora).post(
        f"/api/tables/{table.pk}/commands",
        '{"type": "reshuffle", "data": {"x": ' + deep + "}}",
        content_type="application/json",
    )
    assert response.status_code == 400, response.content


def test_nul_and_control_characters_in_text_are_a_400(
    client_for: Any, dealer_dora: User, table: Table
) -> None:
    response = client_for(dealer_dora).post(
        f"/api/tables/{table.pk}/seats/sit",
        {"seat": 1, "player": "ana\u0000\u001b[2J", "buy_in": 100},
        format="json",
    )
    refused(response, "player")


def test_a_box_the_command_does_not_take_is_a_400_naming_it(
    client_for: Any, dealer_dora: User, table: Table
) -> None:
    response = client_for(dealer_dora).post(
        f"/api/tables/{table.pk}/siete/reshuffle", {"box": 2}, format="json"
    )
    body = refused(response, "box")
    assert "reshuffle does not take the field box" in body["detail"]


def test_a_bad_date_in_a_report_filter_is_a_400(client_for: Any, auditor_alba: User) -> None:
    refused(client_for(auditor_alba).get("/api/reports/?gaming_day=2026-02-31"), "gaming_day")


def test_the_top_level_detail_names_the_first_missing_field(
    client_for: Any, pit_boss_paula: User, table: Table
) -> None:
    response = client_for(pit_boss_paula).post(
        f"/api/tables/{table.pk}/corrections", {"reason": "x"}, format="json"
    )
    assert refused(response, "command")["detail"] == "command: This field is required."


def test_a_buy_in_past_the_floor_maximum_is_refused(
    client_for: Any, dealer_dora: User, table: Table, settings: Any
) -> None:
    settings.CASINO_MAX_BUY_IN = 1000
    response = client_for(dealer_dora).post(
        f"/api/reports/tables/{table.pk}/buy-ins", {"amount": 1001}, format="json"
    )
    refused(response, "amount")


def test_json_answers_are_never_cached_and_pages_carry_a_csp(
    client_for: Any, pit_boss_paula: User
) -> None:
    answer = client_for(pit_boss_paula).get("/api/tables")
    assert answer["Cache-Control"] == "no-store"
    page = client_for(pit_boss_paula).get("/api/docs/")
    assert "script-src 'self'" in page["Content-Security-Policy"]
    assert b"<script>" not in page.content


def test_csv_cells_that_a_spreadsheet_would_run_are_escaped() -> None:
    assert [escape_formula(text) for text in ("=1+1", "+3", "@SUM(A1)", "-x", "ana", "-20")] == [
        "'=1+1", "'+3", "'@SUM(A1)", "'-x", "ana", "-20",
    ]  # fmt: skip


def test_a_floor_wide_report_says_its_table_is_null_in_the_schema(client_for: Any) -> None:
    schema = (
        client_for(User.objects.create(username="reader")).get("/api/schema/?format=json").json()
    )
    table = schema["components"]["schemas"]["ReportDetail"]["properties"]["table"]
    assert table.get("nullable") is True
