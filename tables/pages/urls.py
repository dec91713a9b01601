"""The screens' routes."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tables.pages import landing, tablet, tablet_taps

urlpatterns = [
    path("", landing.landing, name="landing"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tablet/", tablet.tablet_home, name="tablet"),
    path("tablet/tables/<int:table_id>/", tablet.tablet_table, name="tablet-table"),
    path("tablet/tables/<int:table_id>/state", tablet.tablet_fragment, name="tablet-fragment"),
    path(
        "tablet/tables/<int:table_id>/commands",
        tablet_taps.tablet_command,
        name="tablet-command",
    ),
]
