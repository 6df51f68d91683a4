"""Web pages of the ratings: the leaderboard, and the rating chart (SVG) shown on
player pages.  Routes: ratings/urls.py."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile
from ratings.chart import rating_chart_svg
from ratings.models import RatingChange
from ratings.services import PROVISIONAL_DEVIATION

User = get_user_model()


def leaderboard(request: HttpRequest) -> HttpResponse:
    """Players by rating; ?who=people|bots narrows it; 50 a page."""
    who = request.GET.get("who", "all")
    profiles = Profile.objects.select_related("user").filter(user__is_active=True)
    if who == "people":
        profiles = profiles.filter(is_bot=False)
    elif who == "bots":
        profiles = profiles.filter(is_bot=True)
    else:
        who = "all"
    page = Paginator(profiles.order_by("-rating", "user__username"), 50).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "page": page,
            "who": who,
            "first_rank": page.start_index(),
            "provisional": PROVISIONAL_DEVIATION,
        },
    )


def rating_svg(request: HttpRequest, username: str) -> HttpResponse:
    """The player's rating after each rated game, as an SVG image (server-side)."""
    player = get_object_or_404(User, username=username)
    changes = list(RatingChange.objects.filter(user=player).order_by("created", "id"))
    title = _("Rating of %(name)s") % {"name": player.get_username()}
    response = HttpResponse(rating_chart_svg(changes, title=str(title)), "image/svg+xml")
    response["Cache-Control"] = "max-age=60"
    return response
