"""The five roles exist from the first migration; the demo seed is idempotent."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from tables import roles
from tables.api.permissions import IsCashier, IsFloorStaff, IsPitBoss

pytestmark = pytest.mark.django_db


def test_role_groups_are_created_by_migration() -> None:
    assert set(Group.objects.values_list("name", flat=True)) >= set(roles.ALL_ROLES)


def test_seed_demo_twice_gives_one_user_per_login(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("seed_demo")
    call_command("seed_demo")
    output = capsys.readouterr().out
    assert "pitboss1" in output
    assert "pitboss1-demo" in output
    assert User.objects.filter(username="dealer1").count() == 1
    for role in roles.ALL_ROLES:
        assert User.objects.filter(groups__name=role).exists()
    assert User.objects.get(username="auditor1").check_password("auditor1-demo")


class FakeRequest:
    def __init__(self, user: User, method: str) -> None:
        self.user = user
        self.method = method


@pytest.mark.parametrize(
    ("permission", "role", "method", "allowed"),
    [
        (IsFloorStaff, roles.DEALER, "POST", True),
        (IsFloorStaff, roles.AUDITOR, "GET", True),
        (IsFloorStaff, roles.AUDITOR, "POST", False),
        (IsFloorStaff, roles.CASHIER, "GET", False),
        (IsPitBoss, roles.DEALER, "POST", False),
        (IsPitBoss, roles.PIT_BOSS, "POST", True),
        (IsCashier, roles.CASHIER, "POST", True),
        (IsCashier, roles.DEALER, "GET", False),
    ],
)
def test_role_permissions(permission: type, role: str, method: str, allowed: bool) -> None:
    user = User.objects.create_user(username=f"u-{role}")
    user.groups.set([Group.objects.get(name=role)])
    assert permission().has_permission(FakeRequest(user, method), view=None) is allowed
