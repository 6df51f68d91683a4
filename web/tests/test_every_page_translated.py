"""Every page of the site, in Russian and Esperanto, shows no English string of the
catalogues: a small world (players, bots, games, tournaments of each kind, a league, an
import, notifications), then every page URL of the site's namespaces, filled from it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from django.conf import settings as django_settings
from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import Profile
from archive import imports
from archive.tests.agn_files import distinct_games
from bots import services as bot_services
from games import services as game_services
from notifications import services as notification_services
from notifications.models import Kind
from tournaments import leagues, pairing, trf_import
from tournaments import services as tournament_services
from tournaments.models import SeatInvitation
from tournaments.tests.helpers import jobs_run_here, make_tournament, make_user
from web.tests.failing_urls import FAILING_PATH

ROOT = Path(__file__).resolve().parents[2]

# Namespaces of HTML pages (the API's and the admin's are not the site's pages).
PAGE_NAMESPACES = {
    "web",
    "tournaments",
    "notifications",
    "clocks",
    "chat",
    "analysis",
    "bots",
    "ratings",
}
# Not pages: files, JSON, images.
NOT_PAGES = (".json", ".svg", ".agn", ".trf")
# English the site shows from outside the catalogues (the pure pairing package's).
OUTSIDE_CATALOGUE = sorted({*pairing.RULES_VERSIONS.values(), *pairing.SYSTEM_VERSIONS.values()})
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")


def catalogue(language: str) -> list[str]:
    """Every msgid (singular and plural) of the project's and apps' catalogues that has
    a translation in `language` other than itself."""
    found: set[str] = set()
    for po in ROOT.glob(f"*/{language}/LC_MESSAGES/*.po"):
        found |= _translated(po)
    for po in ROOT.glob(f"*/locale/{language}/LC_MESSAGES/*.po"):
        found |= _translated(po)
    return sorted(found)


def _translated(po: Path) -> set[str]:
    with po.open("rb") as file:
        messages = read_po(file)
    out = set()
    for message in messages:
        if not message.id or message.fuzzy:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in ids:
            if any(strings) and msgid not in strings and _worth_checking(msgid):
                out.add(msgid)
    return out


def _worth_checking(msgid: str) -> bool:
    """Single short words ("OK", "Bye", "W") and bare placeholders prove nothing."""
    words = re.findall(r"[^\W\d_]+", PLACEHOLDER.sub(" ", msgid))
    return bool(words) and (len(words) > 1 or len(words[0]) >= 4)


def as_pattern(msgid: str) -> re.Pattern[str]:
    """The msgid as it appears in a page: placeholders filled by anything, any run of
    whitespace, whole words at the ends."""
    parts = []
    for index, piece in enumerate(PLACEHOLDER.split(msgid)):
        if index:
            parts.append(r".{1,80}?")
        parts.append(r"\s+".join(re.escape(word) for word in piece.split(" ")))
    body = "".join(parts).strip()
    start = r"(?<!\w)" if re.match(r"\w", msgid) else ""
    end = r"(?!\w)" if re.search(r"\w$", msgid) else ""
    return re.compile(start + body + end)


class VisibleText(HTMLParser):
    """The text a reader sees: text outside scripts and styles, and the words of
    buttons, placeholders, titles and alternatives."""

    HIDDEN = {"script", "style", "template", "noscript"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.hidden = 0
        self.title = ""
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        self.in_title = tag == "title"
        values = dict(attrs)
        for name in ("placeholder", "title", "alt", "aria-label"):
            if values.get(name):
                self.chunks.append(f" ¦ {values[name]} ¦ ")
        if tag == "input" and values.get("type") in {"submit", "button"} and values.get("value"):
            self.chunks.append(f" ¦ {values['value']} ¦ ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1
        if tag == "title":
            self.in_title = False

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data
        if not self.hidden:
            self.chunks.append(data)

    def text(self) -> str:
        return " ".join(self.chunks)


def page_routes() -> Iterator[tuple[str, URLPattern]]:
    """(prefix, pattern) of every route in the page namespaces."""

    def walk(resolver: URLResolver, prefix: str, namespace: str | None) -> Iterator[Any]:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                yield from walk(entry, prefix + str(entry.pattern), entry.namespace or namespace)
            elif namespace in PAGE_NAMESPACES:
                yield prefix + str(entry.pattern), entry

    yield from walk(get_resolver(), "", None)


def fill(route: str, values: dict[str, list[str]]) -> list[str]:
    """Every path of `route` with its parameters filled from the world ([] if one has
    no value: a page the world has nothing for)."""
    paths = ["/" + route]
    for name in re.findall(r"<(?:\w+:)?(\w+)>", route):
        if name not in values:
            return []
        paths = [
            re.sub(rf"<(?:\w+:)?{name}>", value, path, count=1)
            for path in paths
            for value in values[name]
        ]
    return paths


def _reset_link(user: Any) -> str:
    """The link of the password-reset e-mail `user` would get."""
    return reverse(
        "web:password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )


@pytest.fixture
def world(db) -> dict[str, Any]:
    """Players, built-in bots, a finished and a running game, a round robin, a Swiss
    tournament, a knockout cup (all started), a Swiss starting, a league, an import, an
    invitation to an imported place, notifications."""
    ann = make_user("ann", organiser=True)
    players = [ann] + [make_user(name, rating=1600 - 10 * i) for i, name in enumerate("bcdef")]
    bots = bot_services.ensure_builtin_bots()
    with jobs_run_here():
        finished = game_services.start_game(white=ann, black=players[1])
        game_services.resign(game=finished, player=players[1])
        running = game_services.start_game(white=ann, black=bots[0])
        tournaments = [
            make_tournament(ann, players[:4], name="Spring robin", format="roundrobin"),
            make_tournament(ann, players, name="Summer swiss", format="swiss", rounds=3),
            make_tournament(ann, players[:4], name="Winter cup", format="knockout"),
        ]
        for tournament in tournaments:
            tournament_services.start_tournament(tournament=tournament, by=ann)
        open_one = make_tournament(ann, players[:2], name="Autumn swiss", format="swiss")
        league = leagues.create_league(organiser=ann, name="Premier", division_size=2)
        for user in players[:4]:
            leagues.join_league(league=league, user=user)
        leagues.start_league(league=league, by=ann)
        job = imports.create_job(owner=ann, text=distinct_games(2) + "\n[Result]\n", file_name="x")
    imports.run_job(job_id=job.pk)
    # Left waiting (their jobs are sent at a commit the test never makes): a challenge
    # to a bot, a bot match, a tournament file; a second file is read, and refused.
    challenge = game_services.create_challenge(creator=players[2], opponent=bots[1].username)
    match = bot_services.create_bot_match(
        creator=ann, white=bots[0].username, black=bots[1].username, games=2, seconds_per_turn=1
    )
    waiting_file = trf_import.queue_import(organiser=ann, data=b"012 Waiting open\n")
    starting = make_tournament(ann, players[:2], name="Harvest swiss", format="swiss")
    tournament_services.request_start(tournament=starting, by=ann)
    # An invitation to a place (as a TRF import with match_users sends), not answered.
    seat = tournaments[1].participants.exclude(user=ann).first()
    SeatInvitation.objects.create(participant=seat, user=ann)
    refused_file = trf_import.queue_import(organiser=ann, data=b"zzz 12345\n")
    trf_import.run_import(import_id=refused_file.pk)
    for kind in Kind.values:
        notification_services.notify(user=ann, kind=kind, game=finished, params={"name": "b"})
    tournament_ids = [str(t.pk) for t in [*tournaments, open_one, starting]]
    return {
        "viewer": ann,
        "game_id": [str(finished.pk), str(running.pk)],
        "tournament_id": tournament_ids,
        "league_id": [str(league.pk)],
        "number": ["1"],
        "username": ["ann", "b", bots[0].username],
        "job_id": [str(job.pk)],
        "challenge_id": [str(challenge.pk)],
        "match_id": [str(match.pk)],
        "import_id": [str(waiting_file.pk), str(refused_file.pk)],
        "token": [notification_services.unsubscribe_token(ann).split("/")[-1]],
    }


@pytest.mark.parametrize("language", ["ru", "eo"])
@pytest.mark.parametrize("signed_in", [True, False], ids=["member", "visitor"])
def test_every_page_shows_no_english_of_the_catalogue(client, world, language, signed_in, settings):
    if signed_in:
        Profile.objects.filter(user=world["viewer"]).update(language=language)
        client.force_login(world["viewer"])
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    patterns = [(msgid, as_pattern(msgid)) for msgid in catalogue(language)]
    patterns += [(english, as_pattern(english)) for english in OUTSIDE_CATALOGUE]
    assert len(patterns) > 400
    untranslated: dict[str, list[str]] = {}
    titles: dict[str, str] = {}
    seen = 0
    paths = [
        path
        for route, _ in page_routes()
        if not route.endswith(NOT_PAGES)
        for path in fill(route, world)
    ]
    # Beyond the routes: the password-reset link of an e-mail (a real one: its page is the
    # new-password form), and the 500 page of a view that fails (DEBUG off, as in tests).
    reset = _reset_link(world["viewer"])
    settings.ROOT_URLCONF = "web.tests.failing_urls"
    client.raise_request_exception = False
    for path in [*paths, "/no-such-page/", reset, "/" + FAILING_PATH]:
        answer = client.get(path, HTTP_ACCEPT_LANGUAGE=language, follow=path == reset)
        if path == reset:
            assert answer.status_code == 200 and "new_password1" in answer.content.decode()
        if path.endswith(FAILING_PATH):
            assert answer.status_code == 500
        elif answer.status_code not in (200, 404) or "text/html" not in answer["Content-Type"]:
            continue  # a redirect, a POST-only action
        seen += 1
        parser = VisibleText()
        parser.feed(answer.content.decode())
        titles[path] = parser.title
        text = parser.text()
        text = re.sub(r"\[\w+[^\]]*\]", " ", text)  # .agn tag pairs a report quotes: notation
        for msgid, pattern in patterns:
            if pattern.search(text):
                untranslated.setdefault(path, []).append(msgid)
    assert seen > 30
    assert untranslated == {}, "\n".join(f"{path}: {found}" for path, found in untranslated.items())
    assert [path for path, title in titles.items() if title.count("Adaptoid") > 1] == []
