"""platform/gunicorn*.conf.py: the production server settings load and serve."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config.tests.servers import free_port

BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("config", ["gunicorn.conf.py", "gunicorn-stream.conf.py"])
def test_gunicorn_with_the_production_config_serves_and_stops(config: str) -> None:
    port = free_port()
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "2",
        "LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application",
         "--config", str(BASE_DIR / "platform" / config)],
        cwd=BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline, status = time.monotonic() + 60, None
        while status is None and time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("GET", "/api/v1/schema")
                status = conn.getresponse().status
            except OSError:
                assert server.poll() is None, server.stdout.read().decode()  # type: ignore[union-attr]
                time.sleep(0.3)
        assert status == 200
        # A NUL in the address, percent-encoded, straight to gunicorn (#14.9): a 4xx.
        for path in ("/api/v1/players/a%00b", "/players/a%00b/", "/api/v1/games?player=a%00b"):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path)
            answer = conn.getresponse()
            assert 400 <= answer.status < 500, (path, answer.status, answer.read()[:300])
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        output = server.communicate(timeout=30)[0].decode()
    assert server.returncode == 0, output
    assert "Traceback" not in output, output


@pytest.mark.parametrize(
    ("variables", "arguments", "threads"),
    [
        (
            {"GUNICORN_THREADS": "8", "STREAM_MAX_TOTAL": "8"},
            [],
            "1 processes (STREAM_WORKERS) x 8",
        ),
        # Every process's threads count: 2 x 4 is no more than 8 either.
        ({"STREAM_WORKERS": "2", "GUNICORN_THREADS": "4", "STREAM_MAX_TOTAL": "8"}, [], "= 8"),
        # The threads gunicorn really runs, here from its command line: 4 of them, not 100.
        ({"GUNICORN_THREADS": "100", "STREAM_MAX_TOTAL": "90"}, ["--threads", "4"], "x 4 threads"),
    ],
)
def test_the_stream_service_refuses_to_start_when_its_streams_could_take_every_thread(
    variables: dict[str, str], arguments: list[str], threads: str
) -> None:
    # Issue #28.3: threads must stay free to refuse a stream (503) and answer /healthz.
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{free_port()}",
        "STREAM_RESERVED_FOR_BOTS": "2",
        "LOG_LEVEL": "WARNING",
        **variables,
    }
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application",
         "--config", str(BASE_DIR / "platform" / "gunicorn-stream.conf.py"), *arguments],
        check=False, cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout + done.stderr
    assert "ImproperlyConfigured" in done.stderr, done.stderr
    assert f"STREAM_MAX_TOTAL={variables['STREAM_MAX_TOTAL']} must be below" in done.stderr
    assert threads in done.stderr, done.stderr


def test_the_stream_service_is_never_recycled(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its process would wait for its open streams (minutes) before a new one is forked,
    # answering nobody meanwhile (found by bench/soak.py); the web service is recycled.
    import runpy

    monkeypatch.delenv("DB_POOL_MAX_SIZE", raising=False)  # the file sets it: restored after
    stream = runpy.run_path(str(BASE_DIR / "platform" / "gunicorn-stream.conf.py"))
    web = runpy.run_path(str(BASE_DIR / "platform" / "gunicorn.conf.py"))
    assert stream["max_requests"] == 0 and stream["worker_class"] == "gthread"
    assert web["max_requests"] > 0


def test_web_workers_collect_apart_and_freeze_what_their_first_requests_load() -> None:
    # Full collections of all the workers at once stalled the whole server (bursts of
    # slow turns in bench/api_load.py); what the first requests load lazily (the URLconf,
    # the cache and broker clients) made each of them scan ~30k objects.
    import gc
    import runpy

    web = runpy.run_path(str(BASE_DIR / "platform" / "gunicorn.conf.py"))
    original = gc.get_threshold()
    try:
        first_thresholds = set()
        for _ in range(20):  # twenty workers starting
            gc.set_threshold(*original)
            web["post_worker_init"](None)
            first_thresholds.add(gc.get_threshold()[0])
        assert len(first_thresholds) > 1
        assert all(original[0] <= value <= 2 * original[0] for value in first_thresholds)

        frozen = gc.get_freeze_count()
        loaded_by_first_requests = [[] for _ in range(1000)]
        # The count only grows by a freeze; a frozen object freed meanwhile (another
        # thread of the test process) lowers it, so each check is "did not take in the
        # objects made since", never an exact count.
        for _ in range(web["FREEZE_AFTER_REQUESTS"] - 1):
            web["post_request"](None, None, {}, None)
        assert gc.get_freeze_count() < frozen + len(loaded_by_first_requests)
        web["post_request"](None, None, {}, None)
        assert gc.get_freeze_count() >= frozen + len(loaded_by_first_requests)
        frozen = gc.get_freeze_count()
        loaded_later = [[] for _ in range(100)]
        web["post_request"](None, None, {}, None)  # once only
        assert gc.get_freeze_count() < frozen + len(loaded_later)
    finally:
        gc.unfreeze()
        gc.set_threshold(*original)
