"""Gunicorn settings for the web service (--config platform/gunicorn.conf.py).

Sync workers behind nginx (platform/nginx.conf): nginx buffers the clients, and a
worker takes a request from the one shared queue only when it is free, so no request
waits behind a busy worker while another idles (the 99th percentile of bench/api_load.py
halved against threaded workers holding kept-alive connections).  The long-lived
event stream (/api/v1/stream/) is served by platform/gunicorn-stream.conf.py instead,
where a waiting connection costs a thread, not a worker.
"""

import gc
import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", str(multiprocessing.cpu_count() * 2)))
worker_class = "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
# Recycle workers now and then: bounds the damage of any slow leak.  The application is
# loaded once in the master (preload_app) and forked, so a recycled worker starts at once.
max_requests = 10000
max_requests_jitter = 1000
preload_app = True
# nginx in front logs every request (platform/nginx.conf: access_log); a second line
# per request from gunicorn cost each request its formatting.  GUNICORN_ACCESS_LOG=-
# (or a path) turns it on, e.g. without nginx.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# The TLS-terminating proxy in front sets X-Forwarded-Proto; trust it from anywhere in the
# compose network (Django's SECURE_PROXY_SSL_HEADER reads it).
forwarded_allow_ips = "*"


def post_worker_init(worker: object) -> None:
    """The application is loaded: hide its long-lived objects (~100k: modules, classes,
    URL patterns) from the cyclic garbage collector.  A full collection otherwise scans
    them all, about 50 ms on a small machine, stalling the request in flight (the 99th
    percentile).  Memory stays shared with the master, too."""
    gc.freeze()
