"""Helpers of the tests that start real servers (gunicorn, nginx)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

BASE_DIR = Path(__file__).resolve().parents[2]


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


def start_gunicorn(
    env: dict[str, str], log: IO[bytes], config: str = "gunicorn.conf.py"
) -> subprocess.Popen[bytes]:
    """gunicorn serving the site with the shipped settings (platform/<config>), in a
    process group of its own (``os.killpg`` reaches its workers too), its output to
    `log`.  Bind it with GUNICORN_BIND in `env`, then ``wait_until_listening``."""
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application",
         "--config", str(BASE_DIR / "platform" / config)],
        cwd=BASE_DIR, env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
