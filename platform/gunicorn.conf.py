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
import random

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


# A worker's first requests import and build what Django loads lazily (the URLconf with
# every view and serializer, the cache and broker clients): tens of thousands of objects
# that would stay in the oldest generation, scanned by every full collection (10-25 ms of
# CPU each on this 2-core machine).  After this many requests they are frozen too.
FREEZE_AFTER_REQUESTS = 200

_requests_served = 0


def post_worker_init(worker: object) -> None:
    """The application is loaded: hide its long-lived objects (~100k: modules, classes,
    URL patterns) from the cyclic garbage collector.  A full collection otherwise scans
    them all, about 50 ms on a small machine, stalling the request in flight (the 99th
    percentile).  Memory stays shared with the master, too.

    Forked alike and fed alike, the workers would also collect in step: several full
    collections at once stall the whole server, and every request in flight with it
    (bench/api_load.py counts such bursts).  A first threshold drawn per worker sets them
    apart."""
    gc.freeze()
    threshold0, threshold1, threshold2 = gc.get_threshold()
    gc.set_threshold(random.randint(threshold0, 2 * threshold0), threshold1, threshold2)


def post_request(worker: object, req: object, environ: object, resp: object) -> None:
    """Freeze once more when the worker is warm (see FREEZE_AFTER_REQUESTS), after a
    collection so that no garbage is frozen with the rest."""
    global _requests_served
    _requests_served += 1
    if _requests_served == FREEZE_AFTER_REQUESTS:
        gc.collect()
        gc.freeze()
