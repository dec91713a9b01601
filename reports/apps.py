from django.apps import AppConfig


class ReportsConfig(AppConfig):
    """Shift accounting and the end-of-shift cashier and audit reports."""

    name = "reports"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A slip's void is a two-person step the table corrections carry out.
        import tables.services.custody.slips  # noqa: F401
        from reports.kinds import register_builtin_kinds
        from tables.services.custody.projectors import register_projector

        register_projector()
        register_builtin_kinds()
