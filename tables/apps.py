from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The floor and the games: tables, rounds, the event log and the services that write it."""

    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables import bindings  # noqa: F401 - registers the game engines
        from tables.services.projections import register_projectors

        register_projectors()
