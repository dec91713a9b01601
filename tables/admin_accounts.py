"""People in the admin: accounts are managed here, roles are not, and tokens are never read.

A role is a group; granting one is a two-person step done through the role service (who asks
and who approves are different people), so the admin cannot put himself or anyone else in a
group, make a superuser or hand out permissions here. Groups are read-only for the same reason:
renaming one would be a grant. A token is shown once to the person who signed in; here only
when it was made and when it expires, and it can be revoked (deleted).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import Group, User
from django.http import HttpRequest
from knox.models import AuthToken

ROLE_FIELDS = ("groups", "user_permissions", "is_superuser")


class AccountAdmin(UserAdmin):  # type: ignore[type-arg]
    """Django's user admin with every role-bearing field read-only."""

    readonly_fields = (*ROLE_FIELDS, "last_login", "date_joined")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # The add form asks only for a name and a password; a new user starts with no role.
        return () if obj is None else tuple(self.readonly_fields)


class GroupViewAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name",)
    fields = ("name",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Who holds a live token and until when; the token and its digest are never displayed."""

    list_display = ("user", "created", "expiry")
    list_display_links = None
    fields = ("user", "created", "expiry")
    search_fields = ("user__username",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a token is made by signing in, for oneself

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


for model, model_admin in ((User, AccountAdmin), (Group, GroupViewAdmin), (AuthToken, TokenAdmin)):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
    admin.site.register(model, model_admin)
