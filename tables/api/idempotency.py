"""Idempotent writes: a retry with the same Idempotency-Key and body gets the first answer.

The record is inserted in the same transaction as the write, so two concurrent retries
serialise on its unique key; a refused write (rolled back) leaves no record, and its
retry is simply decided again on the unchanged state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.db import transaction
from rest_framework.request import Request
from rest_framework.response import Response

from tables.engine.errors import RuleError
from tables.log.chain import canonical_json
from tables.models import IdempotencyRecord

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 200


def idempotency_key(request: Request) -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise RuleError(
            f"The {HEADER} header must be 1 to {MAX_KEY_LENGTH} printable characters.",
            code="invalid_idempotency_key",
            status=400,
        )
    return key


def fingerprint(request: Request) -> str:
    body = request.data if isinstance(request.data, dict) else {"_": request.data}
    seen = canonical_json({"method": request.method, "path": request.path, "body": body})
    return hashlib.sha256(seen).hexdigest()


def run_idempotently(request: Request, handler: Callable[[str | None], Response]) -> Response:
    """Call `handler(key)` once per (user, key); replay its stored answer on a retry."""
    key = idempotency_key(request)
    if key is None:
        return handler(None)
    digest = fingerprint(request)
    with transaction.atomic():
        record, created = IdempotencyRecord.objects.select_for_update().get_or_create(
            user=request.user, key=key, defaults={"fingerprint": digest}
        )
        if not created:
            return replay(record, digest)
        response = handler(key)
        record.status_code = response.status_code
        record.body = response.data
        record.save(update_fields=["status_code", "body"])
        return response


def replay(record: IdempotencyRecord, digest: str) -> Response:
    if record.fingerprint != digest:
        raise RuleError(
            "This Idempotency-Key was already used for a different request; use a new key.",
            code="idempotency_key_reused",
            status=409,
        )
    response = Response(record.body, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response
