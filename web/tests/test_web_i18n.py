"""Translations: complete .po files, and pages that really come out in each language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from accounts.models import Profile
from games import services

LOCALE = Path(__file__).resolve().parents[2] / "locale"


def entries(po: Path) -> list[tuple[str, list[str], bool]]:
    """(msgid, msgstrs, fuzzy) of each entry but the header."""
    out = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        msgid = "".join(
            re.findall(
                r'"(.*)"',
                block.split("msgid ", 1)[-1].split("\nmsgstr", 1)[0].split("\nmsgid_plural", 1)[0],
            )
        )
        strs = [
            "".join(re.findall(r'"(.*)"', part))
            for part in re.split(r"\nmsgstr(?:\[\d\])? ", block)[1:]
        ]
        if msgid:
            out.append((msgid, strs, "#, fuzzy" in block))
    return out


@pytest.mark.parametrize("language", ["ru", "eo"])
def test_every_message_is_translated(language) -> None:
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    found = entries(po)
    assert len(found) > 400
    untranslated = [msgid for msgid, strs, fuzzy in found if fuzzy or not all(strs)]
    assert untranslated == []


ENGLISH = ["Lobby", "Archive", "Sign up", "Your turn", "Position string", "Download"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ru", "eo"])
def test_pages_come_out_in_the_language(client, alice, bob, language) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    Profile.objects.filter(user=alice.user).update(language=language)  # restored at login
    client.force_login(alice.user)
    for url in (
        "/",
        "/lobby/",
        "/archive/",
        f"/games/{game.pk}/",
        "/analysis/",
        "/settings/",
        "/import/",
    ):
        html = client.get(url).content.decode()
        visible = re.sub(r"<[^>]+>", " ", html)
        for word in ENGLISH:
            assert not re.search(rf"\b{word}\b", visible), (url, word)
