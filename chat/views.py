"""The game page's message panel (chat/_messages.html): write and report through the
same services as the API; the panel's script fetches new messages from here (the API
takes bearer tokens only, the page has a session)."""

from __future__ import annotations

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.throttling import MessagesThrottle
from chat import services
from chat.serializers import MessageSerializer
from core.errors import DomainError
from core.requests import SignedInHttpRequest
from games.models import Game
from games.views import query_int


def _back(game: Game) -> HttpResponse:
    return redirect(reverse("web:game", args=[game.pk]) + "#messages")


def _allowed(request: HttpRequest) -> bool:
    """The API's per-player message rate (THROTTLE_MESSAGES) for the form as well."""
    # A page's request: the throttle reads only its user and address.
    if MessagesThrottle().allow_request(request, None):  # type: ignore[arg-type]
        return True
    flash.error(request, _("You are sending messages too fast: wait a minute."))
    return False


@login_required
@require_http_methods(["GET", "POST"])
def game_messages(request: SignedInHttpRequest, game_id: int) -> HttpResponse:
    """GET: the messages after `?after=<id>` as JSON (the panel's script); POST: the form."""
    game = get_object_or_404(Game, pk=game_id)
    if request.method == "GET":
        try:
            found = services.messages_for(
                game=game, viewer=request.user, after=query_int(request, "after") or 0
            )
        except DomainError as exc:
            return JsonResponse({"code": exc.code, "error": str(exc.message)}, status=403)
        return JsonResponse({"messages": MessageSerializer(found, many=True).data})
    if _allowed(request):
        try:
            services.post_message(game=game, author=request.user, text=request.POST.get("text", ""))
        except DomainError as exc:
            flash.error(request, str(exc.message))
    return _back(game)


@login_required
@require_POST
def report(request: SignedInHttpRequest, game_id: int, message_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    try:
        message = services.visible_message(game=game, message_id=message_id, viewer=request.user)
        if message is None:
            flash.error(request, _("There is no such message."))
        elif _allowed(request):
            services.report_message(message=message, reporter=request.user)
            flash.success(request, _("Thank you: the message is reported to the moderators."))
    except DomainError as exc:
        flash.error(request, str(exc.message))
    return _back(game)
