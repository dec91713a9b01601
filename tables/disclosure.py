"""What of a card may be shown outside the engine: one answer for the admin, the device report,
the audit report and the log lines.

A face-down card (the bank's, a box's, a Stud hole card, a burn) is known to the server and the
log only until it is revealed or its round is over (closed or voided). Before that, every
surface asks :func:`secrets_of` for the round's hidden codes and shows values through
:meth:`RoundSecrets.shown` / :meth:`RoundSecrets.text`, which put ``None`` (the engine's own
"a face-down card") in place of a hidden code and "a face-down card" in place of it in a
sentence. After the round is over nothing is hidden: the auditor sees everything.

A card counts as seen only when its event says so (dealt face up, a community card, a misdrawn
card); any other card an event carries is hidden until it is turned up (``card.revealed``, a
hand shown at showdown). The rule reads the log's fields, never a game's name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tables.models import Round, TableEvent

OVER = (Round.Status.CLOSED, Round.Status.VOIDED)
# The rest, named so a query can use the (table, status) index: excluding OVER instead reads
# every round the table ever played.
NOT_OVER = tuple(status for status in Round.Status.values if status not in OVER)
HIDDEN_IN_TEXT = "a face-down card"
# Events whose card everyone at the table has seen, and the one that turns a card up.
SEEN_CARD_EVENTS = frozenset({"card.community", "card.misdrawn"})
REVEALED = "card.revealed"
# Events that turn hidden cards up (a Stud hand shown at showdown, a mucked hand shown).
SHOWN_CARDS_EVENTS = frozenset({"hand.shown", "hand.mucked_shown"})
CARD_LIST_KEYS = ("down_cards",)
WITHHELD = {"withheld": "until the round is over"}


@dataclass(frozen=True)
class RoundSecrets:
    """The card codes of one round that nobody may see yet; empty once the round is over."""

    hidden: frozenset[str] = frozenset()

    def card(self, code: str | None) -> str | None:
        return None if code in self.hidden else code

    def shown(self, value: Any) -> Any:
        """A JSON value (payload, details, report row) with every hidden code taken out."""
        if not self.hidden:
            return value
        if isinstance(value, str):
            return None if value in self.hidden else self.text(value)
        if isinstance(value, Mapping):
            return {key: self.shown(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.shown(item) for item in value]
        return value

    def text(self, sentence: str) -> str:
        """A sentence (an alert, a finding, a log line) that names no hidden card."""
        if not self.hidden or not sentence:
            return sentence
        return _code_pattern(self.hidden).sub(HIDDEN_IN_TEXT, sentence)


NOTHING_HIDDEN = RoundSecrets()


def round_is_over(round_: Round | None) -> bool:
    """Table-level facts (no round) hold no card; a round's secrets last until it is over."""
    return round_ is None or round_.status in OVER


def secrets_of(round_: Round | None) -> RoundSecrets:
    """The hidden codes of ``round_`` now: every card its events carry that no event has shown."""
    if round_is_over(round_):
        return NOTHING_HIDDEN
    events = TableEvent.objects.filter(round=round_).order_by("seq")
    return RoundSecrets(hidden=hidden_codes(events.values_list("type", "payload")))


def hidden_codes(events: Iterable[tuple[str, Any]]) -> frozenset[str]:
    """Fold a round's ``(type, payload)`` pairs into the codes still face down. Only turning a
    card up (a reveal, a hand shown) frees its code: the same code seen face up elsewhere (a
    duplicate read) says nothing about the face-down one, so it stays hidden."""
    hidden: set[str] = set()
    turned_up: set[str] = set()
    for event_type, payload in events:
        if not isinstance(payload, Mapping):
            continue
        if event_type in SHOWN_CARDS_EVENTS:
            turned_up.update(_card_list(payload))
            continue
        code = payload.get("card")
        if event_type == REVEALED and isinstance(code, str):
            turned_up.add(code)
        elif isinstance(code, str) and code and not _card_is_seen(event_type, payload):
            hidden.add(code)
        misread = payload.get("misread")  # a held read replaced by a correction
        if isinstance(misread, str) and misread:
            hidden.add(misread)
    return frozenset(hidden - turned_up)


def event_payload_shown(event: TableEvent) -> Any:
    """An event's payload as a page may show it: whole once its round is over, and withheld
    while the round is live (even without a card, a live event can tell what a card is)."""
    if round_is_over(event.round):
        return event.payload
    return WITHHELD


class Disclosure:
    """Secrets per round for a listing that spans many rounds (one query per live round)."""

    def __init__(self) -> None:
        self._by_round: dict[int, RoundSecrets] = {}

    def of(self, round_: Round | None) -> RoundSecrets:
        if round_is_over(round_):
            return NOTHING_HIDDEN
        assert round_ is not None
        if round_.pk not in self._by_round:
            self._by_round[round_.pk] = secrets_of(round_)
        return self._by_round[round_.pk]

    def of_live_rounds(self, table_id: int) -> RoundSecrets:
        """Every hidden code at a table, for a fact that names no round."""
        live = Round.objects.filter(table_id=table_id, status__in=NOT_OVER)
        hidden: frozenset[str] = frozenset()
        for round_ in live:
            hidden |= self.of(round_).hidden
        return RoundSecrets(hidden=hidden) if hidden else NOTHING_HIDDEN


def _card_is_seen(event_type: str, payload: Mapping[str, Any]) -> bool:
    return (
        event_type in SEEN_CARD_EVENTS
        or payload.get("face_up") is True
        or payload.get("face") == "up"
    )


def _card_list(payload: Mapping[str, Any]) -> set[str]:
    codes: set[str] = set()
    for key in CARD_LIST_KEYS:
        cards = payload.get(key)
        if isinstance(cards, list):
            codes.update(code for code in cards if isinstance(code, str))
    return codes


def _code_pattern(codes: frozenset[str]) -> re.Pattern[str]:
    # Whole codes only: hiding "7O" must not touch "17Ox" or a serial number.
    alternatives = "|".join(re.escape(code) for code in sorted(codes, key=len, reverse=True))
    return re.compile(rf"(?<![0-9A-Za-z])(?:{alternatives})(?![0-9A-Za-z])")
