"""Which usernames can be registered: one per person, never one that passes for another.

* Unique whatever the case, in the database itself (accounts migration 0002: a unique
  index on lower(username)), so two concurrent sign-ups of ``raceuser``/``RACEUSER``
  cannot both succeed.
* Already in Unicode NFKC form: ``ａｌｉｃｅ`` (fullwidth) or ``paſs`` would pass for
  ``alice`` and ``pass``.
* Written in one script: ``аlice`` with a Cyrillic ``а`` is refused (Unicode's
  confusables data, via confusable_homoglyphs); ``дмитрий`` or ``alice`` are fine.
* No ``@``: ``name@imported`` is the namespace of players named in imported games.
* Not like an existing one: ``rt0O``, ``rtOO`` beside ``rt00``; ``rt0l`` beside ``rt01``;
  ``rn`` beside ``m`` (one account per skeleton, accounts.models.UsernameSkeleton;
  accounts.services.register_account asks).  Imported names are exempt: their namespace
  may hold a registered account's very name already.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

import icu  # type: ignore[import-untyped]
from confusable_homoglyphs import confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core.text import hidden_characters

IMPORTED_SUFFIX = "@imported"


@functools.cache
def _spoof_checker() -> Any:
    # Configured once and only read: ICU's checker may then serve every thread.
    return icu.SpoofChecker()


def username_skeleton(username: str) -> str:
    """What `username` looks like: two names with one skeleton pass for each other.

    Unicode's skeleton (UTS #39, computed by ICU: ``0`` → ``O``, ``1``, ``I`` → ``l``,
    ``m`` → ``rn``, Cyrillic ``а`` → ``a``…), case folded (usernames are one account
    whatever the case: ``rt0o`` looks like ``RT00``), the skeleton again (case folding can
    make a letter that has one), and ``vv`` → ``w``, which Unicode's data leaves out.

    >>> username_skeleton("rt0O") == username_skeleton("rt00")
    True
    >>> username_skeleton("m")
    'rn'
    """
    checker = _spoof_checker()
    folded = checker.getSkeleton(0, username).casefold()
    return str(checker.getSkeleton(0, folded)).replace("vv", "w")


def validate_username(username: str) -> None:
    """Raise ValidationError (with every reason) unless `username` may be registered."""
    problems = []
    hidden = hidden_characters(username)
    if hidden:
        problems.append(
            _("The username contains invisible characters (%(codes)s).")
            % {"codes": ", ".join(hidden)}
        )
    if unicodedata.normalize("NFKC", username) != username:
        problems.append(
            _("Write the username with ordinary characters (%(plain)s, not %(given)s).")
            % {"plain": unicodedata.normalize("NFKC", username), "given": username}
        )
    if "@" in username:
        problems.append(_("A username cannot contain @ (reserved for imported players)."))
    if confusables.is_mixed_script(username) and confusables.is_dangerous(username):
        problems.append(
            _("The username mixes alphabets with look-alike letters: use one alphabet.")
        )
    if problems:
        raise ValidationError(problems)
