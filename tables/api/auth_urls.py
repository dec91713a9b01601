"""The API's sign-in routes, mounted under /api/auth/."""

from django.urls import path

from tables.api.auth_views import LogoutAllView, LogoutView, TokenLoginView

urlpatterns = [
    # A tablet signs in with username and password and keeps the token it gets.
    path("token", TokenLoginView.as_view(), name="auth-token"),
    path("logout", LogoutView.as_view(), name="auth-logout"),
    path("logout-all", LogoutAllView.as_view(), name="auth-logout-all"),
]
