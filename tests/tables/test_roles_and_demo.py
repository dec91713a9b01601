"""The five roles exist from the first migration; the demo seed is idempotent."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from tables import roles

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
