"""Every user gets a profile (including those an organiser adds in the admin)."""

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def ensure_profile(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    # Every user is a player, including those an organiser adds in the admin.
    if created:
        Profile.objects.get_or_create(user=instance)
