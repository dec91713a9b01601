"""Sign-in throttling: failures are recorded, and N of them lock a name out at one address."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
LIMIT = settings.AXES_FAILURE_LIMIT


def attempt(password: str, *, username: str = "dora", address: str = "10.1.1.7") -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        "/api/auth/token", {"username": username, "password": password}
    )


def test_fifty_wrong_passwords_are_not_all_answered_alike(dealer_dora: User) -> None:
    statuses = [attempt(f"guess-{n}").status_code for n in range(50)]
    assert statuses[: LIMIT - 1] == [400] * (LIMIT - 1)
    assert set(statuses[LIMIT - 1 :]) == {429}


def test_after_the_limit_even_the_right_password_is_refused(dealer_dora: User) -> None:
    for n in range(LIMIT):
        attempt(f"guess-{n}")
    response = attempt("dora-pw")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "locked_out"
    assert set(body) == {"code", "detail", "fields"}
    assert body["fields"] == {}
    assert "token" not in body
    assert int(response["Retry-After"]) == int(settings.AXES_COOLOFF_TIME.total_seconds())


def test_the_failed_attempts_are_recorded(dealer_dora: User) -> None:
    for n in range(3):
        attempt(f"guess-{n}")
    record = AccessAttempt.objects.get(username="dora", ip_address="10.1.1.7")
    assert record.failures_since_start == 3
    assert record.path_info == "/api/auth/token"
    assert AccessFailureLog.objects.filter(username="dora").count() == 3
    assert "guess" not in record.post_data  # no password is kept


def test_the_lockout_is_per_name_and_address(dealer_dora: User, dealer_dan: User) -> None:
    for n in range(LIMIT):
        attempt(f"guess-{n}")
    assert attempt("dora-pw", address="10.1.1.8").status_code == 200
    assert attempt("dan-pw", username="dan").status_code == 200


def test_a_good_sign_in_resets_the_count_and_is_logged(dealer_dora: User) -> None:
    for n in range(LIMIT - 1):
        attempt(f"guess-{n}")
    assert attempt("dora-pw").status_code == 200
    assert AccessLog.objects.filter(username="dora").exists()
    for n in range(LIMIT - 1):
        assert attempt(f"again-{n}").status_code == 400


def test_the_admin_login_page_locks_out_too(db: None) -> None:
    User.objects.create_superuser("root", password="root-pw")
    browser = Client(REMOTE_ADDR="10.1.1.9")
    for n in range(LIMIT):
        browser.post("/admin/login/", {"username": "root", "password": f"guess-{n}"})
    right = {"username": "root", "password": "root-pw"}
    response = browser.post("/admin/login/?next=/admin/", right)
    assert response.status_code == 429
    assert response.json()["code"] == "locked_out"
    assert "_auth_user_id" not in browser.session
    assert AccessAttempt.objects.get(username="root").failures_since_start >= LIMIT
