"""API tokens: hashed at rest, new at each sign-in, expiring, revocable, ended by a new password."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import override_settings
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def sign_in(username: str, password: str) -> str:
    response = APIClient().post("/api/auth/token", {"username": username, "password": password})
    assert response.status_code == 200, response.content
    token: str = response.json()["token"]
    return token


def me(token: str) -> Any:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get("/api/me")


def test_the_database_keeps_only_a_digest_of_the_token(dealer_dora: User) -> None:
    token = sign_in("dora", "dora-pw")
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM knox_authtoken")
        stored = " ".join(str(value) for row in cursor.fetchall() for value in row)
    assert token not in stored
    assert me(token).json()["username"] == "dora"


def test_every_sign_in_gets_a_new_token_and_both_work(dealer_dora: User) -> None:
    first, second = sign_in("dora", "dora-pw"), sign_in("dora", "dora-pw")
    assert first != second
    assert me(first).status_code == 200
    assert me(second).status_code == 200


def test_the_answer_says_when_the_token_expires_a_shift_later(dealer_dora: User) -> None:
    response = APIClient().post("/api/auth/token", {"username": "dora", "password": "dora-pw"})
    stored = AuthToken.objects.get(user=dealer_dora)
    assert stored.expiry is not None
    assert timedelta(hours=8) < stored.expiry - timezone.now() <= timedelta(hours=10)
    assert response.json()["expiry"]


def test_an_expired_token_is_refused(dealer_dora: User) -> None:
    token = sign_in("dora", "dora-pw")
    AuthToken.objects.filter(user=dealer_dora).update(expiry=timezone.now() - timedelta(seconds=1))
    response = me(token)
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_logout_ends_this_token_only(dealer_dora: User) -> None:
    kept, ended = sign_in("dora", "dora-pw"), sign_in("dora", "dora-pw")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {ended}")
    assert client.post("/api/auth/logout").status_code == 204
    assert me(ended).status_code == 401
    assert me(kept).status_code == 200


def test_logout_all_ends_every_token_of_the_user(dealer_dora: User, dealer_dan: User) -> None:
    tokens = [sign_in("dora", "dora-pw") for _ in range(3)]
    other = sign_in("dan", "dan-pw")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[0]}")
    assert client.post("/api/auth/logout-all").status_code == 204
    assert [me(token).status_code for token in tokens] == [401, 401, 401]
    assert me(other).status_code == 200


def test_a_new_password_ends_every_token(dealer_dora: User, dealer_dan: User) -> None:
    token = sign_in("dora", "dora-pw")
    other = sign_in("dan", "dan-pw")
    dealer_dora.set_password("a-new-password-for-dora")
    dealer_dora.save()
    assert me(token).status_code == 401
    assert me(other).status_code == 200
    assert me(sign_in("dora", "a-new-password-for-dora")).status_code == 200


def test_saving_a_user_without_a_new_password_keeps_the_tokens(dealer_dora: User) -> None:
    token = sign_in("dora", "dora-pw")
    dealer_dora.first_name = "Dora"
    dealer_dora.save()
    assert me(token).status_code == 200


def test_the_admin_password_form_ends_the_tokens(dealer_dora: User) -> None:
    from django.test import Client

    token = sign_in("dora", "dora-pw")
    root = User.objects.create_superuser("root", password="root-pw")
    browser = Client()
    browser.force_login(root)
    response = browser.post(
        f"/admin/auth/user/{dealer_dora.pk}/password/",
        {"password1": "Fresh-dora-pass-91", "password2": "Fresh-dora-pass-91"},
    )
    assert response.status_code == 302, response.content[:400]
    assert me(token).status_code == 401


@override_settings(CASINO_TOKENS_PER_USER=2)
def test_past_the_limit_a_sign_in_ends_the_oldest_token(dealer_dora: User) -> None:
    oldest = sign_in("dora", "dora-pw")
    AuthToken.objects.filter(user=dealer_dora).update(created=timezone.now() - timedelta(hours=1))
    middle, newest = sign_in("dora", "dora-pw"), sign_in("dora", "dora-pw")
    assert AuthToken.objects.filter(user=dealer_dora).count() == 2
    assert me(oldest).status_code == 401
    assert me(middle).status_code == 200
    assert me(newest).status_code == 200


def test_a_session_logout_needs_the_csrf_token(dealer_dora: User) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(dealer_dora)
    refused = browser.post("/api/auth/logout")
    assert refused.status_code == 403
    assert browser.get("/api/me").status_code == 200
