"""The account's e-mails as tasks: thin, take names, bounded retries (the email queue)."""

from __future__ import annotations

import logging
import smtplib

from celery import Task, shared_task

logger = logging.getLogger(__name__)

# What a mail server that is down or refuses looks like; anything else is a bug.
MAIL_ERRORS = (smtplib.SMTPException, OSError)


@shared_task(bind=True, acks_late=True, time_limit=60, soft_time_limit=50, max_retries=3)
def send_lockout_notice(self: Task, username: str, address: str, when: str) -> str:
    """Tell the owner of `username` that log-in was locked for `address` (accounts.lockout:
    queued once per cool-off, so a redelivered message costs at most a second e-mail)."""
    from accounts import lockout

    try:
        return lockout.send_lockout_notice(username=username, address=address, when=when)
    except MAIL_ERRORS as exc:
        if self.request.retries >= self.max_retries:
            logger.error("lockout notice to %r failed for good: %s", username, exc)
            return "failed"
        raise self.retry(exc=exc, countdown=60 * 2**self.request.retries) from None
