"""`/`: each role to its own screen."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from tables import roles

# In order of precedence, for a user who holds several roles.
ROLE_SCREENS = (
    (roles.DEALER, "tablet"),
    (roles.PIT_BOSS, "floor"),
    (roles.CASHIER, "cage"),
    (roles.AUDITOR, "audit"),
    (roles.ADMIN, "admin:index"),
)


def screen_url_for(user: object) -> str | None:
    for role, url_name in ROLE_SCREENS:
        if roles.has_role(user, role):  # type: ignore[arg-type]
            try:
                return reverse(url_name)
            except NoReverseMatch:
                continue  # that screen is not installed on this floor
    return None


@login_required
def landing(request: HttpRequest) -> HttpResponse:
    url = screen_url_for(request.user)
    if url is not None:
        return redirect(url)
    context = {
        "heading": _("No screen for your role"),
        "explanation": _("Your account has no role with a screen here. Ask the pit boss."),
    }
    return render(request, "pages/no_screen.html", context, status=403)
