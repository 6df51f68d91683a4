"""Helpers of the tests that start real servers (gunicorn, nginx)."""

from __future__ import annotations

import socket
import subprocess
import time


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on (now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_listening(process: subprocess.Popen[bytes], port: int, seconds: float = 60) -> None:
    """Wait until something accepts connections on 127.0.0.1:port; fail at once if the
    server process exits first (its error is then in its log, not in a timeout)."""
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, f"{process.args!r} exited with {process.returncode}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, f"nothing listens on port {port}"
            time.sleep(0.2)
