"""Routes of the device API, mounted at /api/devices/."""

from django.urls import path

from devices.api import views

urlpatterns = [
    path("", views.DeviceListView.as_view(), name="devices"),
    path("<int:device_id>", views.DeviceDetailView.as_view(), name="device"),
    path("<int:device_id>/bindings", views.BindingRequestView.as_view(), name="device-bind"),
    path("<int:device_id>/retire", views.DeviceRetireView.as_view(), name="device-retire"),
    path(
        "<int:device_id>/reactivate",
        views.DeviceReactivateView.as_view(),
        name="device-reactivate",
    ),
    path(
        "bindings/<int:binding_id>/approve",
        views.BindingApproveView.as_view(),
        name="device-binding-approve",
    ),
    path("holds/<int:hold_id>/entry", views.HoldEntryView.as_view(), name="device-hold-entry"),
    path(
        "holds/<int:hold_id>/approve", views.HoldApproveView.as_view(), name="device-hold-approve"
    ),
    path("gaps/<int:gap_id>/resolve", views.GapResolveView.as_view(), name="device-gap-resolve"),
]
