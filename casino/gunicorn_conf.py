"""gunicorn's settings for `make serve`: uvicorn workers serving casino.asgi (HTTP and
websockets) under gunicorn's supervision. Every value can be set from the environment.

gunicorn restarts a worker that dies or stops answering (`timeout`), and on SIGTERM (or
SIGHUP for a reload) lets each worker finish its requests in flight for up to
`graceful_timeout` seconds before it is stopped.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

# Each worker shares one pool of database connections among its request threads (settings).
os.environ.setdefault("DATABASE_POOL_SIZE", "8")

bind = os.environ.get("CASINO_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", str(multiprocessing.cpu_count() * 2)))
# uvicorn's worker, with an answer's headers and body sent in one write (casino/http_server.py).
worker_class = "casino.http_server.CasinoUvicornWorker"
# A request that takes longer than this has a hung worker behind it: gunicorn replaces it.
timeout = int(os.environ.get("CASINO_WORKER_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("CASINO_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
# Workers are recycled now and then (with jitter, not all at once) to bound any slow leak.
max_requests = int(os.environ.get("CASINO_MAX_REQUESTS", "20000"))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("CASINO_ACCESS_LOG") or None  # "-" for stdout; off by default
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
proc_name = "casino-web"
# The control socket's default path is one per user, shared by every server of that user.
control_socket_disable = True


def post_worker_init(worker: Any) -> None:
    """The worker has loaded the application: settle its heap (casino/worker_heap.py)."""
    from casino.worker_heap import settle

    worker.log.info("Worker heap settled: %s objects frozen", settle())


def worker_exit(server: Any, worker: Any) -> None:
    """The worker has stopped serving: its last writes' change notices are still queued on the
    publisher's daemon thread, which dies with the process. Send them first (a second at most:
    a page that misses one re-reads the table when it reconnects)."""
    from tables.live.publisher import wait_until_sent

    if not wait_until_sent(timeout=1.0):
        worker.log.warning("Some change notices were still unsent when the worker stopped")
