"""Tables, their seats, and which dealer works which table."""

from __future__ import annotations

from django.conf import settings
from django.db import models

GENESIS_HASH = "0" * 64


class Table(models.Model):
    """A live table. Its row is the lock every writer on the table takes first."""

    class Game(models.TextChoices):
        SIETE_Y_MEDIO = "siete_y_medio", "Siete y Medio"
        SEVEN_CARD_STUD = "seven_card_stud", "Seven-Card Stud"

    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    name = models.CharField(max_length=64, unique=True)
    game = models.CharField(max_length=32, choices=Game.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.CLOSED)
    seat_count = models.PositiveSmallIntegerField()
    # Validated by the game engine's settings parser before it is stored (services.tables).
    settings = models.JSONField(default=dict)
    # The head of the hash chain, kept on the locked row so an append needs no extra read.
    head_seq = models.PositiveBigIntegerField(default=0)
    head_hash = models.CharField(max_length=64, default=GENESIS_HASH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_display()})"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player_label = models.CharField(max_length=64, blank=True)
    # Poker tables: the chips the player will start the next hand with (table stakes),
    # and chips bought during a hand, which play only from the next one.
    stack = models.PositiveBigIntegerField(default=0)
    pending_chips = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ("table", "number")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="seat_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table.name} seat {self.number}"


class DealerAssignment(models.Model):
    """A dealer's spell at a table; `ended_at` is empty while it lasts."""

    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="assignments"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="assignments")
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-started_at",)
        constraints = [
            models.UniqueConstraint(
                fields=("dealer",),
                condition=models.Q(ended_at__isnull=True),
                name="one_current_table_per_dealer",
            )
        ]

    def __str__(self) -> str:
        return f"{self.dealer} at {self.table.name}"
