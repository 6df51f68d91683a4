#!/usr/bin/env python3
"""Bootstrap and run the Adaptoid platform on a fresh machine (standard library only).

    python3 dev.py start        # venv + install + migrate + demo data, then web + worker + beat
    python3 dev.py test [ARGS]  # venv + install (with dev tools), then pytest ARGS
    python3 dev.py manage ARGS  # any manage.py command inside the venv

The virtual environment is `.venv/` next to this file; requirements are installed
again only when requirements*.txt change.  Environment variables (DATABASE_URL,
REDIS_URL, …) pass through to every command: see config/settings.py.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def say(message: str) -> None:
    print(f"[dev] {message}", flush=True)


def run(*command: str | Path, env: dict[str, str] | None = None) -> None:
    done = subprocess.run([str(part) for part in command], cwd=ROOT, env=env, check=False)
    if done.returncode != 0:
        say(f"failed ({done.returncode}): {' '.join(map(str, command))}")
        sys.exit(done.returncode)


def ensure_venv(requirements: str) -> None:
    """Create .venv if missing and install `requirements` unless already done for this content."""
    if sys.version_info < (3, 11):  # noqa: UP036 - a clear message on an old python3
        sys.exit(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}).")
    if not PYTHON.exists():
        say(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    # requirements-dev.txt includes requirements.txt (-r): hash both.
    digest = hashlib.sha256()
    for name in ("requirements.txt", requirements):
        digest.update((ROOT / name).read_bytes())
    stamp = VENV / f".installed-{requirements}"
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return
    say(f"installing {requirements}")
    run(
        PYTHON,
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "-q",
        "-r",
        ROOT / requirements,
    )
    stamp.write_text(digest.hexdigest())


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def manage(*args: str) -> None:
    run(PYTHON, ROOT / "manage.py", *args, env=child_env())


def compile_translations(env: dict[str, str]) -> None:
    locale = ROOT / "locale"
    if not locale.is_dir() or not any(locale.rglob("*.po")):
        return
    say("compiling translations")
    run(PYTHON, ROOT / "manage.py", "compilemessages", "--ignore", ".venv", env=env)


def start(args: list[str]) -> int:
    port = "8000"
    if args[:1] == ["--port"] and len(args) > 1:
        port = args[1]
    ensure_venv("requirements.txt")
    manage("migrate", "--no-input")
    compile_translations(child_env())
    manage("load_demo")
    env = child_env()
    commands = {
        "web": [PYTHON, ROOT / "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        "worker": [PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO", "--concurrency=2"],
        "beat": [
            PYTHON, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
            "--schedule", ROOT / "var" / "celerybeat-schedule",
        ],
    }  # fmt: skip
    children: dict[str, subprocess.Popen[bytes]] = {}

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # `kill <dev.py pid>` stops everything, like Ctrl-C

    signal.signal(signal.SIGTERM, interrupt)
    for name, command in commands.items():
        # Own process group: Ctrl-C reaches dev.py, which then stops each group cleanly.
        children[name] = subprocess.Popen(
            [str(part) for part in command], cwd=ROOT, env=env, start_new_session=True
        )
    say(
        f"web on http://127.0.0.1:{port}/  (API docs: /api/v1/docs, admin: /admin/); Ctrl-C stops all"
    )
    code = 0
    try:
        while True:
            for name, child in children.items():
                if child.poll() is not None:
                    say(f"{name} exited with {child.returncode}; stopping the others")
                    code = child.returncode or 1
                    raise KeyboardInterrupt
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        stop(children)
    return code


def stop(children: dict[str, subprocess.Popen[bytes]]) -> None:
    for child in children.values():
        if child.poll() is None:
            child.terminate()  # the main process stops its own pool (celery: warm shutdown)
    deadline = time.monotonic() + 10
    for name, child in children.items():
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            say(f"{name} did not stop; killing it")
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    say("stopped")


def test(args: list[str]) -> int:
    ensure_venv("requirements-dev.txt")
    # Test settings (a dev SECRET_KEY) even when DATABASE_URL points at PostgreSQL.
    env = child_env(ADAPTOID_TESTING="1")
    compile_translations(env)
    return subprocess.run(
        [str(PYTHON), "-m", "pytest", *args], cwd=ROOT, env=env, check=False
    ).returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("start", "test", "manage"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "start":
        return start(rest)
    if command == "test":
        return test(rest)
    ensure_venv("requirements.txt")
    return subprocess.run(
        [str(PYTHON), str(ROOT / "manage.py"), *rest], cwd=ROOT, env=child_env(), check=False
    ).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
