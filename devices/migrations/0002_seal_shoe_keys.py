"""Shoe keys sealed at rest: the column becomes a sealed text field and every stored key is
sealed with CASINO_FIELD_KEY (and opened again if the migration is reversed)."""

from typing import Any

from django.db import migrations

import devices.sealed_keys


def _raw_keys(connection: Any) -> list[tuple[int, str]]:
    key = connection.ops.quote_name("key")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, {key} FROM devices_device WHERE {key} <> ''")
        return [(row[0], row[1]) for row in cursor.fetchall()]


def _write_raw(connection: Any, rows: list[tuple[int, str]]) -> None:
    key = connection.ops.quote_name("key")
    with connection.cursor() as cursor:
        for pk, value in rows:
            cursor.execute(f"UPDATE devices_device SET {key} = %s WHERE id = %s", [value, pk])


def seal_existing_keys(apps: Any, schema_editor: Any) -> None:
    rows = _raw_keys(schema_editor.connection)
    sealed = [(pk, devices.sealed_keys.seal(plain)) for pk, plain in rows]
    _write_raw(schema_editor.connection, sealed)


def open_sealed_keys(apps: Any, schema_editor: Any) -> None:
    rows = _raw_keys(schema_editor.connection)
    opened = [(pk, devices.sealed_keys.unseal(sealed)) for pk, sealed in rows]
    _write_raw(schema_editor.connection, opened)


class Migration(migrations.Migration):
    dependencies = [
        ("devices", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="device",
            name="key",
            field=devices.sealed_keys.SealedKeyField(blank=True),
        ),
        migrations.RunPython(seal_existing_keys, open_sealed_keys),
    ]
