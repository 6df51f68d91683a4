"""platform/CONNECTIONS.md: the shipped numbers keep every process within PostgreSQL's
max_connections (100), read from the files that enforce them."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = ROOT / "platform"
MAX_CONNECTIONS = 100  # PostgreSQL's default; docker-compose.yml's postgres keeps it
SUPERUSER_RESERVED = 3
KEPT_FOR_PEOPLE = 10


def _env_example() -> dict[str, str]:
    values = {}
    for line in (PLATFORM / "env.example").read_text().splitlines():
        if line and not line.startswith("#") and "=" in line:
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def _gunicorn_config(name: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The config file as gunicorn reads it, with the environment of env.example."""
    for variable in list(os.environ):
        if variable.startswith(("GUNICORN_", "STREAM_", "DB_POOL_")):
            monkeypatch.delenv(variable)
    monkeypatch.delenv("DB_POOL_MAX_SIZE", raising=False)  # restored after the test
    for variable, value in _env_example().items():
        monkeypatch.setenv(variable, value)
    config = runpy.run_path(str(PLATFORM / name))
    config["DB_POOL_MAX_SIZE"] = os.environ.get("DB_POOL_MAX_SIZE", "0")
    return config


def test_the_shipped_processes_fit_in_postgresqls_connections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    web = _gunicorn_config("gunicorn.conf.py", monkeypatch)
    assert web["worker_class"] == "sync" and "threads" not in web  # one connection per worker
    web_connections = int(web["workers"])  # type: ignore[call-overload]

    stream = _gunicorn_config("gunicorn-stream.conf.py", monkeypatch)
    pool = int(stream["DB_POOL_MAX_SIZE"])  # type: ignore[call-overload]
    assert pool >= 1, "the stream service must run with a pool"
    threads = int(stream["threads"])  # type: ignore[call-overload]
    stream_connections = int(stream["workers"]) * min(pool, threads)  # type: ignore[call-overload]

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    # One worker service per queue (worker-interactive, worker-matches, ...).
    workers = {name: service for name, service in services.items() if name.startswith("worker")}
    assert workers, "docker-compose.yml runs no Celery worker"
    worker_connections = 0
    for name, service in workers.items():
        concurrency = re.search(r"--concurrency[= ](\d+)", " ".join(service["command"]))
        assert concurrency, f"{name}: the concurrency must be fixed, not the machine's CPU count"
        worker_connections += int(concurrency.group(1)) + 1  # prefork children + the parent
    beat_connections = 1
    migrate_connections = 1

    total = (
        web_connections
        + stream_connections
        + worker_connections
        + beat_connections
        + migrate_connections
    )
    budget = MAX_CONNECTIONS - SUPERUSER_RESERVED - KEPT_FOR_PEOPLE
    assert total <= budget, (total, budget)
    # The written arithmetic is the one shipped.
    written = (PLATFORM / "CONNECTIONS.md").read_text()
    assert f"**total** | | | **{total}**" in written, total
    assert f"= **{budget}** ≥ {total}" in written


def _manage_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "DEBUG": "1",
        "DATABASE_URL": "postgres://adaptoid@db.example.org:5432/adaptoid",
    }
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c",
         "from django.conf import settings; print(settings.DATABASES['default'])"],
        cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DB_POOL_MAX_SIZE": "ten"}, "DB_POOL_MAX_SIZE='ten' is not an integer"),
        ({"DB_POOL_MAX_SIZE": "2", "DB_POOL_MIN_SIZE": "5"}, "must not exceed"),
        ({"DB_POOL_MAX_SIZE": "2", "CONN_MAX_AGE": "60"}, "CONN_MAX_AGE must be 0"),
        ({"DB_POOL_TIMEOUT": "0"}, "DB_POOL_TIMEOUT=0 must be at least 1"),
    ],
)
def test_bad_pool_settings_stop_the_process(env: dict[str, str], message: str) -> None:
    done = _manage_check(env)
    assert done.returncode != 0 and "ImproperlyConfigured" in done.stderr, done.stderr
    assert message in done.stderr, done.stderr


def test_the_pool_setting_reaches_django() -> None:
    done = _manage_check({"DB_POOL_MAX_SIZE": "3"})
    assert done.returncode == 0, done.stderr
    assert "'pool': {'min_size': 0, 'max_size': 3, 'timeout': 10}" in done.stdout
    assert "'CONN_MAX_AGE': 0" in done.stdout and "'CONN_HEALTH_CHECKS': True" in done.stdout
