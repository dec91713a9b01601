from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The floor and the games: tables, rounds, the event log and the services that write it."""

    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported for their side effects: the game engines register themselves, and tokens
        # end when a password changes.
        from tables import auth_tokens, bindings  # noqa: F401
        from tables.pages import floor_drawing
        from tables.services.projections import register_projectors

        register_projectors()
        # The floor's tiles are drawn on commit by the process that wrote.
        floor_drawing.register()
