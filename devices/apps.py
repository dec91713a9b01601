from django.apps import AppConfig


class DevicesConfig(AppConfig):
    """The card-reading shoe: SHOE-LINK codec, reader daemon, device registry and simulator."""

    name = "devices"
    default_auto_field = "django.db.models.BigAutoField"
