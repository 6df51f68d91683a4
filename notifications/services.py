"""Notify players: the on-site list, and emails sent by Celery after commit.

``notify(*, user, kind, …)`` is the one entry point (the tournaments app reaches it
through core.notices for "tournament started" and "new round paired").  It stores a Notification in
the caller's transaction and decides about the email:

* emails off, no address, or a bot → none;
* "your turn" with the daily digest chosen → waits for the digest;
* "your turn" with an email already sent (or on its way) for the same game in the
  last ``NOTIFICATIONS_TURN_EMAIL_HOURS`` hours → batched (not emailed again);
* otherwise → queued: ``send_notification_email`` runs once the transaction
  commits, so a turn never waits for (or is rolled back by) the mail server.

Sending is claimed with a guarded UPDATE (pending → sending) and marked sent after
the mail server accepted it: a redelivered task finds it sent and does nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Exists, F, OuterRef, Q, Value, When
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Profile, TurnEmail
from core import rows
from core.rows import RowWriter
from games.models import Game
from notifications.models import EmailState, Kind, Notification

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
# A sender that claimed an email this long ago without finishing has died; an email
# pending this long without a single attempt lost its message (a web node killed between
# its commit and the message, the broker down at the commit).
STALE_CLAIM = dt.timedelta(minutes=15)
# Emailing these does not make sense (the list on the site shows them).
SITE_ONLY_KINDS: frozenset[str] = frozenset()


def turn_email_hours() -> int:
    return int(getattr(settings, "NOTIFICATIONS_TURN_EMAIL_HOURS", 12))


def site_url() -> str:
    return str(getattr(settings, "SITE_URL", "http://127.0.0.1:8000")).rstrip("/")


def game_url(game_id: int) -> str:
    return f"/games/{game_id}/"


def _email_state(
    *, user: User, profile: Profile, kind: str, game: Game | None, now: dt.datetime
) -> tuple[str, bool]:
    """(email_state, digest) for a new notification."""
    if not profile.email_notifications or not user.email or profile.is_bot:
        return EmailState.NONE, False
    if kind in SITE_ONLY_KINDS:
        return EmailState.NONE, False
    if kind != Kind.YOUR_TURN:
        return EmailState.PENDING, False
    if profile.turn_email == TurnEmail.DIGEST:
        return EmailState.DIGEST, True
    recent = Notification.objects.filter(
        user=user,
        kind=Kind.YOUR_TURN,
        game=game,
        email_state__in=[EmailState.PENDING, EmailState.SENDING, EmailState.SENT],
        created__gte=now - dt.timedelta(hours=turn_email_hours()),
    )
    if game is not None and recent.exists():
        return EmailState.BATCHED, False
    return EmailState.PENDING, False


_KINDS = frozenset(Kind.values)


@cache
def _writer() -> RowWriter[Notification]:
    return RowWriter(Notification)  # built at first use: the models' apps must be ready


def _insert(
    row: Notification, seen_by: User | None = None, *, skip_duplicate: bool = False
) -> bool:
    """``row.save()`` as a named statement (every turn writes a notification; see
    ``core.rows``, and ``games/tests/test_hot_writes.py`` for the check that the row
    equals the ORM's).  With ``seen_by`` (PostgreSQL), ``mark_game_read`` for that user
    and the row's game runs in the same statement, before the insert (one snapshot:
    the new row is never among those marked).  With ``skip_duplicate`` (PostgreSQL), a
    row the unique dedupe key refuses is not written and False is returned: no
    savepoint needed around it.  Returns whether the row was written."""
    writer = _writer()
    sql = writer.insert_sql(skip_conflicts=skip_duplicate)
    params = writer.insert_values(row)
    if seen_by is not None:
        sql = f"WITH seen AS ({_mark_game_read_sql()}) {sql}"
        params = [*_mark_game_read_params(user=seen_by, game_id=row.game_id), *params]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        written = cursor.fetchone()
    if written is None:
        return False
    (row.pk,) = written
    return True


@cache
def _mark_game_read_sql() -> str:
    def column(name: str) -> str:
        return rows.column(Notification, name)

    return (
        f'UPDATE "{Notification._meta.db_table}" SET "{column("read")}" = %s '
        f'WHERE "{column("game")}" = %s AND "{column("user")}" = %s '
        f'AND "{column("read")}" IS NULL'
    )


def notify(
    *,
    user: User,
    kind: str,
    game: Game | None = None,
    params: dict[str, Any] | None = None,
    url: str = "",
    dedupe_key: str = "",
    now: dt.datetime | None = None,
    profile: Profile | None = None,
    seen_by: User | None = None,
) -> Notification | None:
    """Tell `user` about an event of `kind` (a notifications.models.Kind value).

    `params` fill the message's placeholders (JSON values: ids, names, numbers);
    `url` is a site path the notification links to (the game page by default when
    `game` is given).  With a `dedupe_key`, a second notification with the same
    key for the same user is not created (None is returned): safe for sweepers
    that may run twice.  Call it inside your transaction; the email goes after commit.
    `profile` is the user's profile when the caller already has it (no query then).
    `seen_by` (with a `game`): that user has seen the game, their notifications about
    it are marked read first (``mark_game_read``) — on PostgreSQL in the same statement
    as the insert: a turn does both for its two players.
    """
    if kind not in _KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    now = now or timezone.now()
    if profile is None or profile.user_id != user.pk:
        profile, _created = Profile.objects.get_or_create(user=user)
    state, digest = _email_state(user=user, profile=profile, kind=kind, game=game, now=now)
    values = dict(params or {})
    if game is not None:
        values.setdefault("game", game.pk)
    row = Notification(
        user=user,
        kind=kind,
        game=game,
        params=values,
        url=url or (game_url(game.pk) if game is not None else ""),
        dedupe_key=dedupe_key,
        email_state=state,
        digest=digest,
    )
    if seen_by is not None and game is not None:
        if dedupe_key or connection.vendor != "postgresql":
            mark_game_read(user=seen_by, game=game)
        else:
            _insert(row, seen_by=seen_by)
    if dedupe_key and connection.vendor == "postgresql":
        if not _insert(row, skip_duplicate=True):  # the (user, dedupe_key) row exists
            return None
    elif dedupe_key:
        try:
            with transaction.atomic():  # a duplicate must not spoil the caller's transaction
                _insert(row)
        except IntegrityError:  # the unique (user, dedupe_key) constraint: already told
            return None
    elif row.pk is None:
        _insert(row)
    if state == EmailState.PENDING:
        from notifications.tasks import send_notification_email

        send_notification_email.delay(row.pk)  # sent after the commit (core.tasks)
    return row


# --- Reading ----------------------------------------------------------------------------


def mark_read(*, user: User, ids: list[int] | None = None) -> int:
    """Mark the user's notifications (all, or those `ids`) read; returns how many."""
    unread = Notification.objects.filter(user=user, read__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    return unread.update(read=timezone.now())


def mark_game_read(*, user: User, game: Game) -> int:
    """The user opened or played `game`: what the site told them about it is read.

    A named statement (every turn runs it for the mover); the same rows as
    ``Notification.objects.filter(user=user, game=game, read__isnull=True).update(
    read=now)``, which ``games/tests/test_hot_writes.py`` compares it with."""
    with connection.cursor() as cursor:
        cursor.execute(_mark_game_read_sql(), _mark_game_read_params(user=user, game_id=game.pk))
        return cursor.rowcount


def _mark_game_read_params(*, user: User, game_id: int | None) -> list[Any]:
    read = Notification._meta.get_field("read")
    return [read.get_db_prep_save(timezone.now(), connection), game_id, user.pk]


def unread_count(user: User) -> int:
    return Notification.objects.filter(user=user, read__isnull=True).count()


# --- Unsubscribe ------------------------------------------------------------------------


def unsubscribe_token(user: User) -> str:
    """A signed token naming the user: the link works without logging in."""
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(user: User) -> str:
    return site_url() + reverse(
        "notifications:unsubscribe", kwargs={"token": unsubscribe_token(user)}
    )


def unsubscribing_user(token: str) -> User | None:
    """The user an unsubscribe token names; None for a bad or forged token."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    user_id = data.get("u") if isinstance(data, dict) else None
    return User.objects.filter(pk=user_id).first() if isinstance(user_id, int) else None


def unsubscribe(*, token: str) -> User | None:
    """Turn every email off for the token's user; None for a bad or forged token."""
    user = unsubscribing_user(token)
    if user is None:
        return None
    Profile.objects.filter(user=user).update(email_notifications=False)
    # Whatever was still waiting is not sent any more.
    Notification.objects.filter(
        user=user, email_state__in=[EmailState.PENDING, EmailState.DIGEST]
    ).update(email_state=EmailState.NONE)
    return user


# --- Sending ----------------------------------------------------------------------------


def _message(
    *,
    user: User,
    subject: str,
    template: str,
    context: dict[str, Any],
    message_id: str,
) -> EmailMultiAlternatives:
    link = unsubscribe_url(user)
    body = render_to_string(
        template, {**context, "user": user, "unsubscribe_url": link, "site_url": site_url()}
    )
    message = EmailMultiAlternatives(
        subject=subject.strip().replace("\n", " "),
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        # RFC 8058 one-click unsubscribe, understood by the big mail clients.
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Content-Language": translation.get_language() or settings.LANGUAGE_CODE,
            # The same id however often it is sent: the one duplicate at-least-once allows
            # (the sender killed after the mail server took it, before the row says sent)
            # is recognised as one message by mail clients and servers.
            "Message-ID": f"<{message_id}@{urlsplit(site_url()).hostname or 'localhost'}>",
        },
    )
    return message


def _release(ids: list[int], *, failed: bool = False) -> None:
    """Give claimed notifications back (to their queue, or mark them failed)."""
    if failed:
        target: Any = Value(EmailState.FAILED)
    else:
        target = Case(
            When(digest=True, then=Value(EmailState.DIGEST)), default=Value(EmailState.PENDING)
        )
    Notification.objects.filter(pk__in=ids, email_state=EmailState.SENDING).update(
        email_state=target, email_claimed=None
    )


def deliver_email(*, notification_id: int, now: dt.datetime | None = None) -> str:
    """Send one notification's email, at most once; returns what happened.

    Raises the mail server's error after releasing the claim (the task retries).
    """
    now = now or timezone.now()
    claimed = Notification.objects.filter(
        pk=notification_id, email_state=EmailState.PENDING
    ).update(
        email_state=EmailState.SENDING, email_claimed=now, email_attempts=F("email_attempts") + 1
    )
    if not claimed:
        state = (
            Notification.objects.filter(pk=notification_id)
            .values_list("email_state", flat=True)
            .first()
        )
        return f"not sent: {state or 'missing'}"
    notification = Notification.objects.select_related("user__profile").get(pk=notification_id)
    user = notification.user
    try:
        with translation.override(user.profile.language):
            message = _message(
                user=user,
                subject=f"Adaptoid: {notification.get_kind_display()}",
                template="notifications/email/notification.txt",
                context={"notification": notification, "text": notification.message},
                message_id=f"notification.{notification.pk}",
            )
        message.send()
    except Exception:
        _release([notification_id])
        raise
    Notification.objects.filter(pk=notification_id, email_state=EmailState.SENDING).update(
        email_state=EmailState.SENT, emailed=timezone.now()
    )
    return "sent"


def give_up_email(*, notification_id: int) -> None:
    """The retries are exhausted: mark it failed (it stays on the site)."""
    Notification.objects.filter(pk=notification_id, email_state=EmailState.PENDING).update(
        email_state=EmailState.FAILED
    )


def users_with_digest() -> list[int]:
    return list(
        Notification.objects.filter(email_state=EmailState.DIGEST)
        .order_by("user_id")  # not the default ordering: distinct users only
        .values_list("user_id", flat=True)
        .distinct()
    )


def deliver_digest(*, user_id: int, now: dt.datetime | None = None) -> int:
    """One email listing the user's waiting "your turn" notifications; returns how many."""
    now = now or timezone.now()
    with transaction.atomic():
        # Claim exactly the rows this digest lists: a second digest run skips them.
        waiting = list(
            Notification.objects.select_for_update(skip_locked=True)
            .filter(user_id=user_id, email_state=EmailState.DIGEST)
            .values_list("pk", flat=True)
        )
        claimed = Notification.objects.filter(pk__in=waiting, email_state=EmailState.DIGEST).update(
            email_state=EmailState.SENDING,
            email_claimed=now,
            email_attempts=F("email_attempts") + 1,
        )
    if not claimed:
        return 0
    items = list(
        Notification.objects.filter(pk__in=waiting, email_state=EmailState.SENDING).order_by(
            "created"
        )
    )
    user = User.objects.select_related("profile").get(pk=user_id)
    try:
        with translation.override(user.profile.language):
            # One line per game: the latest notification of each.
            latest: dict[Any, Notification] = {}
            for item in items:
                latest[item.game_id or f"n{item.pk}"] = item
            message = _message(
                user=user,
                subject=translation.gettext("Adaptoid: your daily digest"),
                template="notifications/email/digest.txt",
                context={"items": [(item, item.message) for item in latest.values()]},
                # The digest of these notifications: re-sent after a crash, the same id.
                message_id=f"digest.{user_id}.{min(item.pk for item in items)}",
            )
        message.send()
    except Exception:
        _release([item.pk for item in items])
        raise
    Notification.objects.filter(
        pk__in=[item.pk for item in items], email_state=EmailState.SENDING
    ).update(email_state=EmailState.SENT, emailed=timezone.now())
    return len(items)


def release_stale_claims(*, now: dt.datetime | None = None) -> list[int]:
    """The emails to queue again: 'sending' rows of senders that died mid-send (put
    back to pending), and rows pending for STALE_CLAIM without a single attempt, whose
    message was lost (a web node killed after its commit, before the message left).
    A row whose message is only late after all is sent once: sending is claimed."""
    now = now or timezone.now()
    stale = Notification.objects.filter(
        email_state=EmailState.SENDING, email_claimed__lt=now - STALE_CLAIM
    )
    ids = list(stale.values_list("pk", flat=True))
    _release(ids)
    released = Notification.objects.filter(pk__in=ids, email_state=EmailState.PENDING)
    lost = Notification.objects.filter(
        email_state=EmailState.PENDING, email_attempts=0, created__lt=now - STALE_CLAIM
    )
    return sorted(
        set(released.values_list("pk", flat=True)) | set(lost.values_list("pk", flat=True))
    )


def opponent_name(game: Game, user_id: int) -> str:
    other = game.black if user_id == game.white_id else game.white
    return other.get_username()


def recent_for(user: User, *, unread_only: bool = False) -> Any:
    """The user's notifications, newest first; of the "your turn" notices of one game
    only the latest (the older ones said the same thing)."""
    superseded = Notification.objects.filter(
        user=OuterRef("user"), kind=Kind.YOUR_TURN, game=OuterRef("game"), pk__gt=OuterRef("pk")
    )
    notifications = Notification.objects.filter(user=user).exclude(
        Q(kind=Kind.YOUR_TURN) & Q(game__isnull=False) & Exists(superseded)
    )
    if unread_only:
        notifications = notifications.filter(read__isnull=True)
    return notifications
