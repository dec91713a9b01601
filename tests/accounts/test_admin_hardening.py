"""The admin manages accounts but grants no role, reads no token, and cannot re-point a bound
shoe without a new approval."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from rest_framework.test import APIClient

from devices.models import Device, DeviceBinding
from devices.registry.enrollment import (
    binding_approve,
    binding_request,
    current_binding,
    device_enroll,
)
from tables import roles
from tables.engine.errors import RuleError
from tables.services.floor import table_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_browser(db: None) -> tuple[Client, User]:
    root = User.objects.create_superuser("root", password="root-pw")
    root.groups.set(Group.objects.filter(name=roles.ADMIN))
    browser = Client()
    browser.force_login(root)
    return browser, root


def user_form(user: User, **changes: Any) -> dict[str, Any]:
    form = {
        "username": user.username,
        "first_name": "",
        "last_name": "",
        "email": "",
        "is_active": "on",
        "is_staff": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        "initial-date_joined_0": "2026-01-01",
        "initial-date_joined_1": "00:00:00",
    }
    form.update(changes)
    return form


def test_the_admin_cannot_give_himself_a_role(admin_browser: tuple[Client, User]) -> None:
    browser, root = admin_browser
    pit_boss = Group.objects.get(name=roles.PIT_BOSS)
    page = browser.get(f"/admin/auth/user/{root.pk}/change/")
    assert page.status_code == 200
    assert b'name="groups"' not in page.content
    assert b'name="is_superuser"' not in page.content
    assert b'name="user_permissions"' not in page.content
    response = browser.post(
        f"/admin/auth/user/{root.pk}/change/", user_form(root, groups=[pit_boss.pk])
    )
    assert response.status_code == 302, response.content[:500]
    assert not root.groups.filter(name=roles.PIT_BOSS).exists()


def test_the_admin_cannot_give_anyone_a_role_or_superuser(
    admin_browser: tuple[Client, User], dealer_dora: User
) -> None:
    browser, _ = admin_browser
    pit_boss = Group.objects.get(name=roles.PIT_BOSS)
    form = user_form(dealer_dora, groups=[pit_boss.pk], is_superuser="on")
    assert browser.post(f"/admin/auth/user/{dealer_dora.pk}/change/", form).status_code == 302
    dealer_dora.refresh_from_db()
    assert list(dealer_dora.groups.values_list("name", flat=True)) == [roles.DEALER]
    assert not dealer_dora.is_superuser


def test_a_group_cannot_be_renamed_into_a_role(admin_browser: tuple[Client, User]) -> None:
    browser, _ = admin_browser
    admins = Group.objects.get(name=roles.ADMIN)
    assert browser.get("/admin/auth/group/").status_code == 200
    renamed = browser.post(f"/admin/auth/group/{admins.pk}/change/", {"name": "pit_boss_2"})
    assert renamed.status_code == 403
    assert browser.post("/admin/auth/group/add/", {"name": "x"}).status_code == 403
    assert Group.objects.get(pk=admins.pk).name == roles.ADMIN


def test_the_admin_lists_who_holds_tokens_but_never_a_token(
    admin_browser: tuple[Client, User], dealer_dora: User
) -> None:
    from knox.models import AuthToken

    browser, _ = admin_browser
    token = APIClient().post("/api/auth/token", {"username": "dora", "password": "dora-pw"})
    secret = token.json()["token"]
    stored = AuthToken.objects.get(user=dealer_dora)
    listing = browser.get("/admin/knox/authtoken/").content.decode()
    assert "dora" in listing
    assert secret not in listing
    assert secret[:15] not in listing
    assert browser.get("/admin/knox/authtoken/add/").status_code == 403
    detail = browser.get(f"/admin/knox/authtoken/{stored.pk}/change/").content.decode()
    assert secret[:15] not in detail


@pytest.fixture
def bound_shoe(pit_boss_paula: User, pit_boss_pedro: User) -> Device:
    table = table_create(name="SYM-9", game="siete_y_medio", seat_count=6)
    device = device_enroll(serial="SHOE-9", port_url="loop://", key="k9")
    binding = binding_request(device_id=device.pk, table_id=table.pk, by=pit_boss_paula)
    binding_approve(binding_id=binding.pk, by=pit_boss_pedro)
    device.refresh_from_db()
    assert current_binding(device) is not None
    return device


def device_form(device: Device, **changes: str) -> dict[str, str]:
    form = {
        "serial": device.serial,
        "model": device.model,
        "firmware_version": device.firmware_version,
        "firmware_hash": device.firmware_hash,
        "port_url": device.port_url,
    }
    form.update(changes)
    return form


def test_a_bound_shoe_moved_to_another_port_needs_its_binding_approved_again(
    admin_browser: tuple[Client, User], bound_shoe: Device, pit_boss_paula: User
) -> None:
    browser, root = admin_browser
    url = f"/admin/devices/device/{bound_shoe.pk}/change/"
    response = browser.post(url, device_form(bound_shoe, port_url="socket://10.0.0.9:7000"))
    assert response.status_code == 302, response.content[:500]
    bound_shoe.refresh_from_db()
    assert bound_shoe.port_url == "socket://10.0.0.9:7000"
    assert bound_shoe.key_bytes == b"k9"  # the sealed key survives the edit
    assert current_binding(bound_shoe) is None
    ended, pending = DeviceBinding.objects.filter(device=bound_shoe).order_by("requested_at")
    assert ended.end_reason == "reconfigured: port_url"
    assert (pending.requested_by, pending.approved_at) == (root, None)
    # The admin cannot approve the request he made; a pit boss can.
    with pytest.raises(RuleError):
        binding_approve(binding_id=pending.pk, by=root)
    binding_approve(binding_id=pending.pk, by=pit_boss_paula)
    assert current_binding(bound_shoe) is not None


def test_new_firmware_in_the_admin_needs_a_new_approval_too(
    admin_browser: tuple[Client, User], bound_shoe: Device
) -> None:
    browser, _ = admin_browser
    url = f"/admin/devices/device/{bound_shoe.pk}/change/"
    browser.post(url, device_form(bound_shoe, firmware_version="9.9.9"))
    assert current_binding(bound_shoe) is None


def test_saving_a_shoe_unchanged_keeps_its_binding(
    admin_browser: tuple[Client, User], bound_shoe: Device
) -> None:
    browser, _ = admin_browser
    browser.post(f"/admin/devices/device/{bound_shoe.pk}/change/", device_form(bound_shoe))
    assert current_binding(bound_shoe) is not None
