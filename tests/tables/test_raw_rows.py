"""The hot reads written once (tables/raw_rows.py) load the same instances the ORM does: every
field's value and type, datetimes aware, on whichever database the suite runs on."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Model
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import CONSTANTS

from tables import raw_rows
from tables.auth_tokens import token_issue, token_rows
from tables.models import Table

pytestmark = pytest.mark.django_db


def field_values(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def assert_same_instance(raw: Model, orm: Model) -> None:
    assert type(raw) is type(orm)
    assert not raw._state.adding
    raw_values, orm_values = field_values(raw), field_values(orm)
    assert raw_values == orm_values
    assert {k: type(v) for k, v in raw_values.items()} == {
        k: type(v) for k, v in orm_values.items()
    }


def test_a_table_by_its_id_is_the_orm_s_table(tally_table: Table) -> None:
    Table.objects.filter(pk=tally_table.pk).update(settings={"max_add": 7, "nested": [1, "a"]})
    raw = raw_rows.by_pk(Table, tally_table.pk)
    assert raw is not None
    assert_same_instance(raw, Table.objects.get(pk=tally_table.pk))
    assert raw.settings == {"max_add": 7, "nested": [1, "a"]}


def test_no_such_table_is_none(tally_table: Table) -> None:
    assert raw_rows.by_pk(Table, tally_table.pk + 1000) is None


def test_a_token_row_carries_its_user_and_each_role(pit_boss_paula: User) -> None:
    token, _ = token_issue(user=pit_boss_paula)
    AuthToken.objects.filter(user=pit_boss_paula).update(expiry=timezone.now() + timedelta(hours=1))
    rows = token_rows(token[: CONSTANTS.TOKEN_KEY_LENGTH])
    assert [row.role for row in rows] == ["pit_boss"]
    stored = AuthToken.objects.select_related("user").get(
        token_key=token[: CONSTANTS.TOKEN_KEY_LENGTH]
    )
    assert_same_instance(rows[0], stored)
    assert_same_instance(rows[0].user, stored.user)
    assert rows[0].expiry is not None
    assert rows[0].expiry.tzinfo is not None
    assert rows[0].user.is_active is True
