"""The Content-Security-Policy: on every page, and no page of ours needs an inline script."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# A <script> that runs code written in the page: no src=, and not a JSON data block.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.IGNORECASE)


def test_no_template_of_ours_has_an_inline_script() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in ROOT.glob("**/templates/**/*.html")
        if ".venv" not in path.parts
        for match in INLINE_SCRIPT.finditer(path.read_text())
    ]
    assert found == []


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/rules/", "/accounts/login/", "/archive/", "/tournaments/"])
def test_pages_are_served_with_a_policy_that_forbids_inline_scripts(client, path: str) -> None:
    policy = client.get(path)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_json_answers_carry_the_fixed_data_policy_and_pages_the_sites(client) -> None:
    from core.middleware import JSON_POLICY

    answer = client.get("/api/v1/games")
    assert answer["Content-Type"].startswith("application/json")
    assert (
        answer["Content-Security-Policy"]
        == JSON_POLICY
        == ("default-src 'none'; frame-ancestors 'none'")
    )
    # The schema's HTML viewers and every page keep the site's policy.
    page = client.get("/rules/")
    assert page["Content-Security-Policy"] != JSON_POLICY
    assert "script-src 'self'" in page["Content-Security-Policy"]
