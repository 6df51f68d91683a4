"""Gunicorn settings for the stream service (--config platform/gunicorn-stream.conf.py).

Serves GET /api/v1/stream/events (nginx routes it here, platform/nginx.conf): each bot
holds a connection for up to STREAM_MAX_SECONDS, mostly asleep between polls, so one
process with many threads carries many bots.  The same application as the web service.
"""

import gc
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8001")
workers = int(os.environ.get("GUNICORN_WORKERS", "1"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "100"))
worker_connections = threads
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))  # the worker's heartbeat
graceful_timeout = 20
keepalive = 5
preload_app = True
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
forwarded_allow_ips = "*"


def post_worker_init(worker: object) -> None:
    """As in platform/gunicorn.conf.py: the loaded application out of the collector's sight."""
    gc.freeze()
