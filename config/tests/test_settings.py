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
    "SITE_URL": "https://adaptoid.example.org",
    "EMAIL_HOST": "smtp.example.org",
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
    ("missing", "message"),
    [
        ("SITE_URL", "SITE_URL must be set in production"),
        ("EMAIL_HOST", "EMAIL_HOST must be set in production"),
    ],
)
def test_production_without_the_sites_address_or_mail_relay_refuses_to_start(
    missing: str, message: str
) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    done = _manage("check", env=env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and message in done.stderr


def test_production_refuses_a_site_url_whose_host_is_not_allowed() -> None:
    done = _manage("check", env={**PRODUCTION, "SITE_URL": "https://elsewhere.example.org"})
    assert done.returncode != 0
    assert "is not in ALLOWED_HOSTS" in done.stderr
    # A leading dot allows the domain and its subdomains, as Django reads it.
    env = {**PRODUCTION, "ALLOWED_HOSTS": ".example.org", "SITE_URL": "https://example.org/"}
    assert _manage("check", env=env).returncode == 0


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"EMAIL_PORT": "smtp"}, "EMAIL_PORT='smtp' is not an integer"),
        ({"EMAIL_PORT": "0"}, "EMAIL_PORT=0 must be at least 1"),
        ({"EMAIL_PORT": "70000"}, "EMAIL_PORT=70000 must be at most 65535"),
        ({"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, "exclude each other"),
        ({"EMAIL_USE_TLS": "sometimes"}, "not a boolean"),
        ({"EMAIL_HOST_USER": "adaptoid"}, "EMAIL_HOST_USER and EMAIL_HOST_PASSWORD go together"),
        ({"EMAIL_HOST_PASSWORD": "secret"}, "go together"),
        ({"EMAIL_TIMEOUT": "0"}, "EMAIL_TIMEOUT=0 must be at least 1"),
        ({"DEFAULT_FROM_EMAIL": "adaptoid"}, "is not an e-mail address"),
        ({"SITE_URL": "adaptoid.example.org"}, "must be the site's address"),
        ({"SITE_URL": "ftp://adaptoid.example.org"}, "must be the site's address"),
        ({"SITE_URL": "https://adaptoid.example.org/play/"}, "must be the site's address"),
        ({"SITE_URL": "https://adaptoid.example.org/?x=1"}, "must be the site's address"),
        ({"SITE_URL": "https://user@adaptoid.example.org"}, "must be the site's address"),
        ({"SITE_URL": "https://adaptoid.example.org:port"}, "has a bad port"),
    ],
)
def test_bad_mail_and_site_settings_are_refused_at_startup(
    env: dict[str, str], message: str
) -> None:
    done = _manage("check", env=env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and message in done.stderr


def test_mail_settings_from_the_environment() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL,"
        " s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD, s.EMAIL_TIMEOUT, s.SITE_URL);"
        "print(s.DEFAULT_FROM_EMAIL)"
    )

    def shown(env: dict[str, str]) -> list[str]:
        done = _manage("shell", "-c", code, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()[-2:]

    relay = {"EMAIL_HOST": "smtp.example.org", "EMAIL_HOST_USER": "u", "EMAIL_HOST_PASSWORD": "p"}
    # Production sends over SMTP; the port follows the kind of TLS unless given.
    assert shown({**PRODUCTION, **relay, "EMAIL_USE_TLS": "1"})[0].split() == [
        "django.core.mail.backends.smtp.EmailBackend", "smtp.example.org", "587", "True",
        "False", "u", "p", "10", "https://adaptoid.example.org",
    ]  # fmt: skip
    line = shown({**PRODUCTION, **relay, "EMAIL_USE_SSL": "on", "EMAIL_PORT": "2465",
                  "DEFAULT_FROM_EMAIL": "Adaptoid <play@example.org>"})  # fmt: skip
    assert line[0].split()[2:5] == ["2465", "False", "True"]
    assert line[1] == "Adaptoid <play@example.org>"
    assert shown({**PRODUCTION, **relay, "EMAIL_USE_SSL": "1"})[0].split()[2] == "465"
    # Embedded: e-mails on the console, links to the local server.
    embedded = shown({})[0].split()
    assert embedded[0] == "django.core.mail.backends.console.EmailBackend"
    assert embedded[-1] == "http://127.0.0.1:8000"


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
        ("THROTTLE_EXPLORER", "60/fortnight", "is not a rate"),
        ("THROTTLE_CONDITIONAL", "many", "is not a rate"),
        ("TRUSTED_PROXIES", "-1", "must be at least 0"),
        ("AXES_FAILURE_LIMIT", "many", "not an integer"),
        ("AXES_ADDRESS_FAILURE_LIMIT", "5", "must be at least AXES_FAILURE_LIMIT=10"),
        ("ANALYSIS_NODES", "100000001", "must be at most 100000000"),
        ("STREAM_MAX_TOTAL", "0", "STREAM_MAX_TOTAL=0 must be at least 1"),
        # The default total (90) leaves the pages' streams nothing.
        ("STREAM_RESERVED_FOR_BOTS", "90", "must be below STREAM_MAX_TOTAL=90"),
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
    with pytest.raises(ImproperlyConfigured, match="X_INT=-3 must be at most -4"):
        project_settings.env_int("X_INT", 0, maximum=-4)


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
