from django.apps import AppConfig


class DevicesConfig(AppConfig):
    """The card-reading shoe: SHOE-LINK codec, reader daemon, device registry and simulator."""

    name = "devices"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from devices.feed_check import (
            feed_status,
            feed_status_statement,
            online_shoe_feeds,
            shoe_hold_reason,
        )
        from devices.registry.alerts import register_projector
        from tables.card_feeds import (
            register_feed_check,
            register_hold_check,
            register_status_check,
            register_status_statement,
        )

        register_feed_check(online_shoe_feeds)
        register_hold_check(shoe_hold_reason)
        register_status_check(feed_status)
        register_status_statement(feed_status_statement())
        register_projector()
