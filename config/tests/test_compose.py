"""docker-compose.yml as shipped (no Docker engine runs here): what can be checked without one."""

from __future__ import annotations

import os
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
WORKERS = sorted(name for name in SERVICES if name.startswith("worker-"))
APP_SERVICES = ["migrate", "web", "stream", *WORKERS, "beat"]


def test_every_app_service_runs_the_command_of_its_role() -> None:
    commands = {name: " ".join(SERVICES[name]["command"]) for name in APP_SERVICES}
    assert commands["web"].startswith("gunicorn --config platform/gunicorn.conf.py")
    assert commands["stream"].startswith("gunicorn --config platform/gunicorn-stream.conf.py")
    for name in WORKERS:
        assert commands[name].startswith("celery -A config worker"), name
    assert commands["beat"].startswith("celery -A config beat")
    assert commands["migrate"] == "python manage.py migrate --no-input"


def test_services_without_a_web_server_do_not_inherit_the_images_web_health_check() -> None:
    # The Dockerfile's HEALTHCHECK asks http://127.0.0.1:8000/healthz: only web serves it.
    for name in [*WORKERS, "beat"]:
        check = " ".join(SERVICES[name]["healthcheck"]["test"])
        assert "healthz" not in check and "8000" not in check, name
    for name in WORKERS:
        check = " ".join(SERVICES[name]["healthcheck"]["test"])
        assert "celery -A config inspect ping -d $$WORKER_QUEUE@$$HOSTNAME" in check, name
    assert "8001/healthz" in " ".join(SERVICES["stream"]["healthcheck"]["test"])


def test_the_app_services_read_the_env_file_and_wait_for_the_migration() -> None:
    for name in APP_SERVICES:
        service = SERVICES[name]
        assert service["env_file"] == "platform/.env", name
        if name != "migrate":
            assert service["depends_on"]["migrate"]["condition"] == (
                "service_completed_successfully"
            ), name


def test_the_proxy_mounts_the_nginx_files_the_tests_run() -> None:
    mounts = {volume.split(":")[1]: volume.split(":")[0] for volume in SERVICES["proxy"]["volumes"]}
    assert mounts == {
        "/etc/nginx/nginx.conf": "./platform/nginx.conf",
        "/etc/nginx/adaptoid-locations.conf": "./platform/nginx-locations.conf",
        "/etc/nginx/adaptoid-http.conf": "./platform/nginx-http.conf",
        # The nginx image runs the executable *.sh of /docker-entrypoint.d/ before nginx.
        "/docker-entrypoint.d/40-adaptoid-real-ip.sh": "./platform/nginx-real-ip.sh",
    }
    for path in mounts.values():
        assert (ROOT / path).is_file()
    assert os.access(ROOT / "platform" / "nginx-real-ip.sh", os.X_OK)
    # The file it writes is the one platform/nginx.conf includes.
    conf = (ROOT / "platform" / "nginx.conf").read_text()
    assert "include /etc/nginx/adaptoid-real-ip.conf;" in conf
    assert (
        "/etc/nginx/adaptoid-real-ip.conf" in (ROOT / "platform" / "nginx-real-ip.sh").read_text()
    )
    # NGINX_REAL_IP_FROM comes from the same file as the application's settings.
    assert SERVICES["proxy"]["env_file"] == "platform/.env"


def test_env_example_trusts_exactly_the_compose_proxy() -> None:
    lines = (ROOT / "platform" / "env.example").read_text().splitlines()
    assert "TRUSTED_PROXIES=1" in lines


def _option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_one_worker_reads_each_queue_of_the_routes_and_answers_its_ping_by_name() -> None:
    """Every queue a task can be routed to (config/settings.py) has its own worker
    service, so a queue nobody reads (tasks waiting forever) cannot ship."""
    from django.conf import settings

    queues = {}
    for name in WORKERS:
        command = SERVICES[name]["command"]
        queue = _option(command, "--queues")
        assert name == f"worker-{queue}" and "," not in queue
        # The health check pings the worker by the name it was given.
        assert _option(command, "--hostname") == f"{queue}@%h"
        assert SERVICES[name]["environment"]["WORKER_QUEUE"] == queue
        queues[queue] = name
    assert sorted(queues) == sorted(settings.TASK_QUEUES)
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed <= set(settings.TASK_QUEUE_NAMES.values())


def test_dev_py_starts_a_worker_per_queue_too() -> None:
    from django.conf import settings

    import dev

    assert sorted(dev.WORKER_QUEUES) == sorted(settings.TASK_QUEUES)


# The job queues (core.jobs): each kind's slots are its worker's processes.
JOB_QUEUES = {
    "evaluation": ("evaluations", "JOBS_EVALUATION_SLOTS"),
    "analysis": ("analysis", "JOBS_ANALYSIS_SLOTS"),
    "import": ("imports", "JOBS_IMPORT_SLOTS"),
}


def _env_example() -> dict[str, str]:
    lines = (ROOT / "platform" / "env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_each_job_queues_worker_runs_as_many_processes_as_its_kind_has_slots() -> None:
    """A slot is a message the fair queue lets into the broker: fewer processes than
    slots and jobs would wait in the broker, out of the fair order; more, and they idle."""
    from django.conf import settings

    import dev
    from config.celery import app
    from core import jobs

    shipped = _env_example()
    for kind, (queue, setting) in JOB_QUEUES.items():
        command = " ".join(SERVICES[f"worker-{queue}"]["command"])
        processes = int(command.split("--concurrency=")[1].split()[0])
        assert processes == int(shipped[setting]) == getattr(settings, setting), kind
        assert dev.WORKER_QUEUES[queue] == processes, kind
        task = jobs.get_kind(kind).task.name
        assert app.amqp.router.route({}, task)["queue"].name == settings.TASK_QUEUE_NAMES[queue]
