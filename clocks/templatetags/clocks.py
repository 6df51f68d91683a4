"""Clock display for game pages.

{% load clocks %}
{% game_clock game %}                  {# renders clocks/clock.html #}
{% game_clock_state game as clock %}   {# the values, to lay out yourself #}
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from clocks.display import duration_label
from clocks.state import ClockedGame, ClockState, clock_state

register = template.Library()


@register.simple_tag
def game_clock_state(game: ClockedGame) -> ClockState:
    return clock_state(game, timezone.now())


@register.inclusion_tag("clocks/clock.html")
def game_clock(game: ClockedGame) -> dict[str, Any]:
    clock = clock_state(game, timezone.now())
    return {
        "game": game,
        "clock": clock,
        "control": game.time_control.label(),
        "white_left": duration_label(clock["white_remaining"]),
        "black_left": duration_label(clock["black_remaining"]),
    }


@register.filter
def duration(seconds: int) -> str:
    """{{ seconds|duration }} → "2 days 3 hours"."""
    return duration_label(seconds)
