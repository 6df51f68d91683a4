"""Schema fuzzing of the whole API with schemathesis against /api/v1/schema.

Every operation of the served OpenAPI document gets generated requests, sent
in-process to the WSGI application with a real bearer token; each answer must not
be a 5xx and must match the schema (status code documented, content type, body).
Path ids point half of the time at real objects (a game in play, a pie game, a
challenge), so the fuzzing reaches past the 404s.  Bounded: a few dozen examples
per operation.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import checks

from games import services
from games.models import Game

EXAMPLES = 15
# What the API promises: no 5xx, and every answer as documented.  (Not checked: that
# every schema-valid request is accepted — the domain refuses many, e.g. an illegal
# turn — nor that DRF's lenient parsing refuses every schema-invalid one, e.g. 0 as false.)
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]


# Loaded at collection time, through the app itself (no database needed for the schema).
schema = schemathesis.openapi.from_wsgi("/api/v1/schema", get_wsgi_application())


@pytest.fixture
def keep_the_test_connection(db: Any) -> Iterator[None]:
    # As Django's test client does: a request must not close the test's connection
    # (its transaction holds the fixtures' rows).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def real_objects(alice, bob) -> dict[str, list[int]]:
    game = services.start_game(white=alice.user, black=bob.user)
    services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    pie = services.start_game(white=alice.user, black=bob.user, opening=Game.Opening.PIE)
    challenge = services.create_challenge(creator=bob.user, opponent="alice")
    open_challenge = services.create_challenge(creator=bob.user)
    return {
        "game_id": [game.pk, pie.pk],
        "challenge_id": [challenge.pk, open_challenge.pk],
    }


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_answer_matches_the_schema_and_none_is_a_server_error(
    case: Any, keep_the_test_connection, alice, real_objects
) -> None:
    for name, ids in real_objects.items():
        value = (case.path_parameters or {}).get(name)
        if isinstance(value, int) and value % 2 == 0:
            case.path_parameters[name] = ids[value // 2 % len(ids)]
    case.call_and_validate(headers={"Authorization": f"Bearer {alice.token}"}, checks=CHECKS)
