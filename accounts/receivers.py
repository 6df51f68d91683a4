"""Every user gets a profile (including those an organiser adds in the admin), and
reserves what their username looks like."""

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Profile, UsernameSkeleton
from accounts.usernames import IMPORTED_SUFFIX, username_skeleton


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def ensure_profile(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    # Every user is a player, including those an organiser adds in the admin.
    if created:
        Profile.objects.get_or_create(user=instance)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def reserve_username_skeleton(
    sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any
) -> None:
    """Every account keeps its username's look-alikes away (accounts.usernames), those the
    admin, the bots and the demo data make too, not only the sign-up's.  An account whose
    look another holds already (made before this rule, or by staff) gets no row: the
    first keeps it.  Imported players have none."""
    if update_fields is not None and "username" not in update_fields:
        return  # e.g. last_login at each log-in: the name did not change
    username = instance.get_username()
    if username.endswith(IMPORTED_SUFFIX):
        return
    skeleton = username_skeleton(username)
    UsernameSkeleton.objects.filter(user=instance).exclude(skeleton=skeleton).delete()
    UsernameSkeleton.objects.bulk_create(
        [UsernameSkeleton(user=instance, skeleton=skeleton)], ignore_conflicts=True
    )
