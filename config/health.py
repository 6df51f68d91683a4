"""/healthz: what a load balancer or a container runtime asks."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.celery import app as celery_app
from stream.slots import stream_counts


def healthz(request: HttpRequest) -> HttpResponse:
    """Database, cache and broker status: 200 when all answer, 503 otherwise.

    Also the stream service's seats (`streams`: "ok", or "full" when only a bot's stream
    would still get one; `stream_slots`: the counts).  A full stream service leaves this
    node able to serve everything else, so it is reported, never a 503: a load balancer
    would take the web node out for what another service lacks."""
    from django.core.cache import cache

    checks: dict[str, str] = {}
    try:
        # A new connection (or one from the pool), not the one this process kept
        # (CONN_MAX_AGE): that one works on while the server refuses every new client,
        # and then every task fails (issue #14).
        if not connection.in_atomic_block:
            connection.close()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means "down", reported as text
        checks["database"] = f"error: {exc.__class__.__name__}"
    try:
        cache.set("healthz", "ok", 10)
        checks["cache"] = "ok" if cache.get("healthz") == "ok" else "error: value not stored"
    except Exception as exc:  # noqa: BLE001
        checks["cache"] = f"error: {exc.__class__.__name__}"
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2, timeout=3)
        checks["broker"] = "ok"
    except Exception as exc:  # noqa: BLE001
        checks["broker"] = f"error: {exc.__class__.__name__}"
    healthy = all(value == "ok" for value in checks.values())
    streams: dict[str, object] = {}
    try:
        counts = stream_counts()
        streams["streams"] = "full" if counts.full else "ok"
        streams["stream_slots"] = {
            "open": counts.open,
            "bots": counts.bots,
            "pages": counts.pages,
            "others": counts.others,
            "cap": counts.cap,
            "reserved_for_bots": counts.reserved_for_bots,
        }
    except Exception as exc:  # noqa: BLE001 - the cache's own line says it is down
        streams["streams"] = f"error: {exc.__class__.__name__}"
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks, **streams},
        status=200 if healthy else 503,
    )
