"""Which language a rendering is printed in: asked per request, else the floor's default.

The floor's staff read Spanish, Brazilian Portuguese or English; a printed report is rendered
in one of them under ``translation.override``, and its local times in the casino's time zone.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils.translation.trans_real import parse_accept_lang_header

from tables.engine.errors import InvalidInputError

REPORT_LANGUAGES = ("es", "pt-br", "en")


def default_language() -> str:
    configured = str(getattr(settings, "CASINO_REPORT_LANGUAGE", "") or settings.LANGUAGE_CODE)
    return known_language(configured) or "en"


def known_language(code: str) -> str | None:
    """``pt_BR``, ``pt-BR`` and ``pt`` are ``pt-br``; ``es-ES`` is ``es``; else None."""
    text = code.strip().lower().replace("_", "-")
    if text in REPORT_LANGUAGES:
        return text
    base = text.split("-")[0]
    for language in REPORT_LANGUAGES:
        if language.split("-")[0] == base:
            return language
    return None


def requested_language(lang: str | None, accept_language: str | None) -> str:
    """``?lang=`` when given (refused when it is not one of the floor's languages), else the
    first of the ``Accept-Language`` header's languages the floor prints, else the default."""
    if lang:
        chosen = known_language(lang)
        if chosen is None:
            raise InvalidInputError(
                f"Reports print in {', '.join(REPORT_LANGUAGES)}; not in {lang!r}.",
                code="unknown_language",
            )
        return chosen
    for code, _quality in parse_accept_lang_header(accept_language or ""):
        if code != "*" and (chosen := known_language(code)) is not None:
            return chosen
    return default_language()


def local_time(value: object, *, zone_named: bool = False) -> str:
    """A document's UTC time (``2026-12-01T13:30:12.123456Z``) as the casino's local wall
    clock to the second, ``2026-12-01 14:30:12``, with the zone's name when asked."""
    if not isinstance(value, str):
        return "-" if value is None else str(value)
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    if moment.tzinfo is None:
        return value
    zone = settings.CASINO_TIME_ZONE
    local = moment.astimezone(UTC).astimezone(ZoneInfo(zone))
    text = local.strftime("%Y-%m-%d %H:%M:%S")
    return f"{text} {local.tzname()} ({zone})" if zone_named else text


def zone_name() -> str:
    return str(settings.CASINO_TIME_ZONE)
