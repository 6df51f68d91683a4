"""Accounts and API tokens: sign-up, token issue, lookup and revocation."""

from __future__ import annotations

import datetime
import hashlib
import secrets
from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import errors, hot_reads
from accounts.models import ApiToken, Block, UsernameSkeleton
from accounts.usernames import username_skeleton, validate_username
from core.errors import InvalidInput


def register_account(*, username: str, password: str) -> User:
    """Create a player; the password must pass Django's validators."""
    username = (username or "").strip()
    field = User._meta.get_field("username")
    try:
        field.run_validators(username)
        validate_username(username)
        if not username:
            raise ValidationError(_("A username is required."))
    except ValidationError as exc:
        raise InvalidInput(" ".join(exc.messages), fields={"username": exc.messages}) from None
    with transaction.atomic():
        if User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": username}).exists():
            raise errors.AccountExists(
                fields={"username": [str(errors.AccountExists.default_message)]}
            )
        look_alike = _account_that_looks_like(username)
        if look_alike is not None:
            raise errors.UsernameLooksAlike.of(look_alike)
        candidate = User(**{User.USERNAME_FIELD: username})
        try:
            validate_password(password, user=candidate)
        except ValidationError as exc:
            raise errors.WeakPassword(
                " ".join(exc.messages), fields={"password": exc.messages}
            ) from None
        candidate.set_password(password)
        try:
            with transaction.atomic():
                candidate.save()  # accounts.receivers reserves its skeleton, if still free
        except IntegrityError:  # the same name registered concurrently
            raise errors.AccountExists() from None
        if not UsernameSkeleton.objects.filter(user=candidate).exists():
            # A look-alike registered concurrently took the skeleton first.
            raise errors.UsernameLooksAlike.of(_account_that_looks_like(username) or username)
    return candidate


def _account_that_looks_like(username: str) -> str | None:
    """The username of the account whose name looks like `username`, if there is one."""
    held = (
        UsernameSkeleton.objects.filter(skeleton=username_skeleton(username))
        .select_related("user")
        .first()
    )
    return None if held is None else held.user.get_username()


def _token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def issue_token(*, username: str, password: str, request: Any) -> str:
    """Check the credentials and return a new bearer token (shown only this once).

    `request` (the HTTP request) lets the log-in lockout (django-axes, settings) count
    the failures of this account and this address."""
    user = authenticate(request, username=username, password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):
            raise errors.LockedOut()
        raise errors.BadCredentials()
    return create_token(user=user)


def create_token(*, user: User) -> str:
    """A new bearer token for `user`, no password asked (trusted code: tests, scripts)."""
    prefix = secrets.token_hex(6)
    raw = f"{prefix}.{secrets.token_urlsafe(32)}"
    ApiToken.objects.create(user=user, prefix=prefix, digest=_token_digest(raw))
    return raw


def user_for_token(raw: str) -> User | None:
    """The active user a bearer token belongs to, or None (unknown, revoked, inactive)."""
    prefix, dot, _secret = raw.partition(".")
    if not dot or not prefix:
        return None
    if connection.vendor == "postgresql":
        token = hot_reads.live_token(prefix)  # every API request: the named statement
    else:
        token = (
            ApiToken.objects.select_related("user")
            .filter(prefix=prefix, revoked__isnull=True)
            .order_by("pk")
            .first()
        )
    if (
        token is None
        or not secrets.compare_digest(token.digest, _token_digest(raw))
        or not token.user.is_active
    ):
        return None
    now = timezone.now()
    # Write at most once a minute per token: authentication must not cost a write per request.
    if token.last_used is None or now - token.last_used > datetime.timedelta(minutes=1):
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    return token.user


def revoke_token(*, token: ApiToken) -> None:
    ApiToken.objects.filter(pk=token.pk, revoked__isnull=True).update(revoked=timezone.now())


def revoke_all_tokens(*, user: User) -> int:
    """Revoke every API token of `user` (a new password: old tokens must stop working)."""
    return ApiToken.objects.filter(user=user, revoked__isnull=True).update(revoked=timezone.now())


# --- Blocking ------------------------------------------------------------------------------


def block(*, blocker: User, blocked: User) -> tuple[Block, bool]:
    """`blocker` blocks `blocked`: (the block, whether it is new).  Blocking twice is
    harmless (a retried request)."""
    if blocker.pk == blocked.pk:
        message = _("You cannot block yourself.")
        raise InvalidInput(message, fields={"username": [message]})
    with transaction.atomic():
        return Block.objects.get_or_create(blocker=blocker, blocked=blocked)


def unblock(*, blocker: User, blocked: User) -> bool:
    """Lift a block; False when there was none (unblocking twice is harmless)."""
    deleted, _by_model = Block.objects.filter(blocker=blocker, blocked=blocked).delete()
    return bool(deleted)


def is_blocked(first_id: int, second_id: int) -> bool:
    """Whether either of the two players blocked the other (the direction does not
    matter: a blocked player must not reach the blocker, nor the blocker the player)."""
    return Block.objects.filter(
        Q(blocker_id=first_id, blocked_id=second_id) | Q(blocker_id=second_id, blocked_id=first_id)
    ).exists()


def refuse_if_blocked(first_id: int, second_id: int) -> None:
    """Raise Blocked (403 `blocked`) when either player blocked the other."""
    if is_blocked(first_id, second_id):
        raise errors.Blocked()


def blocked_either_way(user_id: int) -> set[int]:
    """The ids of the players `user_id` blocked or was blocked by (listings leave them
    out: the open challenges a player is offered)."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in pairs for other in pair if other != user_id}


def blocks_of(user: User) -> QuerySet[Block]:
    """The players `user` blocked, newest first (the settings page)."""
    return Block.objects.filter(blocker=user).select_related("blocked").order_by("-created")
