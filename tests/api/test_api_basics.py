"""Every refusal answers with the uniform error body; health, schema and docs are served."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def assert_uniform_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "detail", "fields"}
    assert body["code"] == code
    assert body["detail"]


def test_health_reports_database_broker_and_cache(api: APIClient) -> None:
    response = api.get("/api/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["cache"]["ok"] is True


def test_health_is_503_when_the_database_is_down(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError, connection

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("database is unreachable")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = api.get("/api/health")
    assert response.status_code == 503
    assert response.json()["database"]["ok"] is False


def test_schema_is_openapi_3(api: APIClient) -> None:
    response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/health" in schema["paths"]


def test_interactive_docs_are_served_without_outside_assets(api: APIClient) -> None:
    response = api.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    assert "cdn." not in page


def test_unknown_url_is_a_json_404(api: APIClient) -> None:
    assert_uniform_error(api.get("/api/no-such-thing"), 404, "not_found")
    assert_uniform_error(api.get("/nowhere"), 404, "not_found")


def test_unauthenticated_call_is_401(api: APIClient) -> None:
    assert_uniform_error(api.get("/api/me"), 401, "not_authenticated")


def test_bad_token_is_401(api: APIClient) -> None:
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_uniform_error(api.get("/api/me"), 401, "authentication_failed")


def test_wrong_method_is_405(client_for: Any, dealer_dora: Any) -> None:
    assert_uniform_error(client_for(dealer_dora).delete("/api/me"), 405, "method_not_allowed")
    assert_uniform_error(APIClient().post("/api/health"), 405, "method_not_allowed")


def test_me_names_the_roles(client_for: Any, pit_boss_paula: Any) -> None:
    response = client_for(pit_boss_paula).get("/api/me")
    assert response.json() == {"username": "paula", "roles": ["pit_boss"]}


def test_token_authentication_works(api: APIClient, dealer_dora: Any) -> None:
    from knox.models import AuthToken

    _, token = AuthToken.objects.create(user=dealer_dora)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/me").status_code == 200


def test_admin_is_mounted(api: APIClient) -> None:
    response = api.get("/admin/login/")
    assert response.status_code == 200


def test_a_tablet_gets_a_token_with_its_password(api: APIClient, dealer_dora: Any) -> None:
    response = api.post("/api/auth/token", {"username": "dora", "password": "dora-pw"})
    assert response.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert api.get("/api/me").json()["username"] == "dora"


def test_a_wrong_password_gets_no_token(api: APIClient, dealer_dora: Any) -> None:
    response = api.post("/api/auth/token", {"username": "dora", "password": "nope"})
    assert_uniform_error(response, 400, "invalid_input")
