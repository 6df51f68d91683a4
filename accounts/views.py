"""Account pages: sign-up, settings and API tokens (log-in and passwords: Django's views)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import forms
from accounts import services as account_services
from accounts.addresses import client_address
from accounts.language import SESSION_KEY
from accounts.models import ApiToken, Block, Profile
from core.errors import DomainError
from core.requests import SignedInHttpRequest

User = get_user_model()


# --- Accounts -----------------------------------------------------------------------------


def signup(request: HttpRequest) -> HttpResponse:
    form = forms.SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_services.register_account(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except DomainError as exc:
            fields = exc.details.get("fields") or {}
            if "password" in fields:
                for message in fields["password"]:
                    form.add_error("password1", message)
            else:
                form.add_error("username", str(exc.message))
        else:
            if form.cleaned_data["email"]:
                user.email = form.cleaned_data["email"]
                user.save(update_fields=["email"])
            language = request.session.get(SESSION_KEY) or getattr(request, "LANGUAGE_CODE", "en")
            Profile.objects.filter(user=user).update(language=language)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s!") % {"name": user.get_username()})
            return redirect("web:home")
    return render(request, "accounts/signup.html", {"form": form})


def settings_form(request: SignedInHttpRequest, data: Any = None) -> forms.SettingsForm:
    profile, _created = Profile.objects.get_or_create(user=request.user)
    initial = {
        "display_name": profile.display_name,
        "email": request.user.email,
        "language": profile.language,
        "email_notifications": profile.email_notifications,
    }
    return forms.SettingsForm(data, initial=initial)


def settings_page(request: SignedInHttpRequest, form: Any, **extra: Any) -> HttpResponse:
    tokens = ApiToken.objects.filter(user=request.user).order_by("-created")
    context = {"form": form, "token_form": forms.TokenForm(), "tokens": tokens, **extra}
    return render(request, "accounts/settings.html", context)


@login_required
def account_settings(request: SignedInHttpRequest) -> HttpResponse:
    form = settings_form(request, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        Profile.objects.filter(user=request.user).update(
            display_name=data["display_name"],
            language=data["language"],
            email_notifications=data["email_notifications"],
        )
        request.user.email = data["email"]
        request.user.save(update_fields=["email"])
        request.session[SESSION_KEY] = data["language"]
        messages.success(request, _("Your settings are saved."))
        return redirect("web:settings")
    return settings_page(request, form)


@login_required
@require_POST
def create_token(request: SignedInHttpRequest) -> HttpResponse:
    """A new API token, checked against the password and shown in this answer only."""
    token_form = forms.TokenForm(request.POST)
    new_token = None
    if token_form.is_valid():
        try:
            new_token = account_services.issue_token(
                username=request.user.get_username(),
                password=token_form.cleaned_data["password"],
                request=request,
            )
        except DomainError as exc:
            messages.error(request, str(exc.message))
    return settings_page(request, settings_form(request), new_token=new_token)


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    account_services.revoke_token(token=token)
    messages.success(request, _("The token %(prefix)s… is revoked.") % {"prefix": token.prefix})
    return redirect("web:settings")


# --- Blocked players ------------------------------------------------------------------------


@login_required
def blocks(request: SignedInHttpRequest) -> HttpResponse:
    """The players I blocked, each with an unblock button, and a form to block one more."""
    form = forms.BlockForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["username"].strip()
        player = User.objects.filter(**{User.USERNAME_FIELD: name}).first()
        if player is None:
            form.add_error("username", _("There is no player called %(name)s.") % {"name": name})
        else:
            try:
                account_services.block(blocker=request.user, blocked=player)
            except DomainError as exc:
                form.add_error("username", str(exc.message))
            else:
                messages.success(request, _("%(name)s is blocked.") % {"name": name})
                return redirect("web:blocks")
    context = {"form": form, "blocks": account_services.blocks_of(request.user)}
    return render(request, "accounts/blocks.html", context)


@login_required
@require_POST
def unblock(request: SignedInHttpRequest, block_id: int) -> HttpResponse:
    block = get_object_or_404(
        Block.objects.select_related("blocked"), pk=block_id, blocker=request.user
    )
    account_services.unblock(blocker=request.user, blocked=block.blocked)
    name = block.blocked.get_username()
    messages.success(request, _("%(name)s is no longer blocked.") % {"name": name})
    return redirect("web:blocks")


class _RevokesTokens:
    """A new password revokes the account's API tokens: whoever knew the old password may
    hold one (the page says so)."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)  # type: ignore[misc]
        if account_services.revoke_all_tokens(user=form.user):
            messages.info(
                self.request,  # type: ignore[attr-defined]
                _("Your API tokens were revoked with the old password: create a new one here."),
            )
        return response


class PasswordChangeView(_RevokesTokens, auth_views.PasswordChangeView):
    pass


class PasswordResetConfirmView(_RevokesTokens, auth_views.PasswordResetConfirmView):
    pass


def _over_hourly_limit(key: str) -> bool:
    """Count one more for `key` in this hour's window; True once past the limit."""
    cache.add(key, 0, 3600)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        cache.set(key, 1, 3600)
        count = 1
    return bool(count > settings.PASSWORD_RESET_MAILS_PER_HOUR)


class PasswordResetView(auth_views.PasswordResetView):
    """At most PASSWORD_RESET_MAILS_PER_HOUR reset e-mails an hour to one address and
    from one client.  Past that the page still says "sent" (it never tells whether an
    address has an account), and nothing is sent.  The e-mail's link starts with
    SITE_URL, the site's public address, whatever Host the request came with."""

    def form_valid(self, form: Any) -> HttpResponse:
        self.extra_email_context = {"site_url": settings.SITE_URL}  # read at each request
        email = form.cleaned_data["email"].strip().lower()
        if _over_hourly_limit(f"password-reset:email:{email}") or _over_hourly_limit(
            f"password-reset:client:{client_address(self.request)}"
        ):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)
