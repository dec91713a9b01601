"""Who may open the supervising screens: each role its own, and a refusal page for the rest.

The services check again under their own locks; this only keeps a screen from being drawn
for someone it is not for. A refused request gets the same page, with status 403, whatever it
asked for (a page, a fragment or a POST), so nothing of the screen leaks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tables import roles
from tables.refusals import sentence_for

View = Callable[..., HttpResponse]


def screen_for(*allowed: str) -> Callable[[View], View]:
    """Only users holding one of the `allowed` roles get past; the others see why not."""

    def decorate(view: View) -> View:
        @login_required
        @wraps(view)
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not roles.has_role(request.user, *allowed):
                return refused(request)
            return view(request, *args, **kwargs)

        return guarded

    return decorate


def refused(request: HttpRequest) -> HttpResponse:
    context = {
        "heading": _("Not your screen"),
        "explanation": _("This screen is for another role. Your own screen is on the start page."),
    }
    return render(request, "pages/no_screen.html", context, status=403)


def refusal_text(error: Exception) -> str:
    """A refusal's sentence in the reader's language (its stable code stays in the log)."""
    return sentence_for(error)


def viewer(request: HttpRequest) -> User:
    """The signed-in user (the guard above let only those through)."""
    return cast(User, request.user)
