"""The permission matrix: every endpoint × {anonymous, stranger, White, Black, staff}.

One row per (URL name, method) with the status each persona must get, in a world
of two players with a game in play, a challenge from White to Black and a
tournament run by staff that both players joined.  Each persona's request runs in
its own savepoint, rolled back afterwards, so every persona sees the same world.

The URL patterns are enumerated from the resolver: a new endpoint without a row
here fails ``test_every_endpoint_has_a_row``.  The admin is checked apart (staff
only).  API requests authenticate with real bearer tokens, pages with a session.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts.models import ApiToken
from conftest import PASSWORD
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "stranger", "white", "black", "staff")


@dataclass
class World:
    users: dict[str, Any]
    tokens: dict[str, str]
    ids: dict[str, Any]


@dataclass(frozen=True)
class Row:
    name: str  # "namespace:url_name"
    method: str
    # Status per persona, in PERSONAS order.
    expect: tuple[int, int, int, int, int]
    kwargs: Callable[[World], dict[str, Any]] = field(default=lambda world: {})
    data: dict[str, Any] | None = None

    @property
    def id(self) -> str:
        return f"{self.method} {self.name}"


def _game(world: World) -> dict[str, Any]:
    return {"game_id": world.ids["game"]}


def _challenge(world: World) -> dict[str, Any]:
    return {"challenge_id": world.ids["challenge"]}


def _tournament(world: World) -> dict[str, Any]:
    return {"tournament_id": world.ids["tournament"]}


def _league(world: World) -> dict[str, Any]:
    return {"league_id": world.ids["league"]}


def _kw(**values: Any) -> Callable[[World], dict[str, Any]]:
    return lambda world: {
        key: (world.ids[value[1:]] if isinstance(value, str) and value.startswith("@") else value)
        for key, value in values.items()
    }


ALL_200 = (200, 200, 200, 200, 200)
USERS_200 = (401, 200, 200, 200, 200)  # API: a token is needed, any player may
PAGE_USERS = (302, 200, 200, 200, 200)  # pages: anonymous visitors go to the login page
NEW_PLAYER = {"username": "newcomer", "password": PASSWORD}

ROWS: list[Row] = [
    # --- API: accounts, tokens -----------------------------------------------------------
    Row("api:accounts", "POST", (201, 201, 201, 201, 201), data=NEW_PLAYER),
    Row("api:token", "POST", ALL_200, data={"username": "alice", "password": PASSWORD}),
    # --- API: challenges (White challenged Black) -----------------------------------------
    Row("api:challenges", "GET", USERS_200),
    Row("api:challenges", "POST", (401, 201, 201, 400, 201), data={"opponent": "bob"}),
    Row("api:challenge", "GET", ALL_200, _challenge),
    Row("api:challenge-accept", "POST", (401, 403, 409, 201, 403), _challenge),
    Row("api:challenge-decline", "POST", (401, 403, 403, 200, 403), _challenge),
    Row("api:challenge-cancel", "POST", (401, 403, 200, 403, 403), _challenge),
    # --- API: games (White to move) --------------------------------------------------------
    Row("api:games", "GET", ALL_200),
    Row("api:game", "GET", ALL_200, _game),
    Row("api:game-legal", "GET", ALL_200, _game),
    Row("api:game-record", "GET", ALL_200, _game),
    Row("api:game-turns", "POST", (401, 403, 201, 409, 403), _game, {"ply": 1, "turn": "D2L"}),
    Row("api:game-setup", "POST", (401, 403, 409, 409, 403), _game, {"white": "C3", "black": "E5"}),
    Row("api:game-choose", "POST", (401, 403, 409, 409, 403), _game, {"color": "white"}),
    Row("api:game-resign", "POST", (401, 403, 200, 200, 403), _game),
    Row("api:game-draw", "POST", (401, 403, 201, 201, 403), _game),
    Row("api:game-draw", "DELETE", (401, 403, 409, 409, 403), _game),  # no offer stands
    Row("api:game-abort", "POST", (401, 403, 200, 200, 403), _game),
    Row("api:game-rematch", "POST", (401, 403, 409, 409, 403), _game),  # not over yet
    Row("api:game-notes", "GET", USERS_200, _game),  # each reads only their own
    Row("api:game-notes", "PUT", (401, 403, 200, 200, 403), _game, {"text": "mine"}),
    # --- API: game messages (White wrote one to Black) ----------------------------------
    Row("api:game-messages", "GET", (401, 403, 200, 200, 200), _game),  # staff read
    Row("api:game-messages", "POST", (401, 403, 201, 201, 403), _game, {"text": "Hello"}),
    Row(
        "api:game-message-report",
        "POST",
        (401, 403, 409, 201, 403),  # White's own message: 409 own_message
        _kw(game_id="@game", message_id="@message"),
        {},
    ),
    Row("api:player-block", "POST", (401, 201, 400, 201, 201), _kw(username="alice")),
    Row("api:player-block", "DELETE", (401, 204, 204, 204, 204), _kw(username="alice")),
    # Conditional turns: only the waiting player (Black) sets them; nobody has any to read.
    Row(
        "api:game-conditional",
        "PUT",
        (401, 403, 403, 200, 403),
        _game,
        {"ply": 1, "lines": [["D2L", "D6L"]]},
    ),
    Row("api:game-conditional", "GET", (401, 404, 404, 404, 404), _game),
    Row("api:game-conditional", "DELETE", (401, 403, 204, 204, 403), _game),
    Row("api:archive", "GET", ALL_200),
    Row("api:imports", "POST", (401, 400, 400, 400, 400)),  # no file
    Row("api:import-job", "GET", (401,) + (404,) * 4, _kw(job_id=999_999)),  # only the owner's
    Row("api:schema", "GET", ALL_200),
    Row("api:docs", "GET", ALL_200),
    # --- API: bots, players, stream -------------------------------------------------------
    Row("bots-api:bots", "GET", ALL_200),
    Row("bots-api:bot-matches", "GET", ALL_200),
    Row("bots-api:bot-matches", "POST", (401, 400, 400, 400, 400), data={"games": 0}),
    Row("bots-api:bot-match", "GET", (404,) * 5, _kw(match_id=999_999)),
    Row("bots-api:bot-match-stop", "POST", (401,) + (404,) * 4, _kw(match_id=999_999)),
    Row("bots-api:me-bot", "POST", (401, 200, 409, 409, 200)),  # only players without games
    Row("ratings-api:players", "GET", ALL_200),
    Row("ratings-api:player", "GET", ALL_200, _kw(username="alice")),
    Row("stream-api:events", "GET", (401, 400, 400, 400, 400), data={"timeout": "soon"}),
    # The pages' stream (a token works as a session does); its answer is not read here.
    Row("stream-api:page-events", "GET", (401, 200, 200, 200, 200)),
    # --- API: analysis, explorer (the game is in play: not analysable, no analysis yet) -----
    Row("analysis-api:game-analysis", "GET", (404,) * 5, _game),
    Row("analysis-api:game-analysis", "POST", (401, 409, 409, 409, 409), _game),
    Row("analysis-api:explorer", "GET", ALL_200),
    Row("analysis-api:evaluations", "POST", (400,) * 5, data={"position": "Z9W00 w 0-0"}),
    # An unknown job id (or one finished over JOBS_KEEP_HOURS ago): 404, whoever asks.
    Row("analysis-api:evaluation", "GET", (404,) * 5, _kw(job_id="no-such-job")),
    # --- API: clocks, notifications -------------------------------------------------------
    Row("clocks-api:vacation", "GET", USERS_200),
    Row("clocks-api:vacation", "PUT", (401, 400, 400, 400, 400), data={"days": "many"}),
    Row("clocks-api:vacation", "DELETE", USERS_200),
    Row("clocks-api:preferences", "GET", USERS_200),
    Row("clocks-api:preferences", "PATCH", USERS_200, data={"email_notifications": False}),
    Row("notifications-api:list", "GET", USERS_200),
    Row("notifications-api:read", "POST", USERS_200, data={}),
    # --- API: tournaments (organised by staff; White and Black joined) ---------------------
    Row("tournaments_api:list", "GET", ALL_200),
    # A player's own invitations to imported places (TRF import): nobody sees another's.
    Row("tournaments_api:invitations", "GET", USERS_200),
    Row(
        "tournaments_api:invitation-accept", "POST", (401,) + (404,) * 4, _kw(invitation_id=999_999)
    ),
    Row(
        "tournaments_api:invitation-decline",
        "POST",
        (401,) + (404,) * 4,
        _kw(invitation_id=999_999),
    ),
    Row(
        "tournaments_api:list",
        "POST",
        (401, 403, 403, 403, 201),
        data={"name": "Cup", "format": "swiss", "rounds": 3},
    ),
    Row("tournaments_api:detail", "GET", ALL_200, _tournament),
    Row("tournaments_api:join", "POST", (401, 201, 409, 409, 201), _tournament),
    Row("tournaments_api:withdraw", "POST", (401, 403, 200, 200, 403), _tournament),
    Row("tournaments_api:start", "POST", (401, 403, 403, 403, 202), _tournament),  # a job pairs
    # Organiser actions: only staff organises (a round robin has no absences: 409); no
    # round is paired yet, so no board to adjudicate (404).
    Row(
        "tournaments_api:absent",
        "POST",
        (401, 403, 403, 403, 409),
        _tournament,
        {"username": "alice", "absent": True},
    ),
    Row(
        "tournaments_api:adjudicate",
        "POST",
        (401, 404, 404, 404, 404),
        _kw(tournament_id="@tournament", number=1, board=1),
        {"result": "1-0"},
    ),
    # A round robin offers no half-point byes: its players are refused (409), others 403.
    Row("tournaments_api:byes", "POST", (401, 403, 409, 409, 403), _tournament, {"round": 1}),
    Row(
        "tournaments_api:bye",
        "DELETE",
        (401, 403, 409, 409, 403),
        _kw(tournament_id="@tournament", number=1),
    ),
    Row("tournaments_api:standings", "GET", ALL_200, _tournament),
    Row("tournaments_api:round", "GET", (404,) * 5, _kw(tournament_id="@tournament", number=1)),
    Row("tournaments_api:trf", "GET", ALL_200, _tournament),
    Row("tournaments_api:games", "GET", ALL_200, _tournament),
    # Arbiter control: the organiser (staff) only; the matrix cup is a round robin, so no
    # draft (409 no_draft) and no forbidden pairs or arbiter options (409 wrong_state).
    Row("tournaments_api:draft", "GET", (401, 403, 403, 403, 409), _tournament),
    Row(
        "tournaments_api:draft",
        "POST",
        (401, 403, 403, 403, 409),
        _tournament,
        {"action": "swap_colours", "board": 1},
    ),
    Row("tournaments_api:draft-publish", "POST", (401, 403, 403, 403, 409), _tournament),
    Row(
        "tournaments_api:arbiter-options",
        "PATCH",
        (401, 403, 403, 403, 409),
        _tournament,
        {"avoid_same_club": True},
    ),
    Row("tournaments_api:forbidden-pairs", "GET", (401, 403, 403, 403, 200), _tournament),
    Row(
        "tournaments_api:forbidden-pairs",
        "POST",
        (401, 403, 403, 403, 409),
        _tournament,
        {"first": "alice", "second": "bob"},
    ),
    Row(
        "tournaments_api:forbidden-pair",
        "DELETE",
        (401, 403, 403, 403, 409),
        _kw(tournament_id="@tournament", pair_id=999_999),
    ),
    Row("tournaments_api:imports", "POST", (401, 403, 403, 403, 400), data={}),  # no file
    Row("tournaments_api:import", "GET", (401,) + (404,) * 4, _kw(import_id=999_999)),
    # --- API: knockout cups, leagues (organised by staff; White and Black members) --------
    Row("tournaments_api:bracket", "GET", (404,) * 5, _tournament),  # a round robin
    Row("tournaments_api:leagues", "GET", ALL_200),
    Row("tournaments_api:leagues", "POST", (401, 403, 403, 403, 201), data={"name": "League"}),
    Row("tournaments_api:league", "GET", ALL_200, _league),
    Row("tournaments_api:league-join", "POST", (401, 201, 409, 409, 201), _league),
    Row("tournaments_api:league-leave", "POST", (401, 403, 200, 200, 403), _league),
    Row("tournaments_api:league-start", "POST", (401, 403, 403, 403, 202), _league),
    Row("tournaments_api:season", "GET", (404,) * 5, _kw(league_id="@league", number=1)),
    Row(
        "tournaments_api:league-history", "GET", ALL_200, _kw(league_id="@league", username="alice")
    ),
    # --- Health ---------------------------------------------------------------------------
    Row("healthz", "GET", ALL_200),
    # --- Pages ----------------------------------------------------------------------------
    Row("web:home", "GET", ALL_200),
    Row("web:rules", "GET", ALL_200),
    Row("web:awaiting", "GET", PAGE_USERS),
    Row("web:turn-preview", "GET", (400,) * 5),  # no position given
    Row("web:status", "GET", PAGE_USERS),
    Row("web:set-language", "POST", (302,) * 5, data={"language": "eo"}),
    Row("web:signup", "GET", ALL_200),
    Row("web:settings", "GET", PAGE_USERS),
    Row("web:token-create", "POST", PAGE_USERS, data={"password": PASSWORD}),
    Row("web:token-revoke", "POST", (302, 404, 302, 404, 404), _kw(token_id="@white_token")),
    Row("web:blocks", "GET", PAGE_USERS),
    Row("web:unblock", "POST", (302,) + (404,) * 4, _kw(block_id=999_999)),
    Row("chat:messages", "GET", (302, 403, 200, 200, 200), _game),  # the panel's JSON
    Row("chat:messages", "POST", (302,) * 5, _game, {"text": "Hello"}),
    Row("chat:report", "POST", (302,) * 5, _kw(game_id="@game", message_id="@message")),
    Row("web:lobby", "GET", PAGE_USERS),
    Row(
        "web:challenge-action",
        "POST",
        (302, 302, 302, 302, 302),
        _kw(challenge_id="@challenge", action="accept"),
    ),
    Row("web:game", "GET", ALL_200, _game),
    Row("web:play", "POST", (302, 302, 302, 302, 302), _game, {"ply": 1, "turn": "D2L"}),
    Row("web:pie-setup", "POST", (302,) * 5, _game, {"white": "C3", "black": "E5"}),
    Row("web:pie-choose", "POST", (302,) * 5, _game, {"color": "white"}),
    Row("web:resign", "POST", (302,) * 5, _game, {"confirm": "yes"}),
    Row("web:draw", "POST", (302,) * 5, _game, {"action": "offer"}),
    Row("web:abort", "POST", (302,) * 5, _game),
    Row("web:rematch", "POST", (302,) * 5, _game),
    Row("web:notes", "POST", (302,) * 5, _game, {"text": "mine"}),
    # Conditional turns: the board is for the waiting player (Black); others are sent back.
    Row("web:conditional", "GET", (302, 302, 302, 200, 302), _game),
    Row("web:conditional", "POST", (302,) * 5, _game, {"action": "delete"}),
    Row("web:record", "GET", ALL_200, _game),
    Row("web:board-svg", "GET", (400,) * 5),  # no position given
    Row("web:analysis", "GET", ALL_200),
    Row("web:player", "GET", ALL_200, _kw(username="alice")),
    Row("web:archive", "GET", ALL_200),
    Row("web:import", "GET", PAGE_USERS),
    Row("web:import-job", "GET", (302,) + (404,) * 4, _kw(job_id=999_999)),
    Row("web:login", "GET", ALL_200),
    Row("web:logout", "POST", (302,) * 5),
    Row("web:password-change", "GET", PAGE_USERS),
    Row("web:password-change-done", "GET", PAGE_USERS),
    Row("web:password-reset", "GET", ALL_200),
    Row("web:password-reset-done", "GET", ALL_200),
    Row("web:password_reset_confirm", "GET", ALL_200, _kw(uidb64="MQ", token="bad-token")),
    Row("web:password-reset-complete", "GET", ALL_200),
    Row("notifications:list", "GET", PAGE_USERS),
    Row("notifications:read", "POST", (302,) * 5),
    Row("notifications:unsubscribe", "GET", (400,) * 5, _kw(token="not-a-token")),
    Row("clocks:vacation", "GET", PAGE_USERS),
    Row("tournaments:list", "GET", ALL_200),
    Row("tournaments:invitations", "GET", PAGE_USERS),  # one's own invitations only
    Row("tournaments:create", "GET", (302, 403, 403, 403, 200)),
    Row("tournaments:detail", "GET", ALL_200, _tournament),
    Row("tournaments:crosstable", "GET", ALL_200, _tournament),
    Row("tournaments:round", "GET", (404,) * 5, _kw(tournament_id="@tournament", number=1)),
    Row("tournaments:games", "GET", ALL_200, _tournament),
    Row("tournaments:trf", "GET", ALL_200, _tournament),
    Row("tournaments:action", "POST", (302,) * 5, _kw(tournament_id="@tournament", action="start")),
    Row("tournaments:draft", "GET", (302, 403, 403, 403, 200), _tournament),
    Row("tournaments:arbiter", "GET", (302, 403, 403, 403, 200), _tournament),
    Row("tournaments:import", "GET", (302, 403, 403, 403, 200)),
    Row("tournaments:import-status", "GET", (302,) + (404,) * 4, _kw(import_id=999_999)),
    Row("tournaments:bracket", "GET", (404,) * 5, _tournament),  # a round robin
    Row("tournaments:leagues", "GET", ALL_200),
    Row("tournaments:league-create", "GET", (302, 403, 403, 403, 200)),
    Row("tournaments:league", "GET", ALL_200, _league),
    Row("tournaments:season", "GET", (404,) * 5, _kw(league_id="@league", number=1)),
    Row("tournaments:league-history", "GET", ALL_200, _kw(league_id="@league", username="alice")),
    Row("tournaments:league-action", "POST", (302,) * 5, _kw(league_id="@league", action="start")),
    Row("bots:bots", "GET", ALL_200),
    Row("bots:challenge", "POST", (302,) * 5, _kw(username="alice")),  # not a bot
    Row("bots:challenge-wait", "GET", ALL_200, _challenge),  # challenges are public
    Row("bots:match-new", "GET", PAGE_USERS),
    Row("bots:match", "GET", (404,) * 5, _kw(match_id=999_999)),
    Row("bots:match-stop", "POST", (302,) + (404,) * 4, _kw(match_id=999_999)),
    Row("ratings:leaderboard", "GET", ALL_200),
    Row("ratings:rating-svg", "GET", ALL_200, _kw(username="alice")),
    Row("analysis:explorer", "GET", ALL_200),
    Row("analysis:analyse", "POST", (302,) * 5, _game),  # log in; or refused (in play)
]


def _url_names() -> Iterator[str]:
    def walk(patterns: list[Any], namespace: str | None) -> Iterator[str]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.app_name == "admin":
                    continue  # checked by test_admin_is_for_staff_only
                inner = pattern.namespace or namespace
                if pattern.namespace and namespace:
                    inner = f"{namespace}:{pattern.namespace}"
                yield from walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                yield f"{namespace}:{pattern.name}" if namespace else pattern.name

    yield from walk(get_resolver().url_patterns, None)


def test_every_endpoint_has_a_row() -> None:
    names = set(_url_names())
    covered = {row.name for row in ROWS}
    assert names - covered == set(), "endpoints without a row in the permission matrix"
    assert covered - names == set(), "rows for endpoints that no longer exist"


@pytest.fixture
def world() -> World:
    User = get_user_model()
    users = {}
    tokens = {}
    for persona, username in (
        ("stranger", "mallory"),
        ("white", "alice"),
        ("black", "bob"),
        ("staff", "root"),
    ):
        users[persona] = account_services.register_account(username=username, password=PASSWORD)
        tokens[persona] = account_services.create_token(user=users[persona])
    User.objects.filter(pk=users["staff"].pk).update(is_staff=True)
    users["staff"].refresh_from_db()
    game = services.start_game(white=users["white"], black=users["black"])
    assert game.to_move == "white"
    challenge = services.create_challenge(creator=users["white"], opponent="bob")
    ids: dict[str, Any] = {
        "game": game.pk,
        "challenge": challenge.pk,
        "white_token": ApiToken.objects.filter(user=users["white"]).get().pk,
    }
    from chat import services as chat_services

    message = chat_services.post_message(game=game, author=users["white"], text="Good luck")
    ids["message"] = message.pk
    from tournaments import services as tournament_services

    tournament = tournament_services.create_tournament(
        organiser=users["staff"], name="Matrix Cup", format="roundrobin"
    )
    for persona in ("white", "black"):
        tournament_services.join(tournament=tournament, user=users[persona])
    ids["tournament"] = tournament.pk
    from tournaments import leagues

    league = leagues.create_league(organiser=users["staff"], name="Matrix League")
    for persona in ("white", "black"):
        leagues.join_league(league=league, user=users[persona])
    ids["league"] = league.pk
    return World(users, tokens, ids)


def _request(row: Row, world: World, persona: str) -> int:
    url = reverse(row.name, kwargs=row.kwargs(world))
    method = row.method.lower()
    if url.startswith("/api/"):
        client: Any = APIClient()
        if persona != "anonymous":
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {world.tokens[persona]}")
        kwargs: dict[str, Any] = {"format": "json"} if method != "get" else {}
    else:
        client = Client()
        if persona != "anonymous":
            client.force_login(world.users[persona])
        kwargs = {}
    if row.data is not None:
        kwargs["data"] = row.data
    return getattr(client, method)(url, **kwargs).status_code


def _state(world: World) -> tuple[Any, ...]:
    from games.models import Challenge
    from tournaments.models import Tournament

    game = Game.objects.get(pk=world.ids["game"])
    from games.models import GameNote

    return (
        game.status,
        game.ply,
        game.draw_offer,
        GameNote.objects.filter(game=game).count(),
        Challenge.objects.get(pk=world.ids["challenge"]).status,
        Tournament.objects.get(pk=world.ids["tournament"]).status,
    )


def test_each_persona_gets_exactly_the_answer_it_should(world: World) -> None:
    """One world for all rows (built once: fast); each request rolled back after it."""
    before = _state(world)
    wrong = []
    for row in ROWS:
        got = []
        for persona in PERSONAS:
            with transaction.atomic():
                got.append(_request(row, world, persona))
                if persona in ("anonymous", "stranger") or (
                    persona == "staff" and "tournament" not in row.name
                ):
                    # Whatever they were answered, outsiders changed nothing.
                    assert _state(world) == before, (row.id, persona)
                transaction.set_rollback(True)  # the next persona sees the same world
        if tuple(got) != row.expect:
            wrong.append(f"{row.id}: expected {row.expect}, got {tuple(got)}")
    assert wrong == [], "\n".join(wrong)


def test_admin_is_for_staff_only(world: World) -> None:
    game_admin = reverse("admin:games_game_change", args=[world.ids["game"]])
    for persona in PERSONAS:
        client = Client()
        if persona != "anonymous":
            client.force_login(world.users[persona])
        for url in (reverse("admin:index"), reverse("admin:games_game_changelist"), game_admin):
            status = client.get(url).status_code
            if persona == "staff":
                # Staff without model permissions see the index, not the models.
                assert status in (200, 403), (persona, url, status)
            else:
                assert status == 302, (persona, url, status)
    assert Game.objects.filter(pk=world.ids["game"]).exists()
