"""API tokens: one per sign-in, stored as digests by knox, revoked at logout and on a new password.

A token is shown once, in the answer to the sign-in that made it; the database keeps only its
digest. A password change ends every token of that person, wherever the change comes from (the
admin, a command, a future self-service page), because they all go through ``User.save``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.utils import timezone
from knox.models import AuthToken

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
