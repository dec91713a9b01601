from django.apps import AppConfig


class ReportsConfig(AppConfig):
    """Shift accounting and the end-of-shift cashier and audit reports."""

    name = "reports"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from reports.kinds import register_builtin_kinds
        from reports.projectors import register_projector

        register_projector()
        register_builtin_kinds()
