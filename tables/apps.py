from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The floor and the games: tables, rounds, the event log and the services that write it."""

    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported for their side effects: the game engines register themselves, and tokens
        # end when a password changes.
        from tables import auth_tokens, bindings  # noqa: F401
        from tables.services.projections import register_projectors

        register_projectors()
