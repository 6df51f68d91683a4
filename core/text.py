"""Text that people show to other people: names of players, tournaments, imported players.

Invisible and direction-changing characters (Unicode "format" and control characters:
bidi overrides such as U+202E, zero-width spaces and joiners, NUL…) would let a name
hide or reorder what others read; they are refused where a person types the name and
stripped where a file supplies it (imports).
"""

from __future__ import annotations

import unicodedata

# Cc control, Cf format (bidi controls, zero-width characters), Cs surrogates, Co private
# use, Cn unassigned; Zl/Zp line and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def hidden_characters(text: str) -> list[str]:
    """The characters of `text` a reader would not see as written, as U+XXXX codes."""
    return [
        f"U+{ord(char):04X}" for char in text if unicodedata.category(char) in _HIDDEN_CATEGORIES
    ]


def strip_hidden(text: str) -> str:
    """`text` without its hidden characters (for names that come from files)."""
    return "".join(c for c in text if unicodedata.category(c) not in _HIDDEN_CATEGORIES)
