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
