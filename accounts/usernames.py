"""Which usernames can be registered: one per person, never one that passes for another.

* Unique whatever the case, in the database itself (accounts migration 0002: a unique
  index on lower(username)), so two concurrent sign-ups of ``raceuser``/``RACEUSER``
  cannot both succeed.
* Already in Unicode NFKC form: ``ａｌｉｃｅ`` (fullwidth) or ``paſs`` would pass for
  ``alice`` and ``pass``.
* Written in one script: ``аlice`` with a Cyrillic ``а`` is refused (Unicode's
  confusables data, via confusable_homoglyphs); ``дмитрий`` or ``alice`` are fine.
* No ``@``: ``name@imported`` is the namespace of players named in imported games.
"""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs import confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core.text import hidden_characters

IMPORTED_SUFFIX = "@imported"


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
