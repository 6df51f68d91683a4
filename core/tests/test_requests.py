"""core.requests: the signed-in user, or a refusal where nobody signed in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory

from core.requests import signed_in_user


@pytest.mark.django_db
def test_signed_in_user_is_the_request_user_and_nobody_is_refused(django_user_model) -> None:
    request = RequestFactory().get("/admin/")
    request.user = django_user_model.objects.create_user("staff", is_staff=True)
    assert signed_in_user(request) == request.user
    request.user = AnonymousUser()
    with pytest.raises(PermissionDenied):
        signed_in_user(request)
