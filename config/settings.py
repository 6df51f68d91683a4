"""Settings for the Adaptoid platform: one module, driven by environment variables.

With no environment at all the platform runs *embedded*: a SQLite file under
``var/``, a Celery broker on the file system (kombu's ``filesystem://`` transport
under ``var/broker/``) and an in-process cache, so a fresh checkout needs no
server.  ``DATABASE_URL=postgres://…`` switches to PostgreSQL (psycopg 3) and
``REDIS_URL=redis://…`` to Redis for the Celery broker and the Django cache.

Every variable goes through a typed helper that refuses a bad value with
``ImproperlyConfigured`` instead of silently falling back: a typo in production
must stop the process, not run it with a default.
"""

from __future__ import annotations

import datetime
import os
import re
import sys
from email.utils import parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from engine.analysis import MAX_NODES as _ENGINE_MAX_NODES

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean (use one of 1/0, true/false, yes/no, on/off)"
    )


def env_int(
    name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name}={value} must be at most {maximum}")
    return value


_RATE = re.compile(r"^[1-9][0-9]{0,8}/(s|sec|second|m|min|minute|h|hour|d|day)$")


def env_rate(name: str, default: str) -> str:
    """A throttle rate, N/second|minute|hour|day (DRF's syntax), checked at start."""
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return default
    if not _RATE.match(raw):
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a rate: write N/second, N/minute, N/hour or N/day"
        )
    return raw


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_site_url(name: str, default: str) -> str:
    """An absolute http(s) address of a site's root (no path, query or user), without
    the trailing slash: links are built as SITE_URL + "/games/1/"."""
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return default
    parts = urlsplit(raw)
    try:
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} has a bad port") from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        raise ImproperlyConfigured(
            f"{name}={raw!r} must be the site's address, such as https://adaptoid.example.org "
            "(http or https, a host, no path)"
        )
    return f"{parts.scheme}://{parts.netloc}"


def env_email(name: str, default: str) -> str:
    """An e-mail address, optionally with a display name: "Adaptoid <play@example.org>"."""
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return default
    _display, address = parseaddr(raw)
    local, _at, domain = address.rpartition("@")
    if not local or not domain or any(c.isspace() for c in address):
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not an e-mail address (write name@example.org, or "
            "Name <name@example.org>)"
        )
    return raw


def env_url(name: str, schemes: tuple[str, ...]) -> str | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    scheme = urlsplit(raw).scheme
    if scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name} must start with one of {', '.join(s + '://' for s in schemes)}; got {scheme or raw!r}"
        )
    return raw


# --- Mode -----------------------------------------------------------------------

DEBUG = env_bool("DEBUG", False)
DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
# Embedded = no database server configured: a developer's machine or a demo.
EMBEDDED = DATABASE_URL is None
# Under pytest (or a worker started for the tests, which sets ADAPTOID_TESTING=1) the
# embedded broker and SQLite test database get their own files, so a developer's
# running `dev.py start` never steals the tests' tasks.
TESTING = env_bool("ADAPTOID_TESTING", "pytest" in sys.modules)

# Production: a database server and DEBUG off (not the tests).  Some settings are
# required there (SECRET_KEY, SITE_URL, the mail relay) and the HTTPS hardening is on.
PRODUCTION = not (DEBUG or EMBEDDED or TESTING)

_DEV_SECRET_KEY = "django-insecure-adaptoid-dev-key-only-for-debug-and-embedded-mode"
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in production (DATABASE_URL set and DEBUG off)"
        )
    SECRET_KEY = _DEV_SECRET_KEY

_LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", _LOCAL_HOSTS if (DEBUG or EMBEDDED or TESTING) else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# HTTPS hardening: on by default in production, off for the embedded/dev server that
# only speaks plain HTTP on 127.0.0.1.  Each can be set explicitly.
_SECURE_DEFAULT = PRODUCTION
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _SECURE_DEFAULT)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", _SECURE_DEFAULT)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", _SECURE_DEFAULT)
SECURE_HSTS_SECONDS = env_int(
    "SECURE_HSTS_SECONDS", 31_536_000 if _SECURE_DEFAULT else 0, minimum=0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", _SECURE_DEFAULT)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", _SECURE_DEFAULT)
# Behind a TLS-terminating proxy (docker-compose, most PaaS) the proxy says "https" here.
if env_bool("SECURE_PROXY_SSL_HEADER", _SECURE_DEFAULT):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # container health probes speak plain HTTP

# --- Applications ---------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "core",
    "accounts",
    "clocks",
    "games",
    "bots",
    "ratings",
    "stream",
    "notifications",
    "tournaments",
    "chat",
    "analysis",
    "archive",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.RejectNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "accounts.middleware.SessionLanguageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Content-Security-Policy on every answer (CONTENT_SECURITY_POLICY below).
    "core.middleware.ContentSecurityPolicyMiddleware",
    # Last: answers a locked-out log-in (django-axes, below).
    "axes.middleware.AxesMiddleware",
]

# No inline script anywhere (every script is a static file of ours); inline styles are
# allowed (the SVG board carries its own); nothing from other origins; no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Log-in lockout (django-axes; accounts/lockout.py): website, admin and API tokens ---
# AXES_FAILURE_LIMIT wrong passwords lock the pair (account, address), and
# AXES_ADDRESS_FAILURE_LIMIT guesses lock an address for every account, each for
# AXES_COOLOFF_MINUTES after the last failure; never an account from every address (a
# stranger could lock anybody out).  The owner is told by e-mail, once per cool-off.
# Counted in the cache (Redis in production): no table, no write per attempt.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "accounts.lockout.LockoutHandler"
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10, minimum=1)
AXES_ADDRESS_FAILURE_LIMIT = env_int("AXES_ADDRESS_FAILURE_LIMIT", 30, minimum=1)
if AXES_ADDRESS_FAILURE_LIMIT < AXES_FAILURE_LIMIT:
    raise ImproperlyConfigured(
        f"AXES_ADDRESS_FAILURE_LIMIT={AXES_ADDRESS_FAILURE_LIMIT} must be at least "
        f"AXES_FAILURE_LIMIT={AXES_FAILURE_LIMIT}: an address is locked for trying several "
        "accounts, a pair for one"
    )
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_CLIENT_IP_CALLABLE = "accounts.addresses.client_address"
AXES_LOCK_OUT_AT_FAILURE = True  # axes' default, named here: accounts.lockout reads it
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Password-reset e-mails: at most this many per address (and per client) per hour.
PASSWORD_RESET_MAILS_PER_HOUR = env_int("PASSWORD_RESET_MAILS_PER_HOUR", 3, minimum=1)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The header's counts: games waiting for the user, unread notifications.
                "games.context_processors.awaiting",
                "notifications.context_processors.unread",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------

# Web and worker processes share an SQLite file: WAL lets readers run during a write,
# IMMEDIATE takes the write lock when a transaction starts (so two submissions of one
# ply queue up instead of deadlocking), and a writer waits up to 20 s for the lock.
# The embedded default and DATABASE_URL=sqlite:///… get the same options.
SQLITE_OPTIONS = {
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}

# The connection pool (PostgreSQL only; 0, the default, means none): read and checked
# here whatever the database, so a bad value stops any process.
DB_POOL_MAX_SIZE = env_int("DB_POOL_MAX_SIZE", 0, minimum=0)
DB_POOL_MIN_SIZE = env_int("DB_POOL_MIN_SIZE", 0, minimum=0)
DB_POOL_TIMEOUT = env_int("DB_POOL_TIMEOUT", 10, minimum=1)
if DB_POOL_MAX_SIZE and DB_POOL_MIN_SIZE > DB_POOL_MAX_SIZE:
    raise ImproperlyConfigured(
        f"DB_POOL_MIN_SIZE={DB_POOL_MIN_SIZE} must not exceed DB_POOL_MAX_SIZE={DB_POOL_MAX_SIZE}"
    )

DATABASES: dict[str, Any]  # options of every kind, filled in below
if DATABASE_URL is None:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
            # A file, not :memory:, so a real Celery worker process can open the
            # same test database (see conftest.celery_worker_process).
            "TEST": {"NAME": str(VAR_DIR / "test-db.sqlite3")},
        }
    }
else:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=env_int("CONN_MAX_AGE", 60, minimum=0)
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
        DATABASES["default"]["OPTIONS"] = {
            **SQLITE_OPTIONS,
            **DATABASES["default"].get("OPTIONS", {}),
        }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Server-side binding: psycopg sends the values apart from the SQL (no quoting in
        # Python, a fifth of a turn's CPU); prepared statements: a connection plans a
        # statement it has run 5 times only once (Django turns them off by default for
        # transaction-mode poolers: `?prepare_threshold=none` in DATABASE_URL behind
        # one of those, `?server_side_binding=false` to turn binding off).
        _options = DATABASES["default"].setdefault("OPTIONS", {})
        _options.setdefault("server_side_binding", True)
        _threshold = str(_options.get("prepare_threshold", 5)).lower()
        if _threshold != "none" and not _threshold.isdigit():
            raise ImproperlyConfigured(
                f"DATABASE_URL: prepare_threshold must be a number or none, not {_threshold!r}"
            )
        _options["prepare_threshold"] = None if _threshold == "none" else int(_threshold)
        # A connection pool per process (psycopg_pool through Django): at most
        # DB_POOL_MAX_SIZE connections however many threads ask, a thread waiting up to
        # DB_POOL_TIMEOUT seconds for one.  The stream service turns it on
        # (platform/gunicorn-stream.conf.py); platform/CONNECTIONS.md has the budget.
        if DB_POOL_MAX_SIZE:
            if env_int("CONN_MAX_AGE", 0, minimum=0):
                raise ImproperlyConfigured(
                    "CONN_MAX_AGE must be 0 (or unset) with DB_POOL_MAX_SIZE: the pool keeps "
                    "the connections"
                )
            DATABASES["default"]["CONN_MAX_AGE"] = 0
            # A pooled connection is checked as it is handed out: one broken by a server
            # restart is replaced, not given to a request.
            DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
            _options["pool"] = {
                "min_size": DB_POOL_MIN_SIZE,
                "max_size": DB_POOL_MAX_SIZE,
                "timeout": DB_POOL_TIMEOUT,
            }
# A worker started by the test fixture is told the test database's name this way.
if env_str("DATABASE_NAME"):
    DATABASES["default"]["NAME"] = env_str("DATABASE_NAME")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

if TESTING:
    # Hashing at full strength would make each test's sign-ups the slowest part of it.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# --- Cache and Celery -----------------------------------------------------------


def _redis_with_db(url: str, offset: int) -> str:
    """The same Redis server, database number + offset (cache next to the broker)."""
    parts = urlsplit(url)
    path = parts.path.strip("/")
    try:
        db = int(path or 0)
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL database {path!r} is not a number") from None
    return urlunsplit(parts._replace(path=f"/{(db + offset) % 16}"))


# Redis hands a task whose worker died before acknowledging it (acks_late) to another
# worker once it has been unacknowledged this long: every task's time limit stays below
# it (config/tests/test_every_task_runs.py), or a long task would run twice at once.
BROKER_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1)

if REDIS_URL:
    # The cache lives in the next Redis database so that clearing it (tests do)
    # never wipes the broker's queues and bindings.
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ReusedClientRedisCache",
            "LOCATION": env_str("REDIS_CACHE_URL") or _redis_with_db(REDIS_URL, 1),
            "KEY_PREFIX": "adaptoid",
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "visibility_timeout": BROKER_VISIBILITY_TIMEOUT
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "adaptoid",
        }
    }
    # Embedded: log-ins are all counted by the one web process, so a local-memory cache
    # serves django-axes (its warning is for several processes: production has Redis).
    SILENCED_SYSTEM_CHECKS = ["axes.W001"]
    BROKER_DIR = Path(env_str("BROKER_DIR") or (VAR_DIR / ("test-broker" if TESTING else "broker")))
    CELERY_BROKER_URL = "filesystem://"
    # One folder for in and out: producer and consumer share a single queue directory.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = f"file://{BROKER_DIR / 'results'}"
    for _folder in ("queue", "control", "processed", "results"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)

if TESTING:
    # Each test session has a queue of its own (conftest passes its name to the worker
    # it starts): two sessions on one broker, e.g. CI runs side by side on the same
    # Redis database, never purge (``--purge``) or run each other's tasks.
    CELERY_TASK_DEFAULT_QUEUE = env_str("ADAPTOID_TEST_QUEUE") or f"tests-{os.getpid()}"
else:
    CELERY_TASK_DEFAULT_QUEUE = "maintenance"  # what no route names (see below)

# One queue per kind of work, each read by workers of its own (dev.py start,
# docker-compose.yml, docs/reliability.md): a user's bot matches, a tournament's
# pairing or a big import never wait in front of another user's bot reply.
#   interactive  a person or a bot waits: bot replies and challenge answers, a game's
#                clock expiry
#   evaluations  the analysis board's evaluations (short, but anybody may ask for many:
#                a fair job queue of their own, core.jobs)
#   matches      bot-against-bot matches (their turns, their advance and watch)
#   tournaments  pairing and advancing rounds
#   email        notifications and digests
#   imports      .agn import jobs (long: minutes for a big file; run by slices, core.jobs)
#   analysis     game analyses (long: a job per game; run by slices, core.jobs)
#   maintenance  sweeps, verification, pruning, ratings, and anything not routed
# Tests prefix every queue with the session's own name, so that two sessions on one
# broker never take each other's tasks (conftest's worker reads them all).
TASK_QUEUES = (
    "interactive", "evaluations", "matches", "tournaments", "email", "imports", "analysis",
    "maintenance",
)  # fmt: skip
_QUEUE_PREFIX = f"{CELERY_TASK_DEFAULT_QUEUE}-" if TESTING else ""
TASK_QUEUE_NAMES = {queue: _QUEUE_PREFIX + queue for queue in TASK_QUEUES}
if TESTING:
    TASK_QUEUE_NAMES["maintenance"] = CELERY_TASK_DEFAULT_QUEUE
_ROUTES = {
    "bots.tasks.bot_move": "interactive",
    "bots.tasks.bot_accept_challenge": "interactive",
    "games.tasks.expire_game": "interactive",
    "bots.tasks.bot_match_move": "matches",
    "bots.tasks.advance_bot_match": "matches",
    "bots.tasks.watch_bot_match": "matches",
    "tournaments.tasks.*": "tournaments",
    "notifications.tasks.*": "email",
    "accounts.tasks.*": "email",
    "archive.tasks.run_import_job": "imports",
    # The analysis board's evaluation is short (30 s at most), but anybody may ask for
    # many: never in front of a bot's reply, nor behind a long game analysis.  The
    # explorer's indexing is background work.
    "analysis.tasks.evaluate_position": "evaluations",
    "analysis.tasks.index_games": "maintenance",
    "analysis.tasks.index_unindexed_games": "maintenance",
    "analysis.tasks.*": "analysis",
    "*": "maintenance",
}
CELERY_TASK_ROUTES = {
    pattern: {"queue": TASK_QUEUE_NAMES[queue]} for pattern, queue in _ROUTES.items()
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 100
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Periodic tasks: other apps (clocks, tournaments) add entries here.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}
CELERY_BEAT_SCHEDULE["tournaments-heartbeat"] = {
    # Starts tournaments at their time, advances any whose round is over (safety net).
    "task": "tournaments.tasks.tournament_heartbeat",
    "schedule": 60.0,
}

# The verification tasks live in archive/tasks.py and keep their old registered names.
CELERY_BEAT_SCHEDULE["verify-recent-games"] = {
    # Replays the games finished in the last 30 minutes (runs overlap: none is missed).
    "task": "games.tasks.verify_recent_games",
    "schedule": 600.0,
}
CELERY_BEAT_SCHEDULE["verify-all-games"] = {
    # Replays every stored game through the engine; mismatches are logged as errors.
    "task": "games.tasks.verify_all_games",
    "schedule": 24 * 3600.0,
}

# --- Bots, bot matches, ratings, event stream (bots/, ratings/, stream/) ---------------

CELERY_BEAT_SCHEDULE["bots-sweep"] = {
    # Re-queues bot turns, bot-challenge acceptances and bot-match games that a lost
    # message or a dead worker left waiting.
    "task": "bots.tasks.sweep_bots",
    "schedule": 60.0,
}
CELERY_BEAT_SCHEDULE["ratings-sweep"] = {
    # Rates the recent rated games whose rating message was lost (broker down at commit).
    "task": "ratings.tasks.sweep_unrated_games",
    "schedule": 300.0,
}
CELERY_BEAT_SCHEDULE["explorer-catch-up"] = {
    # Indexes finished games the opening explorer lacks (a lost message; imported games).
    "task": "analysis.tasks.index_unindexed_games",
    "schedule": 3600.0,
}
CELERY_BEAT_SCHEDULE["stream-prune"] = {
    # Deletes stream events older than EVENT_RETENTION_HOURS.
    "task": "stream.tasks.prune_events",
    "schedule": 60.0,
}
CELERY_BEAT_SCHEDULE["jobs-sweep"] = {
    # The fair job queues (core.jobs: evaluations, analyses, imports): gives back the
    # slices a dead worker or a lost message left running, starts waiting jobs.
    "task": "core.tasks.sweep_jobs",
    "schedule": 60.0,
}
# Players one tournament may have (tournaments.services.player_limit): what this machine
# pairs well inside the pairing task's time limit.  Measured (docs/tournaments.md): a
# Swiss round of 1,000 players 15-34 s, of 2,000 players 88-204 s against a 270 s limit.
TOURNAMENT_MAX_PLAYERS = env_int("TOURNAMENT_MAX_PLAYERS", 1000, minimum=2)
# The .agn import (archive.imports): per file, per user.
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 10_000_000, minimum=1)
IMPORT_MAX_GAMES = env_int("IMPORT_MAX_GAMES", 10_000, minimum=1)
IMPORT_MAX_NEW_NAMES = env_int("IMPORT_MAX_NEW_NAMES", 500, minimum=0)
IMPORT_MAX_ACTIVE_JOBS = env_int("IMPORT_MAX_ACTIVE_JOBS", 2, minimum=1)
IMPORT_CHUNK_GAMES = env_int("IMPORT_CHUNK_GAMES", 200, minimum=1)
BOT_MATCH_MAX_RUNNING = env_int("BOT_MATCH_MAX_RUNNING", 3, minimum=1)  # per user; staff unlimited
# Running bot matches on the whole site (staff's count, but staff are never refused):
# past it a new match is refused with 503 `busy` and Retry-After.
BOT_MATCH_MAX_RUNNING_TOTAL = env_int("BOT_MATCH_MAX_RUNNING_TOTAL", 20, minimum=1)
BOT_MATCH_MAX_GAMES = env_int("BOT_MATCH_MAX_GAMES", 100, minimum=1)
# Games of one match played at the same time (each is a chain of one task per turn).
BOT_MATCH_PARALLEL_GAMES = env_int("BOT_MATCH_PARALLEL_GAMES", 4, minimum=1)
BOT_MAX_SECONDS_PER_TURN = 10.0
# A bot game untouched this long, with a bot to act, is queued again by the sweep.
BOT_SWEEP_AFTER_SECONDS = env_int("BOT_SWEEP_AFTER_SECONDS", 60, minimum=5)
# A running bot match checks itself this often (bots.tasks.watch_bot_match): a
# turn or game whose message was lost is queued again without waiting for beat.
BOT_MATCH_WATCH_SECONDS = env_int("BOT_MATCH_WATCH_SECONDS", 30, minimum=1)
EVENT_RETENTION_HOURS = env_int("EVENT_RETENTION_HOURS", 24, minimum=1)
# GET /api/v1/stream/events: an empty line after this many quiet seconds; a connection
# ends after STREAM_MAX_SECONDS (clients reconnect), so it never holds a server thread forever.
STREAM_KEEPALIVE_SECONDS = env_int("STREAM_KEEPALIVE_SECONDS", 5, minimum=1)
STREAM_MAX_SECONDS = env_int("STREAM_MAX_SECONDS", 1 if TESTING else 300, minimum=1)  # tests: short
# Streams open at once per user (token) and per client address: past that, 429.
STREAM_MAX_PER_USER = env_int("STREAM_MAX_PER_USER", 4, minimum=1)
STREAM_MAX_PER_ADDRESS = env_int("STREAM_MAX_PER_ADDRESS", 16, minimum=1)
# The site's pages (GET /api/v1/stream/page-events, one per open tab), counted apart from
# the bots' per user: past it a tab polls instead.  4 leaves a browser on HTTP/1.1 (6
# connections per site) two for everything else; the address cap above counts both kinds.
STREAM_PAGE_MAX_PER_USER = env_int("STREAM_PAGE_MAX_PER_USER", 4, minimum=1)
# The stream service's total (stream/slots.py): streams open at once across its processes.
# It must stay below their threads (STREAM_WORKERS × GUNICORN_THREADS, 1 × 100 shipped;
# platform/gunicorn-stream.conf.py refuses to start otherwise), so that a thread is always
# free to answer a refusal (503 `busy`) or /healthz at once.  Of the total, the reserve
# is for bot accounts' streams only: every other stream (pages, other accounts) gets the
# rest.
STREAM_MAX_TOTAL = env_int("STREAM_MAX_TOTAL", 90, minimum=1)
STREAM_RESERVED_FOR_BOTS = env_int("STREAM_RESERVED_FOR_BOTS", 30, minimum=0)
if STREAM_RESERVED_FOR_BOTS >= STREAM_MAX_TOTAL:
    raise ImproperlyConfigured(
        f"STREAM_RESERVED_FOR_BOTS={STREAM_RESERVED_FOR_BOTS} must be below "
        f"STREAM_MAX_TOTAL={STREAM_MAX_TOTAL}: only bots' streams would get a seat"
    )

# Correspondence clocks (clocks app) and notifications: see docs/clocks.md.
CELERY_BEAT_SCHEDULE["clocks-sweep"] = {
    # Ends due vacations, expires run-out clocks (exactly once), warns low clocks.
    "task": "games.tasks.sweep_clocks",
    "schedule": 60.0,
}
CELERY_BEAT_SCHEDULE["notifications-digest"] = {
    "task": "notifications.tasks.send_digests",
    "schedule": crontab(hour=env_int("NOTIFICATIONS_DIGEST_HOUR", 7, minimum=0), minute=0),
}
CELERY_BEAT_SCHEDULE["notifications-requeue"] = {
    "task": "notifications.tasks.requeue_stale_emails",
    "schedule": 600.0,
}
CLOCKS_VACATION_DAYS_PER_YEAR = env_int("CLOCKS_VACATION_DAYS_PER_YEAR", 14, minimum=0)
# At most one "your turn" email per game in this many hours (or a daily digest).
NOTIFICATIONS_TURN_EMAIL_HOURS = env_int("NOTIFICATIONS_TURN_EMAIL_HOURS", 12, minimum=0)

# --- Internationalisation --------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский"), ("eo", "Esperanto")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:home"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Uploads ----------------------------------------------------------------------

# No uploaded file above this size is kept, not even on disk (config/uploads.py); request
# bodies other than files stay under Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB).
UPLOAD_MAX_BYTES = env_int("UPLOAD_MAX_BYTES", 10_000_000, minimum=1)
FILE_UPLOAD_HANDLERS = [
    "config.uploads.SizeLimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# --- Static files ----------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if (DEBUG or EMBEDDED or TESTING)
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# The embedded server serves static files straight from the apps (no collectstatic).
WHITENOISE_USE_FINDERS = DEBUG or EMBEDDED or TESTING
if WHITENOISE_USE_FINDERS:
    STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise warns about a missing root otherwise

# --- REST API --------------------------------------------------------------------

# How many proxies of ours stand in front of Django and set X-Forwarded-For (nginx: 1,
# also behind a TLS terminator or load balancer: nginx finds the client's address,
# NGINX_REAL_IP_FROM in docs/configuration.md, and passes on only that).
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0, minimum=0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.errors.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "core.api.Pagination",
    "PAGE_SIZE": 20,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# Read by accounts.throttling at request time (so tests can change them).
API_THROTTLE_RATES = {
    "accounts": env_rate("THROTTLE_ACCOUNTS", "1000/minute" if TESTING else "20/hour"),
    "token": env_rate("THROTTLE_TOKEN", "1000/minute" if TESTING else "30/minute"),
    "turns": env_rate("THROTTLE_TURNS", "1000/minute" if TESTING else "120/minute"),
    # Game messages, per player (API and game page alike).
    "messages": env_rate("THROTTLE_MESSAGES", "1000/minute" if TESTING else "10/minute"),
    # Analyses of other people's games (a game's players analyse theirs freely).
    "analysis": env_rate("THROTTLE_ANALYSIS", "1000/minute" if TESTING else "10/hour"),
    # Analysis-board evaluations (short jobs), per user or visitor address.
    "evaluations": env_rate("THROTTLE_EVALUATIONS", "1000/minute" if TESTING else "30/minute"),
    # The opening explorer (API and page), per user or visitor address: a burst of N,
    # then N per period.
    "explorer": env_rate("THROTTLE_EXPLORER", "1000/minute" if TESTING else "60/minute"),
    # Conditional turns set (API PUT) or added (the game page's form), per player.
    "conditional": env_rate("THROTTLE_CONDITIONAL", "1000/minute" if TESTING else "30/minute"),
}
# The engine's node budget per position of a game analysis, and per analysis-board
# request (deterministic: the same position always gets the same verdict); at most
# the engine's own limit (about an hour of search).
ANALYSIS_NODES = env_int("ANALYSIS_NODES", 20_000, minimum=1, maximum=_ENGINE_MAX_NODES)
ANALYSIS_BOARD_NODES = env_int("ANALYSIS_BOARD_NODES", 50_000, minimum=1, maximum=_ENGINE_MAX_NODES)

# --- Fair job queues (core.jobs): evaluations, game analyses, .agn imports --------------
# Per kind: slots (jobs running at once = messages in the broker: the --concurrency of
# the kind's queue's workers in docker-compose.yml and dev.py, which a test keeps equal),
# a cap per user on jobs waiting and running (visitors' evaluations share one), and a cap
# on the jobs waiting on the whole site.  Past a cap: 429 or 503 `busy` with Retry-After.
JOBS_EVALUATION_SLOTS = env_int("JOBS_EVALUATION_SLOTS", 2, minimum=1)
JOBS_EVALUATION_PER_USER = env_int("JOBS_EVALUATION_PER_USER", 2, minimum=1)
JOBS_EVALUATION_ANONYMOUS = env_int("JOBS_EVALUATION_ANONYMOUS", 4, minimum=0)
JOBS_EVALUATION_BACKLOG = env_int("JOBS_EVALUATION_BACKLOG", 40, minimum=1)
JOBS_ANALYSIS_SLOTS = env_int("JOBS_ANALYSIS_SLOTS", 1, minimum=1)
JOBS_ANALYSIS_PER_USER = env_int("JOBS_ANALYSIS_PER_USER", 3, minimum=1)
JOBS_ANALYSIS_BACKLOG = env_int("JOBS_ANALYSIS_BACKLOG", 30, minimum=1)
JOBS_IMPORT_SLOTS = env_int("JOBS_IMPORT_SLOTS", 1, minimum=1)
# (The import's cap per user is IMPORT_MAX_ACTIVE_JOBS, above.)
JOBS_IMPORT_BACKLOG = env_int("JOBS_IMPORT_BACKLOG", 20, minimum=1)
# A long job runs by slices of about this many seconds, then waits its turn again.
# 5 s: with slices this short a newcomer waits at most one slice per user with jobs
# running (9 such users: under a minute, bench/public_day.py).
JOBS_SLICE_SECONDS = env_int("JOBS_SLICE_SECONDS", 5, minimum=1)
if JOBS_SLICE_SECONDS > 120:  # the slice tasks' time limits are 280-300 s
    raise ImproperlyConfigured(f"JOBS_SLICE_SECONDS={JOBS_SLICE_SECONDS} must be at most 120")
# A running slice silent this long lost its worker (the sweep gives it back): longer than
# the longest work between two heartbeats (an evaluation: 30 s at most).
JOBS_LEASE_SECONDS = env_int("JOBS_LEASE_SECONDS", 120, minimum=1)
# Finished jobs (an evaluation's result) are kept this long.
JOBS_KEEP_HOURS = env_int("JOBS_KEEP_HOURS", 24, minimum=1)
# Each finished game is added to the opening explorer by a job (analysis.receivers).
# Off in tests unless a test turns it on: the session's real worker would otherwise
# index every game a test finishes while the next test empties the tables.
EXPLORER_INDEX_ON_FINISH = env_bool("EXPLORER_INDEX_ON_FINISH", not TESTING)

SPECTACULAR_SETTINGS = {
    "TITLE": "Adaptoid correspondence API",
    "DESCRIPTION": "Play Adaptoid by correspondence: accounts, challenges, games, turns and records.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Named choice sets, so the schema has one enum per meaning.
    "ENUM_NAME_OVERRIDES": {
        "PlayerColorEnum": "games.models.Color",
        "ChallengeColorEnum": "games.models.Challenge.ColorChoice",
        "ChallengeOpeningEnum": "games.models.Challenge.Opening",
        "GameOpeningEnum": "games.models.Game.Opening",
        "GameStatusEnum": "games.models.Game.Status",
        "ChallengeStatusEnum": "games.models.Challenge.Status",
        "GameResultEnum": "games.models.Game.Result",
        "ClockKindEnum": "clocks.timecontrol.ClockKind",
        "TurnEmailEnum": "accounts.models.TurnEmail",
        "NotificationKindEnum": "notifications.models.Kind",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "TournamentFormatEnum": "tournaments.models.Tournament.Format",
        "PairingSystemEnum": "tournaments.models.PairingSystem",
        "PairingRulesEnum": "tournaments.models.PairingRules",
        "TournamentListStatusEnum": ["upcoming", "running", "finished", "cancelled"],
        # A game analysis's and an import's states are the same four.
        "WorkStatusEnum": "archive.models.ImportJob.Status",
        "EvaluationStatusEnum": ["queued", "done", "failed"],
    },
}

# --- Logging ----------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL") or "INFO"},
    # django-axes logs every successful log-in at INFO: only its warnings are news.
    "loggers": {"axes": {"level": "WARNING"}},
}

# --- E-mail and its links ------------------------------------------------------------

# The site's public address: the links in e-mails (password reset, game pages,
# unsubscribe) and the admin log-in that load_demo prints.  Required in production, where
# the local default would send every reader to 127.0.0.1.
SITE_URL = env_site_url("SITE_URL", "http://127.0.0.1:8000")
if PRODUCTION:
    if not (env_str("SITE_URL") or "").strip():
        raise ImproperlyConfigured(
            "SITE_URL must be set in production (DATABASE_URL set and DEBUG off): the "
            "site's public address, such as https://adaptoid.example.org, for the links "
            "in e-mails"
        )
    _site_host = urlsplit(SITE_URL).hostname or ""
    # Django's rule: "*", the host itself, or ".example.org" for it and its subdomains.
    if not any(
        pattern in ("*", _site_host, f".{_site_host}")
        or (pattern.startswith(".") and _site_host.endswith(pattern))
        for pattern in (host.lower() for host in ALLOWED_HOSTS)
    ):
        raise ImproperlyConfigured(
            f"SITE_URL={SITE_URL!r}: its host {_site_host!r} is not in ALLOWED_HOSTS, so "
            "every link in an e-mail would answer 400"
        )

# Sending: any SMTP relay or provider (docs/configuration.md), port 587 with STARTTLS
# (EMAIL_USE_TLS) or 465 with TLS from the start (EMAIL_USE_SSL).  Production sends over
# SMTP and needs EMAIL_HOST; the embedded mode, DEBUG and the tests print e-mails on the
# console unless EMAIL_BACKEND says otherwise.
_SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or (
    _SMTP_BACKEND if PRODUCTION else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = (env_str("EMAIL_HOST") or "").strip() or "localhost"
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured(
        "EMAIL_USE_TLS (STARTTLS, usually port 587) and EMAIL_USE_SSL (TLS from the start, "
        "usually port 465) exclude each other: set one"
    )
EMAIL_PORT = env_int(
    "EMAIL_PORT", 465 if EMAIL_USE_SSL else 587 if EMAIL_USE_TLS else 25, minimum=1, maximum=65535
)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD") or ""
if bool(EMAIL_HOST_USER) != bool(EMAIL_HOST_PASSWORD):
    raise ImproperlyConfigured(
        "EMAIL_HOST_USER and EMAIL_HOST_PASSWORD go together: set both (the relay's log-in) "
        "or neither"
    )
# Seconds to wait for the mail server (Django's default waits forever, past a task's limit).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
if PRODUCTION and EMAIL_BACKEND == _SMTP_BACKEND and not (env_str("EMAIL_HOST") or "").strip():
    raise ImproperlyConfigured(
        "EMAIL_HOST must be set in production: the SMTP relay or provider that sends the "
        "site's e-mails (the containers have no mail server of their own)"
    )
# The file-based backend (django.core.mail.backends.filebased.EmailBackend) writes here.
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH") or str(VAR_DIR / "mail")
DEFAULT_FROM_EMAIL = env_email("DEFAULT_FROM_EMAIL", "adaptoid@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL  # Django's own mails to ADMINS, if any are set
