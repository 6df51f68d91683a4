"""The log-in lockout (django-axes' handler): the pair (account, address), and an address.

Website, admin and API token log-ins alike (django-axes' backend asks this handler):

* Wrong passwords lock the **pair** (account, address) after ``AXES_FAILURE_LIMIT``: a
  stranger who hammers ``alice`` from one address locks ``alice`` for that address only,
  and ``alice`` logs in from her own.  An account is never locked from every address: a
  stranger could then lock anybody out.
* An **address** is locked for every account after ``AXES_ADDRESS_FAILURE_LIMIT``
  guesses: one that tries many accounts.  A guess is a password that was checked;
  attempts the lockout refused are none, so one hammered account costs its address at
  most ``AXES_FAILURE_LIMIT``.
* Counts live in the cache (Redis in production) for ``AXES_COOLOFF_TIME`` after the
  last failure.  A log-in clears its pair's count, never its address's (an attacker
  would clear that by logging in to an account of its own between guesses).
* When a pair of an account locks, its owner gets an e-mail (``send_lockout_notice``),
  once per cool-off whatever the number of addresses.
* With the cache unreachable, log-ins go through uncounted (a choice, documented in
  docs/configuration.md): the site keeps working rather than refusing everybody or
  answering 500; each skipped count is logged.

``AXES_LOCKOUT_PARAMETERS`` names the same two counts in django-axes' terms; the counting
is ours, because axes compares one limit with the highest of its counts, and joins a
key's values without a separator (``alice1`` at ``0.0.0.5`` would share a key with
``alice`` at ``10.0.0.5``).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from axes.handlers.cache import AxesCacheHandler
from axes.helpers import get_cache, get_cache_timeout, get_client_username
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.cache import CACHE_ERRORS

logger = logging.getLogger(__name__)


def _key(kind: str, *parts: str) -> str:
    digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()
    return f"lockout-{kind}-{digest}"


def pair_key(username: str, address: str) -> str:
    # Case folded: ``Alice`` and ``alice`` are one account (unique whatever the case).
    return _key("pair", username.casefold(), address)


def address_key(address: str) -> str:
    return _key("address", address)


def notice_key(username: str) -> str:
    return _key("notice", username.casefold())


class LockoutHandler(AxesCacheHandler):
    # The cache is looked up at each use, not kept from the first: axes keeps one handler
    # for the process, and a cache object taken while settings differed (a test's dead
    # Redis, a reconfigured cache) must not stay its cache for good.
    @property
    def cache(self) -> Any:
        return get_cache()

    @cache.setter
    def cache(self, value: Any) -> None:
        pass  # AxesCacheHandler.__init__ stores one: the property above answers instead

    def _keys(self, request: Any, credentials: dict[str, Any] | None) -> tuple[str | None, str]:
        """(the pair's key or None without a username, the address's key)."""
        address = str(request.axes_ip_address)
        username = get_client_username(request, credentials)
        return (pair_key(username, address) if username else None), address_key(address)

    def _counts(self, request: Any, credentials: dict[str, Any] | None) -> tuple[int, int]:
        pair, address = self._keys(request, credentials)
        found = self.cache.get_many([key for key in (pair, address) if key])
        return int(found.get(pair, 0)) if pair else 0, int(found.get(address, 0))

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        if not settings.AXES_LOCK_OUT_AT_FAILURE:
            return False
        try:
            pair, address = self._counts(request, credentials)
        except CACHE_ERRORS as exc:
            logger.warning("log-in lockout: cache unavailable (%s): not counted", exc)
            return False
        return pair >= settings.AXES_FAILURE_LIMIT or address >= settings.AXES_ADDRESS_FAILURE_LIMIT

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        """The pair's failures (what axes' own readers ask; the lock is ``is_locked``)."""
        try:
            return self._counts(request, credentials)[0]
        except CACHE_ERRORS as exc:
            logger.warning("log-in lockout: cache unavailable (%s): not counted", exc)
            return 0

    def _count(self, key: str, timeout: int | None) -> int:
        if self.cache.add(key, 1, timeout=timeout):
            return 1
        try:
            count = int(self.cache.incr(key))
        except ValueError:  # expired between the two calls
            self.cache.set(key, 1, timeout=timeout)
            return 1
        self.cache.touch(key, timeout=timeout)
        return count

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        if request is None:
            logger.error("log-in lockout: a failed log-in without a request is not counted")
            return
        if self.is_whitelisted(request, credentials):
            return
        username = get_client_username(request, credentials)
        pair, address = self._keys(request, credentials)
        timeout = get_cache_timeout(request)
        try:
            # A refused attempt checked no password: it is no guess for the address.
            refused = self.is_locked(request, credentials)
            pair_failures = self._count(pair, timeout) if pair else 0
            if refused:
                address_failures = int(self.cache.get(address, 0))
            else:
                address_failures = self._count(address, timeout)
        except CACHE_ERRORS as exc:
            logger.warning("log-in lockout: cache unavailable (%s): failure not counted", exc)
            return
        request.axes_failures_since_start = pair_failures
        pair_locked = pair_failures >= settings.AXES_FAILURE_LIMIT
        if not (pair_locked or address_failures >= settings.AXES_ADDRESS_FAILURE_LIMIT):
            return
        request.axes_locked_out = True
        request.axes_credentials = credentials
        user_locked_out.send(
            "axes", request=request, username=username, ip_address=request.axes_ip_address
        )
        if pair_locked and username:
            self._notify_owner(username, str(request.axes_ip_address), timeout)

    def _notify_owner(self, username: str, address: str, timeout: int | None) -> None:
        from accounts.tasks import send_lockout_notice

        try:
            if not self.cache.add(notice_key(username), 1, timeout=timeout):
                return  # told already in this cool-off
        except CACHE_ERRORS as exc:
            logger.warning("log-in lockout: cache unavailable (%s): owner not told", exc)
            return
        try:
            when = timezone.now().strftime("%Y-%m-%d %H:%M UTC")
            send_lockout_notice.delay(username, address, when)
        except Exception:  # a broker down must not turn a refused log-in into a 500
            logger.exception("log-in lockout: the notice to %r could not be queued", username)

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        if request is None or not settings.AXES_RESET_ON_SUCCESS:
            return
        try:
            self.cache.delete(pair_key(user.get_username(), str(request.axes_ip_address)))
        except CACHE_ERRORS as exc:
            logger.warning("log-in lockout: cache unavailable (%s): reset skipped", exc)

    def reset_attempts(
        self,
        *,
        ip_address: str | None = None,
        username: str | None = None,
        ip_or_username: bool = False,
    ) -> int:
        """axes' reset commands: an address (``axes_reset_ip``), or one pair."""
        if ip_address is None or ip_or_username:
            raise NotImplementedError("the cache holds pairs and addresses: give an address")
        key = address_key(ip_address) if username is None else pair_key(username, ip_address)
        return int(bool(self.cache.delete(key)))


def send_lockout_notice(*, username: str, address: str, when: str) -> str:
    """E-mail the owner of `username` that log-in to the account was locked for
    `address` (at `when`, as written), in the owner's language; what happened."""
    user = (
        get_user_model()
        .objects.filter(username=username, is_active=True)
        .exclude(email="")
        .select_related("profile")
        .first()
    )
    if user is None:
        return "no such account with an e-mail address"
    site = settings.SITE_URL.rstrip("/")
    with translation.override(user.profile.language):
        subject = _("Adaptoid: someone tried to log in to your account")
        body = render_to_string(
            "accounts/email/lockout_notice.txt",
            {
                "user": user,
                "address": address,
                "when": when,
                "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60) or 1,
                "reset_url": site + reverse("web:password-reset"),
            },
        )
        language = translation.get_language() or settings.LANGUAGE_CODE
    EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={"Content-Language": language},
    ).send()
    return "sent"
