"""Gunicorn settings for the stream service (--config platform/gunicorn-stream.conf.py).

Serves GET /api/v1/stream/events and /api/v1/stream/page-events (nginx routes
/api/v1/stream/ here, platform/nginx-locations.conf): each bot, and each open tab of a
logged-in player, holds a connection (a thread) for up to STREAM_MAX_SECONDS, mostly
asleep between polls, so one process with many threads carries many.  The streams'
total (STREAM_MAX_TOTAL, stream/slots.py) stays below the threads, checked at start:
threads are always left to answer a refused stream (503 `busy`, the pages then poll)
and /healthz at once.  The same application and settings as the web service
(platform/gunicorn.conf.py, read first), but for these.
"""

import os
import runpy
from pathlib import Path
from typing import Any

_web = runpy.run_path(str(Path(__file__).with_name("gunicorn.conf.py")))
globals().update({name: value for name, value in _web.items() if not name.startswith("_")})

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8001")
# Its own variable, not GUNICORN_WORKERS: the env file is shared with the web service,
# and every stream process counts in the connection budget (platform/CONNECTIONS.md).
workers = int(os.environ.get("STREAM_WORKERS", "1"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "100"))
# Threads share a pool of at most this many PostgreSQL connections per process, and a
# stream gives its connection back between polls (stream/events.py): 100 waiting
# streams need a handful, not 100.  Read by config/settings.py (DB_POOL_MAX_SIZE).
os.environ.setdefault("DB_POOL_MAX_SIZE", "10")
worker_connections = threads
keepalive = 5
# Never recycled (the web service's max_requests is not for this one): a recycled process
# first waits for its open streams (up to STREAM_MAX_SECONDS) before a new one is forked,
# and meanwhile nobody answers.  The soak (bench/soak.py) saw 35 s without an answer each
# time 110 clients' reconnections reached max_requests.
max_requests = 0
max_requests_jitter = 0


def on_starting(server: Any) -> None:
    """Refuse to start when the streams' total could take every thread: a refusal and
    /healthz would then wait for a stream to end (minutes).  The numbers gunicorn really
    uses (command line included) against the settings (loaded already: preload_app)."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    threads_total = server.cfg.workers * server.cfg.threads
    if settings.STREAM_MAX_TOTAL >= threads_total:
        raise ImproperlyConfigured(
            f"STREAM_MAX_TOTAL={settings.STREAM_MAX_TOTAL} must be below the stream "
            f"service's threads ({server.cfg.workers} processes (STREAM_WORKERS) x "
            f"{server.cfg.threads} threads (GUNICORN_THREADS) = {threads_total}): the "
            "threads it leaves free answer refused streams and /healthz"
        )
