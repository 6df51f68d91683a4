"""{% game_messages_state game as chat %}: what chat/_messages.html shows, so that the
game page (games/game.html) only includes the template and its view stays as it is."""

from __future__ import annotations

from typing import Any

from django import template

from chat import services
from games.models import Game

register = template.Library()


@register.simple_tag(takes_context=True)
def game_messages_state(context: dict[str, Any], game: Game) -> dict[str, Any]:
    request = context.get("request")
    if request is None:
        return {"visible": False}
    return services.page_state(game=game, viewer=request.user)
