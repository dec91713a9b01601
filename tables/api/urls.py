"""The table API's routes."""

from django.urls import path

from tables.api.views_me import MeView

urlpatterns = [
    path("me", MeView.as_view(), name="me"),
]
