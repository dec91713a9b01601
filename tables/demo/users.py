"""One demo user per role, with a known password (refused in production)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tables import roles


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str


DEMO_LOGINS = (
    DemoLogin("dealer1", "dealer1-demo", roles.DEALER),
    DemoLogin("dealer2", "dealer2-demo", roles.DEALER),
    DemoLogin("dealer3", "dealer3-demo", roles.DEALER),
    DemoLogin("dealer4", "dealer4-demo", roles.DEALER),
    DemoLogin("pitboss1", "pitboss1-demo", roles.PIT_BOSS),
    DemoLogin("pitboss2", "pitboss2-demo", roles.PIT_BOSS),
    DemoLogin("cashier1", "cashier1-demo", roles.CASHIER),
    DemoLogin("auditor1", "auditor1-demo", roles.AUDITOR),
    DemoLogin("admin1", "admin1-demo", roles.ADMIN),
)


def ensure_demo_users() -> list[DemoLogin]:
    """Create or reset the demo users; running it twice changes nothing."""
    user_model = get_user_model()
    for login in DEMO_LOGINS:
        user, _ = user_model.objects.get_or_create(username=login.username)
        user.set_password(login.password)
        is_admin = login.role == roles.ADMIN
        user.is_staff = is_admin or login.role in (roles.PIT_BOSS, roles.AUDITOR)
        user.is_superuser = is_admin
        user.save()
        user.groups.set([Group.objects.get(name=login.role)])
    return list(DEMO_LOGINS)
