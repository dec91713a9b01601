"""URL wiring: the API under /api/, its schema and docs, the admin, and the screens."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from casino import health
from casino.health import HealthView

urlpatterns = [
    path("api/health", HealthView.as_view(), name="health"),
    path("api/live", health.live, name="live"),
    path("api/ready", health.ready, name="ready"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: the pages' CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/auth/", include("tables.api.auth_urls")),
    path("api/reports/", include("reports.api.urls")),
    path("api/devices/", include("devices.api.urls")),
    path("api/", include("tables.api.urls")),
    path("admin/", admin.site.urls),
    # --- Pages and live updates
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tables.pages.urls")),
    # The supervising screens: the pit boss's floor, the cage and the audit desk.
    path("", include("tables.pages.floor_urls")),
    path("", include("reports.pages.urls")),
]

handler400 = "casino.api_errors.bad_request"
handler403 = "casino.api_errors.forbidden"
handler404 = "casino.api_errors.not_found"
handler500 = "casino.api_errors.server_error"
