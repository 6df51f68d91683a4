"""Mail as deployed (#28.6): the site's processes send through a real SMTP relay configured
from the environment (EMAIL_HOST, EMAIL_PORT, EMAIL_USE_TLS/EMAIL_USE_SSL, EMAIL_HOST_USER,
EMAIL_HOST_PASSWORD, DEFAULT_FROM_EMAIL), and every link in a message starts with SITE_URL.

The relay is aiosmtpd, started here with a certificate made here: it demands STARTTLS
and a log-in before it takes a message (or speaks TLS from the first byte, port 465
style).  The senders are the real processes: gunicorn for the password reset, a Celery
worker for the "your turn" e-mail of a turn played through the API, and
``manage.py sendtestemail``.  They trust the certificate through SSL_CERT_FILE, as a
host trusts its CA bundle.
"""

from __future__ import annotations

import email
import email.policy
import http.client
import json
import os
import re
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from config.tests.servers import free_port, start_gunicorn, wait_until_listening
from games import services as games

BASE_DIR = Path(__file__).resolve().parents[2]
SITE_URL = "https://adaptoid.example.test"
SITE_HOST = urlsplit(SITE_URL).hostname or ""
RELAY_USER, RELAY_PASSWORD = "adaptoid-relay", "relay-password-4711"
FROM = "Adaptoid <play@adaptoid.example.test>"
NEW_PASSWORD = "a-new-long-password-4711"


# --- The relay ------------------------------------------------------------------------------


@dataclass
class Delivered:
    message: EmailMessage
    recipients: list[str]
    login: str | None  # the relay account the sender logged in with
    tls: bool  # the message came over TLS

    def text(self) -> str:
        body = self.message.get_body(preferencelist=("plain",))
        assert body is not None, self.message
        return str(body.get_content())


@dataclass
class Relay:
    port: int
    implicit_tls: bool = False
    messages: list[Delivered] = field(default_factory=list)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        message = email.message_from_bytes(
            bytes(envelope.content or b""), policy=email.policy.default
        )
        assert isinstance(message, EmailMessage)
        login = session.auth_data.login.decode() if session.auth_data else None
        # STARTTLS leaves its mark on the session; a TLS port is TLS from the first byte.
        tls = session.ssl is not None or self.implicit_tls
        self.messages.append(Delivered(message, list(envelope.rcpt_tos), login, tls))
        return "250 Message accepted for delivery"

    def wait_for(self, recipient: str, seconds: float = 60) -> Delivered:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for delivered in self.messages:
                if recipient in delivered.recipients:
                    return delivered
            time.sleep(0.2)
        raise AssertionError(f"no message to {recipient}; the relay has {self.messages!r}")


def check_login(
    server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
) -> AuthResult:
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
        RELAY_USER.encode(),
        RELAY_PASSWORD.encode(),
    )
    return AuthResult(success=ok, auth_data=auth_data)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (its own CA): (certificate, key)."""
    folder = tmp_path_factory.mktemp("relay-tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def _server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*map(str, certificate))
    return context


@pytest.fixture
def starttls_relay(certificate: tuple[Path, Path]) -> Iterator[Relay]:
    """A relay on a port of its own that takes a message only after STARTTLS and a log-in."""
    relay = Relay(free_port())
    controller = Controller(
        relay, hostname="127.0.0.1", port=relay.port,
        tls_context=_server_context(certificate), require_starttls=True,
        authenticator=check_login, auth_required=True,
    )  # fmt: skip
    controller.start()
    yield relay
    controller.stop()


@pytest.fixture
def tls_relay(certificate: tuple[Path, Path]) -> Iterator[Relay]:
    """A relay that speaks TLS from the first byte (port 465 style) and wants a log-in."""
    relay = Relay(free_port(), implicit_tls=True)
    # aiosmtpd offers AUTH only after its own STARTTLS unless told: here TLS comes first.
    controller = Controller(
        relay, hostname="127.0.0.1", port=relay.port, ssl_context=_server_context(certificate),
        authenticator=check_login, auth_required=True, auth_require_tls=False,
    )  # fmt: skip
    controller.start()
    yield relay
    controller.stop()


def mail_env(relay: Relay, certificate: tuple[Path, Path], **extra: str) -> dict[str, str]:
    """An app process on the tests' database whose mail goes through `relay`."""
    return {
        **os.environ,
        "ADAPTOID_TESTING": "1",
        "DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(relay.port),
        "EMAIL_HOST_USER": RELAY_USER,
        "EMAIL_HOST_PASSWORD": RELAY_PASSWORD,
        "DEFAULT_FROM_EMAIL": FROM,
        "SITE_URL": SITE_URL,
        "ALLOWED_HOSTS": f"{SITE_HOST},127.0.0.1,localhost",
        "SSL_CERT_FILE": str(certificate[0]),  # the relay's certificate is trusted
        "LOG_LEVEL": "WARNING",
        **extra,
    }


# --- Talking to the site ---------------------------------------------------------------------


@dataclass
class Browser:
    """Plain HTTP to the gunicorn on `port`, with the Host of the link, and cookies."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, **headers: str
    ) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Host": SITE_HOST, **headers}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=sent)
        answer = conn.getresponse()
        text = answer.read().decode()
        for value in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, text

    def form_token(self, html: str) -> str:
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert found, html[:2000]
        return found.group(1)


def links(text: str) -> list[str]:
    return re.findall(r"https?://\S+", text)


def path_of(link: str) -> str:
    assert link.startswith(SITE_URL + "/"), (link, SITE_URL)
    return link.removeprefix(SITE_URL)


def family_queues(family: str) -> str:
    """config/settings.py's queues for ADAPTOID_TEST_QUEUE=family (maintenance is the family)."""
    return ",".join(
        [family] + [f"{family}-{queue}" for queue in settings.TASK_QUEUES if queue != "maintenance"]
    )


# --- The tests ----------------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_password_reset_and_your_turn_mails_go_through_the_relay_with_working_links(
    starttls_relay: Relay,
    certificate: tuple[Path, Path],
    celery_workers: Any,
    make_player: Any,
    tmp_path: Path,
) -> None:
    family = f"mail-{uuid.uuid4().hex[:8]}"  # the queues of this test's web server and worker
    env = mail_env(starttls_relay, certificate, EMAIL_USE_TLS="1", ADAPTOID_TEST_QUEUE=family)
    alice, bob = make_player("alice"), make_player("bob")
    game = games.start_game(white=alice.user, black=bob.user)
    # Addresses only now: what start_game queued here went to the session's queues.
    User = get_user_model()
    for player in (alice, bob):
        User.objects.filter(pk=player.user.pk).update(email=f"{player.username}@example.org")

    port = free_port()
    with (tmp_path / "gunicorn.log").open("wb") as log:
        web = start_gunicorn(
            {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "1"}, log
        )
    try:
        worker = celery_workers(queues=family_queues(family), env=env)
        wait_until_listening(web, port)

        # 1. "Your turn": Alice plays through the API; the worker mails Bob.
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(
            "POST", f"/api/v1/games/{game.pk}/turns", body=json.dumps({"ply": 1, "turn": "D2L"}),
            headers={"Host": SITE_HOST, "Authorization": f"Bearer {alice.token}",
                     "Content-Type": "application/json"},
        )  # fmt: skip
        answer = conn.getresponse()
        assert answer.status == 201, answer.read()
        turn = starttls_relay.wait_for("bob@example.org")
        assert (turn.login, turn.tls, turn.message["From"]) == (RELAY_USER, True, FROM)
        text = turn.text()
        game_links = [link for link in links(text) if f"/games/{game.pk}/" in link]
        unsubscribe = str(turn.message["List-Unsubscribe"]).strip().strip("<>")
        assert game_links and unsubscribe.startswith(SITE_URL + "/notifications/unsubscribe/")
        for link in [*game_links, unsubscribe]:
            status, _, page = Browser(port).request("GET", path_of(link))
            assert status == 200, (link, page[:2000])
        assert "Task notifications.tasks.send_notification_email" in worker.log()

        # 2. Password reset, asked on the web page (gunicorn sends the e-mail itself); last:
        # the new password revokes Alice's API token.
        browser = Browser(port)
        status, _, page = browser.request("GET", "/accounts/reset/")
        assert status == 200, page[:2000]
        status, headers, _ = browser.request(
            "POST", "/accounts/reset/",
            {"email": "alice@example.org", "csrfmiddlewaretoken": browser.form_token(page)},
        )  # fmt: skip
        assert status == 302, headers
        reset = starttls_relay.wait_for("alice@example.org")
        assert (reset.login, reset.tls) == (RELAY_USER, True)
        assert reset.message["From"] == FROM
        (link,) = [link for link in links(reset.text()) if "/accounts/reset/" in link]
        # The link opens the set-password page (Django first moves the token to the
        # session), and the new password works.
        reader = Browser(port)
        status, headers, _ = reader.request("GET", path_of(link))
        assert status == 302 and headers["location"].endswith("/set-password/"), headers
        set_password = headers["location"]
        status, _, page = reader.request("GET", set_password)
        assert status == 200 and 'name="new_password1"' in page, page[:2000]
        status, headers, _ = reader.request(
            "POST", set_password,
            {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD,
             "csrfmiddlewaretoken": reader.form_token(page)},
        )  # fmt: skip
        assert status == 302, headers
        assert User.objects.get(pk=alice.user.pk).check_password(NEW_PASSWORD)
    finally:
        os.killpg(web.pid, 15)
        web.wait(30)


# aiosmtpd's warning is about its own STARTTLS; this relay is TLS from the first byte.
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_sendtestemail_goes_through_a_relay_that_speaks_tls_from_the_start(
    tls_relay: Relay, certificate: tuple[Path, Path]
) -> None:
    env = mail_env(tls_relay, certificate, EMAIL_USE_SSL="1")
    done = subprocess.run(
        [sys.executable, "manage.py", "sendtestemail", "ops@example.org"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    delivered = tls_relay.wait_for("ops@example.org", seconds=5)
    assert (delivered.login, delivered.tls) == (RELAY_USER, True)
    assert delivered.message["From"] == FROM
