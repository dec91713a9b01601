"""URL wiring: the API under /api/, its schema and docs, and the admin."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from casino.health import HealthView

urlpatterns = [
    path("api/health", HealthView.as_view(), name="health"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: the pages' CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/reports/", include("reports.api.urls")),
    path("api/devices/", include("devices.api.urls")),
    path("api/", include("tables.api.urls")),
    path("admin/", admin.site.urls),
]

handler400 = "casino.api_errors.bad_request"
handler403 = "casino.api_errors.forbidden"
handler404 = "casino.api_errors.not_found"
handler500 = "casino.api_errors.server_error"
