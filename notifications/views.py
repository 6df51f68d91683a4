"""Pages: /notifications/ (the list) and the one-click unsubscribe link of emails."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from core.requests import SignedInHttpRequest
from notifications import services


@login_required
def notification_list(request: SignedInHttpRequest) -> HttpResponse:
    page = Paginator(services.recent_for(request.user), 30).get_page(request.GET.get("page"))
    return render(
        request,
        "notifications/list.html",
        {"page": page, "unread": services.unread_count(request.user)},
    )


@login_required
@require_POST
def mark_all_read(request: SignedInHttpRequest) -> HttpResponse:
    services.mark_read(user=request.user)
    return redirect("notifications:list")


# No login and no CSRF token: the link is followed from an email, and RFC 8058 mail
# clients POST to it directly.  The signed token is the proof.  GET only asks: mail
# scanners open every link of a message, and must not unsubscribe anybody.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        user = services.unsubscribe(token=token)
        done = True
    else:
        user = services.unsubscribing_user(token)
        done = False
    return render(
        request,
        "notifications/unsubscribed.html",
        {"unsubscribed_user": user, "done": done, "token": token},
        status=200 if user is not None else 400,
    )
