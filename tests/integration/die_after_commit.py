"""A web node that dies the worst way for a client: its command is committed, its answer is
never sent.

Only in the kill-a-node test's node settings (tests/integration/node_settings.py). When the
file named by CASINO_DIE_AFTER_COMMIT exists, the first table command answered 2xx with an
Idempotency-Key writes its key and path beside that file and sends SIGKILL to the node's whole
process group (the gunicorn master and its workers, started in a session of their own): a real
kill of the real processes, at the one moment HAProxy's retries cannot paper over. The
transaction that wrote the command's events and its idempotency record is committed by then
(the view's own atomic block has closed); the answer, built but not yet handed to the server,
dies with the process.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

from django.http import HttpRequest, HttpResponse

SWITCH_VARIABLE = "CASINO_DIE_AFTER_COMMIT"
KILLED_SUFFIX = ".killed"


def killed_record(switch: Path) -> Path:
    """Where the dying node leaves the key and path of the command it did not answer."""
    return switch.with_name(switch.name + KILLED_SUFFIX)


class DieAfterCommitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.switch = Path(os.environ[SWITCH_VARIABLE])

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            request.method == "POST"
            and request.path.startswith("/api/tables/")
            and 200 <= response.status_code < 300
            and "Idempotency-Key" in request.headers
            and self.switch.exists()
        ):
            self.die(f"{request.headers['Idempotency-Key']} {request.path}\n")
        return response

    def die(self, command: str) -> None:
        """Record the command, then kill the node. A worker serves requests on several threads:
        only the first to get here records its command (O_EXCL); another, racing it, returns
        its answer or dies with the node, whichever comes first."""
        try:
            descriptor = os.open(killed_record(self.switch), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        try:
            os.write(descriptor, command.encode())
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.killpg(os.getpgrp(), signal.SIGKILL)
