"""The vacation and clock-preferences page (/vacation/)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.models import Profile
from clocks import services
from clocks.forms import ClockPreferencesForm, VacationForm
from core.errors import DomainError
from core.requests import SignedInHttpRequest


@login_required
def vacation_page(request: SignedInHttpRequest) -> HttpResponse:
    profile = Profile.objects.get(user=request.user)
    vacation_form = VacationForm()
    preferences_form = ClockPreferencesForm(
        initial={
            "time_zone": profile.time_zone,
            "auto_vacation": profile.auto_vacation,
            "turn_email": profile.turn_email,
        }
    )
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "take":
                vacation_form = VacationForm(request.POST)
                if vacation_form.is_valid():
                    services.take_vacation(
                        user=request.user, days=vacation_form.cleaned_data["days"]
                    )
                    messages.success(request, _("Enjoy your vacation: your clocks are stopped."))
                    return redirect("clocks:vacation")
            elif action == "end":
                services.end_vacation(user=request.user)
                messages.success(request, _("Welcome back: your clocks run again."))
                return redirect("clocks:vacation")
            elif action == "preferences":
                preferences_form = ClockPreferencesForm(request.POST)
                if preferences_form.is_valid():
                    services.update_preferences(user=request.user, **preferences_form.cleaned_data)
                    messages.success(request, _("Your clock settings are saved."))
                    return redirect("clocks:vacation")
        except DomainError as exc:
            messages.error(request, str(exc.message))
    return render(
        request,
        "clocks/vacation.html",
        {
            "vacation": services.vacation_of(profile),
            "vacation_form": vacation_form,
            "preferences_form": preferences_form,
        },
        status=400 if request.method == "POST" else 200,
    )
