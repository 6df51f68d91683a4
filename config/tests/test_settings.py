"""The env-driven settings: embedded default, production checks, refusing bad values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import settings as project_settings

BASE_DIR = Path(__file__).resolve().parents[2]


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # A clean environment: only what a bare shell has, plus what the test sets.
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        check=False,
        cwd=BASE_DIR,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_embedded_default_starts_with_no_environment() -> None:
    done = _manage("check", env={})
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_embedded_default_uses_sqlite_file_and_filesystem_broker() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE']); print(s.DATABASES['default']['NAME']);"
        "print(s.CELERY_BROKER_URL); print(s.DEBUG)"
    )
    done = _manage("shell", "-c", code, env={})
    assert done.returncode == 0, done.stderr
    engine, name, broker, debug = done.stdout.split()[-4:]
    assert engine == "django.db.backends.sqlite3"
    assert name == str(BASE_DIR / "var" / "db.sqlite3")
    assert broker == "filesystem://"
    assert debug == "False"


PRODUCTION = {
    "DATABASE_URL": "postgres://adaptoid:secret@db.example.org:5432/adaptoid",
    "REDIS_URL": "redis://cache.example.org:6379/0",
    "SECRET_KEY": "x7!Qp2-production-secret-key-that-is-long-and-random-9f3Kd0Zr4LwT8bN1mV6c",
    "ALLOWED_HOSTS": "adaptoid.example.org",
}


def test_production_settings_pass_check_deploy_without_warnings() -> None:
    done = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_without_secret_key_refuses_to_start() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    done = _manage("check", env=env)
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DEBUG", "maybe", "not a boolean"),
        ("DATABASE_URL", "mysql://x/y", "DATABASE_URL must start with"),
        ("REDIS_URL", "http://localhost", "REDIS_URL must start with"),
        ("SECURE_HSTS_SECONDS", "a year", "not an integer"),
        ("THROTTLE_TURNS", "abc", "is not a rate"),
        ("THROTTLE_TOKEN", "10/fortnight", "is not a rate"),
        ("THROTTLE_MESSAGES", "fast", "is not a rate"),
        ("TRUSTED_PROXIES", "-1", "must be at least 0"),
        ("AXES_FAILURE_LIMIT", "many", "not an integer"),
        ("JOBS_EVALUATION_SLOTS", "0", "must be at least 1"),
        ("JOBS_ANALYSIS_BACKLOG", "lots", "not an integer"),
        ("JOBS_SLICE_SECONDS", "600", "must be at most 120"),
        ("BOT_MATCH_MAX_RUNNING_TOTAL", "0", "must be at least 1"),
    ],
)
def test_bad_values_are_refused_at_startup(variable: str, value: str, message: str) -> None:
    done = _manage("check", env={variable: value})
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and message in done.stderr


def test_env_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_BOOL", "yes")
    monkeypatch.setenv("X_INT", "-3")
    monkeypatch.setenv("X_LIST", "a.org, b.org,,")
    assert project_settings.env_bool("X_BOOL") is True
    assert project_settings.env_bool("X_MISSING", True) is True
    assert project_settings.env_list("X_LIST", []) == ["a.org", "b.org"]
    assert project_settings.env_int("X_INT", 0) == -3
    with pytest.raises(ImproperlyConfigured, match="at least 0"):
        project_settings.env_int("X_INT", 0, minimum=0)


def test_redis_cache_uses_the_database_after_the_broker() -> None:
    assert project_settings._redis_with_db("redis://h:6379/0", 1) == "redis://h:6379/1"
    assert project_settings._redis_with_db("redis://h:6379", 1) == "redis://h:6379/1"
    with pytest.raises(ImproperlyConfigured):
        project_settings._redis_with_db("redis://h:6379/zero", 1)


@pytest.mark.parametrize(
    ("query", "expected"),
    [("", "True"), ("?server_side_binding=false", "False"), ("?server_side_binding=true", "True")],
)
def test_postgresql_binds_parameters_on_the_server_unless_told(query: str, expected: str) -> None:
    code = "from django.conf import settings as s; print(s.DATABASES['default']['OPTIONS'])"
    env = {**PRODUCTION, "DATABASE_URL": PRODUCTION["DATABASE_URL"] + query}
    done = _manage("shell", "-c", code, env=env)
    assert done.returncode == 0, done.stderr
    assert f"'server_side_binding': {expected}" in done.stdout.splitlines()[-1]


def test_an_sqlite_database_url_gets_the_embedded_defaults_options(tmp_path: Path) -> None:
    # WAL, IMMEDIATE and a lock timeout: without them concurrent turns answered
    # "database is locked" (500) when DATABASE_URL named an SQLite file.
    code = (
        "from django.conf import settings as s; o = s.DATABASES['default']['OPTIONS'];"
        "print(o['transaction_mode'], o['timeout'], 'WAL' in o['init_command'])"
    )
    done = _manage(
        "shell",
        "-c",
        code,
        env={"DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}", "ADAPTOID_TESTING": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-3:] == ["IMMEDIATE", "20", "True"]


def test_every_beat_entry_names_a_registered_task() -> None:
    from django.conf import settings

    from config.celery import app

    app.loader.import_default_modules()  # the apps' tasks modules, as a worker does
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in app.tasks, (name, entry["task"])
