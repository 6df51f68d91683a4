"""Helpers of the tests that start real servers (gunicorn, nginx)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on (now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
