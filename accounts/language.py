"""Remember a player's language: the profile's choice is restored at each login."""

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from accounts.models import Profile

SESSION_KEY = "adaptoid_language"


@receiver(user_logged_in)
def restore_language(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is None or not hasattr(request, "session"):
        return
    profile = Profile.objects.filter(user=user).only("language").first()
    if profile is not None and profile.language:
        request.session[SESSION_KEY] = profile.language
