"""Shoe keys are sealed at rest with CASINO_FIELD_KEY; the stored column is never the key."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import override_settings

from devices.models import Device
from devices.registry.enrollment import device_enroll

pytestmark = pytest.mark.django_db
SEAL_MIGRATION = importlib.import_module("devices.migrations.0002_seal_shoe_keys")


def stored_key(device_id: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {connection.ops.quote_name('key')} FROM devices_device WHERE id = %s",
            [device_id],
        )
        value: str = cursor.fetchone()[0]
    return value


def test_the_stored_column_is_not_the_key() -> None:
    device = device_enroll(serial="SHOE-S1", port_url="loop://", key="table-7-shoe-secret")
    column = stored_key(device.pk)
    assert column
    assert "table-7-shoe-secret" not in column
    assert Device.objects.get(pk=device.pk).key_bytes == b"table-7-shoe-secret"


def test_an_unkeyed_shoe_stores_nothing() -> None:
    device = device_enroll(serial="SHOE-S2", port_url="loop://")
    assert stored_key(device.pk) == ""
    assert Device.objects.get(pk=device.pk).key_bytes is None
    assert Device.objects.get(pk=device.pk).keyed is False


def test_two_shoes_with_the_same_key_store_different_columns() -> None:
    first = device_enroll(serial="SHOE-S3", key="shared-secret")
    second = device_enroll(serial="SHOE-S4", key="shared-secret")
    assert stored_key(first.pk) != stored_key(second.pk)


def test_a_rotated_field_key_still_opens_the_old_seals() -> None:
    from django.conf import settings

    device = device_enroll(serial="SHOE-S5", key="before-rotation")
    old_key = settings.CASINO_FIELD_KEY
    new_key = Fernet.generate_key().decode()
    with override_settings(CASINO_FIELD_KEY=f"{new_key},{old_key}"):
        assert Device.objects.get(pk=device.pk).key == "before-rotation"
    with (
        override_settings(CASINO_FIELD_KEY=new_key),
        pytest.raises(ImproperlyConfigured, match="CASINO_FIELD_KEY"),
    ):
        Device.objects.get(pk=device.pk)


def test_the_migration_seals_keys_stored_in_clear_and_reverses() -> None:
    device = device_enroll(serial="SHOE-S6")
    quoted = connection.ops.quote_name("key")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE devices_device SET {quoted} = %s WHERE id = %s",
            ["legacy-clear-key", device.pk],
        )
    editor = SimpleNamespace(connection=connection)
    SEAL_MIGRATION.seal_existing_keys(None, editor)
    assert "legacy-clear-key" not in stored_key(device.pk)
    assert Device.objects.get(pk=device.pk).key == "legacy-clear-key"
    SEAL_MIGRATION.open_sealed_keys(None, editor)
    assert stored_key(device.pk) == "legacy-clear-key"
