#!/usr/bin/env python3
"""Bootstrap and run the Adaptoid platform on a fresh machine (standard library only).

    python3 dev.py start [--port N]   # venv + install + migrate + demo data, then web + workers + beat
    python3 dev.py test [ARGS]        # venv + install (with dev tools), then pytest ARGS
    python3 dev.py manage ARGS        # any manage.py command inside the venv

The virtual environment is `.venv/` next to this file; requirements are installed
again only when requirements*.txt change.  Translations (every `locale/` folder) are
compiled with Babel, in pure Python: GNU gettext is not needed.  Environment
variables (DATABASE_URL, REDIS_URL, …) pass through to every command: see
config/settings.py.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import venv
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# One Celery worker per queue of config/settings.py's routes (TASK_QUEUES; a test keeps
# the two lists equal), with its number of processes: a user's bot matches or a big
# import never wait in front of another user's bot reply.  The job queues' numbers are
# the settings' slots (JOBS_EVALUATION_SLOTS, JOBS_IMPORT_SLOTS, JOBS_ANALYSIS_SLOTS).
WORKER_QUEUES = {
    "interactive": 2, "evaluations": 2, "matches": 1, "tournaments": 1, "email": 1,
    "imports": 1, "analysis": 1, "maintenance": 1,
}  # fmt: skip
# Written by `manage.py load_demo` (web/management/commands/load_demo.py).
ADMIN_PASSWORD_FILE = ROOT / "var" / "demo-admin-password.txt"
# Folders never searched for translations (besides dot folders and virtual environments).
NOT_SOURCE = {"var", "staticfiles", "media", "node_modules", "__pycache__"}


def say(message: str) -> None:
    # stderr: `python3 dev.py manage dumpdata > data.json` gets only the command's output.
    print(f"[dev] {message}", file=sys.stderr, flush=True)


def run(*command: str | Path, env: dict[str, str] | None = None) -> None:
    done = subprocess.run([str(part) for part in command], cwd=ROOT, env=env, check=False)
    if done.returncode != 0:
        say(f"failed ({done.returncode}): {' '.join(map(str, command))}")
        sys.exit(done.returncode)


# --- Command line -------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage block: what is wrong and where help is.
        self.exit(2, f"{self.prog}: error: {message} (see: python3 {self.prog} --help)\n")


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1-65535, not {port}")
    return port


def build_parser() -> Parser:
    parser = Parser(
        prog="dev.py",
        description="Set up and run the Adaptoid platform (Python >= 3.11, nothing else).",
        epilog=(
            "Every command creates .venv/ and installs the pinned requirements first "
            "(only when they changed).  `test` and `manage` pass every argument after "
            "them on unchanged: `python3 dev.py test --help` shows pytest's options, "
            "`python3 dev.py manage help` the manage.py commands."
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    start = commands.add_parser(
        "start",
        help="migrate, load demo data, then run web + Celery workers + beat (Ctrl-C stops)",
        description=(
            "Create .venv/, install requirements.txt, migrate (SQLite var/db.sqlite3 unless "
            "DATABASE_URL is set), compile translations, load the demo data, print the admin "
            f"login, then run the web server on http://{HOST}:PORT/, a Celery worker per "
            "queue (WORKER_QUEUES) and Celery beat until Ctrl-C.  SITE_URL (the links in e-mails) defaults to "
            f"http://{HOST}:PORT."
        ),
    )
    start.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"port of the web server on {HOST} (default {DEFAULT_PORT})",
    )
    commands.add_parser(
        "test",
        add_help=False,
        usage="dev.py test [PYTEST_ARGS ...]",
        help="install the dev tools, then run pytest with ARGS (default: the whole suite)",
    )
    commands.add_parser(
        "manage",
        add_help=False,
        usage="dev.py manage COMMAND [ARGS ...]",
        help="run a manage.py command inside the venv",
    )
    return parser


def parse(argv: list[str]) -> argparse.Namespace:
    """The command and its options; `test` and `manage` keep every later argument as is."""
    parser = build_parser()
    if argv and argv[0] in ("test", "manage"):
        options = parser.parse_args(argv[:1])
        options.args = argv[1:]
        return options
    options = parser.parse_args(argv)
    if options.command is None:
        parser.print_help(sys.stderr)
        parser.exit(2)
    return options


# --- Virtual environment ------------------------------------------------------------


def ensure_venv(requirements: str) -> None:
    """Create .venv if missing and install `requirements` unless already done for this content."""
    if sys.version_info < (3, 11):  # noqa: UP036 - a clear message on an old python3
        sys.exit(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}).")
    if not PYTHON.exists():
        create_venv()
    # requirements-dev.txt includes requirements.txt (-r): hash both.
    digest = hashlib.sha256()
    for name in ("requirements.txt", requirements):
        digest.update((ROOT / name).read_bytes())
    stamp = VENV / f".installed-{requirements}"
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return
    has_pip = subprocess.run([PYTHON, "-c", "import pip"], check=False, capture_output=True)
    if has_pip.returncode != 0:
        create_venv()  # left without pip (an interrupted creation): start again
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


def create_venv() -> None:
    say(f"creating virtual environment in {VENV}")
    try:
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    except (subprocess.CalledProcessError, OSError) as error:
        shutil.rmtree(VENV, ignore_errors=True)
        sys.exit(
            f"[dev] could not create {VENV} with pip ({error}). On Debian and Ubuntu the "
            "system Python needs its venv package: apt-get install python3-venv"
        )


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def manage(*args: str, env: dict[str, str] | None = None) -> None:
    run(PYTHON, ROOT / "manage.py", *args, env=env or child_env())


# --- Translations (pure Python: Babel, no GNU gettext) -------------------------------


def find_catalogs(root: Path = ROOT) -> list[Path]:
    """Every `locale/<language>/LC_MESSAGES/*.po` under `root`: the project's `locale/`
    (LOCALE_PATHS) and each app's, whatever apps exist; virtual environments, dot
    folders and generated folders (var/, staticfiles/…) are not searched."""
    found: list[Path] = []
    for folder, subfolders, files in os.walk(root):
        here = Path(folder)
        subfolders[:] = sorted(
            name
            for name in subfolders
            if not name.startswith(".")
            and name not in NOT_SOURCE
            and not (here / name / "pyvenv.cfg").exists()
        )
        if here.name == "LC_MESSAGES" and here.parent.parent.name == "locale":
            found.extend(here / name for name in sorted(files) if name.endswith(".po"))
    return found


def compile_catalog(po: Path, mo: Path | None = None) -> bool:
    """Compile one .po file to .mo as GNU msgfmt does (untranslated and fuzzy entries left
    out; Babel rewrites the header with the same Language and Plural-Forms); runs where
    Babel is installed (the venv).  Refuses a catalog
    with format errors (like `msgfmt --check-format`, which Django's compilemessages uses).
    Returns whether the .mo file changed; writes it atomically."""
    from io import BytesIO

    from babel import Locale, UnknownLocaleError
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    mo = mo or po.with_suffix(".mo")
    try:  # locale/<language>/LC_MESSAGES/x.po; a Language header in the file wins
        language = Locale.parse(po.parent.parent.name)
    except (ValueError, UnknownLocaleError):
        language = None
    with po.open("rb") as source:
        catalog = read_po(source, locale=language, abort_invalid=True)
    if catalog.locale is None and any(message.pluralizable for message in catalog):
        # Babel writes Plural-Forms only for a known language.
        raise ValueError(f"{po}: no Language header and not in locale/<language>/LC_MESSAGES")
    problems = [
        f"{po}:{message.lineno}: {error}" for message, errors in catalog.check() for error in errors
    ]
    if problems:
        raise ValueError("\n".join(problems))
    for message in list(catalog)[1:]:  # [0] is the header
        first = message.string[0] if isinstance(message.string, (list, tuple)) else message.string
        if not first:  # msgfmt drops a plural entry whose first form is empty
            catalog.delete(message.id, message.context)
    data = BytesIO()
    write_mo(data, catalog, use_fuzzy=False)
    if mo.exists() and mo.read_bytes() == data.getvalue():
        return False
    partial = mo.with_name(mo.name + ".partial")
    partial.write_bytes(data.getvalue())
    os.replace(partial, mo)  # a reader never sees a half-written file
    return True


def compile_catalogs(root: Path = ROOT) -> list[Path]:
    """Compile every catalog of `find_catalogs(root)`; returns the .mo files that changed."""
    changed = []
    for po in find_catalogs(root):
        if compile_catalog(po):
            changed.append(po.with_suffix(".mo"))
    return changed


def compile_translations(env: dict[str, str]) -> None:
    """Compile the translations with the venv's Python (Babel lives there)."""
    if not find_catalogs():
        return
    script = (
        "import sys, dev\n"
        "try:\n"
        "    changed = dev.compile_catalogs()\n"
        "except ValueError as error:\n"
        "    sys.exit(f'[dev] a translation catalog is wrong:\\n{error}')\n"
        "if changed:\n"
        "    dev.say(f'compiled {len(changed)} translation catalog(s)')\n"
    )
    done = subprocess.run([str(PYTHON), "-c", script], cwd=ROOT, env=env, check=False)
    if done.returncode != 0:
        sys.exit(done.returncode)  # the script said what is wrong


# --- Commands -----------------------------------------------------------------------


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
    return True


def web_answers(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            return True
    except OSError:
        return False


def start_env(port: int) -> dict[str, str]:
    """The children's environment: links in e-mails (notifications) and the admin login
    that load_demo prints point at this server, unless SITE_URL is set explicitly."""
    env = child_env()
    env.setdefault("SITE_URL", f"http://{HOST}:{port}")
    return env


def start(port: int) -> int:
    if not port_is_free(port):
        say(f"port {port} is in use on {HOST}: stop what uses it or pick another, --port N")
        return 1
    url = f"http://{HOST}:{port}"
    env = start_env(port)
    ensure_venv("requirements.txt")
    manage("migrate", "--no-input", env=env)
    compile_translations(env)
    manage("load_demo", env=env)
    commands = {
        "web": [PYTHON, ROOT / "manage.py", "runserver", f"{HOST}:{port}", "--noreload"],
        **{
            f"worker-{queue}": [
                PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO",
                "--queues", queue, "--hostname", f"{queue}@%h", f"--concurrency={concurrency}",
            ]
            for queue, concurrency in WORKER_QUEUES.items()
        },
        "beat": [
            PYTHON, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
            "--schedule", ROOT / "var" / "celerybeat-schedule",
        ],
    }  # fmt: skip
    children: dict[str, subprocess.Popen[bytes]] = {}

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # `kill <dev.py pid>` stops everything, like Ctrl-C

    signal.signal(signal.SIGTERM, interrupt)
    # Ctrl-C too, even when started with SIGINT ignored (`python3 dev.py start &` in a script).
    signal.signal(signal.SIGINT, interrupt)
    code = 0
    try:
        workers_ready = {name: threading.Event() for name in commands if name.startswith("worker")}
        for name, command in commands.items():
            # Own process group: Ctrl-C reaches dev.py, which then stops each group cleanly.
            children[name] = subprocess.Popen(
                [str(part) for part in command],
                cwd=ROOT,
                env=env,
                start_new_session=True,
                # The workers' output passes through dev.py, which watches for "ready.".
                stdout=subprocess.PIPE if name in workers_ready else None,
                stderr=subprocess.STDOUT if name in workers_ready else None,
            )
        for name, ready_event in workers_ready.items():
            threading.Thread(target=relay, args=(children[name], ready_event), daemon=True).start()
        announced = False
        deadline = time.monotonic() + 90
        while True:
            for name, child in children.items():
                if child.poll() is not None:
                    say(f"{name} exited with {child.returncode}; stopping the others")
                    code = child.returncode or 1
                    raise KeyboardInterrupt
            # Last on the console: once the web server answers and every worker is ready.
            ready = all(event.is_set() for event in workers_ready.values()) and web_answers(port)
            if not announced and (ready or time.monotonic() > deadline):
                announce(url, env["SITE_URL"])
                announced = True
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        stop(children)
    return code


def relay(child: subprocess.Popen[bytes], ready: threading.Event) -> None:
    """Copy the child's output to ours; set `ready` at Celery's "celery@host ready." line."""
    assert child.stdout is not None
    out = sys.stdout.buffer
    for line in iter(child.stdout.readline, b""):
        out.write(line)
        out.flush()
        if line.rstrip().endswith(b" ready."):
            ready.set()


def announce(url: str, site_url: str) -> None:
    """The URLs and logins, last on the console."""
    say(f"web on {url}/  API docs: {url}/api/v1/docs  admin: {url}/admin/")
    if ADMIN_PASSWORD_FILE.exists():
        password = ADMIN_PASSWORD_FILE.read_text().strip()
        say(f"admin login: user admin, password {password} (kept in var/demo-admin-password.txt)")
    say("demo players: alice, bob, carol, dmitri (password adaptoid-demo)")
    if site_url.rstrip("/") != url:
        say(f"links in e-mails use SITE_URL={site_url}")
    say("e-mails are printed here (console backend); Ctrl-C stops everything")


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
    options = parse(argv)
    if options.command == "start":
        return start(options.port)
    if options.command == "test":
        return test(options.args)
    ensure_venv("requirements.txt")
    env = child_env()
    compile_translations(env)
    return subprocess.run(
        [str(PYTHON), str(ROOT / "manage.py"), *options.args], cwd=ROOT, env=env, check=False
    ).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
