"""The viewer's conditional turns on a game page.

{% load conditional_turns %}
{% conditional_tree game as tree %}   {# games.conditional.Node list; [] when none #}
"""

from __future__ import annotations

from typing import Any

from django import template

from games import conditional
from games.models import Game

register = template.Library()


@register.simple_tag(takes_context=True)
def conditional_tree(context: dict[str, Any], game: Game) -> list[conditional.Node]:
    request = context.get("request")
    if request is None:
        return []
    return conditional.tree_of(game=game, player=request.user)
