"""Where a request comes from: the one answer for the throttles and the log-in lockout."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_address(request: Any) -> str:
    """The client's IP address: the connection's own, or the one our proxies wrote.

    X-Forwarded-For is believed only as far as TRUSTED_PROXIES of our own proxies wrote
    it; a client that sends the header itself to a site with no trusted proxy changes
    nothing.  Behind the shipped nginx it is one hop whatever stands in front: nginx
    replaces the header with the client's address, the connection's or, behind the
    proxies of NGINX_REAL_IP_FROM, the one they saw (platform/nginx.conf, real_ip).
    """
    meta = request.META
    remote = str(meta.get("REMOTE_ADDR", ""))
    proxies = int(settings.TRUSTED_PROXIES)
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return remote
