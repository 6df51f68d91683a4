"""Email tasks: thin, take ids, idempotent (a sent flag), bounded retries, after commit."""

from __future__ import annotations

import logging
import smtplib

from celery import Task, shared_task

logger = logging.getLogger(__name__)

# What a mail server that is down or refuses looks like; anything else is a bug.
MAIL_ERRORS = (smtplib.SMTPException, OSError)


def _backoff(retries: int) -> int:
    return min(600, 30 * 2**retries)  # 30 s, 1, 2, 4, 8 minutes


@shared_task(bind=True, acks_late=True, time_limit=60, soft_time_limit=50, max_retries=5)
def send_notification_email(self: Task, notification_id: int) -> str:
    from notifications import services

    try:
        return services.deliver_email(notification_id=notification_id)
    except MAIL_ERRORS as exc:
        if self.request.retries >= self.max_retries:
            services.give_up_email(notification_id=notification_id)
            logger.error("notification %s: email failed for good: %s", notification_id, exc)
            return "failed"
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from None


@shared_task(bind=True, acks_late=True, time_limit=120, soft_time_limit=100, max_retries=5)
def send_digest(self: Task, user_id: int) -> int:
    from notifications import services

    try:
        return services.deliver_digest(user_id=user_id)
    except MAIL_ERRORS as exc:
        # The rows went back to the digest queue: tomorrow's digest takes them otherwise.
        if self.request.retries >= self.max_retries:
            logger.error("digest for user %s failed for good: %s", user_id, exc)
            return 0
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from None


@shared_task(acks_late=True, time_limit=300, soft_time_limit=280)
def send_digests() -> int:
    """Daily (beat): one digest task per user with waiting notifications."""
    from notifications import services

    users = services.users_with_digest()
    for user_id in users:
        send_digest.delay(user_id)
    return len(users)


@shared_task(acks_late=True, time_limit=120, soft_time_limit=100)
def requeue_stale_emails() -> int:
    """Beat: emails whose sender died mid-send, or whose message was lost, are queued again."""
    from notifications import services

    ids = services.release_stale_claims()
    for notification_id in ids:
        send_notification_email.delay(notification_id)
    return len(ids)
