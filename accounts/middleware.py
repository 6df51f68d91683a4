"""Language: the session's choice (set from the profile at login, or by the switcher)
wins over the language cookie and the browser's Accept-Language; LocaleMiddleware
does the rest."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from accounts.language import SESSION_KEY

LANGUAGES = {code for code, _ in settings.LANGUAGES}


class SessionLanguageMiddleware:
    """Placed right after SessionMiddleware and before LocaleMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
        if language in LANGUAGES:
            # LocaleMiddleware reads the cookie first: the session's choice (the
            # profile's, restored at login, or the switcher's) takes its place.
            request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = language
        return self.get_response(request)
