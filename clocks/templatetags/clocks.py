"""Clock display for game pages.

{% load clocks %}
{% game_clock game %}                  {# renders clocks/clock.html #}
{% game_clock_state game as clock %}   {# the values, to lay out yourself #}
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from clocks.display import duration_label, time_control_label
from clocks.state import ClockState, clock_state
from games.models import Game

register = template.Library()


@register.simple_tag
def game_clock_state(game: Game) -> ClockState:
    return clock_state(game, timezone.now())


@register.inclusion_tag("clocks/clock.html")
def game_clock(game: Game) -> dict[str, Any]:
    clock = clock_state(game, timezone.now())
    return {
        "game": game,
        "clock": clock,
        "control": time_control_label(
            kind=game.clock_kind,
            days=game.days_per_turn,
            increment_hours=game.clock_increment // 3600,
            weekend_pause=game.weekend_pause,
        ),
        "white_left": duration_label(clock["white_remaining"]),
        "black_left": duration_label(clock["black_remaining"]),
    }


@register.filter
def duration(seconds: int) -> str:
    """{{ seconds|duration }} → "2 days 3 hours"."""
    return duration_label(seconds)
