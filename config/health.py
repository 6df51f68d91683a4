"""/healthz: what a load balancer or a container runtime asks."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.celery import app as celery_app


def healthz(request: HttpRequest) -> HttpResponse:
    """Database, cache and broker status: 200 when all answer, 503 otherwise."""
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
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )
