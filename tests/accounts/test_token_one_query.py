"""Token authentication in one query, with nothing kept between requests: whatever changes a
token's standing (logout, a new password, a role taken away) counts from the next request."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from tables import roles

pytestmark = pytest.mark.django_db


def sign_in(username: str, password: str) -> APIClient:
    client = APIClient()
    response = client.post("/api/auth/token", {"username": username, "password": password})
    assert response.status_code == 200, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def me(client: APIClient) -> Any:
    return client.get("/api/me")


def test_the_token_its_user_and_roles_are_read_in_one_query(dealer_dora: User) -> None:
    client = sign_in("dora", "dora-pw")
    with CaptureQueriesContext(connection) as queries:
        answer = me(client)
    assert answer.json() == {"username": "dora", "roles": [roles.DEALER]}
    statements = [query["sql"] for query in queries]
    assert len(statements) == 1, statements
    assert "knox_authtoken" in statements[0]
    assert "auth_group" in statements[0]


def test_a_user_without_roles_is_signed_in_with_none(db: None) -> None:
    User.objects.create_user("nobody", password="nobody-pw")
    assert me(sign_in("nobody", "nobody-pw")).status_code == 403  # no role, no floor


def test_every_role_of_a_user_comes_with_the_token(pit_boss_paula: User) -> None:
    pit_boss_paula.groups.add(Group.objects.get_or_create(name=roles.AUDITOR)[0])
    assert me(sign_in("paula", "paula-pw")).json()["roles"] == [roles.AUDITOR, roles.PIT_BOSS]


def test_a_role_taken_away_counts_from_the_next_request(dealer_dora: User) -> None:
    client = sign_in("dora", "dora-pw")
    assert me(client).json()["roles"] == [roles.DEALER]
    dealer_dora.groups.clear()
    assert me(client).status_code == 403


def test_logout_ends_the_token_for_the_very_next_request(dealer_dora: User) -> None:
    client = sign_in("dora", "dora-pw")
    assert me(client).status_code == 200
    assert client.post("/api/auth/logout").status_code in (200, 204)
    assert me(client).status_code == 401


def test_another_token_of_the_same_user_goes_on_after_a_logout(dealer_dora: User) -> None:
    first, second = sign_in("dora", "dora-pw"), sign_in("dora", "dora-pw")
    first.post("/api/auth/logout")
    assert me(first).status_code == 401
    assert me(second).status_code == 200


def test_an_expired_token_is_refused_and_deleted(dealer_dora: User) -> None:
    client = sign_in("dora", "dora-pw")
    AuthToken.objects.filter(user=dealer_dora).update(expiry=timezone.now() - timedelta(seconds=1))
    assert me(client).status_code == 401
    assert not AuthToken.objects.filter(user=dealer_dora).exists()


def test_a_deactivated_user_is_refused_at_once(dealer_dora: User) -> None:
    client = sign_in("dora", "dora-pw")
    User.objects.filter(pk=dealer_dora.pk).update(is_active=False)
    assert me(client).status_code == 401


def test_a_token_that_is_not_one_is_refused(dealer_dora: User) -> None:
    client = sign_in("dora", "dora-pw")
    stored = AuthToken.objects.get(user=dealer_dora)
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION=f"Token {stored.token_key}{'0' * 49}")
    assert me(forged).status_code == 401
    assert me(client).status_code == 200
