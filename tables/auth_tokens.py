"""API tokens: one per sign-in, stored as digests by knox, revoked at logout and on a new password.

A token is shown once, in the answer to the sign-in that made it; the database keeps only its
digest. A password change ends every token of that person, wherever the change comes from (the
admin, a command, a future self-service page), because they all go through ``User.save``.
"""

from __future__ import annotations

import binascii
from datetime import datetime
from functools import lru_cache
from hmac import compare_digest
from typing import Any

import knox.auth
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.db.models import Q
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework import exceptions

from tables import roles
from tables.raw_rows import ModelColumns, fetch_all

PASSWORD_CHANGED = "_casino_password_changed"


def token_issue(*, user: User) -> tuple[str, datetime | None]:
    """A new token for ``user`` and when it expires. Expired tokens go first; past the per-user
    limit the oldest live ones are revoked, so a tablet that lost its token can sign in again."""
    now = timezone.now()
    tokens = AuthToken.objects.filter(user=user)
    tokens.filter(expiry__lt=now).delete()
    limit = max(1, int(settings.CASINO_TOKENS_PER_USER))
    live = tokens.filter(Q(expiry__gte=now) | Q(expiry__isnull=True)).order_by("-created")
    surplus = list(live.values_list("digest", flat=True)[limit - 1 :])
    if surplus:
        AuthToken.objects.filter(digest__in=surplus).delete()
    instance, token = AuthToken.objects.create(user=user)
    return token, instance.expiry


def token_revoke(*, token: AuthToken) -> None:
    token.delete()


def tokens_revoke_all(*, user: User) -> int:
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return int(deleted)


@receiver(pre_save, sender=User)
def _note_password_change(sender: type[User], instance: User, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = User.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        setattr(instance, PASSWORD_CHANGED, True)


@receiver(post_save, sender=User)
def _revoke_tokens_on_password_change(sender: type[User], instance: User, **kwargs: Any) -> None:
    if getattr(instance, PASSWORD_CHANGED, False):
        setattr(instance, PASSWORD_CHANGED, False)
        tokens_revoke_all(user=instance)


class TokenAuthentication(knox.auth.TokenAuthentication):  # type: ignore[misc]
    """knox's token check in one query: the token, its user and the user's role groups.

    knox reads the token with its user, then every other token of that user (to delete the
    expired ones), and the roles cost a third query. Here one statement joins the three; the
    expired tokens go at the next sign-in (`token_issue`), and an expired token is refused and
    deleted as knox does. Nothing is cached between requests, so a logout, a new password or a
    changed role counts from the very next request, on every server process. The statement is
    written once per process (`token_rows`): building the ORM's join for every request was
    about a seventh of a command's CPU under the production server.
    """

    def authenticate_credentials(self, token: bytes) -> tuple[User, AuthToken]:
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error):
            raise _refused() from None
        rows = token_rows(text[: CONSTANTS.TOKEN_KEY_LENGTH])
        found = [row for row in rows if compare_digest(digest, row.digest)]
        if not found:
            raise _refused()
        auth_token = found[0]
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            AuthToken.objects.filter(digest=auth_token.digest).delete()
            raise _refused()
        user = auth_token.user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        held = frozenset(row.role for row in found if row.role is not None)
        setattr(user, roles.CACHE_ATTRIBUTE, held)
        return user, auth_token


def _refused() -> exceptions.AuthenticationFailed:
    # Made when a token is refused, not for every request that brings a good one.
    return exceptions.AuthenticationFailed(_("Invalid token."))


@lru_cache(maxsize=1)
def _token_statement() -> tuple[str, ModelColumns, ModelColumns]:
    """The token, its user and the user's group names for one token key."""
    token, user = ModelColumns.of(AuthToken, "t"), ModelColumns.of(User, "u")
    quote = connection.ops.quote_name
    through = User.groups.through._meta.db_table
    sql = (
        f"SELECT {token.sql}, {user.sql}, g.{quote('name')} "
        f"FROM {quote(AuthToken._meta.db_table)} t "
        f"JOIN {quote(User._meta.db_table)} u ON u.{quote('id')} = t.{quote('user_id')} "
        f"LEFT JOIN {quote(through)} ug ON ug.{quote('user_id')} = u.{quote('id')} "
        f"LEFT JOIN {quote(Group._meta.db_table)} g ON g.{quote('id')} = ug.{quote('group_id')} "
        f"WHERE t.{quote('token_key')} = %s"
    )
    return sql, token, user


def token_rows(token_key: str) -> list[AuthToken]:
    """Every token with this key (keys may repeat; digests do not), each with its user read in
    the same row and its group's name as `role` (one row per group, None without one)."""
    sql, token_columns, user_columns = _token_statement()
    fetched = fetch_all(sql, [token_key])
    rows = []
    split = len(token_columns)
    for values in fetched:
        token = token_columns.instance(values[:split])
        token.user = user_columns.instance(values[split:-1])
        token.role = values[-1]
        rows.append(token)
    return rows


class TokenScheme(KnoxTokenScheme):  # type: ignore[no-untyped-call]
    """The API documentation's description of the token header, as for knox's own class."""

    target_class = "tables.auth_tokens.TokenAuthentication"
