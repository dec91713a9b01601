"""The admin shows reports, runs, slips and cage figures, and changes none of them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from reports.services.storing import produce_report
from tests.reports.custody_floor import Floor, past_shift

pytestmark = pytest.mark.django_db


def test_the_admin_lists_reports_but_cannot_change_them(floor: Floor, client: Client) -> None:
    report = produce_report("cashier", past_shift(floor))
    admin_user = User.objects.create_superuser("root", password="x")
    client.force_login(admin_user)
    assert client.get("/admin/reports/report/").status_code == 200
    page: Any = client.get(f"/admin/reports/report/{report.pk}/change/")
    assert page.status_code == 200
    assert b"Save" not in page.content
    assert client.post(f"/admin/reports/report/{report.pk}/delete/").status_code == 403
    assert client.get("/admin/reports/slip/").status_code == 200
    assert client.get("/admin/reports/cagefigures/").status_code == 200
    assert client.get("/admin/reports/cagefigures/add/").status_code == 403
