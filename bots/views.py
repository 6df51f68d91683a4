"""Web pages for bots: the bots (challenge one) and bot matches.  Routes: bots/urls.py.

Views parse and format; the work is done by bots.services / games.services.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from bots import services as bots
from bots.models import BotMatch
from core.requests import SignedInHttpRequest
from games import errors, services
from games.models import Challenge


class ChallengeBotForm(forms.Form):
    color = forms.ChoiceField(
        label=_("Your colour"), choices=Challenge.ColorChoice.choices, initial="random"
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)


class BotMatchForm(forms.Form):
    white = forms.ChoiceField(label=_("First bot (White in odd games)"))
    black = forms.ChoiceField(label=_("Second bot"))
    games = forms.IntegerField(label=_("Games"), min_value=1, max_value=100, initial=20)
    seconds_per_turn = forms.FloatField(
        label=_("Seconds per turn"), min_value=0.01, max_value=10, initial=0.2
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [
            (user.username, f"{user.profile} ({user.username})")
            for user in bots.builtin_bot_users()
        ]
        for name in ("white", "black"):
            cast(forms.ChoiceField, self.fields[name]).choices = choices
        if len(choices) > 1:
            self.fields["black"].initial = choices[1][0]


def bots_page(request: HttpRequest) -> HttpResponse:
    """The built-in bots, a challenge button for each, and the latest bot matches."""
    return render(
        request,
        "bots/bots.html",
        {
            "bots": bots.builtin_bot_users(),
            "form": ChallengeBotForm(),
            "matches": BotMatch.objects.select_related("white", "black", "created_by")[:20],
        },
    )


@login_required
@require_POST
def challenge_bot(request: SignedInHttpRequest, username: str) -> HttpResponse:
    form = ChallengeBotForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a colour."))
        return redirect("bots:bots")
    try:
        bot = bots.get_builtin_bot(username, field="opponent")
        challenge = services.create_challenge(
            creator=request.user,
            opponent=bot.get_username(),
            color=form.cleaned_data["color"],
            rated=form.cleaned_data["rated"],
        )
    except errors.DomainError as exc:
        messages.error(request, str(exc.message))
        return redirect("bots:bots")
    return redirect("bots:challenge-wait", challenge_id=challenge.pk)


def challenge_wait(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Until the bot's task accepts (a second or so), then on to the game page."""
    challenge = get_object_or_404(Challenge.objects.select_related("opponent"), pk=challenge_id)
    if challenge.game_id:
        return redirect("web:game", game_id=challenge.game_id)
    return render(request, "bots/challenge_wait.html", {"challenge": challenge})


@login_required
def match_new(request: SignedInHttpRequest) -> HttpResponse:
    form = BotMatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            match = bots.create_bot_match(creator=request.user, **form.cleaned_data)
        except errors.DomainError as exc:
            for field, problems in exc.details.get("fields", {}).items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
            if not exc.details.get("fields"):
                form.add_error(None, str(exc.message))
        else:
            return redirect("bots:match", match_id=match.pk)
    return render(request, "bots/match_new.html", {"form": form})


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """A bot match: progress bar and games, refreshed by polling the API."""
    match = get_object_or_404(
        BotMatch.objects.select_related("white__profile", "black__profile", "created_by"),
        pk=match_id,
    )
    white_points, black_points, played = bots.match_score(match)
    entries = match.entries.select_related("game__white", "game__black").order_by("number")
    return render(
        request,
        "bots/match.html",
        {
            "match": match,
            "played": played,
            "score": f"{bots.format_points(white_points)}-{bots.format_points(black_points)}",
            "entries": entries,
        },
    )


@login_required
@require_POST
def match_stop(request: SignedInHttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(BotMatch, pk=match_id)
    try:
        bots.stop_bot_match(match=match, user=request.user)
    except errors.DomainError as exc:
        messages.error(request, str(exc.message))
    return redirect("bots:match", match_id=match.pk)
